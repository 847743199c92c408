// The solver's transposition table (core/search.hpp): bounds by canonical key, in clusters of four.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <utility>
#include <vector>

#ifdef __linux__
#include <sys/mman.h>
#endif

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

  // An empty table of table_bytes rounded down to whole 64-byte clusters (less than one: no
  // table). Each thread keeps the memory of its last table (up to kKeepBytes) for its next table
  // of the same size: a fresh block costs a page fault per page a search touches and an unmap at
  // the end, more than a short search itself. Every table starts empty all the same (the clusters
  // a solve stored into are cleared when it ends), so results do not depend on what ran before.
  // Throws std::bad_alloc when the memory cannot be had.
  explicit TransTable(std::size_t table_bytes) : count_(table_bytes / sizeof(Cluster)) {
    if (!count_) return;
    Block& spare = spare_block();
    if (spare.count == count_)
      block_ = std::move(spare);  // the spare is empty now: a nested solve maps its own block
    else
      block_ = Block(count_);
    spare = Block();  // a spare of another size: the memory goes back
    clusters_ = block_.clusters;
  }

  TransTable(const TransTable&) = delete;
  TransTable& operator=(const TransTable&) = delete;

  ~TransTable() {
    if (!count_) return;
    block_.clear();
    if (count_ * sizeof(Cluster) <= kKeepBytes) spare_block() = std::move(block_);
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
    const std::size_t at = index(key);
    Entry* entries = clusters_[at].entries;
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
    // Tightening writes only into a cluster already recorded by the store that made the entry.
    block_.record(at);
    *victim = Entry{key, saturate(effort), static_cast<std::uint8_t>(bound), pass};
  }

  // Node counts past 2^32 - 1 all rank alike for replacement.
  static std::uint32_t saturate(std::uint64_t n) {
    return static_cast<std::uint32_t>(
        std::min<std::uint64_t>(n, std::numeric_limits<std::uint32_t>::max()));
  }
  // Starts loading key's cluster into the cache, so that several probes' misses overlap.
  void prefetch(std::uint64_t key) const {
    if (count_) pe::prefetch(&clusters_[index(key)]);
  }

  // Tables larger than this give their memory back when their solve ends.
  static constexpr std::size_t kKeepBytes = std::size_t{1} << 30;

 private:
  // Cluster of a key: the high bits of key * clusters, uniform for any cluster count.
  std::size_t index(std::uint64_t key) const {
    return static_cast<std::size_t>((static_cast<unsigned __int128>(key) * count_) >> 64);
  }

  // Zeroed clusters, and the clusters stored into since they were last all zero.
  class Block {
   public:
    Block() = default;
    // count zeroed clusters. On Linux an anonymous mapping, 2 MiB aligned and marked for
    // transparent huge pages (a random probe then rarely misses the TLB); elsewhere calloc.
    explicit Block(std::size_t n) : count(n) {
      const std::size_t bytes = n * sizeof(Cluster);
#ifdef __linux__
      if (bytes > std::numeric_limits<std::size_t>::max() - kHugePage) throw std::bad_alloc();
      map_bytes_ = bytes + kHugePage;
      void* map =
          mmap(nullptr, map_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (map == MAP_FAILED) throw std::bad_alloc();
      memory_ = map;
      clusters = static_cast<Cluster*>(align(map, kHugePage));
      if (bytes >= kHugePage) madvise(clusters, bytes / kHugePage * kHugePage, MADV_HUGEPAGE);
#else
      memory_ = std::calloc(n + 1, sizeof(Cluster));  // one spare for the alignment
      if (!memory_) throw std::bad_alloc();
      clusters = static_cast<Cluster*>(align(memory_, alignof(Cluster)));
#endif
      // Past a sixteenth of the clusters, one pass over the whole table clears faster than a
      // cache miss per recorded cluster.
      used_.reserve(std::max<std::size_t>(n / 16, 1));
    }
    Block(Block&& o) noexcept { swap(o); }
    Block& operator=(Block&& o) noexcept {
      Block(std::move(o)).swap(*this);
      return *this;
    }
    Block(const Block&) = delete;
    Block& operator=(const Block&) = delete;
    ~Block() {
      if (!memory_) return;
#ifdef __linux__
      munmap(memory_, map_bytes_);
#else
      std::free(memory_);
#endif
    }

    // Notes that cluster i is no longer zero.
    void record(std::size_t i) {
      if (used_.size() < used_.capacity())
        used_.push_back(i);
      else
        all_used_ = true;
    }
    // Zeroes every cluster stored into.
    void clear() {
      if (all_used_)
        std::memset(static_cast<void*>(clusters), 0, count * sizeof(Cluster));
      else
        for (const std::size_t i : used_) clusters[i] = Cluster{};
      used_.clear();
      all_used_ = false;
    }

    Cluster* clusters = nullptr;
    std::size_t count = 0;

   private:
    static constexpr std::size_t kHugePage = std::size_t{2} << 20;
    static void* align(void* p, std::size_t to) {
      const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p);
      return reinterpret_cast<void*>((at + to - 1) & ~std::uintptr_t{to - 1});
    }
    void swap(Block& o) noexcept {
      std::swap(clusters, o.clusters);
      std::swap(count, o.count);
      std::swap(memory_, o.memory_);
      std::swap(map_bytes_, o.map_bytes_);
      used_.swap(o.used_);
      std::swap(all_used_, o.all_used_);
    }
    void* memory_ = nullptr;
    std::size_t map_bytes_ = 0;
    std::vector<std::size_t> used_;
    bool all_used_ = false;
  };

  // This thread's kept block (empty when none).
  static Block& spare_block() {
    static thread_local Block spare;
    return spare;
  }

  std::size_t count_;
  Block block_;
  Cluster* clusters_ = nullptr;
};

}  // namespace pe
