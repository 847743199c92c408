// The reinforcement-learning interface of a game's classes (docs/rl.md), and the game's entry
// for VectorGame and playouts (core/bind_vector.hpp).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/bind_args.hpp"
#include "core/bind_position.hpp"
#include "core/bind_vector.hpp"
#include "core/py_state.hpp"
#include "core/threaded.hpp"

namespace pe {
namespace py = pybind11;

// The reinforcement-learning interface of docs/rl.md on G's move and position classes: the
// constants, move.action, move_of(), legal_action_mask(), observation() and determinize()
// (legal_actions() is one of FastMethods).
template <class G>
void bind_rl(py::class_<typename G::Move>& move, py::class_<PyState<G>>& cls) {
  using Move = typename G::Move;
  using State = PyState<G>;
  move.def_property_readonly(
      "action",
      [](const Move& mv) {
        const int a = G::action(mv);
        if (a < 0)
          throw py::value_error("move " + G::move_text(mv) +
                                " has no action: it can never be legal");
        return a;
      },
      "The move's action, an int in 0 .. NUM_ACTIONS - 1 that does not depend on the position "
      "(docs/rl.md \"Actions\"). Raises ValueError for a move that can never be legal (a Royal "
      "Marriage move that removes QH or KH).");
  py::tuple shape(G::kObservationShape.size());
  for (std::size_t i = 0; i < G::kObservationShape.size(); ++i)
    shape[i] = py::int_(G::kObservationShape[i]);
  cls.attr("NUM_ACTIONS") = G::kNumActions;
  cls.attr("OBSERVATION_SHAPE") = shape;
  cls.attr("OBSERVATION_DTYPE") = "uint8";
  cls.attr("DEFAULT_MAX_MOVES") = G::kDefaultMaxMoves;
  cls.def_static(
         "move_of",
         [](const py::object& action) {
           return G::move_of_action(action_number(action, G::kNumActions));
         },
         py::arg("action"),
         "The move whose action is action (docs/rl.md \"Actions\"). Raises TypeError for a "
         "non-int (bool included) and ValueError for an int outside 0 .. NUM_ACTIONS - 1 or one "
         "that names no move (a Germaine direction off the grid).")
      .def(
          "legal_action_mask",
          [](const State& s) {
            auto mask = zeroed_array<bool>(std::array<int, 1>{G::kNumActions});
            StoredAction actions[G::kMaxMoves];
            const int n = s.pos.legal_actions(actions);
            bool* out = mask.mutable_data();
            for (int i = 0; i < n; ++i) out[actions[i]] = true;
            return mask;
          },
          "A numpy bool array of shape (NUM_ACTIONS,), True at each legal action.")
      .def(
          "observation",
          [](const State& s, const py::object& hidden) {
            auto obs = zeroed_array<std::uint8_t>(G::kObservationShape);
            s.pos.observe(obs.mutable_data(), bool_argument(hidden, "hidden"));
            return obs;
          },
          py::arg("hidden") = false,
          "The position as a numpy uint8 array of shape OBSERVATION_SHAPE, entries 0 or 1 "
          "(docs/rl.md \"Observations\"). hidden=True shows only where face-down cards lie, never "
          "which they are (a game without face-down cards has none). Raises TypeError for a "
          "non-bool hidden.")
      .def(
          "determinize",
          [](const State& s, const py::object& seed) {
            const std::uint64_t n = deal_number(seed, "seed");
            if constexpr (G::kHasFaceDown) return State(s.pos.determinize(n));
            return State(s);
          },
          py::arg("seed"),
          "A position consistent with what the player sees (docs/rl.md \"Determinization\"): the "
          "face-down cards drawn uniformly from the cards not in view with the SplitMix64 "
          "shuffle seeded by seed; a game without face-down cards returns copy(). Raises "
          "TypeError for a non-int seed and ValueError outside 0 .. 2**64-1.");
}

// Makes G known to VectorGame and playouts (core/bind_vector.hpp).
template <class G>
void register_vector_game(const py::class_<PyState<G>>& cls) {
  using State = PyState<G>;
  vector_entries().push_back(VectorEntry{
      cls, G::kNumActions, G::kDefaultMaxMoves, VectorGame<G>::bytes_per_position(),
      std::vector<py::ssize_t>(G::kObservationShape.begin(), G::kObservationShape.end()),
      [](int num_envs, int max_moves, bool hidden, int threads) -> std::unique_ptr<AnyVectorGame> {
        return std::make_unique<AnyVectorGameOf<G, State>>(num_envs, max_moves, hidden, threads);
      },
      [](const py::handle& state, std::int64_t n, std::uint64_t seed, int max_moves, int threads,
         std::int32_t* out) {
        if (threads > 1)
          return threaded_game<G>().playouts(state, n, seed, max_moves, threads, out);
        const G start = state.cast<const State&>().pos;
        run_interruptible(
            [&](Interrupt& interrupt) { playouts(start, 0, n, seed, max_moves, out, interrupt); });
      }});
}

}  // namespace pe
