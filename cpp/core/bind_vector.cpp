// The Python class VectorGame and the function playouts (core/bind_vector.hpp), one for all games.
#include "core/bind_vector.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <mutex>
#include <new>
#include <optional>
#include <random>

#if __has_include(<unistd.h>)
#include <unistd.h>
#endif

#include "core/bind_args.hpp"
#include "core/bind_position.hpp"
#include "core/pybind11_internals.hpp"

namespace pe {

std::vector<VectorEntry>& vector_entries() {
  static std::vector<VectorEntry> entries;
  return entries;
}

namespace {

// Whether value is a collections.abc.Mapping (a dict, a mappingproxy), as reset()'s options are.
bool is_mapping(const py::handle& value) {
  return py::isinstance(value, py::module_::import("collections.abc").attr("Mapping"));
}

// Whether value lists items in an order, as actions and deals must (a list, tuple, range or
// array): what CPython's sequence protocol offers, text aside; never a set or a mapping (a class
// with __getitem__ passes PySequence_Check, so a Mapping that is no dict would).
bool is_sequence(const py::handle& value) {
  return PySequence_Check(value.ptr()) && !py::isinstance<py::str>(value) &&
         !py::isinstance<py::bytes>(value) && !is_mapping(value);
}

// Whether value is an array of another library, as patience_engine._arrays.foreign_array says: it
// offers __dlpack__ or __array__ and is no numpy array (whose subclasses are read item by item).
bool is_foreign_array(const py::handle& value) {
  if (py::isinstance<py::array>(value)) return false;
  const py::handle type = py::type::of(value);
  return py::hasattr(type, "__dlpack__") || py::hasattr(type, "__array__");
}

// ValueError unless got (items of what, counted as len() says or as read) is num_envs = n.
void check_count(const char* what, const char* unit, int n, std::size_t got) {
  if (got != static_cast<std::size_t>(n))
    throw py::value_error(std::string(what) + " must hold num_envs = " + std::to_string(n) + " " +
                          unit + ", got " + std::to_string(got));
}

// int_in_range() with ValueError worded as patience_engine.limits.check_int: without an upper
// bound of its own (LLONG_MAX), "<what> must be >= low", or for a value above 64 bits the bound
// it meets.
long long int_argument(const py::handle& value, const char* what, long long low, long long high) {
  return int_in_range(value, what, low, high, [&](const std::string& shown, bool above) {
    const std::string span = high != LLONG_MAX
                                 ? "in " + std::to_string(low) + " .. " + std::to_string(high)
                             : above ? "in " + std::to_string(low) + " .. 2**63-1"
                                     : ">= " + std::to_string(low);
    return py::value_error(std::string(what) + " must be " + span + ", got " + shown);
  });
}

// Bytes of physical memory; the largest count when the system does not say.
std::uint64_t physical_memory() {
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGE_SIZE)
  const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && size > 0)
    return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(size);
#endif
  return UINT64_MAX;
}

// The entry of a game given by its registry name or its C++ position class.
const VectorEntry& entry_of_game(const py::object& game) {
  py::object cls = game;
  if (py::isinstance<py::str>(game)) {
    const py::dict games = py::module_::import("patience_engine").attr("GAMES");
    if (!games.contains(game)) {
      std::string names;
      for (const auto& item : games)
        names += (names.empty() ? "" : ", ") + std::string(py::repr(item.first));
      throw py::value_error("unknown game " + repr_text(game) + ": expected one of " + names);
    }
    cls = games[game];
  }
  for (const VectorEntry& entry : vector_entries())
    if (cls.is(entry.cls)) return entry;
  const py::handle type = py::isinstance<py::type>(game) ? game : py::type::of(game);
  const std::string name = py::str(type.attr("__name__"));
  bool game_name = false;
  for (const auto& g : game_functions()) game_name = game_name || name == g.name;
  std::string shown = qualified_name(type);
  if (!py::isinstance<py::type>(game)) {
    bool ours = false;
    for (const VectorEntry& entry : vector_entries())
      ours = ours || py::isinstance(game, entry.cls);
    shown = ours        ? "a " + name + " position, not its class"
            : game_name ? "a " + shown + " position"
                        : type_name(game);
  }
  throw py::type_error("game must be a game name or a patience_engine game class, got " + shown);
}

