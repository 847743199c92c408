// The generic solver: depth-first branch and bound with make/unmake and a bounded transposition
// table keyed by canonical_hash(), over the knowledge of one game in SolverRules<G>
// (docs/solver.md describes each game's rules and why they are safe).
//
// What a game and its SolverRules<G> (specialised in games/<game>/<game>_solver.hpp) provide is
// declared in core/game_concept.hpp; Solver<G> checks both first.
//
// Every game is solved as "maximise a value": a game that is won or lost scores 1 for a won
// position and 0 for any other dead end; one played for its score (SolverRules<G>::kScored:
// Germaine 2-Move) scores its docs/rules.md score. A search returns an upper bound on the best
// value reachable from a position, exact when it beats the best found so far (or the floor: while
// Germaine hunts for a win, values below a win); the table stores those upper bounds. "Lost" is
// therefore "the best value reachable is below a win", proven by a search that ran to the end.
//
// Every game is acyclic (core/game_concept.hpp; each game's solver header says why): Royal
// Marriage, Germaine and The Wish lose a card or a unit of slide allowance on every move, and once
// Geoffrey's bottom-King column swaps are left out (they do not change the canonical position; see
// SolverRules<Geoffrey>) a Geoffrey card that leaves the card under it never lies on that card
// again. So no position is its own descendant, and a position is stored
// only once its search is over: nothing on the current path is ever in the table, hence it can
// neither be evicted while in use nor be taken for a failure.
//
// Solver<G, true> is one thread of a solve on several (core/team.hpp, docs/solver.md "Threads"):
// the same search, whose table, best line and end it shares with the other threads.
#pragma once

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cstdint>
#include <iterator>
#include <limits>
#include <type_traits>
#include <vector>

#include "core/bits.hpp"
#include "core/game_concept.hpp"
#include "core/perft.hpp"
#include "core/team.hpp"
#include "core/trans_table.hpp"

namespace pe {

// make/unmake for rules that keep no state of their own: the position's own.
template <class G>
struct PlainMoves {
  static typename G::Undo make(G& g, const typename G::Move& m) { return g.make(m); }
  static void unmake(G& g, const typename G::Move& m, const typename G::Undo& u) { g.unmake(m, u); }
};

// Outcome of a solve: a winning line found, no line wins (proven), or a limit stopped it first.
enum class SolveStatus { kWon, kLost, kUnknown };

// The limits and switches of one solve.
struct SolveOptions {
  std::uint64_t node_limit = 0;  // positions expanded at most; 0: no limit
  double time_limit = 0;         // seconds, checked at the interrupt polls; 0: none
  std::size_t table_bytes = std::size_t{64} << 20;  // transposition table size; 0: no table
  bool pruning = true;                              // the games' pruning rules (SolverRules)
  // Called at the interrupt polls (about every Interrupt::kPollPeriod) with the positions expanded
  // so far and the score at the end of the best line found (-1: none yet); returns true to stop
  // the solve as the interrupt's poll does (it throws Interrupted). Null: none.
  bool (*progress)(void* ctx, std::uint64_t nodes, int best_score) = nullptr;
  void* progress_ctx = nullptr;
};

// What a solve found: the status, the line (winning, or to Germaine's best score), the score at
// the end of that line, the positions expanded, and whether the result is proven best.
template <class G>
struct SolveResult {
  SolveStatus status;
  std::vector<typename G::Move> line;
  int score;
  std::uint64_t nodes;
  bool proven;
};

// The result of a search from root whose best line (value best) is line: a dead end is no answer
// in the win-or-lose games, while Germaine keeps its best line. Proven when the search finished or
// reached target; lost when proven so, or when no_win, without a win.
template <class G>
SolveResult<G> search_result(const G& root, const std::vector<typename G::Move>& line, int best,
                             int target, bool finished, bool no_win, std::uint64_t nodes) {
  using Rules = SolverRules<G>;
  SolveResult<G> r;
  if (best >= Rules::kWinValue || Rules::kScored) r.line = line;
  G end = root;
  for (const auto& m : r.line) end.make(m);
  r.score = end.score();
  r.proven = finished || best >= target;
  r.status = end.is_won()         ? SolveStatus::kWon
             : no_win || r.proven ? SolveStatus::kLost
                                  : SolveStatus::kUnknown;
  r.nodes = nodes;
  return r;
}

// One solve of one position (kTeam: one thread's part of it); run() or settle() once.
template <class G, bool kTeam = false>
class Solver {
  static_assert(check_game<G>() && check_solver_rules<G>());

