// The calls of a game spread over threads (core/parallel.hpp), reached by the binding through
// function pointers by the game's name.
//
// Each game's are instantiated in a source file of their own, which CMakeLists.txt writes from
// cpp/threaded_game.cpp.in and compiles outside the module's link-time optimisation. With the
// threaded walks in the optimised unit, their extra calls of the game's make(), generate() and
// walks change what the optimiser inlines into the one-thread paths, some percent more
// instructions a node there (CI's instruction compare); kept apart, the one-thread paths compile as
// they do without them. For the same reason the threaded walks call perft<G, true> and
// playouts<G, true>, instantiations of their own: a copy of the one-thread walk compiled outside
// the optimised unit could be the one the linker keeps for both; and a threaded solve's search
// inlines every call it makes (Solver::team_search), keeping no copy of the rules' functions.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

#include <pybind11/pybind11.h>

#include "core/bind_position.hpp"
#include "core/parallel.hpp"
#include "core/perft.hpp"
#include "core/py_state.hpp"
#include "core/vector_game.hpp"

namespace pe {

// One game's threaded calls, its types erased: state is a Python position of G, batch a
// VectorGame<G>. perft, playouts and solve release the GIL and answer Ctrl-C as
// run_interruptible() does.
struct ThreadedGame {
  std::uint64_t (*perft)(const pybind11::handle& state, int depth, bool bulk, int threads);
  void (*playouts)(const pybind11::handle& state, std::int64_t n, std::uint64_t seed, int max_moves,
                   int threads, std::int32_t* out);
  void (*reset)(void* batch, const std::uint64_t* deals, BlockRunner& run);
  StepFault (*check_and_step)(void* batch, const std::int64_t* actions, BlockRunner& run);
  void (*sample)(void* batch, std::int64_t* out, BlockRunner& run);
  pybind11::tuple (*solve)(const pybind11::handle& state, const SolveOptions& opt,
                           SolveProgress& progress, int threads);
};

// The threaded calls of every game of the build, by the game's class name (G::kName).
inline std::map<std::string, ThreadedGame>& threaded_games() {
  static std::map<std::string, ThreadedGame> games;
  return games;
}

// The threaded calls of game G; a game without them is a build fault, said as such.
template <class G>
const ThreadedGame& threaded_game() {
  static const ThreadedGame& game = []() -> const ThreadedGame& {
    const auto found = threaded_games().find(G::kName);
    if (found == threaded_games().end())
      throw std::logic_error(std::string("the build has no threaded calls of ") + G::kName +
                             " (CMakeLists.txt writes them from cpp/threaded_game.cpp.in)");
    return found->second;
  }();
  return game;
}

// solve of a G position on threads threads together (solve_position_with() of solve_threaded()).
template <class G>
pybind11::tuple solve_position_threaded(const pybind11::handle& state, const SolveOptions& opt,
                                        SolveProgress& progress, int threads) {
  return solve_position_with<G>(
      state, opt, progress,
      [threads](const G& g, const SolveOptions& o, Interrupt& interrupt, SolveResult<G>* so_far) {
        ThreadPool pool(threads);
        return solve_threaded(g, o, pool, interrupt, so_far);
      });
}

// Adds G's threaded calls to threaded_games(); the generated source of each game calls it once,
// when the module is loaded.
template <class G>
bool register_threaded() {
  threaded_games()[G::kName] = ThreadedGame{
      [](const pybind11::handle& state, int depth, bool bulk, int threads) {
        G g = state.cast<const PyState<G>&>().pos;
        return run_interruptible([&](Interrupt& interrupt) {
          if (!perft_splits(threads, depth)) return perft<G, true>(g, depth, bulk, interrupt);
          ThreadPool pool(threads);
          return perft_threaded(g, depth, bulk, pool, interrupt);
        });
      },
      [](const pybind11::handle& state, std::int64_t n, std::uint64_t seed, int max_moves,
         int threads, std::int32_t* out) {
        const G start = state.cast<const PyState<G>&>().pos;
        run_interruptible([&](Interrupt& interrupt) {
          ThreadPool pool(static_cast<int>(std::min<std::int64_t>(threads, n)));  // none idle
          playouts_threaded(start, n, seed, max_moves, out, pool, interrupt);
        });
      },
      [](void* batch, const std::uint64_t* deals, BlockRunner& run) {
        reset_blocks(*static_cast<VectorGame<G>*>(batch), deals, run);
      },
      [](void* batch, const std::int64_t* actions, BlockRunner& run) {
        return check_and_step_blocks(*static_cast<VectorGame<G>*>(batch), actions, run);
      },
      [](void* batch, std::int64_t* out, BlockRunner& run) {
        sample_blocks(*static_cast<VectorGame<G>*>(batch), out, run);
      },
      &solve_position_threaded<G>};
  return true;
}

}  // namespace pe
