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

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/bind_vector.hpp"
#include "core/perft.hpp"
#include "core/rl.hpp"
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
  PYBIND11_TYPE_CASTER(pe::MoveOrText<Move>, make_caster<Move>::name + const_name(" | str | int"));
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

// The legal move of pos equal to mv (it carries pos's hints, as a Royal Marriage move's row
// position), nullopt when mv is not legal there. Always inlined: play(move) runs it at every step,
// and out of line it cost a Python loop of Royal Marriage moves 10% more instructions.
template <class G>
[[gnu::always_inline]] inline std::optional<typename G::Move> legal_equal(
    const G& pos, const typename G::Move& mv) {
  typename G::Move moves[G::kMaxMoves];
  const int n = pos.generate(moves);
  for (int i = 0; i < n; ++i)
    if (moves[i] == mv) return moves[i];
  return std::nullopt;
}

// Whether action a (in the space) is legal in pos: one of its legal actions, which are ascending.
template <class G>
bool legal_action(const G& pos, int a) {
  StoredAction actions[G::kMaxMoves];
  const int n = pos.legal_actions(actions);
  return std::binary_search(actions, actions + n, static_cast<StoredAction>(a));
}

// Raises a Python exception of this type with this message, out of a bound function.
[[noreturn]] inline void raise_python(PyObject* type, const std::string& message) {
  PyErr_SetString(type, message.c_str());
  throw py::error_already_set();
}

// The Python object of legal action a: one per action, made on first use and kept for the
// process, as a move is an immutable value. A Royal Marriage move's position hint is then 0,
// which is harmless: play() and is_legal() use the generated move equal to the one given, never a
// Python move's hint.
template <class G>
py::object action_object(int a) {
  static std::vector<PyObject*> made(G::kNumActions, nullptr);
  if (!made[a]) made[a] = py::cast(G::move_of_action(a)).release().ptr();
  return py::reinterpret_borrow<py::object>(made[a]);
}

// The Python object of move m: action_object() of its action, when it has one.
template <class G>
py::object move_object(const typename G::Move& m) {
  const int a = G::action(m);
  return a < 0 ? py::cast(m) : action_object<G>(a);
}

// A game position seen from Python: the position, where it started and the moves played.
// The moves played are kept with their Undos for C++ and, once read, as Python Move objects for
// move_stack, so that reading it copies a list as the reference does instead of making one
// Python object per move each time. play() makes no Python object (a loop of play() calls pays
// for none); move_stack and undo() make the missing ones, so every read gives the same objects.
// Only touched with the GIL.
template <class G>
class PyState {
 public:
  using Move = typename G::Move;
  G root;
  G pos;
  explicit PyState(const G& g) : root(g), pos(g) {}
  // A copy has a list of its own (holding the same immutable Move objects).
  PyState(const PyState& other)
      : root(other.root),
        pos(other.pos),
        history_(other.history_),
        moves_(py::reinterpret_steal<py::list>(
            PyList_GetSlice(other.moves_.ptr(), 0, PY_SSIZE_T_MAX))) {
    if (!moves_) throw py::error_already_set();
  }
  PyState(PyState&&) = default;
  PyState& operator=(const PyState&) = delete;
  PyState& operator=(PyState&&) = delete;

  const std::vector<std::pair<Move, typename G::Undo>>& history() const { return history_; }
  // A new list of the moves played, oldest first: the reference's semantics (a copy the caller
  // may change), at the cost of copying n pointers.
  py::list move_stack() {
    made_to(history_.size());
    return py::reinterpret_steal<py::list>(PyList_GetSlice(moves_.ptr(), 0, PY_SSIZE_T_MAX));
  }
  // Plays a legal move. The history grows before make(): a std::bad_alloc there leaves the
  // position as it was.
  void play(const Move& legal) {
    history_.emplace_back(legal, typename G::Undo{});
    history_.back().second = pos.make(legal);
  }
  // Takes back the last move and returns it, the same object move_stack held.
  py::object undo() {
    if (history_.empty()) throw py::index_error("undo: no move to take back");
    const auto& [mv, saved] = history_.back();
    const auto last = static_cast<Py_ssize_t>(history_.size()) - 1;
    py::object played;
    if (PyList_GET_SIZE(moves_.ptr()) > last) {
      played = moves_[last];
      if (PyList_SetSlice(moves_.ptr(), last, last + 1, nullptr) != 0)
        throw py::error_already_set();
    } else {
      played = move_object<G>(mv);
    }
    pos.unmake(mv, saved);
    history_.pop_back();
    return played;
  }

