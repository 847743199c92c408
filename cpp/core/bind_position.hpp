// perft() and solve() of any game's position, one Python function each: each game's binding
// registers its GameFunctions, and the functions pick the game by the position's class. Long
// walks run without the GIL and answer Ctrl-C (run_interruptible()).
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/bind_args.hpp"
#include "core/perft.hpp"
#include "core/py_state.hpp"
#include "core/search.hpp"

namespace pe {
namespace py = pybind11;

// Carries a Python signal error (Ctrl-C) out of a walk that ran without the GIL.
struct SignalPoll {
  std::optional<py::error_already_set> error;
};

// Interrupt::poll for Python callers: runs pending signal handlers; true when one raised.
inline bool poll_python_signals(void* ctx) {
  py::gil_scoped_acquire gil;
  if (PyErr_CheckSignals() == 0) return false;
  static_cast<SignalPoll*>(ctx)->error.emplace();
  return true;
}

// Runs fn(Interrupt&) without the GIL; a signal handler's error (KeyboardInterrupt) is re-raised.
template <class F>
auto run_interruptible(F&& fn) {
  SignalPoll signals;
  Interrupt interrupt;
  interrupt.poll = poll_python_signals;
  interrupt.ctx = &signals;
  try {
    py::gil_scoped_release release;
    return fn(interrupt);
  } catch (const Interrupted&) {
    throw *signals.error;
  }
}

// The progress callable of a solve, and the error it raised, which stopped the search.
struct SolveProgress {
  py::object call;
  std::optional<py::error_already_set> error;
};
// Carries a progress error past run_interruptible(), which would take it for Ctrl-C.
struct ProgressFailed {};

// What perft() and solve() need of one game; bind_game<G>() adds G's.
struct GameFunctions {
  const char* name;
  bool (*holds)(const py::handle& state);
  std::uint64_t (*perft)(const py::handle& state, int depth, bool bulk);  // one thread
  // The same on threads threads: G's threaded calls (core/threaded.hpp).
  std::uint64_t (*perft_threaded)(const py::handle& state, int depth, bool bulk, int threads);
  py::tuple (*solve)(const py::handle& state, const SolveOptions& opt, SolveProgress& progress);
  py::tuple (*solve_threaded)(const py::handle& state, const SolveOptions& opt,
                              SolveProgress& progress, int threads);
};
inline std::vector<GameFunctions>& game_functions() {
  static std::vector<GameFunctions> games;
  return games;
}

template <class G>
bool holds_position(const py::handle& state) {
  return py::isinstance<PyState<G>>(state);
}

// perft of a G position (holds_position<G>(state)) on one thread, without the GIL.
template <class G>
std::uint64_t perft_position(const py::handle& state, int depth, bool bulk) {
  G g = state.cast<const PyState<G>&>().pos;
  return run_interruptible([&](Interrupt& interrupt) { return perft(g, depth, bulk, interrupt); });
}

// solve of a G position (holds_position<G>(state)) by solver(g, opt, interrupt, so_far) (solve()
// or a threaded solve), without the GIL: (status, moves, score, nodes, proven), also attached to
// a KeyboardInterrupt as _so_far.
template <class G, class Solve>
py::tuple solve_position_with(const py::handle& state, const SolveOptions& opt,
                              SolveProgress& progress, const Solve& solver) {
  const G g = state.cast<const PyState<G>&>().pos;
  const auto as_tuple = [](const SolveResult<G>& r) {
    static const char* const kStatus[] = {"won", "lost", "unknown"};
    return py::make_tuple(kStatus[static_cast<int>(r.status)], r.line, r.score, r.nodes, r.proven);
  };
  SolveResult<G> so_far;
  try {
    try {
      return as_tuple(run_interruptible([&](Interrupt& interrupt) {
        try {
          return solver(g, opt, interrupt, &so_far);
        } catch (const Interrupted&) {
          if (progress.error) throw ProgressFailed{};
          throw;
        }
      }));
    } catch (const ProgressFailed&) {
      throw *progress.error;
    }
  } catch (py::error_already_set& e) {
    // Ctrl-C: the KeyboardInterrupt carries what the search found, for patience_engine.solve().
    if (e.matches(PyExc_KeyboardInterrupt)) py::setattr(e.value(), "_so_far", as_tuple(so_far));
    throw;
  }
}

// solve of a G position on one thread (solve_position_with()).
template <class G>
py::tuple solve_position(const py::handle& state, const SolveOptions& opt,
                         SolveProgress& progress) {
  return solve_position_with<G>(
      state, opt, progress, [](const G& g, const SolveOptions& o, Interrupt& i, SolveResult<G>* s) {
        return solve(g, o, i, s);
      });
}

// The TypeError of function() given state, not a position of a C++ game: it names the games, and
// the module of a class of the same name (the reference's). A C++ game class itself gets a hint.
[[noreturn]] inline void throw_not_a_position(const py::handle& state,
                                              const std::string& function) {
  const auto& games = game_functions();
  std::string names;
  for (std::size_t i = 0; i < games.size(); ++i)
    names += std::string(i == 0 ? "" : i + 1 == games.size() ? " or " : ", ") + games[i].name;
  const bool is_class = py::isinstance<py::type>(state);
  const py::handle cls = is_class ? state : py::handle(py::type::of(state));
  const std::string name = py::str(cls.attr("__qualname__"));
  const std::string module = py::str(cls.attr("__module__"));
  bool same_name = false;
  for (const auto& game : games) same_name = same_name || name == game.name;
  const bool ours = same_name && module == "patience_engine._core";
  // type_name() says "the class X" for a class.
  std::string got =
      same_name && !ours ? (is_class ? "the class " : "") + qualified_name(cls) : type_name(state);
  if (is_class && ours) got += ", not a position of it (" + name + ".deal(n) makes one)";
  throw py::type_error(function + "() expects a patience_engine position (" + names + "), got " +
                       got);
}

// The game whose position state is; otherwise throw_not_a_position().
inline const GameFunctions& game_of(const py::handle& state, const std::string& function) {
  for (const auto& game : game_functions())
    if (game.holds(state)) return game;
  throw_not_a_position(state, function);
}

// perft and solve, one function each for every game bound before (the arguments are taken as
// any object and checked here, so a wrong one gets a one-line TypeError, not pybind11's list of
// overloads).
inline void bind_position_functions(py::module_& m) {
  m.def(
      "perft",
      [](const py::object& state, const py::object& depth, const py::object& bulk,
         const py::object& num_threads) {
        const GameFunctions& game = game_of(state, "perft");
        const int d = perft_depth(depth);
        const bool b = bool_argument(bulk, "perft bulk");
        const int threads = threads_argument(num_threads);
        return threads == 1 ? game.perft(state, d, b) : game.perft_threaded(state, d, b, threads);
      },
      py::arg("state"), py::arg("depth"), py::arg("bulk") = true, py::kw_only(),
      py::arg("num_threads") = 1,
      "The number of legal move sequences of depth moves from state (nodes, an int; Perft in "
      "docs/rules.md); state is not changed. bulk counts the last ply's moves without making them "
      "(the same count, faster). num_threads (0 .. 1024; 0: every core the process may use) "
      "splits the tree below the root over threads: the same count, sooner. Releases the GIL; "
      "Ctrl-C raises KeyboardInterrupt. Raises TypeError for a state that is not a position of a "
      "game of patience_engine.GAMES, a non-int depth or num_threads or a non-bool bulk, and "
      "ValueError for a depth outside 0 .. MAX_PERFT_DEPTH or num_threads outside 0 .. 1024.");

  // solve(state, node_limit, time_limit, table_bytes, pruning, progress=None, num_threads=1) ->
  // (status, moves, score, nodes, proven), also attached to a KeyboardInterrupt as _so_far.
  // Private: it takes the limits as patience_engine.solve() (solver.py) checked them, the one place
  // they are checked, and wraps the tuple. progress(nodes, best_score), when given, is called at
  // the interrupt polls; an error it raises stops the search and is raised again. num_threads
  // other than 1 solves on that many threads (0: usable_cores()), G's threaded calls.
  m.def(
      "solve",
      [](const py::object& state, std::optional<std::uint64_t> node_limit,
         std::optional<double> time_limit, std::size_t table_bytes, const py::object& pruning,
         const py::object& progress, const py::object& num_threads) {
        const GameFunctions& game = game_of(state, "solve");
        SolveOptions opt;
        SolveProgress report{progress, std::nullopt};
        if (!progress.is_none()) {
          opt.progress = [](void* ctx, std::uint64_t nodes, int best_score) {
            auto& p = *static_cast<SolveProgress*>(ctx);
            py::gil_scoped_acquire gil;
            try {
              p.call(nodes, best_score);
              return false;
            } catch (py::error_already_set& e) {
              p.error.emplace(std::move(e));
              return true;
            }
          };
          opt.progress_ctx = &report;
        }
        opt.node_limit = node_limit.value_or(0);
        opt.time_limit = time_limit.value_or(0.0);
        opt.table_bytes = table_bytes;
        opt.pruning = bool_argument(pruning, "solve pruning");
        const int threads = threads_argument(num_threads);
        return threads == 1 ? game.solve(state, opt, report)
                            : game.solve_threaded(state, opt, report, threads);
      },
      py::arg("state"), py::arg("node_limit"), py::arg("time_limit"), py::arg("table_bytes"),
      py::arg("pruning"), py::arg("progress") = py::none(), py::arg("num_threads") = 1);
}

}  // namespace pe
