// The solver's transposition tables (core/search.hpp): bounds by canonical key, in clusters of four
// entries of 16 bytes. TransTable serves a solve on one thread; SharedTable the threads of one
// solve (core/team.hpp), which read and write its entries at once.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#ifdef __linux__
#include <sys/mman.h>
#endif

#include "core/bits.hpp"

namespace pe {

// The bytes of a cluster: one cache line.
inline constexpr std::size_t kClusterBytes = 64;

// Node counts past 2^32 - 1 all rank alike for replacement.
inline std::uint32_t saturate_effort(std::uint64_t n) {
  return static_cast<std::uint32_t>(
      std::min<std::uint64_t>(n, std::numeric_limits<std::uint32_t>::max()));
}

// Cluster of a key among count: the high bits of key * count, uniform for any cluster count.
inline std::size_t cluster_of(std::uint64_t key, std::size_t count) {
  return static_cast<std::size_t>((static_cast<unsigned __int128>(key) * count) >> 64);
}

// The clusters stored into since a table was last all zero, so that only those are cleared.
class StoredClusters {
 public:
  StoredClusters() = default;
  // Keeps up to most indices; past them, one pass over the whole table clears faster than a
  // cache miss per cluster.
  explicit StoredClusters(std::size_t most) { used_.reserve(std::max<std::size_t>(most, 1)); }

  // Notes that cluster i is no longer zero.
  void record(std::size_t i) {
    if (used_.size() < used_.capacity())
      used_.push_back(i);
    else
      all_ = true;
  }
  bool all() const { return all_; }
  const std::vector<std::size_t>& list() const { return used_; }
  void forget() {
    used_.clear();
    all_ = false;
  }

 private:
  std::vector<std::size_t> used_;
  bool all_ = false;
};

// Zeroed 64-byte clusters of memory, and the clusters stored into since they were last all zero.
class TableBlock {
 public:
  TableBlock() = default;
  // n zeroed clusters. On Linux an anonymous mapping, 2 MiB aligned and marked for transparent
  // huge pages (a random probe then rarely misses the TLB); elsewhere calloc.
  explicit TableBlock(std::size_t n) : TableBlock(n, Memory{}) {
    // Sized once the memory is had, so that a table too big fails as std::bad_alloc, not as a
    // record too long; a delegated constructor's object is whole, so the destructor frees the
    // memory should this throw.
    stored_ = new_record();
  }
  TableBlock(TableBlock&& o) noexcept { swap(o); }
  TableBlock& operator=(TableBlock&& o) noexcept {
    TableBlock(std::move(o)).swap(*this);
    return *this;
  }
  TableBlock(const TableBlock&) = delete;
  TableBlock& operator=(const TableBlock&) = delete;
  ~TableBlock() {
    if (!memory_) return;
#ifdef __linux__
    munmap(memory_, map_bytes_);
#else
    std::free(memory_);
#endif
  }

  // Notes that cluster i is no longer zero.
  void record(std::size_t i) { stored_.record(i); }
  // Zeroes every cluster stored into, here and in others' records (the threads of a shared table).
  void clear(const std::vector<StoredClusters>& others = {}) {
    bool all = stored_.all();
    std::size_t listed = stored_.list().size();
    for (const StoredClusters& o : others) {
      all = all || o.all();
      listed += o.list().size();
    }
    if (all || listed > count / 16) {
      std::memset(clusters, 0, count * kClusterBytes);
    } else {
      zero(stored_);
      for (const StoredClusters& o : others) zero(o);
    }
    stored_.forget();
  }
  // A fresh record of the clusters one thread stores into.
  StoredClusters new_record() const { return StoredClusters(count / 16); }

  unsigned char* clusters = nullptr;
  std::size_t count = 0;

