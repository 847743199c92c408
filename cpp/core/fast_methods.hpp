// CPython-level methods of a game's position class for the calls a Python loop makes at every
// step (FastMethods<G>), in place of pybind11's.
#pragma once

#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstddef>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "core/py_state.hpp"
#include "core/pybind11_internals.hpp"

namespace pe {
namespace py = pybind11;

// The Python ints 0 .. G::kNumActions - 1, made once (at binding) and kept for the life of the
// process: legal_actions() lists them rather than making an int per action, as most actions lie
// above CPython's cached small ints.
template <class G>
PyObject* const* action_ints() {
  static PyObject* const* const table = [] {
    auto* ints = new PyObject*[G::kNumActions];
    for (int a = 0; a < G::kNumActions; ++a)
      if (!(ints[a] = PyLong_FromLong(a))) throw py::error_already_set();
    return ints;
  }();
  return table;
}

// CPython-level methods for the calls a Python search or RL loop makes at every step:
// legal_actions(), legal_moves(), play() and is_legal() with an int action or a Move, score,
// is_over and is_won. pybind11's dispatcher spends about a thousand instructions on a call
// (argument casters, the overload loop), more than these calls' own work, and a list of moves
// made a Python object per move (move_object() makes one per action, once). play() and
// is_legal() handle the common case themselves and pass every other call, unchanged, to the
// pybind11 function they replace, so argument types, errors and messages stay that function's;
// the others take no argument and have no pybind11 twin. The position classes are final, so self
// is exactly the bound type.
template <class G>
struct FastMethods {
  using State = PyState<G>;
  using Move = typename G::Move;
  static inline PyTypeObject* move_type = nullptr;
  static inline PyObject* slow_play = nullptr;  // the replaced functions, kept for the process
  static inline PyObject* slow_is_legal = nullptr;
  static inline PyMethodDef defs[4] = {};
  static inline PyGetSetDef properties[3] = {};
  static inline std::string docs[4];

  static State& state(PyObject* self) { return instance_value<State>(self); }

  // The legal move a lone positional argument names when it is an exact int action or a Move
  // (the class is final: its exact type); nullopt for anything else, or a move not legal here.
  static std::optional<Move> legal_move(const State& s, PyObject* const* args, Py_ssize_t nargs,
                                        PyObject* kwnames) {
    if (nargs != 1 || kwnames) return std::nullopt;
    PyObject* arg = args[0];
    if (PyLong_CheckExact(arg)) {
      int overflow = 0;
      const long v = PyLong_AsLongAndOverflow(arg, &overflow);
      if (overflow || v < 0 || v >= G::kNumActions || !legal_action(s.pos, static_cast<int>(v)))
        return std::nullopt;
      return s.pos.move_at(static_cast<int>(v));
    }
    if (Py_TYPE(arg) == move_type) {
      return legal_equal(s.pos, instance_value<Move>(arg));
    }
    return std::nullopt;
  }

  // The call as the pybind11 function `slow` takes it: self first.
  static PyObject* call_slow(PyObject* slow, PyObject* self, PyObject* const* args,
                             Py_ssize_t nargs, PyObject* kwnames) {
    const Py_ssize_t total = nargs + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
    PyObject* small[4];
    std::vector<PyObject*> large;
    PyObject** with_self = small;
    if (total + 1 > 4) {
      try {
        large.resize(static_cast<std::size_t>(total) + 1);
      } catch (const std::bad_alloc&) {
        return PyErr_NoMemory();
      }
      with_self = large.data();
    }
    with_self[0] = self;
    std::copy(args, args + total, with_self + 1);
    return PyObject_Vectorcall(slow, with_self, static_cast<std::size_t>(nargs) + 1, kwnames);
  }

  // A new list of item(action), a new reference, for each legal action, ascending.
  template <class Item>
  static PyObject* legal_list(PyObject* self, Item item) {
    StoredAction actions[G::kMaxMoves];
    const int n = state(self).pos.legal_actions(actions);
    PyObject* out = PyList_New(n);
    if (!out) return nullptr;
    try {
      for (int i = 0; i < n; ++i) PyList_SET_ITEM(out, i, item(actions[i]));
    } catch (py::error_already_set& e) {
      Py_DECREF(out);
      e.restore();
      return nullptr;
    } catch (const std::bad_alloc&) {
      Py_DECREF(out);
      return PyErr_NoMemory();
    }
    return out;
  }