// The entry whose position class state is an instance of.
const VectorEntry& entry_of_state(const py::handle& state) {
  for (const VectorEntry& entry : vector_entries())
    if (py::isinstance(state, entry.cls)) return entry;
  throw_not_a_position(state, "playouts");
}

// max_moves: None for the game's default, else an int >= 1.
int max_moves_argument(const py::object& max_moves, const VectorEntry& entry) {
  if (max_moves.is_none()) return entry.default_max_moves;
  return static_cast<int>(int_argument(max_moves, "max_moves", 1, INT_MAX));
}

// A VectorGame as Python holds it: the game's batch, the lock of the batch and numpy views of its
// buffers, made once. The views' base is a capsule that shares the batch, so an array kept after
// the VectorGame is gone still reads live memory.
//
// The lock keeps a second Python thread out of the batch while step(), reset() or
// sample_legal_actions() runs without the GIL (on the batch's threads). So that no two threads
// wait for each other, a thread holding the lock never waits for the GIL: those three release the
// GIL before they lock, and the methods that keep the GIL lock while holding it and call no Python
// code until they unlock. Every field but the batch is read
// and written with the GIL held.
struct PyVectorGame {
  std::shared_ptr<AnyVectorGame> impl;
  std::unique_ptr<std::mutex> batch = std::make_unique<std::mutex>();
  // The batch's threads, owned here and not by impl, which the numpy views share: they stop when
  // the VectorGame goes, whatever views outlive it.
  std::unique_ptr<BlockRunner> runner;
  py::object game;
  int max_moves;
  bool hidden;
  int num_actions;
  std::size_t bytes_per_position;
  py::tuple observation_shape;
  py::array observations, masks, rewards, terminated, truncated;
  bool seeded = false;
  bool started = false;  // reset() has dealt every slot

  void check_started() const {
    if (!started) throw std::runtime_error("call reset() first");
  }

  // A view of a buffer in the given shape, sharing the batch.
  template <class T>
  py::array view(T* buffer, std::vector<py::ssize_t> shape) const {
    return view(py::dtype::of<T>(), buffer, std::move(shape));
  }
  py::array bool_view(std::uint8_t* buffer, std::vector<py::ssize_t> shape) const {
    return view(py::dtype::of<bool>(), buffer, std::move(shape));
  }

 private:
  // The base is a capsule, not a writeable array: numpy then refuses to make a read-only view
  // writeable again (setflags, or a write through .base).
  py::array view(const py::dtype& dtype, void* buffer, std::vector<py::ssize_t> shape) const {
    auto* owner = new std::shared_ptr<AnyVectorGame>(impl);
    py::capsule base(owner,
                     [](void* p) { delete static_cast<std::shared_ptr<AnyVectorGame>*>(p); });
    return py::array(dtype, std::move(shape), {}, buffer, base);
  }
};

// The observations and masks are patched by step() where they change, so a write to them would
// spoil every later step: their views are read-only (and so is any view numpy makes of them).
py::array read_only(py::array a) {
  a.attr("setflags")(py::arg("write") = false);
  return a;
}

// The actions argument of step(): values, num_envs contiguous int64s; exact, when an action was
// given as an integer beyond int64 (its value is then clamped to the nearer end, outside every
// action space), the ints given, for the error message.
struct Actions {
  py::array_t<std::int64_t> values;
  py::object exact;
};

