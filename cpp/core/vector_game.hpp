// Batches of positions stepped in C++ (docs/rl.md "Episodes", docs/rl-design.md "VectorGame"):
// VectorGame<G> holds num_envs positions with their observation, legal-action mask, reward and flag
// buffers, and playouts() plays random games from a position. Neither touches Python; the binding
// (core/bind_vector.hpp) exposes the buffers as numpy arrays.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <utility>
#include <vector>

#include "core/cards.hpp"
#include "core/game_concept.hpp"
#include "core/perft.hpp"
#include "core/rl.hpp"
#include "core/thread_pool.hpp"

namespace pe {

inline constexpr std::size_t kCacheLine = 64;

// An allocator of arrays that start on a cache line (below: no two threads' slots share one).
template <class T>
struct LineAllocator {
  using value_type = T;
  LineAllocator() = default;
  template <class U>
  explicit LineAllocator(const LineAllocator<U>&) {}
  T* allocate(std::size_t n) {
    return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t{kCacheLine}));
  }
  void deallocate(T* p, std::size_t) { ::operator delete(p, std::align_val_t{kCacheLine}); }
  friend bool operator==(const LineAllocator&, const LineAllocator&) { return true; }
  friend bool operator!=(const LineAllocator&, const LineAllocator&) { return false; }
};

// A batch's per-slot array: slot i's entry, or its row of a fixed size.
template <class T>
using SlotArray = std::vector<T, LineAllocator<T>>;

// A batch's slots cut into blocks for threads, block b holding slots begin(b) .. end(b) - 1. Every
// block but the last is a multiple of kBlockSlots slots, so that in every SlotArray (each starting
// on a cache line, each slot's entry or row at least a byte) a block starts on a line of its own:
// the threads stepping two blocks never write to one cache line. A batch therefore uses at most
// one thread per kBlockSlots slots.
struct SlotBlocks {
  static constexpr int kBlockSlots = static_cast<int>(kCacheLine);
  int n;
  int size;   // slots per block, a multiple of kBlockSlots
  int count;  // blocks: at most the threads asked for

  SlotBlocks(int slots, int threads) : n(slots) {
    const int most = (n + kBlockSlots - 1) / kBlockSlots;
    const int wanted = std::max(1, std::min(threads, most));
    const int per = (n + wanted - 1) / wanted;
    size = (per + kBlockSlots - 1) / kBlockSlots * kBlockSlots;
    count = (n + size - 1) / size;
  }
  int begin(int b) const { return b * size; }
  int end(int b) const { return std::min(n, (b + 1) * size); }
};

// Steps a batch's blocks: on the calling thread alone, or on a pool the runner owns, one block per
// thread, the same block on the same thread at every call (its slots stay in that core's caches).
// The binding's VectorGame owns it, so its threads stop when the Python object goes, whatever numpy
// views still hold the batch's buffers.
class BlockRunner {
 public:
  explicit BlockRunner(int threads) : pool_(threads) {}
  int threads() const { return pool_.threads(); }
  // body(begin, end) for every block.
  template <class Body>
  void run(const SlotBlocks& blocks, Body&& body) {
    pool_.run_each(blocks.count, [&](int b, int) { body(blocks.begin(b), blocks.end(b)); }, [] {});
  }

 private:
  ThreadPool pool_;
};

// The legal actions of one position as a batch keeps them, ascending: a list, or the game's
// action words when it has them. update() reads a position's; the overload given a mask (the
// kNumActions bytes that held this set) rewrites the mask to match, touching only the entries
// that change for words, those of the old and new lists for a list.
template <class G, bool kWords = Has<G, ActionWordsOp>::value>
class LegalActions {
 public:
  int update(const G& g) {
    n_ = static_cast<std::uint8_t>(g.legal_actions(list_));
    return n_;
  }
  int update(const G& g, std::uint8_t* mask) {
    for (int j = 0; j < n_; ++j) mask[list_[j]] = 0;
    update(g);
    for (int j = 0; j < n_; ++j) mask[list_[j]] = 1;
    return n_;
  }
  int size() const { return n_; }
  // The r-th legal action, r in 0 .. size() - 1.
  int nth(int r) const { return list_[r]; }

 private:
  StoredAction list_[G::kMaxMoves];
  std::uint8_t n_ = 0;
};

