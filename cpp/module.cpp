// The extension module patience_engine._core: one binding call per game.
#include <pybind11/pybind11.h>

#include "core/bind_game.hpp"

namespace py = pybind11;

namespace pe {
void bind_royal_marriage(py::module_& m);
void bind_germaine(py::module_& m);
void bind_geoffrey(py::module_& m);
#ifdef PATIENCE_EXAMPLE_GAME
void bind_the_wish(py::module_& m);
#endif
void bind_vector(py::module_& m);
}  // namespace pe

PYBIND11_MODULE(_core, m) {
  m.doc() = "C++ move generation, Zobrist hashing and perft for three patience games.";
  m.attr("__version__") = PATIENCE_VERSION;
  m.attr("BUILD_TYPE") = PATIENCE_BUILD_TYPE;
  m.attr("MAX_PERFT_DEPTH") = pe::kMaxPerftDepth;
#ifdef NDEBUG
  m.attr("OPTIMIZED") = true;
#else
  m.attr("OPTIMIZED") = false;
#endif
  pe::bind_royal_marriage(m);
  pe::bind_germaine(m);
  pe::bind_geoffrey(m);
#ifdef PATIENCE_EXAMPLE_GAME
  // The example game of docs/adding-a-game.md, bound last as registry.ENTRIES lists it last.
  pe::bind_the_wish(m);
#endif
  pe::bind_position_functions(m);
  pe::bind_vector(m);
  pe::one_line_argument_errors_everywhere(m);
}