 public:
  using Move = typename G::Move;
  using Rules = SolverRules<G>;

  // Searches root under opt; interrupt is the caller's (Ctrl-C) poll, also used for time_limit.
  Solver(const G& root, const SolveOptions& opt, Interrupt& interrupt)
      : Solver(root, opt, interrupt, opt.table_bytes, opt.node_limit, Seat{}) {
    static_assert(!kTeam, "a team's thread is made with its team");
  }

  // Member `member` of team, searching root under opt (opt.progress, given to the member on the
  // calling thread alone, is called with the team's nodes) with a node limit of its own (0: none)
  // and team's table; interrupt is its thread's poll.
  Solver(const G& root, const SolveOptions& opt, Interrupt& interrupt, SolveTeam<G>& team,
         int member, std::uint64_t node_limit)
      : Solver(root, opt, interrupt, team.table, node_limit, Seat{&team, member}) {
    static_assert(kTeam, "a solve on one thread has no team");
  }

  // Runs the search and returns its result; throws Interrupted when the caller's poll asks to stop.
  SolveResult<G> run() {
    const bool finished = settle();
    return result(finished, no_win_);
  }

  // Whether this search proved that no line wins (also when a limit stopped it later).
  bool no_win() const { return no_win_; }
  // Positions expanded so far.
  std::uint64_t nodes() const { return nodes_; }

  // Runs the search; true when it ran to the end (or reached the target); throws Interrupted when
  // the caller's poll asks to stop.
  // A scored game with neither limit runs attempt() under node budgets of kFirstBudget, ten times
  // that, and so on, each counted from its own start, until one runs to the end: the narrowed
  // passes run only under a limit, and an unlimited search of every move can stay for hours in
  // the first subtree it enters, so at every moment the solve has found at least what a limited
  // solve finds with a tenth of its nodes. Each budget starts as such a solve does, with no line
  // found (the best of the budgets before is kept apart): a narrowed pass that finds a better
  // line than an earlier pass's best goes on to the best line within its share, as it does in a
  // limited solve. The table is kept from one budget to the next: its pass 0 bounds hold for
  // every search, and a narrowed pass's for the same pass, which searches the same tree again.
  // Otherwise attempt() runs once under the solve's limits.
  bool settle() {
    target_ = Rules::bound(rules_, g_, pruning_);
    if constexpr (Rules::kScored) {
      if (node_limit_ == kNoLimit && !timed_) {
        for (budget_ = kFirstBudget;; budget_ = budget_ > kNoLimit / 10 ? kNoLimit : budget_ * 10) {
          base_ = nodes_;
          if (best_ > kept_best_) {
            kept_best_ = best_;
            kept_line_.swap(best_line_);
          }
          best_ = kNoValue;
          best_line_.clear();
          if (attempt()) return true;
        }
      }
    }
    return attempt();
  }

  // The result so far: finished, the search ran to the end; no_win, it proved that no line wins.
  // Also what an interrupted search has found (finished and no_win false).
  SolveResult<G> result(bool finished, bool no_win) const {
    const bool kept = kept_best_ > best_;
    return search_result(root_, kept ? kept_line_ : best_line_, kept ? kept_best_ : best_, target_,
                         finished, no_win, nodes_);
  }

 private:
  // What a team's thread knows of its team; nothing on one thread.
  struct TeamSeat {
    SolveTeam<G>* team = nullptr;
    int member = 0;
  };
  struct NoSeat {};
  using Seat = std::conditional_t<kTeam, TeamSeat, NoSeat>;
  using Table = std::conditional_t<kTeam, SharedTable::Writer, TransTable>;

