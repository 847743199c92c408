// Python binding of Germaine (see bind_game.hpp).
#include "bind_game.hpp"
#include "germaine.hpp"

namespace pe {
void bind_germaine(py::module_& m) { bind_game<Germaine>(m, Germaine::kDoc); }
}  // namespace pe
