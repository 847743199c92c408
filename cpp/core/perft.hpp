// Game-independent tree walks over a game (core/game_concept.hpp): perft.
#pragma once

#include <cassert>
#include <chrono>
#include <cstdint>

#include "core/game_concept.hpp"

namespace pe {

// Thrown out of a walk when its Interrupt says stop; the binding turns it into the Python error.
struct Interrupted {};

// Lets a long walk be cancelled: poll() runs about every kPollPeriod of wall time (the clock is
// read every kInterval nodes, so a slow build answers as fast as a fast one) and returns true to
// stop.
struct Interrupt {
  using Clock = std::chrono::steady_clock;
  static constexpr std::uint32_t kInterval = 1u << 12;
  static constexpr Clock::duration kPollPeriod = std::chrono::milliseconds(50);
  bool (*poll)(void* ctx) = nullptr;
  void* ctx = nullptr;
  std::uint32_t countdown = kInterval;
  Clock::time_point next_poll = Clock::now() + kPollPeriod;

  // Counts nodes (one by default); throws Interrupted when poll() asks to stop.
  void tick(std::uint32_t nodes = 1) {
    if (countdown > nodes) {
      countdown -= nodes;
      return;
    }
    countdown = kInterval;
    const Clock::time_point now = Clock::now();
    if (now < next_poll) return;
    next_poll = now + kPollPeriod;
    if (poll && poll(ctx)) throw Interrupted{};
  }
};

// Deepest perft accepted: keeps the recursion's stack bounded (a Geoffrey King can shuttle
// between empty columns forever, so depth alone does not bound the walk's length).
inline constexpr int kMaxPerftDepth = 500;

// perft(g, 2) by count_after(): the replies to each move counted without making it (debug
// builds check each against make, count_moves and unmake).
template <class G>
std::uint64_t count_two_plies_by_moves(G& g) {
  typename G::Move moves[G::kMaxMoves];
  const int n = g.generate(moves);
  std::uint64_t total = 0;
  for (int i = 0; i < n; ++i) {
    const int after = g.count_after(moves[i], n);
#ifndef NDEBUG
    const typename G::Undo undo = g.make(moves[i]);
    assert(after == g.count_moves());
    g.unmake(moves[i], undo);
#endif
    total += static_cast<std::uint64_t>(after);
  }
  return total;
}

// perft(g, 2): the game's own count_two_plies() when it has one, else count_after() per move.
template <class G>
std::uint64_t count_two_plies(G& g) {
  if constexpr (Has<G, CountTwoPlies>::value) {
    return g.count_two_plies();
  } else {
    return count_two_plies_by_moves(g);
  }
}

// count_two_plies(g), checked in debug builds against count_after() per move.
template <class G>
std::uint64_t count_two_plies_checked(G& g) {
  const std::uint64_t total = count_two_plies(g);
  assert(total == count_two_plies_by_moves(g));
  return total;
}

// perft(g, 3) by making each legal move and counting two plies after it; interrupt (may be
// null) is ticked once per move.
template <class G>
std::uint64_t count_three_plies_by_moves(G& g, Interrupt* interrupt) {
  typename G::Move moves[G::kMaxMoves];
  const int n = g.generate(moves);
  if (interrupt) interrupt->tick(static_cast<std::uint32_t>(n));
  std::uint64_t total = 0;
  for (int i = 0; i < n; ++i) {
    const typename G::Undo undo = g.make(moves[i]);
    total += count_two_plies_checked(g);
    g.unmake(moves[i], undo);
  }
  return total;
}

// Number of legal move sequences of length depth from g (docs/rules.md "Perft"); g is restored.
// bulk: count the last two plies without making their moves (count_moves(), count_two_plies()),
// and the game's count_three_plies() when it has one.
// kThreaded: the subtrees of a threaded perft walk their own instantiation (core/threaded.hpp says
// why they keep apart).
template <class G, bool kThreaded = false>
std::uint64_t perft(G& g, int depth, bool bulk, Interrupt& interrupt) {
  if (depth == 0) return 1;
  interrupt.tick();
  if (bulk && depth == 1) return static_cast<std::uint64_t>(g.count_moves());
  if (bulk && depth == 2) return count_two_plies_checked(g);
  // Most nodes are one ply above the bulk count, so they count their children without a call
  // per child: the game's count_three_plies() makes no move at all.
  if (bulk && depth == 3) {
    if constexpr (Has<G, CountThreePlies>::value) {
      const std::uint64_t total = g.count_three_plies();
      assert(total == count_three_plies_by_moves(g, nullptr));
      return total;
    } else {
      return count_three_plies_by_moves(g, &interrupt);
    }
  }
  typename G::Move moves[G::kMaxMoves];
  const int n = g.generate(moves);
  std::uint64_t total = 0;
  for (int i = 0; i < n; ++i) {
    const typename G::Undo undo = g.make(moves[i]);
    // A leaf counts here, without a call: most nodes are leaves, and whether the compiler inlines
    // the depth test into this loop depends on what else the module holds.
    total += depth == 1 ? 1 : perft<G, kThreaded>(g, depth - 1, bulk, interrupt);
    g.unmake(moves[i], undo);
  }
  return total;
}

}  // namespace pe