  // The constructors' work: table_source makes the table (bytes, or the team's shared table).
  template <class TableSource>
  Solver(const G& root, const SolveOptions& opt, Interrupt& interrupt, TableSource& table_source,
         std::uint64_t node_limit, Seat seat)
      : root_(root),
        g_(root),
        rules_(root),
        table_(table_source),
        outer_(interrupt),
        node_limit_(node_limit ? node_limit : kNoLimit),
        budget_(node_limit_),
        pruning_(opt.pruning),
        progress_(opt.progress),
        progress_ctx_(opt.progress_ctx),
        seat_(seat) {
    clock_.poll = &Solver::poll;
    clock_.ctx = this;
    timed_ = opt.time_limit > 0;
    start_ = Clock::now();
    // Capped at 1e9 s (about 31 years): a span past about 9e9 s overflows the clock's 64-bit
    // nanoseconds and would end the search at once (run_phase() divides before it multiplies).
    if (timed_)
      deadline_ = start_ + std::chrono::duration_cast<Clock::duration>(
                               std::chrono::duration<double>(std::min(opt.time_limit, 1e9)));
    best_line_.reserve(Rules::kMaxPly);
  }

 private:
  using Clock = std::chrono::steady_clock;

  // The hunt for a win alone: values that are no win are cut as if already found, so far fewer
  // lines are searched and a win (or the proof that none exists) comes much sooner. Under a node
  // or time limit it opens with narrowed passes (Rules::kPasses, 3/4 of the limits in equal
  // shares, until one finds a win): each searches only the first few moves of every position
  // (Rules::order() returns no more), each in an order of its own. A depth-first search never
  // gets back up its tree to mend an early mistake, and whether it wins rests on those early
  // choices; a narrowed pass tries the alternatives near the root within a few nodes, and another
  // order is another try. Their lines are real play, so the best one found stands, but their
  // bounds cover only the lines they searched (the table keeps them apart by pass) and no verdict
  // rests on them. The hunt over every move, in the game's own order, then runs up to 7/8 of the
  // limits. Sets finished when it settled everything, no_win_ when it proved no line wins.
  void hunt(bool& finished) {
    floor_ = Rules::kWinValue - 1;
    if (budget_ != kNoLimit || timed_) narrowed_passes();
    if (run_phase(7, 8)) {
      no_win_ = best() < Rules::kWinValue;
      finished = !no_win_;
      // The team's hunters stop hunting for a win (hunt_pointless()).
      if constexpr (kTeam)
        if (no_win_) seat_.team->note_no_win();
    }
    floor_ = -1;
  }

  // hunt()'s narrowed passes, until this search finds a win in this budget (a team member's passes
  // are tries of its own): pass i in the share 3 (i + 1) / (4 kPasses) of the limits; the game's
  // own order is back at the end.
  void narrowed_passes() {
    constexpr std::uint64_t kPasses = std::size(Rules::kPasses);
    static_assert(kPasses < 255, "a pass number fits the table's byte");
    // Every phase sets its order: one stopped by the clock starts rules_ afresh (search_to_end).
    for (std::uint64_t i = 0; i < kPasses && best_ < Rules::kWinValue && !hunt_pointless(); ++i) {
      const std::uint64_t p = nth_pass(i);
      pass_ = static_cast<std::uint8_t>(p + 1);
      rules_.use(Rules::kPasses[p]);
      run_phase(3 * (i + 1), 4 * kPasses);
    }
    pass_ = 0;
    rules_.use(Rules::kOrder);
  }

  // Whether this search is a team's hunter: with no limit, the last member of two or more runs
  // only the narrowed passes of each budget (until the team proves that no line wins), leaving the
  // searches of every move to the others (docs/solver.md "Threads": a try that finds a perfect
  // line is most often a budget's first narrowed passes, which a hunter reaches a budget sooner).
  // One hunter at most: with more threads than cores, hunters would take the cores of the members
  // that can prove a best score below the root's bound.
  bool hunter() const {
    if constexpr (kTeam)
      return seat_.member != 0 && seat_.member == seat_.team->members() - 1 &&
             node_limit_ == kNoLimit && !timed_ && !known_no_win();
    else
      return false;
  }

  // Whether this search or, in a team, any member proved that no line wins.
  bool known_no_win() const {
    if constexpr (kTeam)
      return no_win_ || seat_.team->no_win();
    else
      return no_win_;
  }

