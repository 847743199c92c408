// Python binding of Germaine (see bind_game.hpp), with the reference's move properties.
#include "germaine_solver.hpp"
// The solver rules above come first: bind_game() instantiates the solver with them.
#include "core/bind_game.hpp"

namespace pe {
void bind_germaine(py::module_& m) {
  using Move = Germaine::Move;
  // The cell names are read off the notation "g3xh3", so they always agree with str(move).
  bind_game<Germaine>(m)
      .def_property_readonly(
          "is_combine", [](const Move& mv) { return mv.kind == Germaine::Kind::kCombine; },
          "True for a combine, False for a slide.")
      .def_property_readonly(
          "src", [](const Move& mv) { return Germaine::move_text(mv).substr(0, 2); },
          "Name of the cell the card leaves, e.g. ``'g3'``.")
      .def_property_readonly(
          "dst", [](const Move& mv) { return Germaine::move_text(mv).substr(3, 2); },
          "Name of the cell the card goes to, e.g. ``'h3'``.");
}
}  // namespace pe