  static PyObject* legal_actions(PyObject* self, PyObject*) {
    return legal_list(self, [ints = action_ints<G>()](StoredAction a) {
      Py_INCREF(ints[a]);
      return ints[a];
    });
  }

  static PyObject* legal_moves(PyObject* self, PyObject*) {
    return legal_list(self, [](StoredAction a) { return action_object<G>(a).release().ptr(); });
  }

  static PyObject* play(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                        PyObject* kwnames) {
    State& s = state(self);
    const std::optional<Move> legal = legal_move(s, args, nargs, kwnames);
    if (!legal) return call_slow(slow_play, self, args, nargs, kwnames);
    try {
      s.play(*legal);
    } catch (const std::bad_alloc&) {
      return PyErr_NoMemory();
    }
    Py_RETURN_NONE;
  }

  static PyObject* is_legal(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                            PyObject* kwnames) {
    if (legal_move(state(self), args, nargs, kwnames)) Py_RETURN_TRUE;
    return call_slow(slow_is_legal, self, args, nargs, kwnames);
  }

  // Puts method k, named name, on cls: in place of the pybind11 function of that name, whose
  // docstring it keeps and to which it passes what it does not handle (slow), or new, with doc.
  static void install(py::class_<State>& cls, int k, const char* name, PyCFunction fn, int flags,
                      const char* doc = nullptr, PyObject** slow = nullptr) {
    if (slow) {
      const py::handle replaced = method_function(cls, name);
      docs[k] = py::str(replaced.attr("__doc__"));
      one_line_argument_errors(replaced);
      *slow = replaced.inc_ref().ptr();
    } else {
      docs[k] = doc;
    }
    defs[k] = PyMethodDef{name, fn, flags, docs[k].c_str()};
    const auto type = reinterpret_cast<PyTypeObject*>(cls.ptr());
    const py::object method = py::reinterpret_steal<py::object>(PyDescr_NewMethod(type, &defs[k]));
    if (!method) throw py::error_already_set();
    cls.attr(name) = method;
  }

  static PyObject* score(PyObject* self, void*) { return PyLong_FromLong(state(self).pos.score()); }
  static PyObject* is_over(PyObject* self, void*) {
    return PyBool_FromLong(state(self).pos.count_moves() == 0);
  }
  static PyObject* is_won(PyObject* self, void*) {
    return PyBool_FromLong(state(self).pos.is_won());
  }

  // Puts read-only property k, named name, on cls.
  static void install_property(py::class_<State>& cls, int k, const char* name, getter get,
                               const char* doc) {
    properties[k] = PyGetSetDef{name, get, nullptr, doc, nullptr};
    const auto type = reinterpret_cast<PyTypeObject*>(cls.ptr());
    const py::object property =
        py::reinterpret_steal<py::object>(PyDescr_NewGetSet(type, &properties[k]));
    if (!property) throw py::error_already_set();
    cls.attr(name) = property;
  }

  static void install_all(py::class_<State>& cls, const py::class_<Move>& move) {
    move_type = reinterpret_cast<PyTypeObject*>(move.ptr());
    action_ints<G>();
    const auto fast = [](auto f) {
      return reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(f));
    };
    // A text signature ("name($self, /)" and "--") lets inspect.signature() read the method.
    install(cls, 0, "legal_actions", legal_actions, METH_NOARGS,
            "legal_actions($self, /)\n--\n\nThe legal moves' actions, ascending: a list of ints "
            "(docs/rl.md \"Actions\").");
    install(cls, 1, "play", fast(play), METH_FASTCALL | METH_KEYWORDS, nullptr, &slow_play);
    install(cls, 2, "is_legal", fast(is_legal), METH_FASTCALL | METH_KEYWORDS, nullptr,
            &slow_is_legal);
    install(cls, 3, "legal_moves", legal_moves, METH_NOARGS,
            "legal_moves($self, /)\n--\n\nThe legal moves of the position, as a list of moves in "
            "ascending action order.");
    install_property(cls, 0, "score", score,
                     "The score, an int (docs/rules.md): Germaine as its rules say; Royal "
                     "Marriage: 52 minus the cards in the row; Geoffrey: the cards home.");
    install_property(cls, 1, "is_over", is_over, "True when no move is legal.");
    install_property(cls, 2, "is_won", is_won,
                     "True when the game is won (docs/rules.md, the game's section).");
  }
};

}  // namespace pe