  // Whether this search is a hunter's passes after the team proved that no line wins.
  bool hunt_pointless() const {
    if constexpr (kTeam)
      return hunting_ && seat_.team->no_win();
    else
      return false;
  }

  // The search under budget_ (from base_) and the time limit: a scored game whose root could
  // still be won (and is not proven lost) first hunts for a win alone (hunt()); then, unless the
  // hunt settled everything (a search that ran to the end), the search for the best score goes
  // on from the root with the rest of the limits, the table's bounds (upper bounds whatever the
  // cut) kept. True when it ran to the end.
  // A hunter (hunter()) runs the narrowed passes alone, true when they reach the target.
  bool attempt() {
    bool finished = false;
    if constexpr (Rules::kScored) {
      if (target_ >= Rules::kWinValue && !known_no_win()) {
        if (hunter()) {
          floor_ = Rules::kWinValue - 1;
          hunting_ = true;
          narrowed_passes();
          hunting_ = false;
          floor_ = -1;
          return best() >= target_;
        }
        hunt(finished);
      }
    }
    return finished || run_phase(1, 1);
  }

  // Searches from the root until the share num / den of budget_ (counted from base_) and of the
  // time limit (counted from the solve's start) is spent (no node limit stays none); true when it
  // ran to the end (or reached the target), false when a limit stopped it. A share short of the
  // whole whose time is already up is skipped: the clock is read only every kPollPeriod, so it
  // would run that long. The last search always starts, so a limit however short still settles a
  // search that ends before the first clock read.
  bool run_phase(std::uint64_t num, std::uint64_t den) {
    limit_ = budget_ == kNoLimit
                 ? kNoLimit
                 : std::max(nodes_, base_ + (budget_ / den * num + budget_ % den * num / den));
    phase_deadline_ = start_ + (deadline_ - start_) / static_cast<std::int64_t>(den) *
                                   static_cast<std::int64_t>(num);
    if (timed_ && num < den && Clock::now() >= phase_deadline_) return false;
    return search_to_end();
  }

  // Searches from the root under limit_ and phase_deadline_; true when it ran to the end (or
  // reached the target), false when a limit stopped it.
  bool search_to_end() {
    stopped_ = phase_over_ = false;
    try {
      search(0);
    } catch (const Interrupted&) {
      if (!phase_over_) throw;
      stopped_ = true;
      // The throw skipped the unmakes on its way up: start the next search from the root again.
      g_ = root_;
      rules_ = Rules(root_);
    }
    return !stopped_;
  }

  // Interrupt::poll: true once the phase's deadline has passed or when the caller's poll says
  // stop; reports the progress first. A hunter's pass also ends (as at its deadline) once the team
  // has proved that no line wins.
  static bool poll(void* ctx) {
    Solver& s = *static_cast<Solver*>(ctx);
    if constexpr (kTeam) s.seat_.team->count(s.seat_.member, s.nodes_);
    if (s.progress_ && s.progress_(s.progress_ctx_, s.all_nodes(), s.best_score())) return true;
    if (s.hunt_pointless()) {
      s.phase_over_ = true;
      return true;
    }
    if (s.timed_) {
      const Clock::time_point now = Clock::now();
      if (now >= s.phase_deadline_) {
        // At the time limit itself the whole team ends: a member the system schedules late (more
        // threads than cores) would otherwise run on until its own next clock read.
        if constexpr (kTeam)
          if (now >= s.deadline_) s.seat_.team->time_up();
        s.phase_over_ = true;
        return true;
      }
    }
    return s.outer_.poll && s.outer_.poll(s.outer_.ctx);
  }

  // The score at the end of the best line found (a team's: by any member), -1 when none
  // (win-or-lose games: no win yet).
  int best_score() const {
    if (std::max(best(), kept_best_) < (Rules::kScored ? 0 : Rules::kWinValue)) return -1;
    if constexpr (kTeam) {
      return seat_.team->score();
    } else {
      return result(false, false).score;
    }
  }

