// One pybind11 binding for all three games; a game's bind_<game>.cpp calls bind_game<G>() with
// SolverRules<G> (core/search.hpp) declared first. A game type G provides:
//   using Move (trivially copyable; operator== compares what the move is, id() a 64-bit
//     identity for Python's hash), using Undo (what make() needs to be taken back),
//   kName, kMoveName (the Python class names), kMaxMoves (capacity of a move buffer),
//   static G deal(uint64_t), static G from_text(std::string_view) (throws ParseError),
//   static Move parse_move(std::string_view) (throws ParseError), static std::string
//   move_text(const Move&), std::string to_text() const,
//   int generate(Move* out) const, int count_moves() const, int count_after(const Move&, int
//     moves_here) const (legal moves after a legal move, count_moves() here given),
//   Undo make(const Move&) (the move must be legal), void unmake(const Move&, const Undo&),
//   uint64_t hash() const, uint64_t canonical_hash() const, bool is_won() const,
//   int score() const, bool operator==(const G&) const.
// Optional: count_two_plies() and count_three_plies() (core/perft.hpp); for the solver,
// child_canonical_hash(const Move&) (core/search.hpp).
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/perft.hpp"
#include "core/search.hpp"

namespace pe {
// Arguments taken as any Python object and checked by the function itself, so that a wrong type
// gets the reference's TypeError rather than pybind11's list of overloads; signatures still read
// "text: str" and "move: <Game>Move | str".
struct Text {
  pybind11::object obj;
};
template <class Move>
struct MoveOrText {
  pybind11::object obj;
};
}  // namespace pe

namespace pybind11::detail {
template <>
struct type_caster<pe::Text> {
  PYBIND11_TYPE_CASTER(pe::Text, const_name("str"));
  // Takes anything; the function checks the type.
  bool load(handle src, bool) {
    value.obj = reinterpret_borrow<object>(src);
    return true;
  }
  static handle cast(const pe::Text& t, return_value_policy, handle) { return t.obj.inc_ref(); }
};
template <class Move>
struct type_caster<pe::MoveOrText<Move>> {
  PYBIND11_TYPE_CASTER(pe::MoveOrText<Move>, make_caster<Move>::name + const_name(" | str"));
  // Takes anything; the function checks the type.
  bool load(handle src, bool) {
    value.obj = reinterpret_borrow<object>(src);
    return true;
  }
  static handle cast(const pe::MoveOrText<Move>& m, return_value_policy, handle) {
    return m.obj.inc_ref();
  }
};
}  // namespace pybind11::detail