 private:
  struct Memory {};
  // n zeroed clusters, with no record yet.
  TableBlock(std::size_t n, Memory) : count(n) {
    const std::size_t bytes = n * kClusterBytes;
#ifdef __linux__
    if (bytes > std::numeric_limits<std::size_t>::max() - kHugePage) throw std::bad_alloc();
    map_bytes_ = bytes + kHugePage;
    void* map =
        mmap(nullptr, map_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) throw std::bad_alloc();
    memory_ = map;
    clusters = static_cast<unsigned char*>(align(map, kHugePage));
    if (bytes >= kHugePage) madvise(clusters, bytes / kHugePage * kHugePage, MADV_HUGEPAGE);
#else
    memory_ = std::calloc(n + 1, kClusterBytes);  // one spare for the alignment
    if (!memory_) throw std::bad_alloc();
    clusters = static_cast<unsigned char*>(align(memory_, kClusterBytes));
#endif
  }
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;
  static void* align(void* p, std::size_t to) {
    const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p);
    return reinterpret_cast<void*>((at + to - 1) & ~std::uintptr_t{to - 1});
  }
  void zero(const StoredClusters& s) {
    for (const std::size_t i : s.list())
      std::memset(clusters + i * kClusterBytes, 0, kClusterBytes);
  }
  void swap(TableBlock& o) noexcept {
    std::swap(clusters, o.clusters);
    std::swap(count, o.count);
    std::swap(memory_, o.memory_);
    std::swap(map_bytes_, o.map_bytes_);
    std::swap(stored_, o.stored_);
  }
  void* memory_ = nullptr;
  std::size_t map_bytes_ = 0;
  StoredClusters stored_;
};

// Tables larger than this give their memory back when their solve ends.
inline constexpr std::size_t kKeepTableBytes = std::size_t{1} << 30;

// This thread's kept block (empty when none).
inline TableBlock& spare_table_block() {
  static thread_local TableBlock spare;
  return spare;
}

// A table's memory of count clusters, taken from this thread's kept block when it has that size,
// else mapped afresh (the kept block of another size goes back). Each thread keeps the memory of
// its last table (up to kKeepTableBytes) for its next table of the same size: a fresh block costs
// a page fault per page a search touches and an unmap at the end, more than a short search
// itself. Every table starts empty all the same (the clusters a solve stored into are cleared
// when it ends), so results do not depend on what ran before. Throws std::bad_alloc when the
// memory cannot be had.
inline TableBlock take_table_block(std::size_t count) {
  TableBlock& spare = spare_table_block();
  // The spare is empty once taken: a nested solve maps its own block.
  TableBlock block = spare.count == count ? std::move(spare) : TableBlock(count);
  spare = TableBlock();  // a spare of another size: the memory goes back
  return block;
}

// Keeps block as this thread's spare (take_table_block()) when it is small enough, cleared (with
// the clusters that others recorded), else gives its memory back.
inline void keep_table_block(TableBlock block, const std::vector<StoredClusters>& others = {}) {
  if (block.count * kClusterBytes > kKeepTableBytes) return;  // unmapped, not cleared
  block.clear(others);
  spare_table_block() = std::move(block);
}

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
  struct alignas(kClusterBytes) Cluster {
    Entry entries[kWays];
  };
  static_assert(sizeof(Cluster) == kClusterBytes);

  // An empty table of table_bytes rounded down to whole 64-byte clusters (less than one: no
  // table), its memory from take_table_block().
  explicit TransTable(std::size_t table_bytes) : count_(table_bytes / sizeof(Cluster)) {
    if (!count_) return;
    block_ = take_table_block(count_);
    clusters_ = reinterpret_cast<Cluster*>(block_.clusters);
  }

  TransTable(const TransTable&) = delete;
  TransTable& operator=(const TransTable&) = delete;

  ~TransTable() {
    if (count_) keep_table_block(std::move(block_));
  }

  // The upper bound that search pass `pass` stored for key, or -1 when the table holds none.
  int probe(std::uint64_t key, std::uint8_t pass) const {
    if (!count_) return -1;
    for (const Entry& e : clusters_[cluster_of(key, count_)].entries)
      if (e.effort && e.pass == pass && e.key == key) return e.bound;
    return -1;
  }

  // Stores pass's bound for key, tightening pass's entry for key; otherwise it takes an empty
  // slot (or one of another pass) or evicts the entry whose search cost the fewest nodes (first
  // such slot): deterministic, and it keeps the results that are dearest to recompute.
  void store(std::uint64_t key, int bound, std::uint64_t effort, std::uint8_t pass) {
    if (!count_) return;
    const std::size_t at = cluster_of(key, count_);
    Entry* entries = clusters_[at].entries;
    Entry* victim = entries;
    std::uint32_t least = std::numeric_limits<std::uint32_t>::max();
    for (int i = 0; i < kWays; ++i) {
      Entry& e = entries[i];
      const std::uint32_t kept = e.pass == pass ? e.effort : 0;
      if (kept && e.key == key) {
        e.bound = static_cast<std::uint8_t>(std::min<int>(e.bound, bound));
        e.effort = std::max(e.effort, saturate_effort(effort));
        return;
      }
      if (kept < least) {
        least = kept;
        victim = &e;
      }
    }
    // Tightening writes only into a cluster already recorded by the store that made the entry.
    block_.record(at);
    *victim = Entry{key, saturate_effort(effort), static_cast<std::uint8_t>(bound), pass};
  }

  // Starts loading key's cluster into the cache, so that several probes' misses overlap.
  void prefetch(std::uint64_t key) const {
    if (count_) pe::prefetch(&clusters_[cluster_of(key, count_)]);
  }

 private:
  std::size_t count_;
  TableBlock block_;
  Cluster* clusters_ = nullptr;
};

