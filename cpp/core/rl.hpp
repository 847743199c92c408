// Game-independent pieces of the reinforcement-learning interface (docs/rl.md): the card planes
// of an observation. A game G adds to the Game concept (core/bind_game.hpp):
//   kNumActions, kDefaultMaxMoves, kHasFaceDown, kObservationShape (std::array<int, N>),
//   static int action(const Move&) (-1: a move with no action), static Move move_of_action(int)
//     (a in 0 .. kNumActions - 1; throws ParseError "action A names no move: ..." for one that
//     names none), std::string to_text(bool hidden) const,
//   int legal_actions(StoredAction* out) const (the legal moves' actions, ascending, docs/rl.md
//     "Actions"; generate() keeps the order the solver searches in, so the signature does not
//     depend on the action encoding), Move move_at(int a) const (the legal move of a legal
//     action a here, ready for make()),
//   optionally kActionWords, kActionsPerWord and void legal_action_words(uint64_t* words) const:
//     the legal actions as bits, action w * kActionsPerWord + b being bit b of word w (a batch
//     then patches its masks from the bits that changed and draws without listing),
//   optionally Move nth_legal_move(int r) const: the legal move of the r-th legal action, r below
//     count_moves(), found without listing them (playouts draw with it),
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

// An action as a buffer of legal actions stores it: every game's space fits in 16 bits.
using StoredAction = std::uint16_t;

// Writes the actions of the bits of words (as legal_action_words() sets them) to out, ascending;
// returns how many.
template <int kWords, int kPerWord>
int actions_of_words(const std::uint64_t* words, StoredAction* out) {
  int n = 0;
  for (int w = 0; w < kWords; ++w)
    for (std::uint64_t b = words[w]; b; b &= b - 1)
      out[n++] = static_cast<StoredAction>(w * kPerWord + ctz(b));
  return n;
}

}  // namespace pe
