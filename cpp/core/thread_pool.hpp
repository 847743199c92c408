// A pool of threads owned by one object (a batch, a perft or a solve), started once and stopped
// with it, and the number of CPUs a process may use. Neither touches Python.
//
// The pool's own code lives in core/thread_pool.cpp, which CMakeLists.txt compiles outside the
// module's link-time optimisation: code that the one-thread paths never run must not change how
// the optimiser inlines them (CI compares their instruction counts).
#pragma once

namespace pe {

// The CPUs this process may run on: its CPU affinity, capped by a cgroup CPU quota where one is
// set (cgroup v2 cpu.max, or v1 cpu.cfs_quota_us over cpu.cfs_period_us, rounded up); at least 1.
int usable_cores();

// The most threads a call takes (num_threads 0 .. kMaxThreads).
inline constexpr int kMaxThreads = 1024;

// num_threads as the calls take it: 0 means usable_cores(), any other value is itself (>= 1).
inline int resolve_threads(int num_threads) {
  return num_threads == 0 ? usable_cores() : num_threads;
}

// threads() - 1 worker threads plus the calling thread, which takes part. task(k, t) is called with
// the task's index k and the index t of the thread running it (0: the caller), which a task may use
// for state of its thread's own (an Interrupt) but never for its result: results must depend on k
// alone, so that they never depend on the thread count.
//   run(n, task, wait): task(k, t) for every k in 0 .. n-1, each k handed to whichever thread is
//     free, in ascending order (uneven tasks: a perft's subtrees, largest first);
//   run_each(n, task, wait): the same, but thread t takes the k with k % threads() == t first, so a
//     batch whose slots are cut into threads() blocks steps each block on the same core every call
//     while every thread keeps up; a task its thread has not begun when the others are done is
//     taken by one of them (a worker the system has not scheduled delays nothing).
// Both return when every task has returned; with one thread, or one task, the caller runs them
// all. An exception from a task stops the hand-out of further k (those running finish) and is
// rethrown. While the caller waits for the workers it calls wait() about every 20 ms: wait may tell
// the tasks to stop (Ctrl-C), and must not throw. One call at a time: the owner serialises them.
//
// Hand-off: a worker that finished watches for the next job, and the caller for the workers' end
// of this one, for 200 us of wall time before sleeping, so that calls in a tight loop (a batch
// stepped by a policy) pay no sleep and wake-up.
//
// fork(): the child has only the forking thread. A pool used in a child starts new workers there;
// the parent's state is left unreleased (a worker may have held its mutex at the fork), some
// hundred bytes per pool and fork.
class ThreadPool {
 public:
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int threads() const { return threads_; }

  template <class Task, class Wait>
  void run(int n, const Task& task, const Wait& wait) {
    dispatch(n, false, task, wait);
  }
  template <class Task, class Wait>
  void run_each(int n, const Task& task, const Wait& wait) {
    dispatch(n, true, task, wait);
  }

 private:
  using Call = void (*)(const void* task, int k, int t);
  using Poll = void (*)(const void* wait);
  struct Job;
  struct State;
  struct Workers;

  template <class Task, class Wait>
  void dispatch(int n, bool by_thread, const Task& task, const Wait& wait) {
    if (threads_ == 1 || n <= 1) {
      for (int k = 0; k < n; ++k) task(k, 0);
      return;
    }
    const Call call = [](const void* f, int k, int t) { (*static_cast<const Task*>(f))(k, t); };
    const Poll poll = [](const void* f) { (*static_cast<const Wait*>(f))(); };
    run_on_workers(n, by_thread, call, &task, poll, &wait);
  }

  void run_on_workers(int n, bool by_thread, Call call, const void* task, Poll poll,
                      const void* wait);
  void start();
  void stop();

  int threads_;
  State* state_ = nullptr;
  Workers* workers_ = nullptr;
  long pid_ = 0;
};

}  // namespace pe