 private:
  // Makes the Python objects of the first n moves played that have none yet.
  void made_to(std::size_t n) {
    for (auto k = static_cast<std::size_t>(PyList_GET_SIZE(moves_.ptr())); k < n; ++k)
      moves_.append(move_object<G>(history_[k].first));
  }

  std::vector<std::pair<Move, typename G::Undo>> history_;
  py::list moves_;  // the Python objects of the first moves played, none beyond history_
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

// One-line argument errors (pybind11 functions keep their behaviour otherwise). When no
// signature of a bound function fits a call (a missing or extra argument, an unknown keyword),
// pybind11 raises a TypeError listing every signature and the arguments over several lines;
// one_line_argument_errors(f) makes f's calls raise "play() takes (move: GermaineMove | str |
// int), got no arguments" instead. It swaps the C entry point of f's method table, which
// pybind11 allocates per function, for ArgumentErrors::call, which calls pybind11's and rewrites
// only that error: a call that succeeds pays one extra C call.
struct ArgumentErrors {
  // The error being raised, taken out of the thread state (PyErr_Fetch is deprecated from 3.12).
  class Raised {
   public:
    Raised() {
#if PY_VERSION_HEX >= 0x030C0000
      value_ = PyErr_GetRaisedException();
#else
      PyErr_Fetch(&type_, &value_, &trace_);
      PyErr_NormalizeException(&type_, &value_, &trace_);
#endif
    }
    Raised(const Raised&) = delete;
    Raised& operator=(const Raised&) = delete;
    ~Raised() {
      Py_XDECREF(type_);
      Py_XDECREF(value_);
      Py_XDECREF(trace_);
    }
    // str() of the exception; "" when that fails.
    std::string text() const {
      std::string out;
      if (PyObject* str = value_ ? PyObject_Str(value_) : nullptr) {
        if (const char* utf8 = PyUnicode_AsUTF8(str)) out = utf8;
        Py_DECREF(str);
      }
      PyErr_Clear();
      return out;
    }
    // Raises it again, as it was.
    void restore() {
#if PY_VERSION_HEX >= 0x030C0000
      PyErr_SetRaisedException(value_);
#else
      PyErr_Restore(type_, value_, trace_);
#endif
      type_ = value_ = trace_ = nullptr;
    }

   private:
    PyObject* type_ = nullptr;
    PyObject* value_ = nullptr;
    PyObject* trace_ = nullptr;
  };

  using Entry = PyObject* (*)(PyObject*, PyObject* const*, Py_ssize_t, PyObject*);
  static inline Entry pybind11_entry = nullptr;

  // The signature of pybind11's message, "(self: patience_engine._core.X, n: object) -> X",
  // as "n": without self, module paths, "object" annotations and the return type.
  static std::string parameters(std::string sig) {
    sig = sig.substr(0, sig.rfind(" -> "));
    for (const std::string& noise :
         {std::string("patience_engine._core."), std::string(": object")})
      for (std::size_t at; (at = sig.find(noise)) != std::string::npos;)
        sig.erase(at, noise.size());
    if (sig.rfind("(self: ", 0) == 0) {
      const std::size_t comma = sig.find(", ");
      sig = comma == std::string::npos ? "()" : "(" + sig.substr(comma + 2);
    }
    return sig;
  }