template <class G>
class LegalActions<G, true> {
  static constexpr int kWords = G::kActionWords, kPerWord = G::kActionsPerWord;

 public:
  int update(const G& g) {
    g.legal_action_words(words_);
    return count();
  }
  // A word that changed is written whole, 8 entries a step: a loop over the changed bits ends
  // at an unpredictable count, and its mispredicted exits cost more than the stores.
  int update(const G& g, std::uint8_t* mask) {
    static_assert(kPerWord <= 64 && kPerWord % 8 == 4, "a word ends in half a byte");
    std::uint64_t now[kWords];
    g.legal_action_words(now);
    for (int w = 0; w < kWords; ++w) {
      if (words_[w] != now[w]) {
        std::uint8_t* to = mask + w * kPerWord;
        int at = 0;
        for (; at + 8 <= kPerWord; at += 8) {
          const std::uint64_t bytes = bits_to_bytes(now[w] >> at);
          std::memcpy(to + at, &bytes, 8);
        }
        const auto tail = static_cast<std::uint32_t>(bits_to_bytes(now[w] >> at));
        std::memcpy(to + at, &tail, 4);
      }
      words_[w] = now[w];
    }
    return count();
  }
  int size() const { return n_; }
  // The word holding the r-th action is the number of prefix counts at most r: counted without a
  // branch on r, a random draw.
  int nth(int r) const {
    int before[kWords], total = 0, w = 0;
    for (int j = 0; j < kWords; ++j) {
      before[j] = total;
      total += popcount(words_[j]);
      w += j && before[j] <= r;
    }
    return w * kPerWord + select_bit(words_[w], r - before[w]);
  }

 private:
  int count() {
    int n = 0;
    for (int w = 0; w < kWords; ++w) n += popcount(words_[w]);
    n_ = static_cast<std::uint8_t>(n);
    return n;
  }
  std::uint64_t words_[kWords] = {};
  std::uint8_t n_ = 0;
};

// A bad action found by VectorGame<G>::check(): the slot, the action, and whether it lies outside
// the space (else it is in the space but not legal); slot -1 when every slot can play.
struct StepFault {
  int slot = -1;
  std::int64_t action = 0;
  bool outside = false;
};

template <class G>
class VectorGame {
 public:
  using Move = typename G::Move;
  static constexpr int kObservationSize = observation_size<G>();
  static_assert(G::kNumActions <= 65536 && G::kMaxMoves <= 255 &&
                    G::kMaxMoves <= SplitMix64::kMaxBelow,
                "actions and counts fit the slots, a draw below a count needs no division");

  // threads: the most the batch may be stepped on (blocks() says how many it is).
  VectorGame(int num_envs, int max_moves, bool hidden, int threads)
      : n_(num_envs),
        blocks_(num_envs, threads),
        max_moves_(max_moves),
        hidden_(hidden),
        rng_(static_cast<std::size_t>(num_envs), SplitMix64{0}),
        pos_(static_cast<std::size_t>(num_envs), G::deal(0)),
        legal_(static_cast<std::size_t>(num_envs)),
        played_(static_cast<std::size_t>(num_envs)),
        ended_(static_cast<std::size_t>(num_envs)),
        obs_(static_cast<std::size_t>(num_envs) * kObservationSize),
        mask_(static_cast<std::size_t>(num_envs) * G::kNumActions),
        reward_(static_cast<std::size_t>(num_envs)),
        terminated_(static_cast<std::size_t>(num_envs)),
        truncated_(static_cast<std::size_t>(num_envs)),
        actions_(static_cast<std::size_t>(num_envs)) {}

  int num_envs() const { return n_; }
  const SlotBlocks& blocks() const { return blocks_; }
  // Slot i's generator to SplitMix64(stream_seed(s, i)), every slot's.
  void seed(std::uint64_t s) {
    for (int i = 0; i < n_; ++i)
      rng_[i] = SplitMix64{stream_seed(s, static_cast<std::uint64_t>(i))};
  }

  // Slots begin .. end - 1 to a new deal: deals[i] when deals is given, else a draw of the slot's
  // generator. The overloads without a range do every slot (one thread); those with one, a block.
  void reset(const std::uint64_t* deals, int begin, int end) {
    for (int i = begin; i < end; ++i) start(i, deals ? deals[i] : rng_[i].next());
  }
  void reset(const std::uint64_t* deals) { reset(deals, 0, n_); }