  // The positions expanded so far (a team's: by every member).
  std::uint64_t all_nodes() const {
    if constexpr (kTeam)
      return seat_.team->nodes(seat_.member, nodes_);
    else
      return nodes_;
  }

  // The best value found: this search's (a team's: any member's, from any budget).
  int best() const {
    if constexpr (kTeam)
      return std::max(best_, seat_.team->best());
    else
      return best_;
  }

  // The narrowed pass (from 0) that this search runs i-th: pass i on one thread. Member m of a
  // team of T takes the passes p with p = m + 1 (mod T) first, in order, then those with
  // p = m + 2, and so on: the members' first passes are the first ten between them, so the team
  // reaches the k-th pass after about k / T passes of its own, and each member then goes on where
  // another left a pass (its bounds are the pass's, whichever member stored them). Pass 0, which
  // found most traced deals' perfect lines (docs/solver.md "Threads"), goes to a hunter, member
  // T - 1 (hunter()).
  std::uint64_t nth_pass(std::uint64_t i) const {
    if constexpr (kTeam) {
      const auto members = static_cast<std::uint64_t>(seat_.team->members());
      const auto member = static_cast<std::uint64_t>(seat_.member + 1);
      for (std::uint64_t shift = 0;; ++shift)
        for (std::uint64_t p = (member + shift) % members; p < std::size(Rules::kPasses);
             p += members)
          if (i-- == 0) return p;
    } else {
      return i;
    }
  }

  // A team's members other than the first take the moves of a search of every move near the root
  // in orders of their own (Lazy SMP's diversity): member m starts at the move m places down,
  // at the first kDiversePlies plies, so that the members split the tree there, and keep the
  // game's order below. Its bounds hold whatever the order, as every move is searched; a
  // narrowed pass keeps its order, which picks the moves it searches.
  void diversify(Move* moves, int n, int ply) const {
    if (seat_.member == 0 || pass_ != 0 || ply >= kDiversePlies || n < 2) return;
    std::rotate(moves, moves + seat_.member % n, moves + n);
  }
  static constexpr int kDiversePlies = 1;

  // A value reached at the end of the path of length ply; kept with its line when it is the best
  // (a team's member offers it to the team, which keeps the best line).
  int reach(int ply, int value) {
    if (value > best_) {
      best_ = value;
      if constexpr (kTeam)
        seat_.team->offer(value, path_, ply);
      else
        best_line_.assign(path_, path_ + ply);
    }
    return value;
  }

  // Upper bound on the best value reachable from g_, exact when above the best found on entry;
  // ply is the length of the path to g_. Returns early (no store) once stopped_ or the target.
  int search(int ply) {
    if constexpr (kTeam)
      return team_search(ply);
    else
      return search_here(ply);
  }

  // A team member's search(), every call in it inlined. The threaded calls are compiled outside
  // the link-time optimisation (core/threaded.hpp): an out-of-line copy there of a function they
  // share with the one-thread search (the rules' order(), sort_moves()) is one the linker may keep
  // for both, and the one-thread search then calls it rather than inlining it (Germaine's position
  // cost 7% more instructions). Inlined here, no such copy is made.
  PE_FLATTEN int team_search(int ply) { return search_here(ply); }

  // search()'s body.
  PE_ALWAYS_INLINE int search_here(int ply) {
    if (Rules::goal(g_)) return reach(ply, Rules::value(g_));
    // Values up to cut are not worth a search: one as good is found, or the hunt wants a win.
    const int cut = std::max(best(), floor_);
    const int bound = Rules::bound(rules_, g_, pruning_);
    if (bound <= cut) return bound;
    const std::uint64_t key = g_.canonical_hash();
    const int stored = table_.probe(key, pass_);
    if (stored >= 0 && stored <= cut) return stored;
    if (nodes_ == limit_) {
      stopped_ = true;
      return bound;
    }
    ++nodes_;
    if constexpr (kTeam) {
      if (seat_.team->over()) throw SolveOver{};
    }
    clock_.tick();
    Move moves[G::kMaxMoves];
    const int n = rules_.order(g_, moves, pruning_);
    if (n == 0) return reach(ply, Rules::value(g_));
    if constexpr (kTeam) diversify(moves, n, ply);
    // Most children are answered by the table: fetch their entries together, not one miss each.
    for (int i = 0; i < n; ++i) table_.prefetch(g_.child_canonical_hash(moves[i]));
    const std::uint64_t start = nodes_;
    int upper = 0;
    for (int i = 0; i < n; ++i) {
      assert(ply < Rules::kMaxPly);
      const auto undo = rules_.make(g_, moves[i]);
      path_[ply] = moves[i];
      upper = std::max(upper, search(ply + 1));
      rules_.unmake(g_, moves[i], undo);
      if (stopped_ || best() >= target_) return bound;
    }
    upper = std::min(upper, bound);
    table_.store(key, upper, nodes_ - start + 1, pass_);
    return upper;
  }

