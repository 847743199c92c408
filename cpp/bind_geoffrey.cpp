// Python binding of Geoffrey (see bind_game.hpp).
#include "bind_game.hpp"
#include "geoffrey.hpp"

namespace pe {
void bind_geoffrey(py::module_& m) { bind_game<Geoffrey>(m, Geoffrey::kDoc); }
}  // namespace pe