  // The first slot of begin .. end - 1 (every slot without a range) whose action cannot be played
  // (a slot awaiting autoreset, or dealt a position with no legal move, ignores its own).
  StepFault check(const std::int64_t* actions, int begin, int end) const {
    for (int i = begin; i < end; ++i) {
      if (ended_[i] || !legal_[i].size()) continue;
      const std::int64_t a = actions[i];
      if (a < 0 || a >= G::kNumActions) return StepFault{i, a, true};
      if (!mask_[static_cast<std::size_t>(i) * G::kNumActions + static_cast<std::size_t>(a)])
        return StepFault{i, a, false};
    }
    return StepFault{};
  }
  StepFault check(const std::int64_t* actions) const { return check(actions, 0, n_); }

  // check() of a copy of actions, read once, which step() then plays: the caller's buffer may
  // change while the batch works (another thread writing it without the GIL), and a value changed
  // between the check and the move would play an unchecked action. With a range, of those slots.
  StepFault load_and_check(const std::int64_t* actions, int begin, int end) {
    std::copy(actions + begin, actions + end, actions_.begin() + begin);
    return check(actions_.data(), begin, end);
  }
  StepFault load_and_check(const std::int64_t* actions) { return load_and_check(actions, 0, n_); }
  // load_and_check(), then step() of every slot when every slot can play.
  StepFault check_and_step(const std::int64_t* actions) {
    const StepFault fault = load_and_check(actions);
    if (fault.slot < 0) step(0, n_);
    return fault;
  }

  // Plays each slot's action (check() having passed), or resets a slot whose episode ended at the
  // last step (Gymnasium's next-step autoreset); an episode ends when won or when no move is left.
  // A slot reset to a position with no legal move (Geoffrey deal 787) cannot report it from
  // reset(), so its next step ends the episode with no move: reward 0, terminated.
  // Plays slots begin .. end - 1 (load_and_check() having passed).
  void step(int begin, int end) {
    const std::int64_t* actions = actions_.data();
    for (int i = begin; i < end; ++i) {
      if (ended_[i]) {
        start(i, rng_[i].next());
        continue;
      }
      if (!legal_[i].size()) {
        reward_[i] = 0;
        terminated_[i] = true;
        truncated_[i] = false;
        ended_[i] = true;
        continue;
      }
      G& g = pos_[i];
      const Move m = g.move_at(static_cast<int>(actions[i]));
      const int before = g.score();
      g.patch_observation(&obs_[static_cast<std::size_t>(i) * kObservationSize], m, hidden_);
      g.make(m);
      // A won Germaine grid may still have slides: a win ends the episode all the same.
      const bool over = refresh_legal(i) == 0 || g.is_won();
      const bool cut = !over && ++played_[i] >= max_moves_;
      reward_[i] = static_cast<float>(g.score() - before);
      terminated_[i] = over;
      truncated_[i] = cut;
      ended_[i] = over || cut;
    }
  }

  // For each slot, one of its legal actions drawn uniformly by its generator (legal[draw() % n]
  // over the ascending list); 0, with no draw, for a slot with none or awaiting autoreset.
  void sample(std::int64_t* out, int begin, int end) {
    for (int i = begin; i < end; ++i) {
      const int n = legal_[i].size();
      out[i] = ended_[i] || !n ? 0 : legal_[i].nth(static_cast<int>(rng_[i].below(n)));
    }
  }
  void sample(std::int64_t* out) { sample(out, 0, n_); }

  // The bytes a slot costs: its generator, position, legal actions, counters and buffer rows.
  static constexpr std::size_t bytes_per_position() {
    return sizeof(SplitMix64) + sizeof(G) + sizeof(LegalActions<G>) + sizeof(int) + 1 +
           kObservationSize + G::kNumActions + sizeof(float) + 2 + sizeof(std::int64_t);
  }

  const G& position(int i) const { return pos_[i]; }
  std::uint8_t* observations() { return obs_.data(); }
  std::uint8_t* masks() { return mask_.data(); }
  float* rewards() { return reward_.data(); }
  std::uint8_t* terminated() { return terminated_.data(); }
  std::uint8_t* truncated() { return truncated_.data(); }