// The transposition table of the threads of one solve: TransTable's clusters, entries and
// replacement, each entry two 64-bit words, the data (bound, pass, effort) and the key XOR the
// data, each read and written alone by a relaxed atomic load or store. Another thread may write
// an entry between the two words of a read, or two threads one entry at once, leaving words of
// two writes; those no longer XOR to their key (but with the odds of a 64-bit collision, as in
// TransTable), so an entry is trusted only whole, as one thread wrote it: a torn one answers no
// probe and is tightened by no store. Every whole entry is a bound that some search stored, and
// a tightening writes the least of the bound it read and its own, so a race can lose a bound or
// leave one looser than it could be, never make one wrong.
// Each thread stores through a Writer of its own, which records the clusters it stores into.
class SharedTable {
 public:
  static constexpr int kWays = 4;
  // The memory of a cluster: (check, data) per entry; zeroed memory is four empty entries.
  struct alignas(kClusterBytes) Cluster {
    std::atomic<std::uint64_t> words[2 * kWays];
  };
  static_assert(sizeof(Cluster) == kClusterBytes);
  // Zeroed mapped memory is taken as clusters without a write (that would cost a page fault per
  // page): an atomic word of these types is its value's bytes alone, with nothing to construct.
  static_assert(std::is_trivially_default_constructible_v<Cluster> &&
                std::is_trivially_destructible_v<Cluster> &&
                std::atomic<std::uint64_t>::is_always_lock_free &&
                sizeof(std::atomic<std::uint64_t>) == sizeof(std::uint64_t));

  // An empty table of table_bytes rounded down to whole 64-byte clusters (less than one: no
  // table), its memory from take_table_block() of the calling thread, which must destroy it.
  explicit SharedTable(std::size_t table_bytes) : count_(table_bytes / sizeof(Cluster)) {
    if (!count_) return;
    block_ = take_table_block(count_);
    clusters_ = reinterpret_cast<Cluster*>(block_.clusters);
  }
  SharedTable(const SharedTable&) = delete;
  SharedTable& operator=(const SharedTable&) = delete;
  // Clears the clusters every Writer stored into (all Writers are gone) and keeps the memory.
  ~SharedTable() {
    if (count_) keep_table_block(std::move(block_), records_);
  }

  // One thread's access to the table; its record goes back to the table when it is destroyed.
  class Writer {
   public:
    explicit Writer(SharedTable& table) : table_(table), stored_(table.block_.new_record()) {}
    Writer(const Writer&) = delete;
    Writer& operator=(const Writer&) = delete;
    ~Writer() { table_.give_back(std::move(stored_)); }

