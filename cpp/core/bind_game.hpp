// The binding of a game's move and position classes: a game's bind_<game>.cpp calls
// bind_game<G>() with SolverRules<G> declared first. What G provides: core/game_concept.hpp.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/bind_args.hpp"
#include "core/bind_position.hpp"
#include "core/bind_rl.hpp"
#include "core/fast_methods.hpp"
#include "core/game_concept.hpp"
#include "core/py_state.hpp"
#include "core/pybind11_internals.hpp"

namespace pe {
namespace py = pybind11;

// Registers G's move class and G's position class on module m, and G's perft and solve for
// bind_position_functions(); returns the move class, to which the game's own binding adds its
// properties.
template <class G>
py::class_<typename G::Move> bind_game(py::module_& m) {
  static_assert(check_game<G>());
  using Move = typename G::Move;
  using State = PyState<G>;
  auto text_of = [](const Move& mv) { return G::move_text(mv); };

  // A move argument: a Move, its text or its action; TypeError worded as the reference's for
  // anything else. An action in the space that names no move is an IllegalMoveError with
  // move_of()'s reason: no position allows it (is_legal() answers False, a batch refuses it).
  // An action first: its test is a type-slot check, where a Move's looks up pybind11's type table.
  const auto move_of = [](const MoveOrText<Move>& arg) -> Move {
    if (const py::object n = int_value(arg.obj)) {  // read once: __index__ may not answer alike
      const int a = action_number(n, G::kNumActions);
      try {
        return G::move_of_action(a);
      } catch (const ParseError& e) {
        raise_python(illegal_move_error().ptr(), parse_error_text(e));
      }
    }
    if (py::isinstance<Move>(arg.obj)) return arg.obj.template cast<Move>();
    if (py::isinstance<py::str>(arg.obj))
      return G::parse_move(utf8(py::reinterpret_borrow<py::str>(arg.obj)));
    if (other_implementations_move(arg.obj, G::kMoveName))
      return G::parse_move(utf8(py::str(arg.obj)));
    throw py::type_error(std::string("expected a ") + G::kMoveName +
                         ", its text or an int action, got " +
                         other_type_name(arg.obj, G::kMoveName));
  };
  py::class_<Move> move(
      m, G::kMoveName,
      "A move of this game; str() is its notation (docs/rules.md \"Move notation\").",
      py::is_final());
  move.def(py::init(
               [](const Text& text) { return G::parse_move(text_argument(text, "move text")); }),
           py::arg("text"), "Reads a move's notation. Raises ValueError naming what is wrong.")
      .def("__str__", text_of)
      .def("__repr__",
           [](const Move& mv) {
             return std::string(G::kMoveName) + "(" +
                    std::string(py::repr(py::str(G::move_text(mv)))) + ")";
           })
      .def(
          "__eq__", [](const Move& a, const Move& b) { return a == b; }, py::is_operator())
      .def(
          "__eq__", [](const Move&, const py::object&) { return false; }, py::is_operator())
      .def("__hash__", [](const Move& mv) { return py::hash(py::int_(mv.id())); })
      .def("__reduce__", [](const py::object& self) {
        return py::make_tuple(py::type::of(self),
                              py::make_tuple(G::move_text(self.cast<const Move&>())));
      });
  // Move(text) and Move.__new__(Move, text) give a fully built move; __init__ then finds the
  // instance registered and, as pybind11 does for any second __init__, leaves it as it is.
  own_new(move, [move_type = py::handle(move)](const py::handle& type, const py::args& args,
                                               const py::kwargs& kwargs) {
    const std::string name = G::kMoveName;
    if (!type.is(move_type))
      throw py::type_error(name + ".__new__(" + std::string(py::repr(type)) + "): expected " +
                           name);
    if (args.size() + kwargs.size() != 1 || (kwargs.size() == 1 && !kwargs.contains("text")))
      throw py::type_error(name + " cannot be made that way: a move is made from its text, as in " +
                           name + "('...')");
    const py::object text = args.size() ? py::object(args[0]) : py::object(kwargs["text"]);
    return py::cast(G::parse_move(text_argument(Text{text}, "move text")));
  });

  auto play = [](State& s, const Move& mv) {
    const std::optional<Move> legal = legal_equal(s.pos, mv);
    if (!legal)
      raise_python(illegal_move_error().ptr(),
                   "illegal move " + G::move_text(mv) + ": not legal in this position");
    s.play(*legal);
  };
  py::class_<State> cls(m, G::kName, G::kDoc, py::is_final());
  cls.attr("Move") = move;
  cls.def_static(
         "deal", [](const py::object& n) { return State(G::deal(deal_number(n))); }, py::arg("n"),
         "Numbered deal n, 0 <= n < 2**64 (docs/rules.md \"Numbered deals\"). Raises ValueError "
         "out of range.")
      .def_static(
          "from_text",
          [](const Text& text) {
            const std::string owned = text_argument(text, "position text");
            std::string_view utf8 = owned;
            // A leading byte-order mark (U+FEFF), as editors on Windows write, is no token.
            constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
            if (utf8.substr(0, kByteOrderMark.size()) == kByteOrderMark)
              utf8.remove_prefix(kByteOrderMark.size());
            return State(G::from_text(utf8));
          },
          py::arg("text"),
          "Reads a position in the game's text format; a leading byte-order mark (U+FEFF) is "
          "dropped. Raises ValueError naming the line and token.")
      .def_static(
          "parse_move",
          [](const Text& text) { return G::parse_move(text_argument(text, "move text")); },
          py::arg("text"), "Reads a move's notation. Raises ValueError naming what is wrong.")
      .def(
          "to_text",
          [](const State& s, const py::object& hidden) {
            return s.pos.to_text(bool_argument(hidden, "hidden"));
          },
          py::arg("hidden") = false,
          "The position in the game's text format (docs/rules.md \"Text formats\"). hidden=True "
          "writes each face-down card as '(?\?)' (a game without face-down cards has none; "
          "docs/rl.md \"Hidden "
          "view\"), a text from_text() refuses. Raises TypeError for a non-bool hidden.")
      .def("__str__", [](const State& s) { return s.pos.to_text(); })
      .def("__repr__",
           [](const State& s) {
             return std::string(G::kName) + ".from_text(" +
                    std::string(py::repr(py::str(s.pos.to_text()))) + ")";
           })
      .def(
          "is_legal",
          [move_of](const State& s, const MoveOrText<Move>& mv) {
            if (const py::object n = int_value(mv.obj))
              return legal_action(s.pos, action_number(n, G::kNumActions));
            return legal_equal(s.pos, move_of(mv)).has_value();
          },
          py::arg("move"),
          "Whether the move (of either implementation, or its text, or its int action) is legal "
          "in this position; False for an action that names no move (a Germaine step off the "
          "grid). Raises TypeError for anything else; ValueError for bad move text or an int "
          "outside the action space.")
      .def(
          "play", [play, move_of](State& s, const MoveOrText<Move>& mv) { play(s, move_of(mv)); },
          py::arg("move"),
          "Plays a move (of either implementation, or its text, or its int action). Raises "
          "IllegalMoveError (a ValueError) for a move not legal here or an action that names no "
          "move (a Germaine step off the grid), leaving the position unchanged; TypeError for "
          "anything else; ValueError for bad move text or an int outside the action space.")
      .def(
          "undo", [](State& s) { return s.undo(); },
          "Takes back the last move and returns it. Raises IndexError when there is none.")
      .def_property_readonly(
          "move_stack", [](State& s) { return s.move_stack(); },
          "The moves played since the position was set up, oldest first.")
      .def(
          "copy", [](const State& s) { return State(s); },
          "An independent copy, move stack included.")
      .def("__copy__", [](const State& s) { return State(s); })
      .def(
          "__deepcopy__", [](const State& s, const py::object&) { return State(s); },
          py::arg("memo"))
      .def(
          "__eq__", [](const State& a, const State& b) { return a.pos == b.pos; },
          py::is_operator())
      .def(
          "__eq__", [](const State&, const py::object&) { return false; }, py::is_operator())
      .def_property_readonly(
          "hash", [](const State& s) { return s.pos.hash(); },
          "Zobrist key of the exact position: an unsigned 64-bit int.")
      .def_property_readonly(
          "canonical_hash", [](const State& s) { return s.pos.canonical_hash(); },
          "Zobrist key equal for positions alike up to the game's symmetries: an unsigned 64-bit "
          "int.")
      .def("__reduce__", [](const py::object& self) {
        // The same pure-Python replay as the reference: the start position and the move texts.
        const State& s = self.cast<const State&>();
        std::vector<std::string> moves;
        for (const auto& entry : s.history()) moves.push_back(G::move_text(entry.first));
        return py::make_tuple(py::module_::import("patience_engine._replay").attr("replay"),
                              py::make_tuple(py::type::of(self), s.root.to_text(), moves));
      });
  bind_rl<G>(move, cls);
  FastMethods<G>::install_all(cls, move);
  register_vector_game<G>(cls);
  cls.attr("__hash__") = py::none();
  // A position comes only from deal(), from_text(), copy() and the like, which build it in C++.
  own_new(cls, [](const py::handle&, const py::args&, const py::kwargs&) -> py::object {
    const std::string name = G::kName;
    throw py::type_error(name + " cannot be made that way: use " + name + ".deal(n) or " + name +
                         ".from_text(text)");
  });

  // perft() and solve() take any game's position: bind_position_functions() picks the game.
  game_functions().push_back(GameFunctions{
      G::kName, &holds_position<G>, &perft_position<G>,
      [](const py::handle& state, int depth, bool bulk, int threads) {
        return threaded_game<G>().perft(state, depth, bulk, threads);
      },
      &solve_position<G>,
      [](const py::handle& state, const SolveOptions& opt, SolveProgress& progress, int threads) {
        return threaded_game<G>().solve(state, opt, progress, threads);
      }});
  return move;
}

}  // namespace pe
