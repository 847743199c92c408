// The thread test program: the thread pool (core/thread_pool.hpp) and every game's threaded walks
// and solves (core/parallel.hpp, core/vector_game.hpp, core/team.hpp, SharedTable in
// core/trans_table.hpp) built with ThreadSanitizer, without pybind11 or Python
// (CMakeLists.txt PATIENCE_THREAD_TESTS says why a program of its own). Each check compares the
// threads' results with one thread's; a mismatch prints what differs and exits with 1, and a data
// race is TSan's report (CI runs it with halt_on_error=1). docs/development.md "Continuous
// integration" shows how to run it.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/thread_pool.hpp"
#include "tests/threads_test.hpp"

namespace pe::threads_test {
namespace {

// One call of run() (or of run_each() when by_thread) with n tasks: each k runs exactly once, on a
// thread of the pool (run_each() prefers thread k % threads(), but a late thread's tasks are
// taken by the others, so any thread may run any k).
void check_job(ThreadPool& pool, int n, bool by_thread) {
  const std::string what = std::string(by_thread ? "run_each" : "run") + " of " +
                           std::to_string(n) + " tasks on " + std::to_string(pool.threads()) +
                           " threads";
  std::vector<std::atomic<int>> runs(static_cast<std::size_t>(n));
  // Plain ints, read once the call returned: TSan checks that its return orders the tasks'
  // writes before the caller's reads.
  std::vector<int> thread_of(static_cast<std::size_t>(n), -1);
  const auto task = [&](int k, int t) {
    runs[static_cast<std::size_t>(k)].fetch_add(1, std::memory_order_relaxed);
    thread_of[static_cast<std::size_t>(k)] = t;
  };
  if (by_thread)
    pool.run_each(n, task, [] {});
  else
    pool.run(n, task, [] {});
  for (int k = 0; k < n; ++k) {
    const int t = thread_of[static_cast<std::size_t>(k)];
    check(runs[static_cast<std::size_t>(k)].load() == 1,
          what + ": task " + std::to_string(k) + " ran " +
              std::to_string(runs[static_cast<std::size_t>(k)].load()) + " times");
    check(t >= 0 && t < pool.threads(),
          what + ": task " + std::to_string(k) + " ran on thread " + std::to_string(t));
  }
}

// A task's exception is rethrown by the call, and the pool serves the next call.
void check_error(ThreadPool& pool) {
  for (const bool by_thread : {false, true}) {
    bool thrown = false;
    try {
      const auto task = [](int k, int) {
        if (k == 3) throw std::out_of_range("task 3");
      };
      if (by_thread)
        pool.run_each(100, task, [] {});
      else
        pool.run(100, task, [] {});
    } catch (const std::out_of_range&) {
      thrown = true;
    }
    check(thrown,
          "a task's exception on " + std::to_string(pool.threads()) + " threads was not rethrown");
    check_job(pool, 100, by_thread);
  }
}

// While the workers run tasks longer than the 20 ms between the caller's waits, wait() is called.
// The caller's own task lasts long enough for every worker to take its own (else the caller would
// take them, and wait for nobody).
void check_wait(ThreadPool& pool) {
  int waits = 0;
  pool.run_each(
      pool.threads(),
      [](int k, int) { std::this_thread::sleep_for(std::chrono::milliseconds(k == 0 ? 20 : 60)); },
      [&] { ++waits; });
  check(waits > 0, "run_each() on " + std::to_string(pool.threads()) +
                       " threads never called wait() in 60 ms");
}

// One pool used for many calls of every size, some straight after the last (the workers still
// watching for a job), some after a pause (the workers asleep); destroyed idle.
void check_pool(int threads) {
  ThreadPool{threads};  // destroyed at once, its workers perhaps not yet started
  ThreadPool pool(threads);
  check(pool.threads() == threads, "ThreadPool(" + std::to_string(threads) + ").threads() is " +
                                       std::to_string(pool.threads()));
  constexpr int kSizes[] = {0, 1, 2, 5, 64, 1000};
  for (int call = 0; call < 240; ++call) {
    check_job(pool, kSizes[call % 6], call % 4 >= 2);
    if (call % 24 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  check_error(pool);
  if (threads > 1) check_wait(pool);
}

// Seconds since start.
double since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void run() {
  const auto start = std::chrono::steady_clock::now();
  for (const int threads : {1, 2, 3, 7}) check_pool(threads);
  std::printf("thread pool: ok (%.2f s)\n", since(start));
  check(game_checks().size() == PATIENCE_GAME_COUNT,
        std::to_string(game_checks().size()) + " games registered their checks, the build has " +
            std::to_string(PATIENCE_GAME_COUNT));
  for (const GameChecks& game : game_checks()) {
    const auto game_start = std::chrono::steady_clock::now();
    game.run(game.pinned);
    const auto solves_start = std::chrono::steady_clock::now();
    const bool interrupted = game.solves();
    std::printf("%s: ok (walks %.2f s, solves %.2f s%s)\n", game.name,
                since(game_start) - since(solves_start), since(solves_start),
                interrupted ? "" : "; no solve of deals 1-200 lasts to an interrupt");
  }
}

}  // namespace
}  // namespace pe::threads_test

int main() {
  // Line by line: a failure's message on stderr then follows the checks that passed.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  try {
    pe::threads_test::run();
    return 0;
  } catch (const pe::threads_test::Failure& failure) {
    std::fprintf(stderr, "threads_test: FAILED: %s\n", failure.what());
  } catch (const std::exception& error) {
    std::fprintf(stderr, "threads_test: FAILED: unexpected exception: %s\n", error.what());
  } catch (...) {
    std::fprintf(stderr, "threads_test: FAILED: unexpected exception\n");
  }
  return 1;
}