    // As TransTable::probe.
    int probe(std::uint64_t key, std::uint8_t pass) const { return table_.probe(key, pass); }
    // As TransTable::store; the race of two stores into one cluster leaves one of them, or a torn
    // entry.
    void store(std::uint64_t key, int bound, std::uint64_t effort, std::uint8_t pass) {
      if (table_.store(key, bound, effort, pass)) stored_.record(cluster_of(key, table_.count_));
    }
    void prefetch(std::uint64_t key) const {
      if (table_.count_) pe::prefetch(&table_.clusters_[cluster_of(key, table_.count_)]);
    }

   private:
    SharedTable& table_;
    StoredClusters stored_;
  };

 private:
  // An entry's data word: effort in bits 0-31 (0: empty), bound in 32-39, pass in 40-47.
  static std::uint64_t data(std::uint32_t effort, int bound, std::uint8_t pass) {
    return effort | std::uint64_t{static_cast<std::uint8_t>(bound)} << 32 |
           std::uint64_t{pass} << 40;
  }
  static std::uint32_t effort_of(std::uint64_t d) { return static_cast<std::uint32_t>(d); }
  static int bound_of(std::uint64_t d) { return static_cast<std::uint8_t>(d >> 32); }
  static std::uint8_t pass_of(std::uint64_t d) { return static_cast<std::uint8_t>(d >> 40); }

  // Entry i of a cluster as one read: its data when whole and of key, else 0 (no entry of key).
  static std::uint64_t read(const Cluster& c, int i, std::uint64_t key) {
    const std::uint64_t d = c.words[2 * i + 1].load(std::memory_order_relaxed);
    const std::uint64_t check = c.words[2 * i].load(std::memory_order_relaxed);
    return (check ^ d) == key ? d : 0;
  }
  static void write(Cluster& c, int i, std::uint64_t key, std::uint64_t d) {
    c.words[2 * i + 1].store(d, std::memory_order_relaxed);
    c.words[2 * i].store(key ^ d, std::memory_order_relaxed);
  }

  int probe(std::uint64_t key, std::uint8_t pass) const {
    if (!count_) return -1;
    const Cluster& c = clusters_[cluster_of(key, count_)];
    for (int i = 0; i < kWays; ++i) {
      const std::uint64_t d = read(c, i, key);
      if (effort_of(d) && pass_of(d) == pass) return bound_of(d);
    }
    return -1;
  }

  // TransTable::store on whole entries (a torn one is an empty slot): true when it took a slot
  // rather than tightening an entry of key.
  bool store(std::uint64_t key, int bound, std::uint64_t effort, std::uint8_t pass) {
    if (!count_) return false;
    Cluster& c = clusters_[cluster_of(key, count_)];
    int victim = 0;
    std::uint32_t least = std::numeric_limits<std::uint32_t>::max();
    for (int i = 0; i < kWays; ++i) {
      const std::uint64_t d = c.words[2 * i + 1].load(std::memory_order_relaxed);
      const std::uint64_t check = c.words[2 * i].load(std::memory_order_relaxed);
      const std::uint32_t kept = pass_of(d) == pass ? effort_of(d) : 0;
      // A whole entry of pass: another key's whole entry XORs to its own key, a torn one to noise.
      const std::uint64_t owner = check ^ d;
      if (kept && owner == key) {
        const int tighter = std::min(bound_of(d), bound);
        write(c, i, key, data(std::max(effort_of(d), saturate_effort(effort)), tighter, pass));
        return false;
      }
      if (kept < least) {
        least = kept;
        victim = i;
      }
    }
    write(c, victim, key, data(saturate_effort(effort), bound, pass));
    return true;
  }

  // Takes a Writer's record of clusters, for the clear at the end.
  void give_back(StoredClusters stored) {
    const std::lock_guard<std::mutex> lock(mutex_);
    records_.push_back(std::move(stored));
  }

  std::size_t count_;
  TableBlock block_;
  Cluster* clusters_ = nullptr;
  std::mutex mutex_;
  std::vector<StoredClusters> records_;  // the Writers', under mutex_
};

}  // namespace pe