  static PyObject* call(PyObject* self, PyObject* const* args, Py_ssize_t nargsf,
                        PyObject* kwnames) {
    PyObject* result = pybind11_entry(self, args, nargsf, kwnames);
    if (result || !PyErr_ExceptionMatches(PyExc_TypeError)) return result;
    Raised error;
    const std::string message = error.text();
    const std::size_t head = message.find("(): incompatible ");
    const std::size_t first = message.find("    1. ");
    if (head == std::string::npos || first == std::string::npos) {
      error.restore();
      return nullptr;
    }
    const std::size_t end = message.find('\n', first);
    const std::string sig = message.substr(first + 7, end - first - 7);
    const std::string name = message.substr(0, head);
    if (sig.rfind("(self: ", 0) == 0) {
      // A method called on its class with no position, or with another object for self: said
      // as CPython says it of its own methods.
      const std::string cls = sig.substr(7, sig.find_first_of(",)", 7) - 7);
      const std::string short_cls = cls.substr(cls.rfind('.') + 1);
      if (PyVectorcall_NARGS(nargsf) == 0) {
        PyErr_SetString(
            PyExc_TypeError,
            ("unbound method " + short_cls + "." + name + "() needs an argument").c_str());
        return nullptr;
      }
      // tp_name, not __module__ and __qualname__: a C entry point must not throw, and a bound
      // class's tp_name is the dotted name the signature gives.
      if (Py_TYPE(args[0])->tp_name != cls) {
        PyErr_SetString(PyExc_TypeError,
                        ("descriptor '" + name + "' for '" + short_cls +
                         "' objects doesn't apply to a '" + Py_TYPE(args[0])->tp_name + "' object")
                            .c_str());
        return nullptr;
      }
    }
    Py_ssize_t given = PyVectorcall_NARGS(nargsf) - (sig.rfind("(self", 0) == 0 ? 1 : 0);
    std::string got = given
                          ? std::to_string(given) + " positional argument" + (given > 1 ? "s" : "")
                          : std::string("no arguments");
    if (kwnames && PyTuple_GET_SIZE(kwnames)) {
      const std::string keywords = PyTuple_GET_SIZE(kwnames) > 1 ? "keywords" : "keyword";
      got = given ? got + " and " + keywords : keywords;
      for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(kwnames); ++k) {
        const char* name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
        got += std::string(k ? ", " : " ") + (name ? name : "?");
      }
    }
    const std::string params = parameters(sig);
    const std::string missing = missing_names(params, given, kwnames);
    PyErr_SetString(PyExc_TypeError, (name + "() takes " + params + ", got " + got +
                                      (missing.empty() ? "" : "; missing " + missing))
                                         .c_str());
    return nullptr;
  }

  // The required parameters of params (as parameters() writes them) that neither the first
  // `given` positional arguments nor the keywords supply, joined by ", ".
  static std::string missing_names(const std::string& params, Py_ssize_t given, PyObject* kwnames) {
    std::vector<std::string> tokens;
    int depth = 0;
    std::string token;
    for (const char ch : params.substr(1, params.size() - 2)) {
      depth += (ch == '[' || ch == '(') - (ch == ']' || ch == ')');
      if (ch == ',' && !depth) {
        tokens.push_back(token);
        token.clear();
      } else if (!(ch == ' ' && token.empty())) {
        token += ch;
      }
    }
    if (!token.empty()) tokens.push_back(token);
    std::string missing;
    bool keyword_only = false;
    Py_ssize_t position = 0;
    for (const std::string& t : tokens) {
      if (t == "*" || t == "/") {
        keyword_only |= t == "*";
        continue;
      }
      const std::string name = t.substr(0, t.find_first_of(": ="));
      bool given_by_keyword = false;
      for (Py_ssize_t k = 0; kwnames && k < PyTuple_GET_SIZE(kwnames); ++k) {
        const char* kw = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
        given_by_keyword |= kw && name == kw;
      }
      const bool given_by_position = !keyword_only && position++ < given;
      if (t.find(" = ") == std::string::npos && !given_by_keyword && !given_by_position)
        missing += (missing.empty() ? "" : ", ") + name;
    }
    return missing;
  }
};

