// Walks spread over a ThreadPool (core/thread_pool.hpp): the stop of every thread when the caller's
// Interrupt says stop, perft split below the root, playouts, and a solve by a team of threads.
// Perft counts and playouts never depend on the number of threads: counts are sums, and each
// playout draws from a stream of its own; a team's solve gives the same verdict and best score at
// any number of threads when it runs to the end (docs/solver.md "Threads").
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>
#include <utility>
#include <vector>

#include "core/cards.hpp"
#include "core/perft.hpp"
#include "core/search.hpp"
#include "core/team.hpp"
#include "core/thread_pool.hpp"
#include "core/vector_game.hpp"

namespace pe {

// Runs task(k, interrupt) for k in 0 .. n-1 on pool (ThreadPool::run, or run_each when by_thread)
// with an Interrupt per thread, kept across its tasks so that it polls every kPollPeriod however
// short they are. The caller's thread polls outer (Python's signals), the others a flag that the
// caller sets when outer says stop (also while it waits for them), so every thread stops within
// about Interrupt::kPollPeriod; then Interrupted is thrown.
template <class Task>
void run_tasks(ThreadPool& pool, int n, bool by_thread, Interrupt& outer, Task&& task) {
  struct Stop {
    Interrupt* outer;
    std::atomic<bool> flag{false};
    // The caller's poll: outer's, passed on to the others.
    static bool caller(void* ctx) {
      auto* s = static_cast<Stop*>(ctx);
      if (s->outer->poll && s->outer->poll(s->outer->ctx)) s->flag.store(true);
      return s->flag.load();
    }
    static bool others(void* ctx) { return static_cast<Stop*>(ctx)->flag.load(); }
  } stop{&outer};
  // A cache line each: every tick writes its countdown.
  struct alignas(64) ThreadInterrupt {
    Interrupt interrupt;
  };
  std::vector<ThreadInterrupt> interrupts(static_cast<std::size_t>(pool.threads()));
  for (std::size_t t = 0; t < interrupts.size(); ++t) {
    interrupts[t].interrupt.ctx = &stop;
    interrupts[t].interrupt.poll = t == 0 ? Stop::caller : Stop::others;
  }
  const auto each = [&](int k, int t) {
    task(k, interrupts[static_cast<std::size_t>(t)].interrupt);
  };
  // Never throws: the workers may still be inside a task until they see the flag.
  const auto wait = [&] { Stop::caller(&stop); };
  if (by_thread)
    pool.run_each(n, each, wait);
  else
    pool.run(n, each, wait);
  if (stop.flag.load()) throw Interrupted{};
}

// Subtrees per thread a threaded perft aims for, so that threads stay busy to the end however
// uneven the subtrees (Germaine's and Geoffrey's are), and the plies a subtree keeps at least, so
// that each is worth a hand-off and keeps perft's bulk counting of its last plies.
inline constexpr std::size_t kPerftTasksPerThread = 64;
inline constexpr int kPerftTaskDepth = 4;

// Whether a perft of depth on threads threads is split: a shallower one is quicker on the calling
// thread than a pool is to start.
inline bool perft_splits(int threads, int depth) { return threads > 1 && depth > kPerftTaskDepth; }

// perft(g, depth, bulk) on pool's threads: the positions depth - r plies below g (r the depth the
// subtrees keep) are expanded breadth first until there are kPerftTasksPerThread per thread, then
// counted largest first (by the two-ply count below each), whichever thread is free taking the
// next. The count is the sum, the same at any number of threads. Falls back to the one-thread walk
// where a split is not worth it. g is restored.
template <class G>
std::uint64_t perft_threaded(G& g, int depth, bool bulk, ThreadPool& pool, Interrupt& interrupt) {
  if (!perft_splits(pool.threads(), depth)) return perft<G, true>(g, depth, bulk, interrupt);
  const std::size_t wanted = kPerftTasksPerThread * static_cast<std::size_t>(pool.threads());
  std::vector<G> frontier{g};
  int remaining = depth;
  while (frontier.size() < wanted && remaining > kPerftTaskDepth) {
    std::vector<G> next;
    typename G::Move moves[G::kMaxMoves];
    for (const G& p : frontier) {
      const int n = p.generate(moves);
      interrupt.tick(static_cast<std::uint32_t>(n));
      for (int i = 0; i < n; ++i) {
        next.push_back(p);
        next.back().make(moves[i]);
      }
    }
    frontier.swap(next);
    --remaining;
  }
  std::vector<std::pair<std::uint64_t, std::size_t>> order;  // (size estimate, subtree)
  order.reserve(frontier.size());
  for (std::size_t k = 0; k < frontier.size(); ++k)
    order.emplace_back(count_two_plies(frontier[k]), k);
  std::sort(order.begin(), order.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::uint64_t> counts(frontier.size());
  run_tasks(pool, static_cast<int>(order.size()), false, interrupt, [&](int k, Interrupt& in) {
    const std::size_t t = order[static_cast<std::size_t>(k)].second;
    // A copy of the thread's own: walked in place, neighbours in frontier would share cache lines
    // between threads at every make and unmake.
    G subtree = frontier[t];
    counts[t] = perft<G, true>(subtree, remaining, bulk, in);
  });
  std::uint64_t total = 0;
  for (const std::uint64_t c : counts) total += c;
  return total;
}

// Playouts handed out per task on a pool: enough tasks that threads finish together, few enough
// that a hand-out costs nothing beside the games.
inline constexpr std::int64_t kPlayoutTasksPerThread = 16;

// playouts() of n games on pool's threads: game k draws from stream_seed(seed, k) whichever thread
// plays it, so out is the same array at any number of threads.
template <class G>
void playouts_threaded(const G& start, std::int64_t n, std::uint64_t seed, int max_moves,
                       std::int32_t* out, ThreadPool& pool, Interrupt& interrupt) {
  const std::int64_t tasks = std::min<std::int64_t>(n, kPlayoutTasksPerThread * pool.threads());
  if (tasks <= 1) return playouts<G, true>(start, 0, n, seed, max_moves, out, interrupt);
  const std::int64_t size = (n + tasks - 1) / tasks;
  run_tasks(pool, static_cast<int>((n + size - 1) / size), false, interrupt,
            [&](int k, Interrupt& in) {
              const std::int64_t first = k * size;
              playouts<G, true>(start, first, std::min(size, n - first), seed, max_moves, out, in);
            });
}

// Member m's share of a node limit split over members threads (0: no limit): equal shares, the
// first members taking one more node each of the remainder, so that the shares add up to limit.
inline std::uint64_t node_share(std::uint64_t limit, int m, int members) {
  const auto n = static_cast<std::uint64_t>(members);
  return limit / n + (static_cast<std::uint64_t>(m) < limit % n ? 1 : 0);
}

// What team found: as Solver::result(), over the best line of every member and the nodes of all.
template <class G>
SolveResult<G> team_result(const SolveTeam<G>& team, const G& root, int target, bool finished,
                           bool no_win) {
  return search_result(root, team.line(), team.best(), target, finished, no_win, team.nodes());
}

// Solves g as solve() does, on pool's threads (docs/solver.md "Threads"): each thread runs the
// search of one thread from g as a member of one team (core/team.hpp), sharing its table and best
// line, but for the last member with no limit, which hunts (Solver::hunter()); a node limit is
// split between them (a limit below the thread count: a thread per node). The
// solve is over when a member's search runs to the end or reaches the target; when opt.progress or
// interrupt says stop (both called on the calling thread alone), every member stops and
// Interrupted is thrown, after the best found so far is written to so_far when given.
template <class G>
SolveResult<G> solve_threaded(const G& g, const SolveOptions& opt, ThreadPool& pool,
                              Interrupt& interrupt, SolveResult<G>* so_far = nullptr) {
  using Rules = SolverRules<G>;
  const int members = static_cast<int>(std::min<std::uint64_t>(
      static_cast<std::uint64_t>(pool.threads()),
      opt.node_limit ? opt.node_limit : static_cast<std::uint64_t>(kMaxThreads)));
  SolveTeam<G> team(g, opt.table_bytes, members);
  SolveOptions quiet = opt;
  quiet.progress = nullptr;  // progress is reported once, for the whole team
  // The member the calling thread runs reports the progress: the pool hands member 0 to the
  // caller, but a worker done early may take a member no thread has begun, member 0 too.
  const std::thread::id caller = std::this_thread::get_id();
  bool interrupted = false;
  try {
    run_tasks(pool, members, true, interrupt, [&](int m, Interrupt& in) {
      Solver<G, true> member(g, std::this_thread::get_id() == caller ? opt : quiet, in, team, m,
                             node_share(opt.node_limit, m, members));
      try {
        if (member.settle())
          team.settle(member.no_win());
        else if (member.no_win())
          team.note_no_win();
      } catch (const SolveOver&) {
        if (member.no_win()) team.note_no_win();
      } catch (...) {
        // Interrupted (the caller's poll or opt.progress said stop through this member) or an
        // error: every member stops.
        team.stop();
        team.count(m, member.nodes());
        throw;
      }
      team.count(m, member.nodes());
    });
  } catch (const Interrupted&) {
    interrupted = true;
  }
  const Rules rules(g);
  const int target = Rules::bound(rules, g, opt.pruning);
  if (interrupted || team.stopped()) {
    if (so_far) *so_far = team_result(team, g, target, false, false);
    throw Interrupted{};
  }
  return team_result(team, g, target, team.finished(), team.no_win());
}

}  // namespace pe
