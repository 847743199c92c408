// Game-independent pieces of the reinforcement-learning interface (docs/rl.md): the card planes
// of an observation and the stored form of an action. What a game provides for it is in
// core/game_concept.hpp.
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