  const G root_;
  G g_;
  Rules rules_;
  Table table_;
  Interrupt& outer_;
  Interrupt clock_;
  Clock::time_point start_{};
  Clock::time_point deadline_{};        // the time limit
  Clock::time_point phase_deadline_{};  // the time limit of the search under way
  bool timed_ = false;
  bool phase_over_ = false;  // the phase's deadline passed, or hunt_pointless()
  bool hunting_ = false;     // a hunter's narrowed passes are under way
  static constexpr std::uint64_t kNoLimit = std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t node_limit_;
  // The node budget of attempt() under way (node_limit_, or kFirstBudget and up with no limit),
  // counted from base_ nodes.
  static constexpr std::uint64_t kFirstBudget = 100'000;
  std::uint64_t budget_;
  std::uint64_t base_ = 0;
  std::uint64_t limit_ = 0;  // node limit of the search under way
  int floor_ = -1;           // values up to floor_ are cut: kWinValue - 1 while hunting a win
  // The narrowed pass under way (Rules::kPasses[pass_ - 1]), 0: the search of every move; also
  // the table tag of the search.
  std::uint8_t pass_ = 0;
  const bool pruning_;
  bool (*const progress_)(void*, std::uint64_t, int);
  void* const progress_ctx_;
  bool stopped_ = false;
  bool no_win_ = false;  // proven: no line wins
  std::uint64_t nodes_ = 0;
  int target_ = 0;
  // Win-or-lose games start at 0: every line ends at a value of 0 or more, so a bound of 0
  // already ends a search. Scored games have found nothing yet.
  static constexpr int kNoValue = Rules::kScored ? -1 : 0;
  int best_ = kNoValue;
  Move path_[SolverRules<G>::kMaxPly];
  std::vector<Move> best_line_;
  // The best value and line of the budgets before the one under way (a solve with no limit).
  int kept_best_ = kNoValue;
  std::vector<Move> kept_line_;
  Seat seat_;
};

// Solves g (the objective of its game in docs/rules.md) under opt; throws Interrupted when
// interrupt says stop, after writing the best found so far to so_far when given.
template <class G>
SolveResult<G> solve(const G& g, const SolveOptions& opt, Interrupt& interrupt,
                     SolveResult<G>* so_far = nullptr) {
  Solver<G> solver(g, opt, interrupt);
  try {
    return solver.run();
  } catch (const Interrupted&) {
    if (so_far) *so_far = solver.result(false, false);
    throw;
  }
}

// Puts the min(n, want) moves of moves[0..n) with the highest priority first, in order, ties
// kept in generation order (deterministic), and returns how many: an insertion sort that drops
// what falls past the first want places, so a narrowed search keeps its few moves cheaply.
template <class Move>
int sort_moves(Move* moves, int* priority, int n, int want) {
  assert(want >= 1 || n == 0);
  int kept = 0;
  for (int i = 0; i < n; ++i) {
    const Move m = moves[i];
    const int p = priority[i];
    int j = kept;
    if (kept < want) {
      ++kept;
    } else if (p <= priority[kept - 1]) {
      continue;  // no better than the last kept, which came earlier
    } else {
      j = kept - 1;
    }
    for (; j > 0 && priority[j - 1] < p; --j) {
      moves[j] = moves[j - 1];
      priority[j] = priority[j - 1];
    }
    moves[j] = m;
    priority[j] = p;
  }
  return kept;
}

}  // namespace pe