// Routes f's argument errors through ArgumentErrors (above) when f is a pybind11 function.
inline void one_line_argument_errors(const py::handle& f) {
  if (!PyCFunction_Check(f.ptr())) return;
  PyMethodDef* def = reinterpret_cast<PyCFunctionObject*>(f.ptr())->m_ml;
  const auto entry =
      reinterpret_cast<ArgumentErrors::Entry>(reinterpret_cast<void (*)()>(def->ml_meth));
  const auto ours = &ArgumentErrors::call;
  if (entry == ours || !(def->ml_flags & METH_FASTCALL)) return;
  if (!ArgumentErrors::pybind11_entry) ArgumentErrors::pybind11_entry = entry;
  if (entry != ArgumentErrors::pybind11_entry) return;  // not pybind11's dispatcher
  def->ml_meth = reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(ours));
}

// one_line_argument_errors() on every function of module m and every method, static method and
// class method of its classes.
inline void one_line_argument_errors_everywhere(py::module_& m) {
  const auto fix = [](const py::handle& value) {
    if (PyInstanceMethod_Check(value.ptr()))
      one_line_argument_errors(PyInstanceMethod_GET_FUNCTION(value.ptr()));
    else if (py::isinstance<py::staticmethod>(value))
      one_line_argument_errors(value.attr("__func__"));
    else
      one_line_argument_errors(value);
  };
  for (const auto& item : m.attr("__dict__").cast<py::dict>()) {
    fix(item.second);
    if (PyType_Check(item.second.ptr()))
      for (const auto& member : item.second.attr("__dict__").cast<py::dict>()) fix(member.second);
  }
}

// How error messages show what they refuse, by the reference's own functions in
// patience_engine._shown (error paths only, so the call costs nothing that matters): shown(f, o)
// is _shown.f(o).
inline std::string shown(const char* function, const py::handle& o) {
  return py::str(py::module_::import("patience_engine._shown").attr(function)(o));
}
// What an error message calls o: its type's name, or "the class X" for a class.
inline std::string type_name(const py::handle& o) { return shown("type_text", o); }
// An int as an error message shows it: its digits up to 128 bits, else a bound on it.
inline std::string int_text(const py::handle& n) { return shown("int_text", n); }
// Any refused value: text cut short, a huge int bounded, else its repr cut short.
inline std::string repr_text(const py::handle& o) { return shown("repr_text", o); }
// A class of another module as a message names it: "module.Qualname", cut short.
inline std::string qualified_name(const py::handle& cls) { return shown("qualified_name", cls); }

// Whether o is a move of the other implementation (its class, or a base of it, has the name
// expected in a patience_engine module), which a move argument reads by its text.
inline bool other_implementations_move(const py::handle& o, const std::string& expected) {
  for (const py::handle cls : py::type::of(o).attr("__mro__")) {  // a subclass of one too
    const std::string module = py::str(cls.attr("__module__"));
    if (std::string(py::str(cls.attr("__name__"))) == expected &&
        module.rfind("patience_engine.", 0) == 0)
      return true;
  }
  return false;
}

// type_name(o), with its module when it is the name expected (a class of another module named as
// this game's move class).
inline std::string other_type_name(const py::handle& o, const std::string& expected) {
  const std::string name = type_name(o);
  return name == expected ? qualified_name(py::type::of(o)) : name;
}

// The UTF-8 bytes of a str argument; TypeError "<what> must be a str, got <type>" (the reference's
// wording) for anything else.
inline std::string text_argument(const Text& text, const char* what) {
  if (!py::isinstance<py::str>(text.obj))
    throw py::type_error(std::string(what) + " must be a str, got " + type_name(text.obj));
  return utf8(py::reinterpret_borrow<py::str>(text.obj));
}

// o as a Python int when it is an int or an integer with __index__ (a numpy integer); an empty
// object for anything else, a bool (Python's or numpy's) included
// (patience_engine.limits.int_value). An __index__ that raises anything but TypeError (numpy's
// bool refusing) passes its exception on.
inline py::object int_value(const py::handle& o) {
  if (py::isinstance<py::bool_>(o) || py::isinstance<py::str>(o) || !PyIndex_Check(o.ptr()))
    return py::object();
  PyObject* index = PyNumber_Index(o.ptr());
  if (!index) {
    if (!PyErr_ExceptionMatches(PyExc_TypeError)) throw py::error_already_set();
    PyErr_Clear();
  }
  return py::reinterpret_steal<py::object>(index);
}