namespace pe {
namespace py = pybind11;

// A game position seen from Python: the position, where it started and the moves played.
template <class G>
struct PyState {
  G root;
  G pos;
  std::vector<std::pair<typename G::Move, typename G::Undo>> history;
  explicit PyState(const G& g) : root(g), pos(g) {}
};

// patience_engine.IllegalMoveError, defined in pure Python so the reference raises the same type.
inline py::object illegal_move_error() {
  return py::module_::import("patience_engine._errors").attr("IllegalMoveError");
}

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

// The UTF-8 of a text argument (only a str gets here). A lone surrogate, which has no UTF-8
// form, is written as its three bytes all the same ("surrogatepass"): it is no card or number,
// so parsing refuses it with the reference's message, and quote() shows it escaped.
inline std::string utf8(const py::str& text) {
  Py_ssize_t size = 0;
  if (const char* data = PyUnicode_AsUTF8AndSize(text.ptr(), &size))
    return std::string(data, static_cast<std::size_t>(size));
  PyErr_Clear();
  const py::bytes bytes = py::reinterpret_steal<py::bytes>(
      PyUnicode_AsEncodedString(text.ptr(), "utf-8", "surrogatepass"));
  if (!bytes) throw py::error_already_set();
  return std::string(bytes);
}

// The __name__ of o's type, for error messages.
inline std::string type_name(const py::handle& o) {
  return py::str(py::type::of(o).attr("__name__"));
}

// type_name(o), with its module when it is the name expected (a move of the other implementation).
inline std::string other_type_name(const py::handle& o, const std::string& expected) {
  const std::string name = type_name(o);
  if (name != expected) return name;
  return std::string(py::str(py::type::of(o).attr("__module__"))) + "." + name;
}

// The UTF-8 bytes of a str argument; TypeError "<what> must be a str, got <type>" (the reference's
// wording) for anything else.
inline std::string text_argument(const Text& text, const char* what) {
  if (!py::isinstance<py::str>(text.obj))
    throw py::type_error(std::string(what) + " must be a str, got " + type_name(text.obj));
  return utf8(py::reinterpret_borrow<py::str>(text.obj));
}

// Reads a deal number as an unsigned 64-bit value, or raises ValueError.
inline std::uint64_t deal_number(const py::object& n) {
  if (!py::isinstance<py::int_>(n) || py::isinstance<py::bool_>(n))
    throw py::type_error("deal number must be an int, got " + type_name(n));
  if (n < py::int_(0) || n >= py::int_(1).attr("__lshift__")(64))
    throw py::value_error("deal number must be in 0 .. 2**64-1, got " + std::string(py::str(n)));
  return n.cast<std::uint64_t>();
}

// Reads a perft depth: an int in 0 .. kMaxPerftDepth (TypeError or ValueError otherwise).
inline int perft_depth(const py::object& depth) {
  if (!py::isinstance<py::int_>(depth) || py::isinstance<py::bool_>(depth))
    throw py::type_error("perft depth must be an int, got " +
                         std::string(py::str(py::type::of(depth).attr("__name__"))));
  if (depth < py::int_(0) || depth > py::int_(kMaxPerftDepth))
    throw py::value_error("perft depth must be in 0 .. " + std::to_string(kMaxPerftDepth) +
                          ", got " + std::string(py::str(depth)));
  return depth.cast<int>();
}

// tp_new of every bound class: calls the class's own __new__ (own_new()), as CPython's generic
// slot_tp_new would, but as a function of its own. CPython lets a base's __new__ (object's,
// pybind11_object's) make an instance of a class only when the class's tp_new is that generic
// one or the base's own; with this one both refuse ("pybind11_object.__new__(X) is not safe").
extern "C" inline PyObject* call_own_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  PyObject* own = PyObject_GetAttrString(reinterpret_cast<PyObject*>(type), "__new__");
  if (!own) return nullptr;
  const Py_ssize_t n = PyTuple_GET_SIZE(args);
  PyObject* with_type = PyTuple_New(n + 1);
  if (!with_type) {
    Py_DECREF(own);
    return nullptr;
  }
  Py_INCREF(type);
  PyTuple_SET_ITEM(with_type, 0, reinterpret_cast<PyObject*>(type));
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* arg = PyTuple_GET_ITEM(args, i);
    Py_INCREF(arg);
    PyTuple_SET_ITEM(with_type, i + 1, arg);
  }
  PyObject* made = PyObject_Call(own, with_type, kwargs);
  Py_DECREF(with_type);
  Py_DECREF(own);
  return made;
}

// pybind11's tp_new for pybind11_object itself, and for a type with no bound C++ class under it:
// pybind11 would abort the process ("instance allocation failed"); this raises TypeError.
// Every other type goes on to pybind11's own allocation.
extern "C" inline PyObject* checked_object_new(PyTypeObject* type, PyObject* args,
                                               PyObject* kwargs) {
  if (reinterpret_cast<PyObject*>(type) == py::detail::get_internals().instance_base ||
      py::detail::all_type_info(type).empty()) {
    PyErr_Format(PyExc_TypeError, "%s cannot be made: it is no game or move class", type->tp_name);
    return nullptr;
  }
  return py::detail::pybind11_object_new(type, args, kwargs);
}

// Makes make(type, *args, **kwargs) the only way from Python to an instance of cls: make must
// return a fully built instance or raise. pybind11's own __new__ returns an instance whose C++
// value is not constructed until __init__ runs (a method reached before reads raw memory), and
// CPython would let pybind11_object.__new__ or object.__new__ make one whenever cls's tp_new is
// the generic slot_tp_new: call_own_new() closes both ways. pybind11_object's own tp_new gets
// checked_object_new(), so that no base of cls can end the process either.
template <class Class, class Make>
void own_new(Class& cls, Make make) {
  cls.attr("__new__") = py::cpp_function(make);
  auto* type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  type->tp_new = call_own_new;
  PyType_Modified(type);
  auto* base = reinterpret_cast<PyTypeObject*>(py::detail::get_internals().instance_base);
  if (base->tp_new != checked_object_new) {
    base->tp_new = checked_object_new;
    PyType_Modified(base);
  }
}

