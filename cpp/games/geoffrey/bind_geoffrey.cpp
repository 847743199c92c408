// Python binding of Geoffrey (see bind_game.hpp), with the reference's move properties.
#include "geoffrey_solver.hpp"
// The solver rules above come first: bind_game() instantiates the solver with them.
#include "core/bind_game.hpp"

namespace pe {
void bind_geoffrey(py::module_& m) {
  using Move = Geoffrey::Move;
  // Columns are 0-based in C++ and 1-based in Python, as in the notation.
  bind_game<Geoffrey>(m)
      .def_property_readonly(
          "src", [](const Move& mv) { return mv.src + 1; }, "Source column, 1..8.")
      .def_property_readonly(
          "card", [](const Move& mv) { return card_text(mv.card); },
          "The card that heads the moving group (the only card of a foundation move).")
      .def_property_readonly(
          "dst",
          [](const Move& mv) -> py::object {
            if (mv.dst == Geoffrey::kFoundation) return py::str("F");
            return py::int_(mv.dst + 1);
          },
          "Destination column 1..8, or ``'F'`` for the foundation.")
      .def_property_readonly(
          "to_foundation", [](const Move& mv) { return mv.dst == Geoffrey::kFoundation; },
          "True for a foundation move.");
}
}  // namespace pe
