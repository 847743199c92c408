// The binding's argument readers, each reading one Python argument as C++ wants it and refusing
// anything else with the reference's TypeError or ValueError, and how the binding raises errors,
// worded by patience_engine._shown (parse errors' input included).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <cstring>
#include <exception>
#include <iterator>
#include <string>
#include <type_traits>
#include <vector>

#include "core/cards.hpp"
#include "core/perft.hpp"
#include "core/thread_pool.hpp"

namespace pe {
namespace py = pybind11;

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

// Raises a Python exception of this type with this message, out of a bound function.
[[noreturn]] inline void raise_python(PyObject* type, const py::handle& message) {
  PyErr_SetObject(type, message.ptr());
  throw py::error_already_set();
}
[[noreturn]] inline void raise_python(PyObject* type, const std::string& message) {
  raise_python(type, py::str(message));
}

// A ParseError's message as Python shows it: its input text quoted by patience_engine._shown.quote,
// the one implementation of how input is shown (its escapes and its cut), as the reference's is.
inline py::str parse_error_text(const ParseError& e) {
  const py::object quote = py::module_::import("patience_engine._shown").attr("quote");
  const std::vector<std::string>& pieces = e.message().pieces();
  py::list parts;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    // Input was read from a str as UTF-8, a lone surrogate as its three bytes (utf8()).
    const auto piece = py::reinterpret_steal<py::str>(PyUnicode_DecodeUTF8(
        pieces[i].data(), static_cast<Py_ssize_t>(pieces[i].size()), "surrogatepass"));
    if (!piece) throw py::error_already_set();
    parts.append(i % 2 ? quote(piece) : py::object(piece));
  }
  return py::str("").attr("join")(parts);
}

// Makes a ParseError that reaches Python a ValueError of parse_error_text(); the module registers
// it once.
inline void register_parse_error() {
  py::register_exception_translator([](std::exception_ptr raised) {
    try {
      if (raised) std::rethrow_exception(raised);
    } catch (const ParseError& e) {
      PyErr_SetObject(PyExc_ValueError, parse_error_text(e).ptr());
    }
  });
}

// patience_engine.IllegalMoveError, defined in pure Python so the reference raises the same type.
inline py::object illegal_move_error() {
  return py::module_::import("patience_engine._errors").attr("IllegalMoveError");
}

// The UTF-8 of a text argument (only a str gets here). A lone surrogate, which has no UTF-8
// form, is written as its three bytes all the same ("surrogatepass"): it is no card or number,
// so parsing refuses it with the reference's message, and parse_error_text() decodes it back
// for _shown.quote() to escape.
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
// (patience_engine.limits.int_value). numpy's bool is told by its dtype, as up to numpy 2.2 its
// __index__ only warns. An __index__ that raises anything but TypeError (numpy's bool refusing)
// passes its exception on.
inline py::object int_value(const py::handle& o) {
  if (PyLong_CheckExact(o.ptr())) return py::reinterpret_borrow<py::object>(o);
  if (py::isinstance<py::bool_>(o) || py::isinstance<py::str>(o) || !PyIndex_Check(o.ptr()) ||
      py::getattr(py::getattr(o, "dtype", py::none()), "kind", py::none()).equal(py::str("b")))
    return py::object();
  PyObject* index = PyNumber_Index(o.ptr());
  if (!index) {
    if (!PyErr_ExceptionMatches(PyExc_TypeError)) throw py::error_already_set();
    PyErr_Clear();
  }
  return py::reinterpret_steal<py::object>(index);
}

// a < b for integers of any signedness (C++20's std::cmp_less).
template <class A, class B>
constexpr bool int_less(A a, B b) {
  if constexpr (std::is_signed_v<A> == std::is_signed_v<B>)
    return a < b;
  else if constexpr (std::is_signed_v<A>)
    return a < 0 || static_cast<std::make_unsigned_t<A>>(a) < b;
  else
    return b >= 0 && a < static_cast<std::make_unsigned_t<B>>(b);
}

// The one reader of an int argument in low .. high, T an integer type that holds both: an int or
// an integer with __index__ (a numpy integer), read once (int_value()); TypeError "<what> must be
// an int, got <type>" for anything else, bool included. For an int outside, throws
// refuse(shown, above): shown is the int as messages show it, above whether it lies above high.
template <class T, class Refuse>
T int_in_range(const py::handle& given, const char* what, T low, T high, Refuse refuse) {
  const py::object n = int_value(given);
  if (!n) throw py::type_error(std::string(what) + " must be an int, got " + type_name(given));
  int overflow = 0;  // n's sign when a long long cannot hold it
  const long long v = PyLong_AsLongLongAndOverflow(n.ptr(), &overflow);
  if (!overflow && !int_less(v, low) && !int_less(high, v)) return static_cast<T>(v);
  if constexpr (std::is_unsigned_v<T>) {
    if (overflow > 0) {
      const unsigned long long u = PyLong_AsUnsignedLongLong(n.ptr());
      if (u == ~0ULL && PyErr_Occurred())
        PyErr_Clear();  // beyond 64 bits too
      else if (!int_less(high, u))
        return static_cast<T>(u);
    }
  }
  throw refuse(int_text(n), overflow > 0 || (!overflow && int_less(high, v)));
}

// int_in_range() with ValueError "<what> must be in <low> .. <high>, got <int>".
template <class T>
T int_in_range(const py::handle& given, const char* what, T low, T high) {
  return int_in_range(given, what, low, high, [&](const std::string& shown, bool) {
    return py::value_error(std::string(what) + " must be in " + std::to_string(low) + " .. " +
                           std::to_string(high) + ", got " + shown);
  });
}

// Reads a deal number (or another 64-bit seed, named by what) as an unsigned 64-bit value;
// TypeError for a non-int, ValueError out of range.
inline std::uint64_t deal_number(const py::handle& given, const char* what = "deal number") {
  return int_in_range<std::uint64_t>(
      given, what, 0, UINT64_MAX, [what](const std::string& shown, bool) {
        return py::value_error(std::string(what) + " must be in 0 .. 2**64-1, got " + shown);
      });
}

// Reads an action: an int in 0 .. num_actions - 1 (docs/rl.md "Actions"), or an integer with
// __index__; TypeError for anything else (bool included), ValueError outside the space.
inline int action_number(const py::handle& given, int num_actions) {
  return int_in_range(given, "action", 0, num_actions - 1, [&](const std::string& shown, bool) {
    return py::value_error("action " + shown + " is outside 0 .. " +
                           std::to_string(num_actions - 1));
  });
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
// Reads num_threads (0 .. kMaxThreads) as the number of threads to run on: 0 is every core the
// process may use (usable_cores()).
inline int threads_argument(const py::handle& given) {
  return resolve_threads(int_in_range(given, "num_threads", 0, kMaxThreads));
}

inline int perft_depth(const py::handle& given) {
  return int_in_range(given, "perft depth", 0, kMaxPerftDepth);
}

}  // namespace pe
