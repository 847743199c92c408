// Python binding of RoyalMarriage (see bind_game.hpp).
#include "bind_game.hpp"
#include "royal_marriage.hpp"

namespace pe {
void bind_royal_marriage(py::module_& m) { bind_game<RoyalMarriage>(m, RoyalMarriage::kDoc); }
}  // namespace pe