// Reads a deal number (or another 64-bit seed, named by what) as an unsigned 64-bit value;
// TypeError for a non-int, ValueError out of range.
inline std::uint64_t deal_number(const py::object& given, const char* what = "deal number") {
  const py::object n = int_value(given);
  if (!n) throw py::type_error(std::string(what) + " must be an int, got " + type_name(given));
  if (n < py::int_(0) || n >= py::int_(1).attr("__lshift__")(64))
    throw py::value_error(std::string(what) + " must be in 0 .. 2**64-1, got " + int_text(n));
  return n.cast<std::uint64_t>();
}

// Reads an action: an int in 0 .. num_actions - 1 (docs/rl.md "Actions"), or an integer with
// __index__; TypeError for anything else (bool included), ValueError outside the space.
inline int action_number(const py::handle& given, int num_actions) {
  const py::object a = int_value(given);
  if (!a) throw py::type_error("action must be an int, got " + type_name(given));
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(a.ptr(), &overflow);
  if (overflow || v < 0 || v >= num_actions)
    throw py::value_error("action " + int_text(a) + " is outside 0 .. " +
                          std::to_string(num_actions - 1));
  return static_cast<int>(v);
}

// A bool argument; TypeError "<what> must be a bool, got <type>" for anything else (a numpy bool,
// whose type is also named bool, is named numpy.bool).
inline bool bool_argument(const py::handle& flag, const char* what) {
  if (!py::isinstance<py::bool_>(flag))
    throw py::type_error(std::string(what) + " must be a bool, got " + type_name(flag));
  return flag.cast<bool>();
}

// A new zeroed numpy array of this shape and element type.
template <class T, class Shape>
py::array_t<T> zeroed_array(const Shape& shape) {
  py::array_t<T> out(std::vector<py::ssize_t>(std::begin(shape), std::end(shape)));
  std::memset(out.mutable_data(), 0, static_cast<std::size_t>(out.nbytes()));
  return out;
}

