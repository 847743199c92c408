// Bit helpers over the compiler's builtins: the one place the engine names them, so a port to
// another compiler (or to C++20's <bit>) changes this file alone.
#pragma once

#include <array>
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

// Index of the r-th lowest set bit of b (r from 0); b must have more than r set bits. Halves by
// popcount without branches (r is a random draw in a playout, so a branch on it is mispredicted
// half the time), then a table for the last byte; no pdep, which is slow microcode on AMD before
// Zen 3.
inline int select_bit(std::uint64_t b, int r) {
  static constexpr auto kInByte = [] {
    std::array<std::array<std::uint8_t, 8>, 256> t{};
    for (int v = 0; v < 256; ++v)
      for (int i = 0, k = 0; i < 8; ++i)
        if (v >> i & 1) t[v][k++] = static_cast<std::uint8_t>(i);
    return t;
  }();
  int at = 0;
  for (int width = 32; width >= 8; width /= 2) {
    const int low = popcount(b & ((std::uint64_t{1} << width) - 1));
    const int up = r >= low;
    r -= up * low;
    b >>= up * width;
    at += up * width;
  }
  return at + kInByte[b & 0xFF][r];
}

// The 8 low bits of b as 8 bytes, 0 or 1, bit i in byte i (little-endian): byte i of the product
// keeps bit i alone, and adding 0x7F carries it to the byte's top bit, with no carry out of it.
constexpr std::uint64_t bits_to_bytes(std::uint64_t b) {
  const std::uint64_t t = ((b & 0xFF) * 0x0101010101010101ULL) & 0x8040201008040201ULL;
  return ((t + 0x7F7F7F7F7F7F7F7FULL) >> 7) & 0x0101010101010101ULL;
}
static_assert(bits_to_bytes(0x00) == 0 && bits_to_bytes(0xFF) == 0x0101010101010101ULL &&
              bits_to_bytes(0x1A5) == 0x0100010000010001ULL);

// Starts loading the cache line at p, so that several misses overlap.
inline void prefetch(const void* p) { __builtin_prefetch(p); }

// A function whose every call is inlined into it, as far as the compiler can (GCC, Clang).
#define PE_FLATTEN __attribute__((flatten))
// A function inlined wherever it is called.
#define PE_ALWAYS_INLINE inline __attribute__((always_inline))

}  // namespace pe