 private:
  // Slot i to deal d: a fresh episode, its observation written whole.
  void start(int i, std::uint64_t d) {
    pos_[i] = G::deal(d);
    std::uint8_t* obs = &obs_[static_cast<std::size_t>(i) * kObservationSize];
    std::memset(obs, 0, kObservationSize);
    pos_[i].observe(obs, hidden_);
    refresh_legal(i);
    played_[i] = 0;
    ended_[i] = false;
    reward_[i] = 0;
    terminated_[i] = truncated_[i] = false;
  }

  // Slot i's legal actions and mask anew; returns how many.
  int refresh_legal(int i) {
    return legal_[i].update(pos_[i], &mask_[static_cast<std::size_t>(i) * G::kNumActions]);
  }

  int n_;
  SlotBlocks blocks_;
  int max_moves_;
  bool hidden_;
  SlotArray<SplitMix64> rng_;  // slot i's generator
  SlotArray<G> pos_;
  SlotArray<LegalActions<G>> legal_;
  SlotArray<int> played_;          // moves played in the episode
  SlotArray<std::uint8_t> ended_;  // terminated or truncated at the last step
  SlotArray<std::uint8_t> obs_;
  SlotArray<std::uint8_t> mask_;
  SlotArray<float> reward_;
  SlotArray<std::uint8_t> terminated_;
  SlotArray<std::uint8_t> truncated_;
  SlotArray<std::int64_t> actions_;  // load_and_check()'s copy
};

// Games first .. first + count - 1 of the random games from start: game k draws from
// SplitMix64(stream_seed(seed, k)), at each move legal[draw() % len] of the ascending legal
// actions, until none is left or max_moves are played; out[k] its final score (docs/rl.md
// "Batches: `VectorGame` and `playouts`"). kThreaded: the threaded calls' own instantiation
// (core/threaded.hpp says why they keep apart).
template <class G, bool kThreaded = false>
void playouts(const G& start, std::int64_t first, std::int64_t count, std::uint64_t seed,
              int max_moves, std::int32_t* out, Interrupt& interrupt) {
  LegalActions<G> legal;
  for (std::int64_t k = first; k < first + count; ++k) {
    SplitMix64 rng{stream_seed(seed, static_cast<std::uint64_t>(k))};
    G g = start;
    for (int played = 0; played < max_moves; ++played) {
      if constexpr (Has<G, NthLegalMoveOp>::value) {
        const int moves = g.count_moves();
        if (!moves) break;
        g.make(g.nth_legal_move(static_cast<int>(rng.below(moves))));
      } else {
        const int moves = legal.update(g);
        if (!moves) break;
        g.make(g.move_at(legal.nth(static_cast<int>(rng.below(moves)))));
      }
      interrupt.tick();
    }
    out[k] = g.score();
    interrupt.tick();  // a game of no move counts too, so a start with none answers Ctrl-C
  }
}

// A batch's calls block by block on run's threads: the threaded calls of core/threaded.hpp (the
// binding calls the whole-batch methods itself when the runner has one thread).
template <class G>
void reset_blocks(VectorGame<G>& v, const std::uint64_t* deals, BlockRunner& run) {
  run.run(v.blocks(), [&](int begin, int end) { v.reset(deals, begin, end); });
}

// Checks every slot's action first, so that a fault leaves every slot as it was: each block its
// own, on the thread that steps it (a slot's lines stay in that core's cache; checked by the
// caller alone, every line of the other blocks crossed between cores twice a step). The fault is
// the first slot's, as one thread's check finds it.
template <class G>
StepFault check_and_step_blocks(VectorGame<G>& v, const std::int64_t* actions, BlockRunner& run) {
  struct alignas(64) BlockFault {
    StepFault fault;
  };
  const SlotBlocks& blocks = v.blocks();
  std::vector<BlockFault> faults(static_cast<std::size_t>(blocks.count));
  run.run(blocks, [&](int begin, int end) {
    faults[static_cast<std::size_t>(begin / blocks.size)].fault =
        v.load_and_check(actions, begin, end);
  });
  for (const BlockFault& f : faults)
    if (f.fault.slot >= 0) return f.fault;
  run.run(blocks, [&](int begin, int end) { v.step(begin, end); });
  return StepFault{};
}

template <class G>
void sample_blocks(VectorGame<G>& v, std::int64_t* out, BlockRunner& run) {
  run.run(v.blocks(), [&](int begin, int end) { v.sample(out, begin, end); });
}

}  // namespace pe