// Registers G's move class, G's position class and perft and solve overloads on module m;
// returns the move class, to which the game's own binding adds its properties.
template <class G>
py::class_<typename G::Move> bind_game(py::module_& m, const char* doc) {
  using Move = typename G::Move;
  using State = PyState<G>;
  auto text_of = [](const Move& mv) { return G::move_text(mv); };

  // A move argument: a Move, or its text; TypeError worded as the reference's for anything else.
  const auto move_of = [](const MoveOrText<Move>& arg) -> Move {
    if (py::isinstance<Move>(arg.obj)) return arg.obj.template cast<Move>();
    if (py::isinstance<py::str>(arg.obj))
      return G::parse_move(utf8(py::reinterpret_borrow<py::str>(arg.obj)));
    throw py::type_error(std::string("expected a ") + G::kMoveName + " or its text, got " +
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

  auto find_legal = [](const State& s, const Move& mv) -> std::optional<Move> {
    Move moves[G::kMaxMoves];
    const int n = s.pos.generate(moves);
    for (int i = 0; i < n; ++i)
      if (moves[i] == mv) return moves[i];
    return std::nullopt;
  };
  auto play = [find_legal](State& s, const Move& mv) {
    std::optional<Move> legal = find_legal(s, mv);
    if (!legal) {
      PyErr_SetString(
          illegal_move_error().ptr(),
          ("illegal move " + G::move_text(mv) + ": not legal in this position").c_str());
      throw py::error_already_set();
    }
    s.history.emplace_back(*legal, s.pos.make(*legal));
  };
  py::class_<State> cls(m, G::kName, doc, py::is_final());
  cls.attr("Move") = move;
  cls.def_static(
         "deal", [](const py::object& n) { return State(G::deal(deal_number(n))); }, py::arg("n"),
         "Numbered deal n, 0 <= n < 2**64 (docs/rules.md \"Numbered deals\"). Raises ValueError "
         "out of range.")
      .def_static(
          "from_text",
          [](const Text& text) {
            return State(G::from_text(text_argument(text, "position text")));
          },
          py::arg("text"),
          "Reads a position in the game's text format. Raises ValueError naming the line and "
          "token.")
      .def_static(
          "parse_move",
          [](const Text& text) { return G::parse_move(text_argument(text, "move text")); },
          py::arg("text"), "Reads a move's notation. Raises ValueError naming what is wrong.")
      .def(
          "to_text", [](const State& s) { return s.pos.to_text(); },
          "The position in the game's text format.")
      .def("__str__", [](const State& s) { return s.pos.to_text(); })
      .def("__repr__",
           [](const State& s) {
             return std::string(G::kName) + ".from_text(" +
                    std::string(py::repr(py::str(s.pos.to_text()))) + ")";
           })
      .def(
          "legal_moves",
          [](const State& s) {
            Move moves[G::kMaxMoves];
            const int n = s.pos.generate(moves);
            return std::vector<Move>(moves, moves + n);
          },
          "The legal moves of the position, as a list of moves.")
      .def(
          "is_legal",
          [find_legal, move_of](const State& s, const MoveOrText<Move>& mv) {
            return find_legal(s, move_of(mv)).has_value();
          },
          py::arg("move"), "Whether the move (or its text) is legal in this position.")
      .def(
          "play", [play, move_of](State& s, const MoveOrText<Move>& mv) { play(s, move_of(mv)); },
          py::arg("move"),
          "Plays a move (or its text). Raises IllegalMoveError, leaving the position unchanged.")
      .def(
          "undo",
          [](State& s) {
            if (s.history.empty()) throw py::index_error("undo: no move to take back");
            auto [mv, undo] = s.history.back();
            s.pos.unmake(mv, undo);
            s.history.pop_back();
            return mv;
          },
          "Takes back the last move and returns it. Raises IndexError when there is none.")
      .def_property_readonly(
          "move_stack",
          [](const State& s) {
            std::vector<Move> moves;
            for (const auto& entry : s.history) moves.push_back(entry.first);
            return moves;
          },
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
      .def_property_readonly(
          "is_won", [](const State& s) { return s.pos.is_won(); },
          "True when the game is won (docs/rules.md, the game's section).")
      .def_property_readonly(
          "is_over", [](const State& s) { return s.pos.count_moves() == 0; },
          "True when no move is legal.")
      .def_property_readonly(
          "score", [](const State& s) { return s.pos.score(); },
          "Germaine: its score (docs/rules.md \"Germaine 2-Move\"); Royal Marriage: cards removed; "
          "Geoffrey: cards home.")
      .def("__reduce__", [](const py::object& self) {
        // The same pure-Python replay as the reference: the start position and the move texts.
        const State& s = self.cast<const State&>();
        std::vector<std::string> moves;
        for (const auto& entry : s.history) moves.push_back(G::move_text(entry.first));
        return py::make_tuple(py::module_::import("patience_engine._replay").attr("replay"),
                              py::make_tuple(py::type::of(self), s.root.to_text(), moves));
      });
  cls.attr("__hash__") = py::none();
  // A position comes only from deal(), from_text(), copy() and the like, which build it in C++.
  own_new(cls, [](const py::handle&, const py::args&, const py::kwargs&) -> py::object {
    const std::string name = G::kName;
    throw py::type_error(name + " cannot be made that way: use " + name + ".deal(n) or " + name +
                         ".from_text(text)");
  });

  m.def(
      "perft",
      [](const State& s, const py::object& depth_arg, bool bulk) {
        const int depth = perft_depth(depth_arg);
        G g = s.pos;
        return run_interruptible(
            [&](Interrupt& interrupt) { return perft(g, depth, bulk, interrupt); });
      },
      py::arg("state"), py::arg("depth"), py::arg("bulk") = true);

  // solve(state, node_limit, time_limit, table_bytes, pruning, progress=None) -> (status, moves,
  // score, nodes, proven), also attached to a KeyboardInterrupt as _so_far; patience_engine.solve()
  // checks the arguments and wraps the tuple. progress(nodes, best_score), when given, is called
  // at the interrupt polls; an error it raises stops the search and is raised again.
  m.def(
      "solve",
      [](const State& s, std::optional<std::uint64_t> node_limit, std::optional<double> time_limit,
         std::size_t table_bytes, bool pruning, const py::object& progress) {
        SolveOptions opt;
        // The progress callable, and the error it raised (which stopped the search).
        struct Progress {
          const py::object& call;
          std::optional<py::error_already_set> error;
        } report{progress, std::nullopt};
        struct ProgressFailed {};
        if (!progress.is_none()) {
          opt.progress = [](void* ctx, std::uint64_t nodes, int best_score) {
            auto& p = *static_cast<Progress*>(ctx);
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
        opt.pruning = pruning;
        if ((node_limit && *node_limit == 0) ||
            (time_limit && !(*time_limit > 0 && std::isfinite(*time_limit))))
          throw py::value_error("solve: node_limit and time_limit must be positive and finite");
        const G g = s.pos;
        const auto as_tuple = [](const SolveResult<G>& r) {
          static const char* const kStatus[] = {"won", "lost", "unknown"};
          return py::make_tuple(kStatus[static_cast<int>(r.status)], r.line, r.score, r.nodes,
                                r.proven);
        };
        SolveResult<G> so_far;
        try {
          try {
            return as_tuple(run_interruptible([&](Interrupt& interrupt) {
              try {
                return solve(g, opt, interrupt, &so_far);
              } catch (const Interrupted&) {
                if (report.error) throw ProgressFailed{};
                throw;
              }
            }));
          } catch (const ProgressFailed&) {
            throw *report.error;
          }
        } catch (py::error_already_set& e) {
          // Ctrl-C: the KeyboardInterrupt carries what the search found, for
          // patience_engine.solve().
          if (e.matches(PyExc_KeyboardInterrupt))
            py::setattr(e.value(), "_so_far", as_tuple(so_far));
          throw;
        }
      },
      py::arg("state"), py::arg("node_limit"), py::arg("time_limit"), py::arg("table_bytes"),
      py::arg("pruning"), py::arg("progress") = py::none());
  return move;
}

}  // namespace pe
