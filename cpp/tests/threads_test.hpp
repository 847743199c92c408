// The thread test program's checks (cpp/tests/threads_test.cpp says what it is for): each game's
// threaded perft, batch and playouts against one thread, and an interrupted threaded perft; its
// threaded solves are cpp/tests/solver_threads_test.hpp's. Each game of the build registers its
// checks from a source CMakeLists.txt writes from cpp/tests/threads_game.cpp.in, so a game added to
// PATIENCE_GAMES is checked too.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/parallel.hpp"
#include "core/perft.hpp"
#include "core/thread_pool.hpp"
#include "core/vector_game.hpp"

namespace pe::threads_test {

// What differs; main() prints it and exits with 1.
struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline void check(bool ok, const std::string& what) {
  if (!ok) throw Failure(what);
}

// The thread counts compared with one thread: 3 and 7 split the work unevenly, 7 is more threads
// than CI's cores.
inline constexpr int kThreadCounts[] = {2, 3, 7};

// A perft count that tests/game_data/<game>.py pins (SIGNATURE_PERFT), read by CMakeLists.txt.
struct Pinned {
  std::uint64_t deal;
  int depth;
  std::uint64_t count;
};

struct GameChecks {
  const char* name;
  void (*run)(const Pinned& pinned);  // the walks and batches of this header
  Pinned pinned;
  bool (*solves)();  // cpp/tests/solver_threads_test.hpp: false when no solve lasts to an interrupt
};

// The games registered, one per generated source.
inline std::vector<GameChecks>& game_checks() {
  static std::vector<GameChecks> games;
  return games;
}

// perft_threaded() at each thread count equals perft() on one thread, which equals the pinned
// count, and leaves the position as it was.
template <class G>
void check_perft(const Pinned& pinned) {
  const std::string walk = std::string("perft of ") + G::kName + " deal " +
                           std::to_string(pinned.deal) + " depth " + std::to_string(pinned.depth);
  G g = G::deal(pinned.deal);
  Interrupt interrupt;
  const std::uint64_t one = perft<G>(g, pinned.depth, true, interrupt);
  check(one == pinned.count, walk + ": " + std::to_string(one) + " on one thread, pinned " +
                                 std::to_string(pinned.count));
  for (const int threads : kThreadCounts) {
    ThreadPool pool(threads);
    const std::uint64_t many = perft_threaded(g, pinned.depth, true, pool, interrupt);
    check(many == one, walk + ": " + std::to_string(many) + " at " + std::to_string(threads) +
                           " threads, " + std::to_string(one) + " on one");
    check(g == G::deal(pinned.deal), walk + ": the position changed");
  }
}

// A batch's calls as the binding makes them (AnyVectorGameOf in core/bind_vector.hpp): the
// whole-batch method on the caller's thread when the runner has one, else block by block.
template <class G>
void reset(VectorGame<G>& v, const std::uint64_t* deals, BlockRunner& run) {
  if (run.threads() == 1) return v.reset(deals);
  reset_blocks(v, deals, run);
}

template <class G>
void sample(VectorGame<G>& v, std::int64_t* out, BlockRunner& run) {
  if (run.threads() == 1) return v.sample(out);
  sample_blocks(v, out, run);
}

template <class G>
StepFault check_and_step(VectorGame<G>& v, const std::int64_t* actions, BlockRunner& run) {
  if (run.threads() == 1) return v.check_and_step(actions);
  return check_and_step_blocks(v, actions, run);
}

// A batch as the binding holds it: its runner has a thread per block. max_moves 20 ends episodes
// within the steps of check_batches(); hidden where the game has face-down cards, so that their
// observations are checked too.
template <class G>
struct Batch {
  int threads;  // as asked
  VectorGame<G> v;
  BlockRunner runner;
  std::vector<std::int64_t> actions;

