// Bit helpers over the compiler's builtins: the one place the engine names them, so a port to
// another compiler (or to C++20's <bit>) changes this file alone.
#pragma once

#include <cstdint>

namespace pe {

// Number of set bits.
constexpr int popcount(std::uint64_t b) { return __builtin_popcountll(b); }
constexpr int popcount(std::uint32_t b) { return __builtin_popcount(b); }

// Index of the lowest set bit (trailing zeros); b must not be 0.
constexpr int ctz(std::uint64_t b) { return __builtin_ctzll(b); }
constexpr int ctz(std::uint32_t b) { return __builtin_ctz(b); }

// Number of leading zeros of a 32-bit word; b must not be 0.
constexpr int clz(std::uint32_t b) { return __builtin_clz(b); }

// Starts loading the cache line at p, so that several misses overlap.
inline void prefetch(const void* p) { __builtin_prefetch(p); }

}  // namespace pe