// shown: the argument as the caller gave it, when actions is what host_array() read from it.
Actions actions_argument(const py::object& actions, int num_envs, const py::handle shown = {}) {
  // A 1-D integer array is taken whole; its items can hold no bool, float or str. A subclass's
  // items need not be its buffer's (a masked array's masked entries), so it is read as a sequence.
  if (is_exact_array(actions)) {
    const auto a = py::reinterpret_borrow<py::array>(actions);
    const char kind = a.dtype().kind();
    const bool fits =
        kind == 'i' ||
        (kind == 'u' && (a.itemsize() < 8 || !a.size() ||
                         a.attr("max")().cast<std::uint64_t>() <= std::uint64_t{INT64_MAX}));
    if (a.ndim() == 1 && a.shape(0) == num_envs && fits) {
      // Used in place when it is contiguous int64: the batch reads it once, into its own copy
      // (VectorGame<G>::check_and_step).
      return Actions{
          py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(a),
          py::object()};
    }
  }
  // An array of another library (a torch tensor, a JAX array) is read on the host as numpy reads
  // it, by patience_engine._arrays.host_array as the reference reads it: in place by DLPack, a
  // GPU's refused by name.
  if (is_foreign_array(actions))
    return actions_argument(
        py::module_::import("patience_engine._arrays").attr("host_array")(actions), num_envs,
        actions);
  // Anything else (a list, whose ints numpy would merge with bools; a uint64 beyond int64;
  // Python ints beyond it; floats, strs) is read item by item as the reference reads it, so that
  // the first item that is no integer names its slot.
  // Worded only when thrown: naming the type is a call into Python, too dear for every step.
  const auto wrong = [&actions, shown] {
    return py::type_error("actions must be a sequence of num_envs ints, got " +
                          type_name(shown ? shown : actions));
  };
  // A set or a dict has a length but no order to match its items to slots.
  if (!is_sequence(actions)) throw wrong();
  const Py_ssize_t size = PyObject_Size(actions.ptr());
  if (size < 0) {
    PyErr_Clear();
    throw wrong();
  }
  // Checked again after reading: a sequence's len() need not be what it yields.
  check_count("actions", "actions", num_envs, static_cast<std::size_t>(size));
  py::list exact;
  std::vector<std::int64_t> values;
  for (const py::handle item : py::iter(actions)) {
    const py::object index = int_value(item);
    if (!index)
      throw py::type_error("slot " + std::to_string(values.size()) +
                           ": action must be an int, got " + type_name(item));
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
    values.push_back(overflow > 0 ? INT64_MAX : overflow < 0 ? INT64_MIN : v);
    exact.append(index);
  }
  check_count("actions", "actions", num_envs, values.size());
  py::array_t<std::int64_t> out(static_cast<py::ssize_t>(values.size()));
  std::copy(values.begin(), values.end(), out.mutable_data());
  return Actions{out, exact};
}

// Raises the error of step()'s first bad action (the reference's messages): ValueError outside
// the action space, else IllegalMoveError.
[[noreturn]] void raise_fault(const PyVectorGame& v, const StepFault& fault, const Actions& a) {
  const std::string action =
      a.exact ? int_text(a.exact[py::int_(fault.slot)]) : std::to_string(fault.action);
  const std::string head = "slot " + std::to_string(fault.slot) + ": action " + action;
  if (fault.outside)
    throw py::value_error(head + " is outside 0 .. " + std::to_string(v.num_actions - 1));
  raise_python(illegal_move_error().ptr(),
               head + " (" + v.impl->move_text(static_cast<int>(fault.action)) + ") is not legal");
}

// options['deals'] of reset(), num_envs deal numbers; none when options is None or has no 'deals'.
std::vector<std::uint64_t> option_deals(const py::object& options, int n) {
  std::vector<std::uint64_t> deals;
  if (options.is_none()) return deals;
  if (!is_mapping(options))
    throw py::type_error("options must be a dict or None, got " + type_name(options));
  for (const py::handle key : py::iter(options))
    if (!key.equal(py::str("deals")))
      throw py::value_error("unknown option " + repr_text(key) + ": the only one is 'deals'");
  if (!options.contains("deals")) return deals;
  const py::object given = options["deals"];
  if (!is_sequence(given))
    throw py::type_error("options['deals'] must be a sequence of deal numbers, got " +
                         type_name(given));
  // Checked again after reading: a sequence's len() need not be what it yields.
  check_count("options['deals']", "deals", n, py::len(given));
  for (const py::handle d : py::iter(given))
    deals.push_back(deal_number(py::reinterpret_borrow<py::object>(d)));
  check_count("options['deals']", "deals", n, deals.size());
  return deals;
}

}  // namespace

