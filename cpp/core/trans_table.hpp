// The solver's transposition table (core/search.hpp): bounds by canonical key, in clusters of four.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <new>

#include "core/bits.hpp"

namespace pe {

// Transposition table: clusters of four entries, an entry the full 64-bit canonical key, an
// upper bound on the position's value and the search pass that stored it. The full key is
// compared, so only two positions with the same 64-bit key (a Zobrist collision, odds about 2^-64
// per probe) could share a bound: that is the only way a stored bound could be wrong, and so the
// only risk to a "lost" verdict. A pass is numbered (Solver::pass_): pass 0 is the search of
// every move, whose bounds are the game's; a narrowed pass (Solver::hunt) bounds only the lines
// it searches (up to ties in the move order of mirror images, which share a key), so its entries
// serve that pass alone and count as empty slots for any other.
class TransTable {
 public:
  // A table of table_bytes rounded down to whole 64-byte clusters (less than one: no table).
  // The memory comes zeroed from calloc: a large block is mapped from the OS as untouched zero
  // pages, so a short search pays only for the pages it uses, not for clearing the whole table.
  // Throws std::bad_alloc when the memory cannot be had.
  explicit TransTable(std::size_t table_bytes) : count_(table_bytes / sizeof(Cluster)) {
    if (!count_) return;
    memory_.reset(std::calloc(count_ + 1, sizeof(Cluster)));  // one spare for the alignment
    if (!memory_) throw std::bad_alloc();
    const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(memory_.get());
    clusters_ = reinterpret_cast<Cluster*>((at + alignof(Cluster) - 1) &
                                           ~std::uintptr_t{alignof(Cluster) - 1});
  }

  // The upper bound that search pass `pass` stored for key, or -1 when the table holds none.
  int probe(std::uint64_t key, std::uint8_t pass) const {
    if (!count_) return -1;
    for (const Entry& e : clusters_[index(key)].entries)
      if (e.effort && e.pass == pass && e.key == key) return e.bound;
    return -1;
  }

  // Stores pass's bound for key, tightening pass's entry for key; otherwise it takes an empty
  // slot (or one of another pass) or evicts the entry whose search cost the fewest nodes (first
  // such slot): deterministic, and it keeps the results that are dearest to recompute.
  void store(std::uint64_t key, int bound, std::uint64_t effort, std::uint8_t pass) {
    if (!count_) return;
    Entry* entries = clusters_[index(key)].entries;
    Entry* victim = entries;
    std::uint32_t least = std::numeric_limits<std::uint32_t>::max();
    for (int i = 0; i < kWays; ++i) {
      Entry& e = entries[i];
      const std::uint32_t kept = e.pass == pass ? e.effort : 0;
      if (kept && e.key == key) {
        e.bound = static_cast<std::uint8_t>(std::min<int>(e.bound, bound));
        e.effort = std::max(e.effort, saturate(effort));
        return;
      }
      if (kept < least) {
        least = kept;
        victim = &e;
      }
    }
    *victim = Entry{key, saturate(effort), static_cast<std::uint8_t>(bound), pass};
  }

  static constexpr int kWays = 4;
  // effort 0 marks an empty slot; a stored search expanded at least one node.
  struct Entry {
    std::uint64_t key;
    std::uint32_t effort;
    std::uint8_t bound;
    std::uint8_t pass;
  };
  struct alignas(64) Cluster {
    Entry entries[kWays];
  };

  // Node counts past 2^32 - 1 all rank alike for replacement.
  static std::uint32_t saturate(std::uint64_t n) {
    return static_cast<std::uint32_t>(
        std::min<std::uint64_t>(n, std::numeric_limits<std::uint32_t>::max()));
  }
  // Starts loading key's cluster into the cache, so that several probes' misses overlap.
  void prefetch(std::uint64_t key) const {
    if (count_) pe::prefetch(&clusters_[index(key)]);
  }

 private:
  // Cluster of a key: the high bits of key * clusters, uniform for any cluster count.
  std::size_t index(std::uint64_t key) const {
    return static_cast<std::size_t>((static_cast<unsigned __int128>(key) * count_) >> 64);
  }

  struct Free {
    void operator()(void* p) const { std::free(p); }
  };
  std::size_t count_;
  std::unique_ptr<void, Free> memory_;
  Cluster* clusters_ = nullptr;
};

}  // namespace pe
