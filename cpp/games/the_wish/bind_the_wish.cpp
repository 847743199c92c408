// Python binding of TheWish (see bind_game.hpp), with the reference's move property.
#include "the_wish_solver.hpp"
// The solver rules above come first: bind_game() instantiates the solver with them.
#include "core/bind_game.hpp"

namespace pe {
void bind_the_wish(py::module_& m) {
  using Move = TheWish::Move;
  // Piles are 0-based in C++ and 1-based in Python, as in the notation.
  bind_game<TheWish>(m).def_property_readonly(
      "piles", [](const Move& mv) { return py::make_tuple(mv.low + 1, mv.high + 1); },
      "The two piles, 1..8, the lower first.");
}
}  // namespace pe
