// Solver: depth-first branch and bound with make/unmake and a bounded transposition table keyed
// by canonical_hash(), over per-game knowledge in SolverRules<G> (at the end of this file).
//
// Every game is solved as "maximise a value": Royal Marriage and Geoffrey score 1 for a won
// position and 0 for any other dead end; Germaine 2-Move scores its rules.md score. A search
// returns an upper bound on the best value reachable from a position, exact when it beats the
// best found so far (or the floor: while Germaine hunts for a win, values below a win); the table
// stores those upper bounds. "Lost" is therefore "the best value reachable is below a win",
// proven by a search that ran to the end.
//
// All three games are acyclic once Geoffrey's bottom-King column swaps are left out (they do not
// change the canonical position; see SolverRules<Geoffrey>): Royal Marriage and Germaine lose a
// card or a unit of slide allowance on every move, and a Geoffrey card that leaves the card under
// it never lies on that card again. So no position is its own descendant, and a position is stored
// only once its search is over: nothing on the current path is ever in the table, hence it can
// neither be evicted while in use nor be taken for a failure.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <memory>
#include <new>
#include <vector>

#include "geoffrey.hpp"
#include "germaine.hpp"
#include "royal_marriage.hpp"
#include "search.hpp"

namespace pe {

template <class G>
struct SolverRules;

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
  std::uint64_t node_limit = 0;                  // positions expanded at most; 0: no limit
  double time_limit = 0;                         // seconds, checked at the interrupt polls; 0: none
  std::size_t table_bytes = std::size_t{64} << 20;  // transposition table size; 0: no table
  bool pruning = true;                           // the games' pruning rules (SolverRules)
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

// Transposition table: clusters of four entries, an entry the full 64-bit canonical key, an
// upper bound on the position's value and the search pass that stored it. The full key is
// compared, so only two positions with the same 64-bit key (a Zobrist collision, odds about 2^-64
// per probe) could share a bound: that is the only way a stored bound could be wrong, and so the
// only risk to a "lost" verdict. A pass is numbered (Solver::pass_): pass 0 is the search of
// every move, whose bounds are the game's; a narrowed pass (Solver::hunt) bounds only the lines
// it searches (up to ties in the move order of mirror images, which share a key), so its entries
// serve that pass alone and count as empty slots for any other.
class TransTable {
 public:
  // A table of table_bytes rounded down to whole 64-byte clusters (less than one: no table).
  // The memory comes zeroed from calloc: a large block is mapped from the OS as untouched zero
  // pages, so a short search pays only for the pages it uses, not for clearing the whole table.
  // Throws std::bad_alloc when the memory cannot be had.
  explicit TransTable(std::size_t table_bytes) : count_(table_bytes / sizeof(Cluster)) {
    if (!count_) return;
    memory_.reset(std::calloc(count_ + 1, sizeof(Cluster)));  // one spare for the alignment
    if (!memory_) throw std::bad_alloc();
    const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(memory_.get());
    clusters_ = reinterpret_cast<Cluster*>((at + alignof(Cluster) - 1) & ~std::uintptr_t{alignof(Cluster) - 1});
  }

  // The upper bound that search pass `pass` stored for key, or -1 when the table holds none.
  int probe(std::uint64_t key, std::uint8_t pass) const {
    if (!count_) return -1;
    for (const Entry& e : clusters_[index(key)].entries)
      if (e.effort && e.pass == pass && e.key == key) return e.bound;
    return -1;
  }

  // Stores pass's bound for key, tightening pass's entry for key; otherwise it takes an empty
  // slot (or one of another pass) or evicts the entry whose search cost the fewest nodes (first
  // such slot): deterministic, and it keeps the results that are dearest to recompute.
  void store(std::uint64_t key, int bound, std::uint64_t effort, std::uint8_t pass) {
    if (!count_) return;
    Entry* entries = clusters_[index(key)].entries;
    Entry* victim = entries;
    std::uint32_t least = std::numeric_limits<std::uint32_t>::max();
    for (int i = 0; i < kWays; ++i) {
      Entry& e = entries[i];
      const std::uint32_t kept = e.pass == pass ? e.effort : 0;
      if (kept && e.key == key) {
        e.bound = static_cast<std::uint8_t>(std::min<int>(e.bound, bound));
        e.effort = std::max(e.effort, saturate(effort));
        return;
      }
      if (kept < least) {
        least = kept;
        victim = &e;
      }
    }
    *victim = Entry{key, saturate(effort), static_cast<std::uint8_t>(bound), pass};
  }

