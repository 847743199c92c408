// ThreadPool's threads and usable_cores() (core/thread_pool.hpp): compiled outside the module's
// link-time optimisation (CMakeLists.txt; the header says why).
#include "core/thread_pool.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#if __has_include(<sched.h>) && __has_include(<unistd.h>)
#include <sched.h>
#include <unistd.h>
#define PATIENCE_POSIX 1
#endif

namespace pe {
namespace {

// CPUs of a cgroup quota file's "QUOTA PERIOD" (v2 cpu.max, "max" for none), rounded up; 0: none.
int quota_cores(const std::string& quota, const std::string& period) {
  if (quota.empty() || quota == "max" || period.empty()) return 0;
  try {
    const double q = std::stod(quota), p = std::stod(period);
    if (q <= 0 || p <= 0) return 0;  // v1 writes -1 for no quota
    return static_cast<int>(std::ceil(q / p));
  } catch (const std::exception&) {
    return 0;
  }
}

// The first line of a file, "" when it cannot be read.
std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// The least CPU quota of this process's cgroup and its ancestors (cgroup v2 first, then v1), in
// CPUs rounded up; 0 when none is set or the system has no cgroups.
int cgroup_quota() {
  std::ifstream self("/proc/self/cgroup");
  int least = 0;
  const auto take = [&](int cores) {
    if (cores > 0 && (least == 0 || cores < least)) least = cores;
  };
  for (std::string line; std::getline(self, line);) {
    const std::size_t first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    std::string path = line.substr(second + 1);
    const bool v2 = controllers.empty();
    if (!v2 && ("," + controllers + ",").find(",cpu,") == std::string::npos) continue;
    // Walk up to the root: a parent's quota limits its children too.
    for (;;) {
      if (v2) {
        std::istringstream max(first_line("/sys/fs/cgroup" + path + "/cpu.max"));
        std::string quota, period;
        max >> quota >> period;
        take(quota_cores(quota, period));
      } else {
        for (const std::string mount : {"/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"})
          take(quota_cores(first_line(mount + path + "/cpu.cfs_quota_us"),
                           first_line(mount + path + "/cpu.cfs_period_us")));
      }
      if (path.empty() || path == "/") break;
      const std::size_t slash = path.rfind('/');
      path = slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
    }
  }
  return least;
}

}  // namespace

int usable_cores() {
  int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
#ifdef PATIENCE_POSIX
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) cores = std::max(1, CPU_COUNT(&set));
#endif
  const int quota = cgroup_quota();
  return quota > 0 ? std::min(cores, quota) : cores;
}

namespace {

long current_pid() {
#ifdef PATIENCE_POSIX
  return static_cast<long>(getpid());
#else
  return 0;
#endif
}

constexpr auto kSpin = std::chrono::microseconds(200);
constexpr auto kWaitPoll = std::chrono::milliseconds(20);

}  // namespace

// One call's tasks, on the caller's stack. A worker takes part only if it joins the job before the
// caller has run out of tasks to hand out (the caller then closes it); tasks nobody has claimed the
// caller runs itself, so a worker that the system does not schedule (the cores busy with other
// processes) delays nothing but the tasks it already holds.
struct ThreadPool::Job {
  int n;
  bool by_thread;
  int threads;
  void (*call)(const void* task, int k, int t);
  const void* task;
  std::vector<std::atomic<bool>> claimed;  // by_thread: task k taken
  std::atomic<int> next{0};                // otherwise: the next task to take
  std::atomic<int> inside{0};              // workers that joined and are not yet through
  std::atomic<bool> failed{false};
  std::exception_ptr error;  // the first task's exception, under State::mutex

  Job(int n_, bool by_thread_, int threads_, void (*call_)(const void*, int, int),
      const void* task_)
      : n(n_),
        by_thread(by_thread_),
        threads(threads_),
        call(call_),
        task(task_),
        claimed(by_thread_ ? static_cast<std::size_t>(n_) : 0) {}

  // The next task for the thread whose own tasks cursor walks (it starts at the thread's index), or
  // n when none is left: by_thread, the thread's own tasks first (k % threads
  // == t, so a batch's block stays on one core while every thread keeps up), then any left over.
  int take(int& cursor) {
    if (!by_thread) return next.fetch_add(1, std::memory_order_relaxed);
    for (; cursor < n; cursor += threads)
      if (!claimed[static_cast<std::size_t>(cursor)].exchange(true, std::memory_order_relaxed))
        return cursor;
    for (int k = 0; k < n; ++k)
      if (!claimed[static_cast<std::size_t>(k)].load(std::memory_order_relaxed) &&
          !claimed[static_cast<std::size_t>(k)].exchange(true, std::memory_order_relaxed))
        return k;
    return n;
  }
};

