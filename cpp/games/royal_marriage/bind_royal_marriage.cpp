// Python binding of RoyalMarriage (see bind_game.hpp), with the reference's move properties.
#include "royal_marriage_solver.hpp"
// The solver rules above come first: bind_game() instantiates the solver with them.
#include "core/bind_game.hpp"

namespace pe {
void bind_royal_marriage(py::module_& m) {
  using Move = RoyalMarriage::Move;
  bind_game<RoyalMarriage>(m).def_property_readonly(
      "cards",
      [](const Move& mv) -> py::tuple {
        if (mv.second == kNoCard) return py::make_tuple(card_text(mv.first));
        return py::make_tuple(card_text(mv.first), card_text(mv.second));
      },
      "The removed cards as text, left one first: ``('7S',)`` or ``('7S', 'JD')``.");
}
}  // namespace pe