  static constexpr int kWays = 4;
  // effort 0 marks an empty slot; a stored search expanded at least one node.
  struct Entry {
    std::uint64_t key;
    std::uint32_t effort;
    std::uint8_t bound;
    std::uint8_t pass;
  };
  struct alignas(64) Cluster {
    Entry entries[kWays];
  };

  // Node counts past 2^32 - 1 all rank alike for replacement.
  static std::uint32_t saturate(std::uint64_t n) {
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(n, std::numeric_limits<std::uint32_t>::max()));
  }
  // Starts loading key's cluster into the cache, so that several probes' misses overlap.
  void prefetch(std::uint64_t key) const {
    if (count_) __builtin_prefetch(&clusters_[index(key)]);
  }

 private:
  // Cluster of a key: the high bits of key * clusters, uniform for any cluster count.
  std::size_t index(std::uint64_t key) const {
    return static_cast<std::size_t>((static_cast<unsigned __int128>(key) * count_) >> 64);
  }

  struct Free {
    void operator()(void* p) const { std::free(p); }
  };
  std::size_t count_;
  std::unique_ptr<void, Free> memory_;
  Cluster* clusters_ = nullptr;
};

// One solve of one position; run() once.
template <class G>
class Solver {
 public:
  using Move = typename G::Move;
  using Rules = SolverRules<G>;

