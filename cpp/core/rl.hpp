// Game-independent pieces of the reinforcement-learning interface (docs/rl.md): the card planes
// of an observation. A game G adds to the Game concept (core/bind_game.hpp):
//   kNumActions, kDefaultMaxMoves, kHasFaceDown, kObservationShape (std::array<int, N>),
//   static int action(const Move&) (-1: a move with no action), static Move move_of_action(int)
//     (a in 0 .. kNumActions - 1; throws ParseError "action A names no move: ..." for one that
//     names none), std::string to_text(bool hidden) const,
//   int generate_by_action(Move* out, StoredAction* actions) const (the legal moves in ascending
//     action order, docs/rl.md "Actions", with their actions; generate() keeps the order the
//     solver searches in, so the signature does not depend on the action encoding),
//   void observe(uint8_t* obs, bool hidden) const (obs zeroed by the caller),
//   void patch_observation(uint8_t* obs, const Move&, bool hidden) const (before make(): turns
//     this position's observation into the next one's), and when kHasFaceDown,
//     G determinize(uint64_t seed) const.
#pragma once

#include <cstddef>
#include <cstdint>

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

// An action as a buffer of legal actions stores it: every game's space fits in 16 bits.
using StoredAction = std::uint16_t;

}  // namespace pe
