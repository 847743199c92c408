// The thread test program's checks of a solve on several threads (core/parallel.hpp
// solve_threaded(), core/team.hpp, SharedTable in core/trans_table.hpp), which the program calls
// once per game as check_solves<G>() (cpp/tests/threads_game.cpp.in, with the game's solver header
// included): a solve run to the end, one stopped by its node limit and one interrupted, each at
// kThreadCounts threads against one thread. Built with ThreadSanitizer, a data race among the
// threads is its report; a result that differs throws Failure, saying what.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/parallel.hpp"
#include "core/search.hpp"
#include "core/thread_pool.hpp"
#include "tests/threads_test.hpp"

namespace pe::threads_test {

// A table small enough that the threads store into clusters the others read and replace.
inline constexpr std::size_t kTableBytes = std::size_t{1} << 16;

// A deal to solve, and whether with the games' pruning rules.
struct Case {
  std::uint64_t deal;
  bool pruning;
};

// The options of a solve of c under limit nodes (0: none).
inline SolveOptions options(const Case& c, std::uint64_t limit) {
  SolveOptions opt;
  opt.node_limit = limit;
  opt.table_bytes = kTableBytes;
  opt.pruning = c.pruning;
  return opt;
}

// The first deal from 1 on (pruning on, else off: Royal Marriage's row analysis settles every deal
// in a few dozen nodes) whose solve on one thread runs to the end in 100 to most nodes: short under
// ThreadSanitizer, and long enough for every thread to search.
template <class G>
Case settled_case(std::uint64_t most) {
  for (const bool pruning : {true, false}) {
    for (std::uint64_t deal = 1; deal <= 200; ++deal) {
      Interrupt interrupt;
      const SolveResult<G> r = solve(G::deal(deal), options({deal, pruning}, most), interrupt);
      if (r.proven && r.nodes >= 100) return {deal, pruning};
    }
  }
  throw Failure(std::string(G::kName) + ": no deal of 1-200 is settled within 100 to " +
                std::to_string(most) + " nodes");
}

// The line's end from deal's start, each move legal on the way.
template <class G>
G replayed(std::uint64_t deal, const SolveResult<G>& r, const std::string& what) {
  G g = G::deal(deal);
  for (const auto& m : r.line) {
    typename G::Move moves[G::kMaxMoves];
    const int n = g.generate(moves);
    bool legal = false;
    for (int i = 0; i < n && !legal; ++i) legal = moves[i] == m;
    check(legal, what + ": its line plays an illegal move");
    g.make(m);
  }
  return g;
}

// Run to the end with no limit: the status and score of one thread, a won line that wins.
template <class G>
void check_to_the_end(const Case& c) {
  const SolveOptions opt = options(c, 0);
  Interrupt interrupt;
  const SolveResult<G> one = solve(G::deal(c.deal), opt, interrupt);
  for (const int threads : kThreadCounts) {
    const std::string what = std::string(G::kName) + " deal " + std::to_string(c.deal) + " at " +
                             std::to_string(threads) + " threads";
    ThreadPool pool(threads);
    const SolveResult<G> many = solve_threaded(G::deal(c.deal), opt, pool, interrupt);
    check(many.proven && many.status == one.status && many.score == one.score,
          what + ": not the status and score of one thread");
    const G end = replayed(c.deal, many, what);
    check(end.score() == many.score && end.is_won() == (many.status == SolveStatus::kWon),
          what + ": its line does not end as it says");
  }
}

// Under a node limit of a quarter of one thread's nodes to the end: every thread's nodes count, so
// a search the limit stops has expanded exactly the limit's nodes, and one the threads settle
// first has one thread's status and score; either way its line replays.
template <class G>
void check_node_limit(const Case& c) {
  Interrupt interrupt;
  const SolveResult<G> one = solve(G::deal(c.deal), options(c, 0), interrupt);
  const SolveOptions opt = options(c, one.nodes / 4);
  const std::uint64_t deal = c.deal;
  for (const int threads : kThreadCounts) {
    const std::string what = std::string(G::kName) + " deal " + std::to_string(deal) + " under " +
                             std::to_string(opt.node_limit) + " nodes at " +
                             std::to_string(threads) + " threads";
    ThreadPool pool(threads);
    const SolveResult<G> many = solve_threaded(G::deal(deal), opt, pool, interrupt);
    if (many.proven)
      check(many.status == one.status && many.score == one.score && many.nodes <= opt.node_limit,
            what + ": settled otherwise than on one thread");
    else
      check(many.status != SolveStatus::kLost && many.nodes == opt.node_limit,
            what + ": stopped with another count of nodes than the limit");
    check(replayed(deal, many, what).score() == many.score, what + ": its line does not score");
  }
}

// When check_interrupted() says stop: at the caller's first poll (Interrupt::kPollPeriod).
inline constexpr auto kInterruptAfter = std::chrono::milliseconds(50);
// How long a deal's solve on one thread must last to be tried interrupted on several.
inline constexpr auto kLasting = 4 * kInterruptAfter;
// The lasting deals tried: a team may still settle one before the interrupt (another thread's
// first moves may win at once), so a thread count passes when one of them is interrupted.
inline constexpr std::size_t kLastingDeals = 3;

// An Interrupt that says stop from `after` on (not copied: the Interrupt points at the deadline).
struct StopAfter {
  Deadline deadline;
  Interrupt interrupt;
  explicit StopAfter(std::chrono::milliseconds after)
      : deadline{std::chrono::steady_clock::now() + after} {
    interrupt.poll = Deadline::passed;
    interrupt.ctx = &deadline;
  }
  StopAfter(const StopAfter&) = delete;
  StopAfter& operator=(const StopAfter&) = delete;
};

// The options of a solve to interrupt: no limit, no pruning (the longer search).
inline SolveOptions unlimited() {
  SolveOptions opt;
  opt.table_bytes = kTableBytes;
  opt.pruning = false;
  return opt;
}

// A solve of deal with no limit and no pruning on pool, stopped by an Interrupt that says stop
// kInterruptAfter in: Interrupted is thrown within a second of it, with every thread stopped, and
// what the search had found, written to so_far, ends as it says. False when the team settled the
// deal first (its line checked too).
template <class G>
bool check_interrupted(std::uint64_t deal, ThreadPool& pool) {
  const std::string what = std::string(G::kName) + " deal " + std::to_string(deal) +
                           " interrupted at " + std::to_string(pool.threads()) + " threads";
  StopAfter stop(kInterruptAfter);
  SolveResult<G> so_far{SolveStatus::kLost, {}, -1, 0, true};
  try {
    const SolveResult<G> settled =
        solve_threaded(G::deal(deal), unlimited(), pool, stop.interrupt, &so_far);
    check(settled.proven && replayed(deal, settled, what).score() == settled.score,
          what + ": settled before the interrupt, but its line does not score");
    return false;
  } catch (const Interrupted&) {
  }
  check(std::chrono::steady_clock::now() - stop.deadline.at < std::chrono::seconds(1),
        what + ": the threads took a second or more to stop");
  // Unknown, or a win some thread found as the stop came, which settles the deal all the same.
  check(so_far.nodes > 0 && (so_far.status == SolveStatus::kWon || !so_far.proven),
        what + ": not what an interrupted search found");
  const G end = replayed(deal, so_far, what);
  check(end.score() == so_far.score && end.is_won() == (so_far.status == SolveStatus::kWon),
        what + ": its line does not end as it says");
  return true;
}

// The first kLastingDeals of deals 1-200 whose solve on one thread with no limit and no pruning
// lasts kLasting; fewer when fewer do (none of The Wish's: a game of 16 moves is searched in some
// hundred nodes, ending before the first poll).
template <class G>
std::vector<std::uint64_t> lasting_deals() {
  std::vector<std::uint64_t> deals;
  for (std::uint64_t deal = 1; deal <= 200 && deals.size() < kLastingDeals; ++deal) {
    StopAfter stop(kLasting);
    try {
      solve(G::deal(deal), unlimited(), stop.interrupt);
    } catch (const Interrupted&) {
      deals.push_back(deal);
    }
  }
  return deals;
}

// Every check of G: to the end and under a node limit on the first deal settled within 50,000
// nodes, and interrupted at each thread count on one of its lasting deals. Returns whether G has
// a lasting deal.
template <class G>
bool check_solves() {
  const Case c = settled_case<G>(50'000);
  check_to_the_end<G>(c);
  check_node_limit<G>(c);
  const std::vector<std::uint64_t> deals = lasting_deals<G>();
  if (deals.empty()) return false;
  for (const int threads : kThreadCounts) {
    ThreadPool pool(threads);
    bool interrupted = false;
    for (std::size_t i = 0; i < deals.size() && !interrupted; ++i)
      interrupted = check_interrupted<G>(deals[i], pool);
    check(interrupted, std::string(G::kName) + " at " + std::to_string(threads) +
                           " threads: every lasting deal was settled before the interrupt");
  }
  return true;
}

}  // namespace pe::threads_test
