// What the threads of one solve share (docs/solver.md "Threads"): the table, the best line any of
// them found, the end of the solve, and their node counts. Each thread runs a Solver<G, true>
// (core/search.hpp) over the same root; core/parallel.hpp's solve_threaded() starts them.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#include "core/game_concept.hpp"
#include "core/trans_table.hpp"

namespace pe {

// Thrown out of a team member's search when the solve is over for it: another member ended it.
struct SolveOver {};

// The shared state of one solve's threads (the members); each member's own search is its Solver.
template <class G>
class SolveTeam {
 public:
  using Move = typename G::Move;
  using Rules = SolverRules<G>;
  // The best value before any line is found: as Solver's.
  static constexpr int kNoValue = Rules::kScored ? -1 : 0;

  // A team of members threads solving root with a table of table_bytes (SharedTable; the calling
  // thread's memory, and it must destroy the team).
  SolveTeam(const G& root, std::size_t table_bytes, int members)
      : table(table_bytes), root_(root), nodes_(static_cast<std::size_t>(members)) {
    line_.reserve(Rules::kMaxPly);
  }

  int members() const { return static_cast<int>(nodes_.size()); }

  // The value of the best line any member found (kNoValue: none yet). Relaxed: a member that
  // reads an older value cuts less, never wrongly (every value here is a line's).
  int best() const { return best_.load(std::memory_order_relaxed); }

  // Takes the line path[0..ply) reaching value when it beats the best: the line of the best
  // value is always the one that reached it.
  void offer(int value, const Move* path, int ply) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (value <= best_.load(std::memory_order_relaxed)) return;
    line_.assign(path, path + ply);
    best_.store(value, std::memory_order_relaxed);
  }

  // True once the solve is over for every member: one ran to the end or reached the target, its
  // clock passed the time limit, or the caller stopped it. Members read it at every node, and
  // throw SolveOver.
  bool over() const { return over_.load(std::memory_order_relaxed); }
  // A member's search ran to the end (or reached the target); no_win: it proved no line wins.
  void settle(bool no_win) {
    if (no_win) no_win_.store(true, std::memory_order_relaxed);
    finished_.store(true, std::memory_order_relaxed);
    over_.store(true, std::memory_order_relaxed);
  }
  // A member's clock passed the time limit: every member stops, as a limit stops a solve.
  void time_up() { over_.store(true, std::memory_order_relaxed); }
  // A member proved that no line wins, its search going on for the best score.
  void note_no_win() { no_win_.store(true, std::memory_order_relaxed); }
  // The caller stopped the solve (Ctrl-C, the progress callback) through a member.
  void stop() {
    stopped_.store(true, std::memory_order_relaxed);
    over_.store(true, std::memory_order_relaxed);
  }
  bool stopped() const { return stopped_.load(std::memory_order_relaxed); }
  bool finished() const { return finished_.load(std::memory_order_relaxed); }
  bool no_win() const { return no_win_.load(std::memory_order_relaxed); }

  // Member m's nodes so far (it says so at its polls, and when it ends).
  void count(int m, std::uint64_t nodes) {
    nodes_[static_cast<std::size_t>(m)].n.store(nodes, std::memory_order_relaxed);
  }
  // The nodes of every member, m's being nodes (its own count, more recent than it said; m -1:
  // none).
  std::uint64_t nodes(int m = -1, std::uint64_t nodes = 0) const {
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < nodes_.size(); ++i)
      total += static_cast<int>(i) == m ? nodes : nodes_[i].n.load(std::memory_order_relaxed);
    return total;
  }

  // The best line (empty: none).
  std::vector<Move> line() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return line_;
  }
  // The score at the end of the best line (root's, with none).
  int score() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    G end = root_;
    for (const Move& m : line_) end.make(m);
    return end.score();
  }

  SharedTable table;

 private:
  // A count per cache line: every member writes its own.
  struct alignas(64) Count {
    std::atomic<std::uint64_t> n{0};
  };
  const G root_;
  std::atomic<int> best_{kNoValue};
  mutable std::mutex mutex_;
  std::vector<Move> line_;  // under mutex_: the line of best_
  std::atomic<bool> over_{false};
  std::atomic<bool> finished_{false};
  std::atomic<bool> no_win_{false};
  std::atomic<bool> stopped_{false};
  std::vector<Count> nodes_;
};

}  // namespace pe