  // Searches root under opt; interrupt is the caller's (Ctrl-C) poll, also used for time_limit.
  Solver(const G& root, const SolveOptions& opt, Interrupt& interrupt)
      : root_(root),
        g_(root),
        rules_(root),
        table_(opt.table_bytes),
        outer_(interrupt),
        node_limit_(opt.node_limit ? opt.node_limit : kNoLimit),
        pruning_(opt.pruning) {
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

  // Runs the search; throws Interrupted when the caller's poll asks to stop.
  // A scored game whose root could still be won first hunts for a win alone (hunt()); then,
  // unless the hunt settled everything (a search that ran to the end), the search for the best
  // score goes on from the root with the rest of the limits, the table's bounds (upper bounds
  // whatever the cut) kept.
  SolveResult<G> run() {
    target_ = Rules::bound(rules_, g_, pruning_);
    bool finished = false;
    bool no_win = false;  // proven: no line wins
    if constexpr (Rules::kScored) {
      if (target_ >= Rules::kWinValue) hunt(finished, no_win);
    }
    if (!finished) finished = run_phase(1, 1);
    return result(finished, no_win);
  }

  // The result so far: finished, the search ran to the end; no_win, it proved that no line wins.
  // Also what an interrupted search has found (finished and no_win false).
  SolveResult<G> result(bool finished, bool no_win) const {
    SolveResult<G> r;
    // A dead end is no answer in the win-or-lose games; Germaine keeps its best line.
    if (best_ >= Rules::kWinValue || Rules::kScored) r.line = best_line_;
    G end = root_;
    for (const Move& m : r.line) end.make(m);
    r.score = end.score();
    r.proven = finished || best_ >= target_;
    r.status = end.is_won()            ? SolveStatus::kWon
               : no_win || r.proven ? SolveStatus::kLost
                                    : SolveStatus::kUnknown;
    r.nodes = nodes_;
    return r;
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
  // limits. Sets finished when it settled everything, no_win when it proved no line wins.
  void hunt(bool& finished, bool& no_win) {
    constexpr std::uint64_t kPasses = std::size(Rules::kPasses);
    static_assert(kPasses < 255, "a pass number fits the table's byte");
    floor_ = Rules::kWinValue - 1;
    if (node_limit_ != kNoLimit || timed_) {
      // Every phase sets its order: one stopped by the clock starts rules_ afresh (search_to_end).
      for (std::uint64_t i = 0; i < kPasses && best_ < Rules::kWinValue; ++i) {
        pass_ = static_cast<std::uint8_t>(i + 1);
        rules_.use(Rules::kPasses[i]);
        run_phase(3 * (i + 1), 4 * kPasses);
      }
      pass_ = 0;
    }
    rules_.use(Rules::kOrder);
    if (run_phase(7, 8)) {
      no_win = best_ < Rules::kWinValue;
      finished = !no_win;
    }
    floor_ = -1;
  }

  // Searches from the root until the share num / den of the solve's node and time limits, counted
  // from its start, is spent (no node limit stays none); true when it ran to the end (or reached
  // the target), false when a limit stopped it. A share short of the whole whose time is already
  // up is skipped: the clock is read only every kPollPeriod, so it would run that long. The last
  // search always starts, so a limit however short still settles a search that ends before the
  // first clock read.
  bool run_phase(std::uint64_t num, std::uint64_t den) {
    limit_ = node_limit_ == kNoLimit
                 ? kNoLimit
                 : std::max(nodes_, node_limit_ / den * num + node_limit_ % den * num / den);
    phase_deadline_ =
        start_ + (deadline_ - start_) / static_cast<std::int64_t>(den) * static_cast<std::int64_t>(num);
    if (timed_ && num < den && Clock::now() >= phase_deadline_) return false;
    return search_to_end();
  }

  // Searches from the root under limit_ and phase_deadline_; true when it ran to the end (or
  // reached the target), false when a limit stopped it.
  bool search_to_end() {
    stopped_ = timed_out_ = false;
    try {
      search(0);
    } catch (const Interrupted&) {
      if (!timed_out_) throw;
      stopped_ = true;
      // The throw skipped the unmakes on its way up: start the next search from the root again.
      g_ = root_;
      rules_ = Rules(root_);
    }
    return !stopped_;
  }

  // Interrupt::poll: true once the phase's deadline has passed or when the caller's poll says stop.
  static bool poll(void* ctx) {
    Solver& s = *static_cast<Solver*>(ctx);
    if (s.timed_ && Clock::now() >= s.phase_deadline_) {
      s.timed_out_ = true;
      return true;
    }
    return s.outer_.poll && s.outer_.poll(s.outer_.ctx);
  }

  // A value reached at the end of the path of length ply; kept with its line when it is the best.
  int reach(int ply, int value) {
    if (value > best_) {
      best_ = value;
      best_line_.assign(path_, path_ + ply);
    }
    return value;
  }

  // Upper bound on the best value reachable from g_, exact when above the best found on entry;
  // ply is the length of the path to g_. Returns early (no store) once stopped_ or the target.
  int search(int ply) {
    if (Rules::goal(g_)) return reach(ply, Rules::value(g_));
    // Values up to cut are not worth a search: one as good is found, or the hunt wants a win.
    const int cut = std::max(best_, floor_);
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
    clock_.tick();
    Move moves[G::kMaxMoves];
    const int n = rules_.order(g_, moves, pruning_);
    if (n == 0) return reach(ply, Rules::value(g_));
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
      if (stopped_ || best_ >= target_) return bound;
    }
    upper = std::min(upper, bound);
    table_.store(key, upper, nodes_ - start + 1, pass_);
    return upper;
  }

  const G root_;
  G g_;
  Rules rules_;
  TransTable table_;
  Interrupt& outer_;
  Interrupt clock_;
  Clock::time_point start_{};
  Clock::time_point deadline_{};        // the time limit
  Clock::time_point phase_deadline_{};  // the time limit of the search under way
  bool timed_ = false;
  bool timed_out_ = false;
  static constexpr std::uint64_t kNoLimit = std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t node_limit_;
  std::uint64_t limit_ = 0;  // node limit of the search under way
  int floor_ = -1;           // values up to floor_ are cut: kWinValue - 1 while hunting a win
  // The narrowed pass under way (Rules::kPasses[pass_ - 1]), 0: the search of every move; also
  // the table tag of the search.
  std::uint8_t pass_ = 0;
  const bool pruning_;
  bool stopped_ = false;
  std::uint64_t nodes_ = 0;
  int target_ = 0;
  // Win-or-lose games start at 0: every line ends at a value of 0 or more, so a bound of 0
  // already ends a search. Scored games have found nothing yet.
  int best_ = Rules::kScored ? -1 : 0;
  Move path_[SolverRules<G>::kMaxPly];
  std::vector<Move> best_line_;
};

// Solves g (rules.md objective of its game) under opt; throws Interrupted when interrupt says stop,
// after writing the best found so far to so_far when given.
template <class G>
SolveResult<G> solve(const G& g, const SolveOptions& opt, Interrupt& interrupt, SolveResult<G>* so_far = nullptr) {
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

// Per-game knowledge. Each SolverRules<G> provides: kWinValue (values >= it are wins), kScored
// (the value is a score worth a line even without a win), kMaxPly (longest possible line),
// goal(g) (stop here: nothing better below), value(g) (value where the search stops),
// bound(rules, g, pruning) (upper bound on any value reachable from g), order(g, out, pruning)
// (the moves to search, best first), make/unmake (the game's, plus any state the rules track).
// The game itself gives child_canonical_hash(m), the key after a move, for the table prefetch.

// Which stretches of a Royal Marriage row can be cleared: W(l, r), for row positions l < r, says
// every card strictly between l and r can be removed while l and r stay.
// Claim: W(l, l + 1) holds; for r > l + 1, W(l, r) holds exactly when l and r match and either
// some m in (l, r) has W(l, m) and W(m, r) (m goes last, alone), or some m1 < m2 in (l, r) have
// W(l, m1), W(m1, m2) and W(m2, r) (m1 and m2 go last, together).
// Why: while l and r stay, a card between them only ever has neighbours in [l, r], so the stretch
// is a game of its own. Its last removal leaves l next to r, so it took the one or two cards left
// between them and needed l and r to match; those cards stayed until then, so each shorter stretch
// between them was cleared with its ends staying. Conversely, clearing those stretches one after
// another and then making that last removal is a legal line. QH and KH always stay, so the row is
// won from here exactly when W(0, n - 1): the question is settled in O(n^2) word operations,
// without a search.
class RowAnalysis {
 public:
  using G = RoyalMarriage;

  // Works out W for every stretch of g's row.
  explicit RowAnalysis(const G& g) : g_(g), n_(g.size()) {
    for (int i = 0; i < n_; ++i) {
      suit_[i] = static_cast<std::uint8_t>(suit_of(g.card(i)));
      rank_[i] = static_cast<std::uint8_t>(rank_of(g.card(i)));
      w_[i] = ends_[i] = one_[i] = 0;
    }
    for (int l = 0; l + 1 < n_; ++l) {
      w_[l] |= bit(l + 1);
      ends_[l + 1] |= bit(l);
    }
    for (int d = 2; d < n_; ++d)
      for (int l = 0; l + d < n_; ++l) {
        const int r = l + d;
        const std::uint64_t inside = between(l, r);
        const bool one = w_[l] & ends_[r] & inside;
        if (one) one_[l] |= bit(r);
        if (match(l, r) && (one || (one_[l] & ends_[r] & inside))) {
          w_[l] |= bit(r);
          ends_[r] |= bit(l);
        }
      }
  }

  // Whether some line from the position wins: W(0, n - 1).
  bool winnable() const { return n_ >= 2 && (w_[0] >> (n_ - 1) & 1); }

  // The first move of a winning line; winnable() holds and more than QH and KH are left.
  // Walks down the stretches of the claim to the leftmost one that is a single removal;
  // remove-twos are tried first (they shorten the row fastest).
  G::Move first_move() const {
    assert(winnable() && n_ > 2);
    int l = 0, r = n_ - 1;
    for (;;) {
      // Here W(l, r) holds and at least one card lies between l and r.
      const std::uint64_t inside = between(l, r);
      if (const std::uint64_t twos = one_[l] & ends_[r] & inside) {
        const int m2 = __builtin_ctzll(twos);
        const int m1 = __builtin_ctzll(w_[l] & ends_[m2] & between(l, m2));
        if (m1 > l + 1) {
          r = m1;
        } else if (m2 > m1 + 1) {
          l = m1;
          r = m2;
        } else if (r > m2 + 1) {
          l = m2;
        } else {
          return G::Move{g_.card(m1), g_.card(m2), static_cast<std::uint8_t>(m1)};
        }
        continue;
      }
      const int m = __builtin_ctzll(w_[l] & ends_[r] & inside);
      if (m > l + 1) {
        r = m;
      } else if (r > m + 1) {
        l = m;
      } else {
        return G::Move{g_.card(m), kNoCard, static_cast<std::uint8_t>(m)};
      }
    }
  }

 private:
  static std::uint64_t bit(int i) { return std::uint64_t{1} << i; }
  // Positions strictly between l and r.
  static std::uint64_t between(int l, int r) { return (bit(r) - 1) & ~(bit(l + 1) - 1); }
  // Same rank or same suit.
  bool match(int a, int b) const { return suit_[a] == suit_[b] || rank_[a] == rank_[b]; }

  const G& g_;
  int n_;
  std::uint8_t suit_[kDeck], rank_[kDeck];
  std::uint64_t w_[kDeck];     // bit r of w_[l]: W(l, r)
  std::uint64_t ends_[kDeck];  // bit l of ends_[r]: W(l, r)
  std::uint64_t one_[kDeck];   // bit r of one_[l]: the stretch (l, r) can be cut down to one card
};

// Royal Marriage: win or lose; the row is the whole state, so RowAnalysis settles it.
template <>
struct SolverRules<RoyalMarriage> : PlainMoves<RoyalMarriage> {
  using G = RoyalMarriage;
  static constexpr int kWinValue = 1;
  static constexpr bool kScored = false;
  static constexpr int kMaxPly = 50;  // each move removes a card; 50 can go

  explicit SolverRules(const G&) {}
  // Won: only QH and KH left.
  static bool goal(const G& g) { return g.is_won(); }
  // 1 for a win, 0 for a dead end.
  static int value(const G& g) { return g.is_won(); }
  // A win is the most there is. Pruning rule: 0 when RowAnalysis proves no line wins (its claim
  // is proved above), so the search stops there.
  static int bound(const SolverRules&, const G& g, bool pruning) {
    return pruning ? RowAnalysis(g).winnable() : 1;
  }
  // Pruning rule (pruning=true): the first move of a winning line that RowAnalysis finds, alone.
  // Safe: it is searched only when bound() found a win, and its child still has that line's
  // rest. Otherwise every move: remove-twos first (they shorten the row fastest), generation
  // order (left to right) within each kind.
  int order(const G& g, G::Move* out, bool pruning) const {
    if (pruning) {
      const RowAnalysis analysis(g);
      if (analysis.winnable()) {
        out[0] = analysis.first_move();
        return 1;
      }
    }
    const int n = g.generate(out);
    int priority[G::kMaxMoves];
    for (int i = 0; i < n; ++i) priority[i] = out[i].second != kNoCard;
    return sort_moves(out, priority, n, n);
  }
};

// Geoffrey: win or lose; forced foundation moves; canonical duplicates of a move skipped.
template <>
struct SolverRules<Geoffrey> : PlainMoves<Geoffrey> {
  using G = Geoffrey;
  static constexpr int kWinValue = 1;
  static constexpr bool kScored = false;
  // A card moves as a group's head at most three times: onto its successor (it never leaves it
  // again but to go home), as a King from on top of a card into an empty column (bottom-King
  // swaps are never searched), and home: 3 * 52.
  static constexpr int kMaxPly = 3 * kDeck;

  explicit SolverRules(const G&) {}
  // Won: all 52 cards home.
  static bool goal(const G& g) { return g.is_won(); }
  // 1 for a win, 0 for a dead end.
  static int value(const G& g) { return g.is_won(); }
  // A win is the most there is.
  static int bound(const SolverRules&, const G&, bool) { return 1; }

  // The moves to search, best first. Always, not a pruning rule: a move that leaves the canonical
  // key unchanged (a bottom King changing columns: only the column order moves) or gives the same
  // key as an earlier move (a King into one or another empty column) reaches a position already
  // searched or on the path, so it is left out; a real move changes the key by the XOR of two to
  // four distinct table entries, which is never zero but for a 64-bit collision.
  // Pruning rule (pruning=true): when a top card can go home, that move alone is searched.
  // Why it is safe: let P' be P after top card c (rank r) goes home, so its foundation stood at
  // r-1. Take any line L from P and play it from P' without the moves that c heads. Invariant:
  // P' is P with c taken out of the tableau (and home), with no more face-down cards than P.
  // Nothing is ever put on c (only its suit's r-1 could be, and that is home for good), so c
  // stays a top card in P and no move of L lands on it; a move of L headed by another card h
  // then finds h face up and the same destination top card (or an empty column) in P', moves
  // the same group less c, and keeps the invariant; c's suit takes no card until c goes home in
  // L. At the end of a winning L every card is home in P' too. So P wins whenever P' does.
  int order(G& g, G::Move* out, bool pruning) const {
    G::Move moves[G::kMaxMoves];
    const int n = g.generate(moves);
    if (pruning)
      for (int i = 0; i < n; ++i)
        if (moves[i].dst == G::kFoundation) {
          out[0] = moves[i];
          return 1;
        }
    const std::uint64_t parent = g.canonical_hash();
    std::uint64_t keys[G::kMaxMoves];
    int priority[G::kMaxMoves];
    int kept = 0;
    for (int i = 0; i < n; ++i) {
      const std::uint64_t key = g.child_canonical_hash(moves[i]);
      // Home moves first, then moves that turn a card up, then by the child's mobility.
      const int p = (moves[i].dst == G::kFoundation) * 256 + g.turns_card(moves[i]) * 128 +
                    g.count_after(moves[i], n);
      if (key == parent || std::find(keys, keys + kept, key) != keys + kept) continue;
      keys[kept] = key;
      priority[kept] = p;
      out[kept++] = moves[i];
    }
    return sort_moves(out, priority, kept, kept);
  }
};

namespace germaine_solver_detail {

using germaine_detail::Bitboard;

// Cells at most three steps from a cell of b, through any cells: three rounds of growing by one.
constexpr Bitboard dilate3(Bitboard b) {
  using namespace germaine_detail;
  for (int step = 0; step < 3; ++step) b |= left(b) | right(b) | up(b) | down(b);
  return b;
}

// kReach[cell] = dilate3 of that cell alone.
constexpr std::array<Bitboard, germaine_detail::kCells> make_reach() {
  std::array<Bitboard, germaine_detail::kCells> t{};
  for (int i = 0; i < germaine_detail::kCells; ++i) t[i] = dilate3(Bitboard{1} << i);
  return t;
}
inline constexpr auto kReach = make_reach();

// dilate3(b) by table: dilation distributes over union, and a rank has at most four cards.
inline Bitboard reach(Bitboard b) {
  Bitboard r = 0;
  for (; b; b &= b - 1) r |= kReach[germaine_detail::lsb(b)];
  return r;
}

// A position's cells of rank index k, as a function of k.
struct RankCells {
  const Germaine& g;
  // Cells of rank index k.
  Bitboard operator()(int k) const { return g.rank_cells(k); }
};
// Entry k of a per-rank table, as a function of k.
struct Table {
  const Bitboard* t;
  // Entry k.
  Bitboard operator()(int k) const { return t[k]; }
};

using germaine_detail::rank_above;
using germaine_detail::rank_below;

// kFromMiddle[cell]: columns between the cell and the middle column (g), 0 to 6.
constexpr std::array<int, germaine_detail::kCells> make_from_middle() {
  std::array<int, germaine_detail::kCells> t{};
  for (int i = 0; i < germaine_detail::kCells; ++i) {
    const int c = i % germaine_detail::kCols - germaine_detail::kCols / 2;
    t[i] = c < 0 ? -c : c;
  }
  return t;
}
inline constexpr auto kFromMiddle = make_from_middle();

// How far m brings the cards in towards the middle column, in columns: a combine takes the moving
// card's cell off the grid's occupied cells (the covered card's cell stays), a slide moves a card.
inline int inward(const Germaine::Move& m) {
  const int out = kFromMiddle[m.src];
  return m.kind == Germaine::Kind::kCombine ? out : out - kFromMiddle[m.dst];
}

}  // namespace germaine_solver_detail

// Germaine 2-Move: maximise the rules.md score. Tracks which ranks are still on the grid and, per
// rank, the cells within three steps of its cards (what partnered() counts with).
template <>
struct SolverRules<Germaine> {
  using G = Germaine;
  using Bitboard = G::Bitboard;
  // 52 minus one card left: a one-card finish scores 51 + its rank, two cards left at most 50.
  static constexpr int kWinValue = 52;
  static constexpr bool kScored = true;
  // Each combine removes one of 51 cards; at most two slides before each and at the start.
  static constexpr int kMaxPly = 2 + 3 * (kDeck - 1);
  static constexpr unsigned kAllRanks = (1u << 13) - 1;
  // Highest score: a King left alone.
  static constexpr int kPerfect = kDeck - 1 + 13;
  static constexpr int kRanks = germaine_detail::kRanks;
  // What order() returns: the weights of its inward() term (points per column) and of its style
  // term (combines first, a high card moved and a low card covered first), and how many moves
  // (0: every move).
  struct Order {
    int inward;
    int style;
    int breadth;
  };
  // The search of every move.
  static constexpr Order kOrder{4, 1, 0};
  // The hunt's narrowed passes (Solver::hunt), one each: the first 3 moves in orders of their
  // own. On deals 1-400 under 10^6 nodes these ten passes found 397 one-card finishes, five
  // passes in kOrder's order searching 2, 3, 4, 5 and 6 moves 361, and five to twenty passes in
  // mixed orders (searching 2 to 9 moves) 389-396.
  static constexpr Order kPasses[] = {{4, 1, 3}, {8, 1, 3}, {2, 1, 3}, {4, 0, 3}, {8, 0, 3},
                                      {6, 1, 3}, {3, 0, 3}, {12, 1, 3}, {1, 1, 3}, {16, 0, 3}};

  // Counts the cards of each rank on g's grid and works out each rank's reach.
  explicit SolverRules(const G& g) {
    for (int i = 0; i < G::kCells; ++i)
      if (g.cell(i) != kNoCard) add(g.cell(i));
    for (int k = 0; k < kRanks; ++k) reach_[k] = germaine_solver_detail::reach(g.rank_cells(k));
  }
  // One card left (or none, on a hand-made empty grid): the score cannot change any more.
  static bool goal(const G& g) { return g.cards_left() <= 1; }
  // The rules.md score.
  static int value(const G& g) { return g.score(); }

  // Upper bound on the final score (pruning=false: the perfect score). Pruning rule: a card of
  // rank r leaves the grid only when a card of rank r +- 1 (K-A neighbours) is put on it, and no
  // card ever comes back. Split the ranks on the grid into runs of neighbouring ranks on the
  // 13-cycle: a card of a run can only be covered by a card of the same run, and the last card
  // of a run stays, so at least one card per run is left at the end. With k >= 2 runs the score
  // is at most 52 - k; with one run, at most 51 + the highest rank on the grid (the last card is
  // one of the cards now showing; two or more left scores at most 50).
  static int bound(const SolverRules& r, const G& g, bool pruning) {
    if (goal(g)) return value(g);
    if (!pruning) return kPerfect;
    const unsigned ranks = r.present_;
    const unsigned below_set = ((ranks << 1) | (ranks >> 12)) & kAllRanks;
    const int runs = ranks == kAllRanks ? 1 : __builtin_popcount(ranks & ~below_set);
    if (runs >= 2) return kDeck - runs;
    return kDeck - 1 + (32 - __builtin_clz(ranks));
  }

  // The moves to search, best first: by the child's partnered() (most cards keeping a partner in
  // reach), then combines before slides, a high card moved and a low card covered first (they
  // keep high cards for the last one), and moves that bring the cards in towards the middle
  // column (inward(): at kOrder's four points a column, at most 24, it orders moves that keep as
  // many cards partnered; passes weighing it 12 or 16 can put it above a partnered card); ties
  // in generation order; only the first order_.breadth of them in a narrowed pass.
  // Keeping the cards together is what wins: a plain combines-first order strands cards one by
  // one and never gets back up the tree to undo it, and cards left at both ends of the rows are
  // many slides apart while slides come only two per combine. Clearing the grid from its ends in
  // towards the middle keeps the cards in one block: on deals 1-160 under 10^6 nodes it found
  // 150 one-card finishes, against 31 without the inward() term (both with five narrowed passes
  // in one order). Independent slides played in either order reach the same position, which the
  // table answers the second time. Children are worked out from g's bitboards, not played.
  // Pruning rule (pruning=true): a slide that spends the last unit of allowance and leaves no
  // combine is skipped. Why it is safe: its child has no legal move and the same cards as g, so
  // its value is 52 minus g's cards left (two or more: g is not a goal). Every line from g ends
  // with no more cards than g has (with one card, above 51), so the best value below g is at
  // least that much; when every move of g is skipped, g itself counts as the dead end
  // (search() scores a position with no move to search), with that same value.
  int order(G& g, G::Move* out, bool pruning) const {
    using namespace germaine_solver_detail;
    G::Move moves[G::kMaxMoves];
    const int n = g.generate(moves);
    // Each rank's share of partnered() of g, which a move changes for three or four ranks only.
    int counted[kRanks];
    int parent = 0;
    for (int k = 0; k < kRanks; ++k)
      parent += counted[k] = partnered(RankCells{g}, Table{reach_}, k, 1);
    const int combines = static_cast<int>(std::count_if(
        moves, moves + n, [](const G::Move& m) { return m.kind == G::Kind::kCombine; }));
    int priority[G::kMaxMoves];
    int kept = 0;
    for (int i = 0; i < n; ++i) {
      const G::Move m = moves[i];
      const bool combine = m.kind == G::Kind::kCombine;
      const bool skip = pruning && !combine && g.allowance() == 1 && g.combines_after(m, combines) == 0;
      const int partners = skip ? -1 : child_partnered(g, m, parent, counted);
      assert(agrees_with_play(g, m, pruning, skip, partners));
      if (skip) continue;
      const int style = combine ? 32 + 2 * rank_of(g.cell(m.src)) - rank_of(g.cell(m.dst)) : 0;
      priority[kept] = 64 * partners + order_.style * style + order_.inward * inward(m);
      out[kept++] = m;
    }
    return sort_moves(out, priority, kept, order_.breadth ? order_.breadth : kept);
  }

  // Sets what order() returns.
  void use(const Order& order) { order_ = order; }

  // Plays m, noting the card a combine covers and the reach of the ranks that moved.
  G::Undo make(G& g, const G::Move& m) {
    if (m.kind == G::Kind::kCombine) remove(g.cell(m.dst));
    const G::Undo u = g.make(m);
    update_reach(g, g.cell(m.dst), u.covered);
    return u;
  }
  // Takes m back, noting the uncovered card and the reach of the ranks that moved.
  void unmake(G& g, const G::Move& m, const G::Undo& u) {
    g.unmake(m, u);
    if (m.kind == G::Kind::kCombine) add(g.cell(m.dst));
    update_reach(g, g.cell(m.src), u.covered);
  }

 private:
  // Cards with a near-ranked card at most three steps away (cards in between not counted as
  // obstacles): pairs that two slides and a combine may still join. A heuristic for order(),
  // never a bound: allowance won by combines elsewhere can walk any card anywhere. Summed over
  // the ranks lo, lo + 1, ... (count of them, on the 13-cycle) with ranks(k) the cells of rank k
  // and reach(k) = dilate3(ranks(k)): near-ranked cards of k lie in reach(k - 1) | reach(k + 1).
  template <class Ranks, class Reach>
  static int partnered(Ranks ranks, Reach reach, int lo = 0, int count = kRanks) {
    using namespace germaine_solver_detail;
    int n = 0;
    for (int i = 0, k = lo; i < count; ++i, k = rank_above(k))
      n += germaine_detail::popcount(ranks(k) & (reach(rank_below(k)) | reach(rank_above(k))));
    return n;
  }

  // partnered() of g after m, from parent = partnered() of g and counted[k] = rank k's share of
  // it: only the moved card's rank a and a covered card's rank b change cells and reach, so only
  // the ranks within one of a or b count differently (a slide: a - 1 .. a + 1; a combine,
  // b = a +- 1: the four ranks around both).
  int child_partnered(const G& g, const G::Move& m, int parent, const int* counted) const {
    using namespace germaine_solver_detail;
    const int a = germaine_detail::kRankIndex[g.cell(m.src)];
    const Bitboard ranks_a = g.rank_cells(a) ^ (Bitboard{1} << m.src) ^ (Bitboard{1} << m.dst);
    const Bitboard reach_a = germaine_solver_detail::reach(ranks_a);
    int b = -1;
    Bitboard ranks_b = 0;
    Bitboard reach_b = 0;
    int lo = rank_below(a);
    int count = 3;
    if (m.kind == G::Kind::kCombine) {
      b = germaine_detail::kRankIndex[g.cell(m.dst)];
      ranks_b = g.rank_cells(b) ^ (Bitboard{1} << m.dst);
      reach_b = germaine_solver_detail::reach(ranks_b);
      lo = rank_below(b == rank_above(a) ? a : b);
      count = 4;
    }
    const auto child_ranks = [&](int k) {
      return k == a ? ranks_a : k == b ? ranks_b : g.rank_cells(k);
    };
    const auto child_reach = [&](int k) { return k == a ? reach_a : k == b ? reach_b : reach_[k]; };
    int before = 0;
    for (int i = 0, k = lo; i < count; ++i, k = rank_above(k)) before += counted[k];
    return parent + partnered(child_ranks, child_reach, lo, count) - before;
  }

  // Debug check of order()'s look-ahead against m played: the skip rule, the child's partnered()
  // (reach worked out afresh by dilate3) and its canonical key.
  static bool agrees_with_play(G& g, const G::Move& m, bool pruning, bool skip, int partners) {
    using namespace germaine_solver_detail;
    const std::uint64_t key = g.child_canonical_hash(m);
    const G::Undo u = g.make(m);
    const bool played_skip =
        pruning && m.kind == G::Kind::kSlide && g.allowance() == 0 && g.count_combines() == 0;
    const auto fresh_reach = [&g](int k) { return dilate3(g.rank_cells(k)); };
    const bool ok = skip == played_skip && key == g.canonical_hash() &&
                    (skip || partners == partnered(RankCells{g}, fresh_reach));
    g.unmake(m, u);
    return ok;
  }

  // Recomputes the reach of the moved card's rank and of a covered card's rank (kNoCard: none).
  void update_reach(const G& g, Card moved, Card covered) {
    const int a = germaine_detail::kRankIndex[moved];
    reach_[a] = germaine_solver_detail::reach(g.rank_cells(a));
    if (covered == kNoCard) return;
    const int b = germaine_detail::kRankIndex[covered];
    reach_[b] = germaine_solver_detail::reach(g.rank_cells(b));
  }
  void add(Card c) {
    const int k = rank_of(c) - 1;
    if (count_[k]++ == 0) present_ |= 1u << k;
  }
  void remove(Card c) {
    const int k = rank_of(c) - 1;
    if (--count_[k] == 0) present_ &= ~(1u << k);
  }

  int count_[kRanks] = {};
  unsigned present_ = 0;         // bit r-1: a card of rank r is on the grid
  Bitboard reach_[kRanks] = {};  // reach_[k] = dilate3(g.rank_cells(k)) of the position searched
  Order order_ = kOrder;
};

}  // namespace pe
