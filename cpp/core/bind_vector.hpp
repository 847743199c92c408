// Python binding of VectorGame<G> and playouts<G> (core/vector_game.hpp): one Python class
// VectorGame and one function playouts for every game. Each game's binding registers its
// VectorGame<G> behind the game-independent AnyVectorGame (register_vector_game<G>(), called by
// bind_game<G>()); bind_vector() (core/bind_vector.cpp) binds the class and the function, which
// pick the game's entry by its position class.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/threaded.hpp"
#include "core/vector_game.hpp"

namespace pe {
namespace py = pybind11;

// VectorGame<G> with the game erased: what the one Python class needs. It does no locking: the
// binding's PyVectorGame holds the lock that keeps two threads out of one batch.
class AnyVectorGame {
 public:
  virtual ~AnyVectorGame() = default;
  virtual int num_envs() const = 0;
  // The threads the batch is stepped on (VectorGame<G>::blocks()).
  virtual int threads() const = 0;
  virtual void seed(std::uint64_t s) = 0;
  // The blocks of every call below run on run's threads, without the GIL.
  virtual void reset(const std::uint64_t* deals, BlockRunner& run) = 0;
  // VectorGame<G>::load_and_check(), then step() when every slot can play: the first slot that
  // cannot play its action, or slot -1 when every slot was stepped.
  virtual StepFault check_and_step(const std::int64_t* actions, BlockRunner& run) = 0;
  // The text of the move an action names ("3:9S>5"), or "names no move" for an action of the space
  // that names none (a Germaine direction off the grid), as the reference's message says.
  virtual std::string move_text(int action) const = 0;
  virtual void sample(std::int64_t* out, BlockRunner& run) = 0;
  // A copy of slot i's position as a Python game object. The position is copied under the
  // caller's lock of the batch, which is released before any Python object is made: making one
  // can run Python code (a collection's finalizers) that lets another thread take the GIL.
  virtual py::object state(int i, std::unique_lock<std::mutex> batch) const = 0;
  virtual std::uint8_t* observations() = 0;
  virtual std::uint8_t* masks() = 0;
  virtual float* rewards() = 0;
  virtual std::uint8_t* terminated() = 0;
  virtual std::uint8_t* truncated() = 0;
};

// One game as VectorGame and playouts find it.
struct VectorEntry {
  py::handle cls;  // the position class (kept alive by the module)
  int num_actions;
  int default_max_moves;
  std::size_t bytes_per_position;  // VectorGame<G>::bytes_per_position()
  std::vector<py::ssize_t> observation_shape;
  // A batch of num_envs positions to be stepped on at most threads threads.
  std::unique_ptr<AnyVectorGame> (*make)(int num_envs, int max_moves, bool hidden, int threads);
  // playouts(state, n, seed, max_moves, threads, out): out has room for n scores; runs without the
  // GIL on threads threads.
  void (*playouts)(const py::handle& state, std::int64_t n, std::uint64_t seed, int max_moves,
                   int threads, std::int32_t* out);
};

// The registered games, in registration order.
std::vector<VectorEntry>& vector_entries();

template <class G, class State>
class AnyVectorGameOf final : public AnyVectorGame {
 public:
  AnyVectorGameOf(int num_envs, int max_moves, bool hidden, int threads)
      : v_(num_envs, max_moves, hidden, threads) {}
  int num_envs() const override { return v_.num_envs(); }
  int threads() const override { return v_.blocks().count; }
  void seed(std::uint64_t s) override { v_.seed(s); }
  // One thread steps the batch here; more, through G's threaded calls (core/threaded.hpp).
  void reset(const std::uint64_t* deals, BlockRunner& run) override {
    if (run.threads() == 1) return v_.reset(deals);
    threaded_game<G>().reset(&v_, deals, run);
  }
  StepFault check_and_step(const std::int64_t* actions, BlockRunner& run) override {
    if (run.threads() == 1) return v_.check_and_step(actions);
    return threaded_game<G>().check_and_step(&v_, actions, run);
  }
  std::string move_text(int action) const override {
    try {
      return G::move_text(G::move_of_action(action));
    } catch (const ParseError&) {
      return "names no move";
    }
  }
  void sample(std::int64_t* out, BlockRunner& run) override {
    if (run.threads() == 1) return v_.sample(out);
    threaded_game<G>().sample(&v_, out, run);
  }
  py::object state(int i, std::unique_lock<std::mutex> batch) const override {
    const G position = v_.position(i);
    batch.unlock();
    return py::cast(State(position));
  }
  std::uint8_t* observations() override { return v_.observations(); }
  std::uint8_t* masks() override { return v_.masks(); }
  float* rewards() override { return v_.rewards(); }
  std::uint8_t* terminated() override { return v_.terminated(); }
  std::uint8_t* truncated() override { return v_.truncated(); }

 private:
  VectorGame<G> v_;
};

}  // namespace pe