void bind_vector(py::module_& m) {
  py::class_<PyVectorGame> cls(
      m, "VectorGame",
      "num_envs positions of one game stepped together in C++, with Gymnasium's vector API "
      "(docs/rl.md \"Episodes\").\n\n"
      "``VectorGame(game, num_envs, *, max_moves=None, hidden=False, num_threads=1)``: game is "
      "a registry name (patience_engine.GAMES) or a C++ game class; num_envs an int in "
      "1 .. 2**31-1; max_moves (None: the game's DEFAULT_MAX_MOVES, else an int in "
      "1 .. 2**31-1) truncates an episode; hidden=True gives the hidden view of a game with "
      "face-down cards; num_threads (0 .. 1024, 0: every core the process may use) steps the "
      "slots in contiguous blocks on a pool of threads the batch owns, at most one thread per 64 "
      "slots, with the same results at any count (docs/rl.md \"Random streams\"). Raises "
      "TypeError/ValueError naming a bad argument, MemoryError when the batch does not fit. "
      "The arrays returned are views of the engine's own buffers, overwritten by the next "
      "step() or reset(): copy what you keep; the observations and masks are read-only. "
      "step(), reset() and sample_legal_actions() run without the GIL; a lock keeps threads "
      "sharing one VectorGame from running its methods at once.",
      py::is_final());
  // VectorGame(...) is built whole by __new__ (own_new(), core/pybind11_internals.hpp), so no
  // route from Python reaches an instance whose batch was not made; __init__ has nothing to do.
  const py::cpp_function make(
      [](const py::object& game, const py::object& num_envs, const py::object& max_moves,
         const py::object& hidden, const py::object& num_threads) {
        const VectorEntry& entry = entry_of_game(game);
        const int n = static_cast<int>(int_argument(num_envs, "num_envs", 1, INT_MAX));
        const int limit = max_moves_argument(max_moves, entry);
        PyVectorGame v;
        v.hidden = bool_argument(hidden, "hidden");
        const int threads = threads_argument(num_threads);
        const std::uint64_t bytes = static_cast<std::uint64_t>(n) * entry.bytes_per_position;
        const auto too_big = [&] {
          raise_python(PyExc_MemoryError, "VectorGame of " + std::to_string(n) + " positions of " +
                                              std::to_string(entry.bytes_per_position) +
                                              " bytes (" + std::to_string(bytes) +
                                              " bytes) does not fit in memory");
        };
        // Refused before allocating when above the machine's memory: under overcommit the
        // allocation could succeed and the process be killed when the pages are touched.
        if (bytes > physical_memory()) too_big();
        try {
          v.impl = entry.make(n, limit, v.hidden, threads);
        } catch (const std::bad_alloc&) {
          too_big();
        }
        v.runner = std::make_unique<BlockRunner>(v.impl->threads());
        v.game = py::reinterpret_borrow<py::object>(entry.cls);
        v.max_moves = limit;
        v.num_actions = entry.num_actions;
        v.bytes_per_position = entry.bytes_per_position;
        v.observation_shape = py::tuple(py::cast(entry.observation_shape));
        std::vector<py::ssize_t> obs_shape{n};
        obs_shape.insert(obs_shape.end(), entry.observation_shape.begin(),
                         entry.observation_shape.end());
        v.observations = read_only(v.view(v.impl->observations(), obs_shape));
        v.masks = read_only(v.bool_view(v.impl->masks(), {n, entry.num_actions}));
        v.rewards = v.view(v.impl->rewards(), {n});
        v.terminated = v.bool_view(v.impl->terminated(), {n});
        v.truncated = v.bool_view(v.impl->truncated(), {n});
        return v;
      },
      py::name("VectorGame"), py::arg("game"), py::arg("num_envs"), py::kw_only(),
      py::arg("max_moves") = py::none(), py::arg("hidden") = false, py::arg("num_threads") = 1);
  one_line_argument_errors(make);
  own_new(cls,
          [make, vector_type = py::handle(cls)](const py::handle& type, const py::args& args,
                                                const py::kwargs& kwargs) -> py::object {
            if (!type.is(vector_type))
              throw py::type_error("VectorGame.__new__(" + std::string(py::repr(type)) +
                                   "): expected VectorGame");
            return make(*args, **kwargs);
          });
  // Python calls __init__ after __new__; pybind11 skips a new-style __init__ on an instance already
  // registered, as every VectorGame is by __new__, so this factory only names the signature (an
  // old-style __init__ taking self is deprecated).
  cls.def(py::init([](const py::args&, const py::kwargs&) -> PyVectorGame {
       throw py::type_error("VectorGame is made by VectorGame(game, num_envs, ...)");
     }))
      .def_property_readonly("num_envs", [](const PyVectorGame& v) { return v.impl->num_envs(); })
      .def_property_readonly(
          "num_threads", [](const PyVectorGame& v) { return v.impl->threads(); },
          "The threads the batch is stepped on: num_threads as asked (0: every core the process "
          "may use), but at most one per 64 slots.")
      .def_readonly("max_moves", &PyVectorGame::max_moves)
      .def_readonly("hidden", &PyVectorGame::hidden)
      .def_readonly("game", &PyVectorGame::game, "The C++ game class.")
      .def_readonly("NUM_ACTIONS", &PyVectorGame::num_actions)
      .def_readonly("OBSERVATION_SHAPE", &PyVectorGame::observation_shape)
      .def_readonly("bytes_per_position", &PyVectorGame::bytes_per_position,
                    "Bytes the batch holds per slot: position, legal moves, buffers' rows.")
      .def(
          "reset",
          [](PyVectorGame& v, const py::object& seed, const py::object& options) {
            // Seed first, then options, as the reference checks them.
            std::optional<std::uint64_t> reseed;
            if (!seed.is_none()) reseed = deal_number(seed, "seed");
            const std::vector<std::uint64_t> deals = option_deals(options, v.impl->num_envs());
            if (!reseed && !v.seeded) {
              std::random_device device;
              reseed = std::uint64_t{device()} << 32 | device();
            }
            v.seeded = true;
            {
              py::gil_scoped_release release;
              const std::lock_guard<std::mutex> lock(*v.batch);
              if (reseed) v.impl->seed(*reseed);
              v.impl->reset(deals.empty() ? nullptr : deals.data(), *v.runner);
            }
            v.started = true;
            return py::make_tuple(v.observations, py::dict());
          },
          py::arg("seed") = py::none(), py::arg("options") = py::none(),
          "Every slot to a new deal: options['deals'][i] (a sequence of num_envs deal numbers), "
          "else drawn from the slot's generator; an int seed (0 .. 2**64-1) re-seeds slot i's "
          "generator with SplitMix64(stream_seed(seed, i)) (docs/rl.md \"Random streams\"); "
          "options {} or None gives no deals. Returns (obs, {}). Raises TypeError/ValueError for a "
          "bad seed or options, changing nothing.")
      .def(
          "step",
          [](PyVectorGame& v, const py::object& actions) {
            v.check_started();
            const Actions a = actions_argument(actions, v.impl->num_envs());
            const std::int64_t* data = a.values.data();
            StepFault fault;
            {
              py::gil_scoped_release release;
              const std::lock_guard<std::mutex> lock(*v.batch);
              fault = v.impl->check_and_step(data, *v.runner);
            }
            if (fault.slot >= 0) raise_fault(v, fault, a);
            return py::make_tuple(v.observations, v.rewards, v.terminated, v.truncated, py::dict());
          },
          py::arg("actions"),
          "Plays actions[i] in slot i; a slot whose episode ended at the last step is reset "
          "instead (its action ignored), and a slot dealt a position with no legal move ends its "
          "episode (action ignored, reward 0, terminated). Returns (obs, reward, terminated, "
          "truncated, {}): views of the batch's buffers, obs read-only uint8 of shape "
          "(num_envs,) + OBSERVATION_SHAPE, reward float32 (num_envs,), flags bool (num_envs,). "
          "actions: a sequence of num_envs ints (a list, a numpy array) or a CPU array of any "
          "library (anything with __dlpack__ or __array__: a torch tensor, read in place). Raises "
          "IllegalMoveError naming the first slot whose action is not legal, ValueError for one "
          "outside 0 .. NUM_ACTIONS - 1, a wrong length or an array on a GPU (naming its device), "
          "TypeError for a non-int action or actions that are no sequence nor array, RuntimeError "
          "before reset(); then no slot has changed.")
      .def_property_readonly(
          "action_masks",
          [](const PyVectorGame& v) {
            v.check_started();
            return v.masks;
          },
          "Each slot's legal actions as a read-only bool array of shape (num_envs, NUM_ACTIONS), "
          "a view (see step). RuntimeError before reset().")
      .def(
          "sample_legal_actions",
          [](PyVectorGame& v) {
            v.check_started();
            py::array_t<std::int64_t> out(v.impl->num_envs());
            std::int64_t* data = out.mutable_data();
            {
              py::gil_scoped_release release;
              const std::lock_guard<std::mutex> lock(*v.batch);
              v.impl->sample(data, *v.runner);
            }
            return out;
          },
          "int64 array (num_envs,): per slot a uniformly drawn legal action (legal[draw() % n] of "
          "the ascending list), 0 for a slot with none or awaiting autoreset. RuntimeError before "
          "reset().")
      .def(
          "state",
          [](const PyVectorGame& v, const py::object& i) {
            v.check_started();
            // Any int is read, so that one outside the slots is an IndexError, as in a sequence.
            const int n = v.impl->num_envs();
            const int slot = int_in_range(i, "slot", 0, n - 1, [n](const std::string& shown, bool) {
              return py::index_error("slot " + shown + " is outside 0 .. " + std::to_string(n - 1));
            });
            return v.impl->state(slot, std::unique_lock<std::mutex>(*v.batch));
          },
          py::arg("i"),
          "A copy of slot i's position, its move stack empty: a batch keeps positions, not their "
          "games. i: an int in 0 .. num_envs - 1 (IndexError outside). RuntimeError before "
          "reset().");

  m.def(
      "playouts",
      [](const py::object& state, const py::object& n, const py::object& seed,
         const py::object& max_moves, const py::object& num_threads) {
        const VectorEntry& entry = entry_of_state(state);
        const long long count = int_argument(n, "n", 0, LLONG_MAX);
        const std::uint64_t s = deal_number(seed, "seed");
        const int limit = max_moves_argument(max_moves, entry);
        const int threads = threads_argument(num_threads);
        if (static_cast<std::uint64_t>(count) > physical_memory() / sizeof(std::int32_t))
          raise_python(PyExc_MemoryError, "playouts of n = " + std::to_string(count) +
                                              " games: their int32 scores do not fit in memory");
        py::array_t<std::int32_t> out(static_cast<py::ssize_t>(count));
        entry.playouts(state, count, s, limit, threads, out.mutable_data());
        return out;
      },
      py::arg("state"), py::arg("n"), py::kw_only(), py::arg("seed"),
      py::arg("max_moves") = py::none(), py::arg("num_threads") = 1,
      "n random games from state, game k with the generator SplitMix64(stream_seed(seed, k)) "
      "(docs/rl.md \"Random streams\"): at each move "
      "legal[draw() % len] of the ascending legal actions, until no move is left or max_moves "
      "(None: DEFAULT_MAX_MOVES) are played. Returns the n final scores (int32 array), the same "
      "at any num_threads (0 .. 1024; 0: every core the process may use). Releases the GIL; "
      "Ctrl-C raises KeyboardInterrupt. TypeError/ValueError naming a bad argument, MemoryError "
      "when n scores do not fit in memory.");
}

}  // namespace pe