// What the workers share with the caller; replaced, not reused, in a forked child.
struct ThreadPool::State {
  std::mutex mutex;
  std::condition_variable wake;              // workers wait here for a job or the stop
  std::condition_variable idle;              // the caller waits here for the workers inside a job
  Job* job = nullptr;                        // open for workers to join, under mutex
  std::atomic<std::uint64_t> generation{0};  // bumped per job; spinning workers watch it
  bool stopping = false;

  void begin(Job& j) {
    {
      const std::lock_guard<std::mutex> lock(mutex);
      job = &j;
      generation.fetch_add(1, std::memory_order_release);
    }
    wake.notify_all();
  }

  // Runs tasks for thread t (0: the caller) until none is left or one failed.
  void work(Job& j, int t) {
    int cursor = t;
    for (int k = j.take(cursor); k < j.n && !j.failed.load(std::memory_order_relaxed);
         k = j.take(cursor)) {
      try {
        j.call(j.task, k, t);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(mutex);
        if (!j.error) j.error = std::current_exception();
        j.failed.store(true, std::memory_order_relaxed);
      }
    }
  }

  // Closes j to workers that have not joined, then waits until those inside are through, watching
  // for kSpin before it sleeps (a worker inside is mostly a few microseconds from done) and calling
  // poll(wait) every kWaitPoll; rethrows a task's error.
  void finish(Job& j, void (*poll)(const void*), const void* wait) {
    {
      const std::lock_guard<std::mutex> lock(mutex);
      job = nullptr;
    }
    const auto until = std::chrono::steady_clock::now() + kSpin;
    while (j.inside.load(std::memory_order_acquire) != 0 &&
           std::chrono::steady_clock::now() < until) {
    }
    std::unique_lock<std::mutex> lock(mutex);
    while (j.inside.load(std::memory_order_acquire) != 0) {
      if (idle.wait_for(lock, kWaitPoll) == std::cv_status::timeout) {
        lock.unlock();
        poll(wait);
        lock.lock();
      }
    }
    if (j.error) std::rethrow_exception(j.error);
  }

  // Worker t's loop: watch for a new generation a while, else sleep; join each job still open.
  void serve(int t) {
    // Not the generation now: the first job may have begun before this thread ran.
    std::uint64_t seen = 0;
    for (;;) {
      const auto until = std::chrono::steady_clock::now() + kSpin;
      while (generation.load(std::memory_order_acquire) == seen &&
             std::chrono::steady_clock::now() < until)
        std::this_thread::yield();
      std::unique_lock<std::mutex> lock(mutex);
      wake.wait(lock, [&] { return stopping || generation.load() != seen; });
      if (stopping) return;
      seen = generation.load();
      Job* j = job;  // null once the caller has closed it: this worker came too late
      if (!j) continue;
      j->inside.fetch_add(1, std::memory_order_relaxed);
      lock.unlock();
      work(*j, t);
      // The last worker out wakes a caller that sleeps; under the mutex, so that a caller between
      // its check of inside and its wait cannot miss it. j may be gone once inside is 0.
      if (j->inside.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        lock.lock();
        idle.notify_all();
      }
    }
  }
};

struct ThreadPool::Workers {
  std::vector<std::thread> threads;
};

ThreadPool::ThreadPool(int threads) : threads_(threads < 1 ? 1 : threads) {
  if (threads_ > 1) start();
}

ThreadPool::~ThreadPool() {
  if (threads_ > 1) stop();
}

void ThreadPool::start() {
  state_ = new State;
  pid_ = current_pid();
  workers_ = new Workers;
  workers_->threads.reserve(static_cast<std::size_t>(threads_ - 1));
  for (int t = 1; t < threads_; ++t)
    workers_->threads.emplace_back([s = state_, t] { s->serve(t); });
}

// Stops and joins the workers; in a forked child there are none to join, and the parent's state is
// left as it is.
void ThreadPool::stop() {
  if (pid_ != current_pid()) return;
  {
    const std::lock_guard<std::mutex> lock(state_->mutex);
    state_->stopping = true;
  }
  state_->wake.notify_all();
  for (std::thread& t : workers_->threads) t.join();
  delete workers_;
  delete state_;
}

void ThreadPool::run_on_workers(int n, bool by_thread, Call call, const void* task, Poll poll,
                                const void* wait) {
  if (pid_ != current_pid()) start();  // a forked child: the workers are gone
  Job job(n, by_thread, threads_, call, task);
  state_->begin(job);
  state_->work(job, 0);
  state_->finish(job, poll, wait);
}

}  // namespace pe
