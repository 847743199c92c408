// The extension module patience_engine._core: its constants, every game of the build
// (bind_games.hpp, written by CMakeLists.txt) and the functions shared by all games.
#include <pybind11/pybind11.h>

#include <string>

#include "bind_games.hpp"
#include "core/bind_args.hpp"
#include "core/bind_position.hpp"
#include "core/pybind11_internals.hpp"
#include "core/thread_pool.hpp"

namespace py = pybind11;

namespace pe {
void bind_vector(py::module_& m);
}  // namespace pe

PYBIND11_MODULE(_core, m) {
  m.doc() = "C++ move generation, Zobrist hashing and perft for the patience games of this build.";
  m.attr("__version__") = PATIENCE_VERSION;
  m.attr("BUILD_TYPE") = PATIENCE_BUILD_TYPE;
  const std::string sanitizers = PATIENCE_SANITIZERS;
  m.attr("SANITIZERS") =
      sanitizers.empty() ? py::tuple() : py::tuple(py::str(sanitizers).attr("split")(","));
  m.attr("MAX_PERFT_DEPTH") = pe::kMaxPerftDepth;
  m.attr("MAX_THREADS") = pe::kMaxThreads;
  m.def("usable_cores", &pe::usable_cores,
        "The number of CPUs this process may run on, an int >= 1: its CPU affinity, capped by a "
        "cgroup CPU quota where one is set (cgroup v2 cpu.max or v1 cpu.cfs_quota_us, rounded "
        "up). What num_threads=0 runs on.");
#ifdef NDEBUG
  m.attr("OPTIMIZED") = true;
#else
  m.attr("OPTIMIZED") = false;
#endif
  pe::register_parse_error();
  pe::bind_games(m);
  pe::bind_position_functions(m);
  pe::bind_vector(m);
  pe::one_line_argument_errors_everywhere(m);
}
