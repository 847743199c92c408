// Game-independent pieces of the reinforcement-learning interface (docs/rl.md): the card planes
// of an observation and the legal actions in ascending order. A game G adds to the Game concept
// (core/bind_game.hpp):
//   kNumActions, kDefaultMaxMoves, kHasFaceDown, kObservationShape (std::array<int, N>),
//   static int action(const Move&) (-1: a move with no action), static Move move_of_action(int)
//     (a in 0 .. kNumActions - 1; throws ParseError "action A names no move: ..." for one that
//     names none), std::string to_text(bool hidden) const,
//   void observe(uint8_t* obs, bool hidden) const (obs zeroed by the caller),
//   void patch_observation(uint8_t* obs, const Move&, bool hidden) const (before make(): turns
//     this position's observation into the next one's), and when kHasFaceDown,
//     G determinize(uint64_t seed) const.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/bits.hpp"
#include "core/cards.hpp"

namespace pe {

// Observation planes 0..12 are the rank one-hot, 13..16 the suit one-hot (docs/rl.md
// "Observations").
inline constexpr int kRankPlanes = 0;
inline constexpr int kSuitPlanes = 13;

// Sets (v = 1) or clears (v = 0) card c's two planes at flat index `at` of planes `stride` apart.
inline void put_card_planes(std::uint8_t* obs, int stride, int at, Card c, std::uint8_t v) {
  obs[(kRankPlanes + rank_of(c) - 1) * stride + at] = v;
  obs[(kSuitPlanes + suit_of(c)) * stride + at] = v;
}

// Number of entries of an observation.
template <class G>
constexpr int observation_size() {
  int size = 1;
  for (int d : G::kObservationShape) size *= d;
  return size;
}

// Sorts moves[0..n) by action, writing the actions to actions[0..n): generate() keeps the order
// its solver searches in, and docs/rl.md asks for ascending actions. Legal moves have distinct
// actions, so a bitset of the action space sorts them in O(n + kNumActions / 64), where an
// insertion sort of a Germaine position's few dozen moves costs several times as much.
template <class G, class Action>
void sort_by_action(typename G::Move* moves, Action* actions, int n) {
  constexpr int kWords = (G::kNumActions + 63) / 64;
  std::uint64_t bits[kWords] = {};
  std::uint8_t index_of[G::kNumActions];  // read only where bits is set
  typename G::Move given[G::kMaxMoves];
  for (int i = 0; i < n; ++i) {
    const int a = G::action(moves[i]);
    bits[a >> 6] |= std::uint64_t{1} << (a & 63);
    index_of[a] = static_cast<std::uint8_t>(i);
    given[i] = moves[i];
  }
  int k = 0;
  for (int w = 0; w < kWords; ++w)
    for (std::uint64_t b = bits[w]; b; b &= b - 1) {
      const int a = w * 64 + ctz(b);
      actions[k] = static_cast<Action>(a);
      moves[k++] = given[index_of[a]];
    }
}

// The legal moves of g in ascending action order, and their actions; returns how many.
template <class G, class Action>
int legal_in_action_order(const G& g, typename G::Move* moves, Action* actions) {
  const int n = g.generate(moves);
  sort_by_action<G>(moves, actions, n);
  return n;
}

}  // namespace pe
