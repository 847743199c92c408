// Everything of the binding that leans on pybind11's internals (pybind11::detail, the layout of
// its functions, classes and instances) or on the wording of its messages, kept in this one
// header so that a pybind11 upgrade is checked here (pyproject.toml pins the release CI builds
// and tests):
//   - the type casters of Text and MoveOrText (core/bind_args.hpp);
//   - instance_value(), method_function() and is_exact_array(): a bound instance's C++ value, a
//     class's pybind11 function and numpy's array type, read without pybind11's public API;
//   - own_new(), the guard that lets no Python route reach an instance not yet constructed, by
//     replacing tp_new of the bound classes and of pybind11's base class;
//   - ArgumentErrors, which rewrites pybind11's "incompatible function arguments" TypeError.
//
// The module keeps pybind11 internals of its own. Modules built with one pybind11 release and
// compiler ABI share one set, base class pybind11_object included, whose tp_new own_new()
// replaces: a class of another module made before keeps the tp_new it copied, and CPython then
// refuses its Foo.__new__(Foo), which copy.copy() and unpickling call ("is not safe").
// CMakeLists.txt defines PYBIND11_COMPILER_TYPE for every source of the module, and pybind11
// writes it into the name under which modules find their internals
// (pybind11/conduit/pybind11_platform_abi_id.h), so the base own_new() patches is this module's
// alone (tests/test_second_extension.py). The engine shares no type with another module.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <string_view>
#include <vector>

#include "core/bind_args.hpp"

static_assert(std::string_view(PYBIND11_INTERNALS_ID).find("patience_engine") !=
                  std::string_view::npos,
              "the module needs pybind11 internals of its own: compile every source with "
              "CMakeLists.txt's PYBIND11_COMPILER_TYPE");

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

// The C++ value of self, an instance of T's bound class (not of a subclass), read without a
// caster's type lookup. Always inlined: FastMethods read it at every call.
template <class T>
[[gnu::always_inline]] inline T& instance_value(PyObject* self) {
  return *reinterpret_cast<py::detail::instance*>(self)
              ->get_value_and_holder()
              .template value_ptr<T>();
}

// The pybind11 function of method name of a bound class (its dict holds it in an instancemethod).
inline py::handle method_function(const py::handle& cls, const char* name) {
  return PyInstanceMethod_GET_FUNCTION(cls.attr("__dict__")[name].ptr());
}

// Whether o is a numpy.ndarray itself, not an instance of a subclass.
inline bool is_exact_array(const py::handle& o) {
  return Py_TYPE(o.ptr()) == py::detail::npy_api::get().PyArray_Type_;
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
// the generic slot_tp_new: call_own_new() closes both ways. pybind11_object's own tp_new (this
// module's base, see the top) gets checked_object_new(), so that no base of cls can end the
// process either.
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

}  // namespace pe