  Batch(int num_envs, int threads_asked)
      : threads(threads_asked),
        v(num_envs, 20, G::kHasFaceDown, threads_asked),
        runner(v.blocks().count),
        actions(static_cast<std::size_t>(num_envs)) {}
  void reset(const std::uint64_t* deals) { threads_test::reset(v, deals, runner); }
  void sample() { threads_test::sample(v, actions.data(), runner); }
  void step() {
    const StepFault fault = check_and_step(v, actions.data(), runner);
    check(fault.slot < 0, std::string(G::kName) + " batch: a sampled action of slot " +
                              std::to_string(fault.slot) + " is not legal");
  }
};

// Every buffer of many's batch is byte for byte one's.
template <class G>
void check_same(Batch<G>& one, Batch<G>& many, const std::string& when) {
  const auto n = static_cast<std::size_t>(one.v.num_envs());
  const auto same = [&](const char* buffer, const void* a, const void* b, std::size_t bytes) {
    check(std::memcmp(a, b, bytes) == 0, std::string(G::kName) + " batch of " + std::to_string(n) +
                                             " slots at " + std::to_string(many.threads) +
                                             " threads, " + when + ": " + buffer +
                                             " differ from one thread's");
  };
  same("observations", one.v.observations(), many.v.observations(),
       n * VectorGame<G>::kObservationSize);
  same("masks", one.v.masks(), many.v.masks(), n * G::kNumActions);
  same("rewards", one.v.rewards(), many.v.rewards(), n * sizeof(float));
  same("terminated", one.v.terminated(), many.v.terminated(), n);
  same("truncated", one.v.truncated(), many.v.truncated(), n);
  same("sampled actions", one.actions.data(), many.actions.data(), n * sizeof(std::int64_t));
}

// Batches of num_envs slots on one thread and on each of thread_counts, side by side: a seeded
// reset, steps of their own samples, and a reset to given deals leave the same bytes in all.
template <class G>
void check_batches(int num_envs, const std::vector<int>& thread_counts) {
  std::vector<std::unique_ptr<Batch<G>>> batches;  // [0]: one thread
  batches.push_back(std::make_unique<Batch<G>>(num_envs, 1));
  for (const int threads : thread_counts)
    batches.push_back(std::make_unique<Batch<G>>(num_envs, threads));
  const auto all_same = [&](const std::string& when) {
    for (std::size_t b = 1; b < batches.size(); ++b) check_same(*batches[0], *batches[b], when);
  };
  for (const auto& b : batches) {
    b->v.seed(11);
    b->reset(nullptr);
  }
  all_same("reset");
  for (int step = 1; step <= 25; ++step) {
    for (const auto& b : batches) {
      b->sample();
      b->step();
    }
    all_same("step " + std::to_string(step));
  }
  std::vector<std::uint64_t> deals(static_cast<std::size_t>(num_envs));
  for (std::size_t i = 0; i < deals.size(); ++i) deals[i] = 7 * i;
  for (const auto& b : batches) b->reset(deals.data());
  all_same("reset to deals");
}

// playouts_threaded() gives one thread's scores at each thread count, with fewer games than
// threads too.
template <class G>
void check_playouts() {
  const G start = G::deal(2);
  for (const std::int64_t n : {300, 2}) {
    Interrupt interrupt;
    std::vector<std::int32_t> one(static_cast<std::size_t>(n));
    playouts(start, 0, n, 9, 40, one.data(), interrupt);
    for (const int threads : kThreadCounts) {
      ThreadPool pool(threads);
      std::vector<std::int32_t> many(static_cast<std::size_t>(n));
      playouts_threaded(start, n, 9, 40, many.data(), pool, interrupt);
      check(many == one, std::string(G::kName) + ": " + std::to_string(n) + " playouts at " +
                             std::to_string(threads) + " threads differ from one");
    }
  }
}

// An Interrupt whose poll says stop from a deadline on.
struct Deadline {
  std::chrono::steady_clock::time_point at;
  static bool passed(void* self) {
    return std::chrono::steady_clock::now() >= static_cast<Deadline*>(self)->at;
  }
};

// Every worker of pool takes a job again: run_each() hands thread t its own task, so a worker
// still inside an earlier task would hold this job up, and the program would hang.
inline void check_serves(ThreadPool& pool, const std::string& what) {
  std::vector<int> ran(static_cast<std::size_t>(pool.threads()));
  pool.run_each(pool.threads(), [&](int k, int) { ++ran[static_cast<std::size_t>(k)]; }, [] {});
  check(ran == std::vector<int>(ran.size(), 1), what + ": the pool then ran a job wrong");
}

// Whether a threaded perft of deal's whole tree (to kMaxPerftDepth) on pool is stopped by an
// Interrupt that says stop 100 ms in, throwing Interrupted; false when the walk ends first.
template <class G>
bool interrupted(std::uint64_t deal, ThreadPool& pool) {
  G g = G::deal(deal);
  Deadline deadline{std::chrono::steady_clock::now() + std::chrono::milliseconds(100)};
  Interrupt interrupt;
  interrupt.poll = Deadline::passed;
  interrupt.ctx = &deadline;
  try {
    perft_threaded(g, kMaxPerftDepth, true, pool, interrupt);
  } catch (const Interrupted&) {
    return true;
  }
  return false;
}

// An interrupted threaded perft throws Interrupted with every thread out of its tasks, and the
// pool works on. Some deals' whole trees are walked within the 100 ms (The Wish's deal 1), so the
// deals from the pinned one on are tried until one lasts.
template <class G>
void check_interrupt(const Pinned& pinned) {
  constexpr std::uint64_t kDeals = 10;
  ThreadPool pool(3);
  for (std::uint64_t deal = pinned.deal; !interrupted<G>(deal, pool); ++deal)
    check(deal + 1 - pinned.deal < kDeals,
          std::string(G::kName) + ": the whole trees of deals " + std::to_string(pinned.deal) +
              " .. " + std::to_string(deal) + " are walked before a 100 ms interrupt");
  check_serves(pool, std::string(G::kName) + ": a threaded perft interrupted");
}

template <class G>
void run_checks(const Pinned& pinned) {
  check_perft<G>(pinned);
  // 200 slots make 4 blocks of 64 (3 threads then take 3 blocks, 7 take 4); 50 slots are one
  // block, stepped on the caller's thread however many threads are asked for.
  check_batches<G>(200, {std::begin(kThreadCounts), std::end(kThreadCounts)});
  check_batches<G>(50, {7});
  check_playouts<G>();
  check_interrupt<G>(pinned);
}

// Adds G's checks, and solves, its solves' (check_solves<G>), to game_checks(); the generated
// source of each game calls it once, before main().
template <class G>
bool register_game(const Pinned& pinned, bool (*solves)()) {
  game_checks().push_back({G::kName, run_checks<G>, pinned, solves});
  return true;
}

}  // namespace pe::threads_test