// Reads a perft depth: an int in 0 .. kMaxPerftDepth (TypeError or ValueError otherwise).
inline int perft_depth(const py::object& given) {
  const py::object depth = int_value(given);
  if (!depth) throw py::type_error("perft depth must be an int, got " + type_name(given));
  if (depth < py::int_(0) || depth > py::int_(kMaxPerftDepth))
    throw py::value_error("perft depth must be in 0 .. " + std::to_string(kMaxPerftDepth) +
                          ", got " + int_text(depth));
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

// What perft() and solve() need of one game; bind_game<G>() adds G's.
// The progress callable of a solve, and the error it raised, which stopped the search.
struct SolveProgress {
  py::object call;
  std::optional<py::error_already_set> error;
};
// Carries a progress error past run_interruptible(), which would take it for Ctrl-C.
struct ProgressFailed {};

struct GameFunctions {
  const char* name;
  bool (*holds)(const py::handle& state);
  std::uint64_t (*perft)(const py::handle& state, int depth, bool bulk);
  py::tuple (*solve)(const py::handle& state, const SolveOptions& opt, SolveProgress& progress);
};
inline std::vector<GameFunctions>& game_functions() {
  static std::vector<GameFunctions> games;
  return games;
}

template <class G>
bool holds_position(const py::handle& state) {
  return py::isinstance<PyState<G>>(state);
}

// perft of a G position (holds_position<G>(state)), without the GIL.
template <class G>
std::uint64_t perft_position(const py::handle& state, int depth, bool bulk) {
  G g = state.cast<const PyState<G>&>().pos;
  return run_interruptible([&](Interrupt& interrupt) { return perft(g, depth, bulk, interrupt); });
}

// solve of a G position (holds_position<G>(state)), without the GIL: (status, moves, score,
// nodes, proven), also attached to a KeyboardInterrupt as _so_far.
template <class G>
py::tuple solve_position(const py::handle& state, const SolveOptions& opt,
                         SolveProgress& progress) {
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
          return solve(g, opt, interrupt, &so_far);
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
      [](const py::object& state, const py::object& depth, const py::object& bulk) {
        const GameFunctions& game = game_of(state, "perft");
        return game.perft(state, perft_depth(depth), bool_argument(bulk, "perft bulk"));
      },
      py::arg("state"), py::arg("depth"), py::arg("bulk") = true,
      "The number of legal move sequences of depth moves from state (nodes, an int; Perft in "
      "docs/rules.md); state is not changed. bulk counts the last ply's moves without making them "
      "(the same count, faster). Releases the GIL; Ctrl-C raises KeyboardInterrupt. Raises "
      "TypeError for a state that is not a RoyalMarriage, Germaine or Geoffrey position, a non-int "
      "depth or a non-bool bulk, and ValueError for a depth outside 0 .. MAX_PERFT_DEPTH.");

  // solve(state, node_limit, time_limit, table_bytes, pruning, progress=None) -> (status, moves,
  // score, nodes, proven), also attached to a KeyboardInterrupt as _so_far; patience_engine.solve()
  // checks the limits and wraps the tuple. progress(nodes, best_score), when given, is called at
  // the interrupt polls; an error it raises stops the search and is raised again.
  m.def(
      "solve",
      [](const py::object& state, std::optional<std::uint64_t> node_limit,
         std::optional<double> time_limit, std::size_t table_bytes, const py::object& pruning,
         const py::object& progress) {
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
        if ((node_limit && *node_limit == 0) ||
            (time_limit && !(*time_limit > 0 && std::isfinite(*time_limit))))
          throw py::value_error("solve: node_limit and time_limit must be positive and finite");
        return game.solve(state, opt, report);
      },
      py::arg("state"), py::arg("node_limit"), py::arg("time_limit"), py::arg("table_bytes"),
      py::arg("pruning"), py::arg("progress") = py::none());
}

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
  action_ints<G>();
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
          "which they are (only Geoffrey has any). Raises TypeError for a non-bool hidden.")
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
      [](int num_envs, int max_moves, bool hidden) -> std::unique_ptr<AnyVectorGame> {
        return std::make_unique<AnyVectorGameOf<G, State>>(num_envs, max_moves, hidden);
      },
      [](const py::handle& state, std::int64_t n, std::uint64_t seed, int max_moves,
         std::int32_t* out) {
        const G start = state.cast<const State&>().pos;
        run_interruptible(
            [&](Interrupt& interrupt) { playouts(start, n, seed, max_moves, out, interrupt); });
      }});
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

  static State& state(PyObject* self) {
    auto* inst = reinterpret_cast<py::detail::instance*>(self);
    return *inst->get_value_and_holder().template value_ptr<State>();
  }

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
      return legal_equal(s.pos, *reinterpret_cast<py::detail::instance*>(arg)
                                     ->get_value_and_holder()
                                     .template value_ptr<Move>());
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
      // The class dict holds pybind11's function inside an instancemethod.
      const py::handle replaced = PyInstanceMethod_GET_FUNCTION(cls.attr("__dict__")[name].ptr());
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

// Registers G's move class and G's position class on module m, and G's perft and solve for
// bind_position_functions(); returns the move class, to which the game's own binding adds its
// properties.
template <class G>
py::class_<typename G::Move> bind_game(py::module_& m, const char* doc) {
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
        raise_python(illegal_move_error().ptr(), e.what());
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
          "to_text",
          [](const State& s, const py::object& hidden) {
            return s.pos.to_text(bool_argument(hidden, "hidden"));
          },
          py::arg("hidden") = false,
          "The position in the game's text format (docs/rules.md \"Text formats\"). hidden=True "
          "writes each face-down card as '(?\?)' (only Geoffrey has any; docs/rl.md \"Hidden "
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
  game_functions().push_back(
      GameFunctions{G::kName, &holds_position<G>, &perft_position<G>, &solve_position<G>});
  return move;
}

}  // namespace pe
