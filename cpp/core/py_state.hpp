// A game position as Python holds it (PyState<G>), and the Python objects of moves.
#pragma once

#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "core/rl.hpp"

namespace pe {
namespace py = pybind11;

// The legal move of pos equal to mv (it carries pos's hints, as a Royal Marriage move's row
// position), nullopt when mv is not legal there. Always inlined: play(move) runs it at every step,
// and out of line it cost a Python loop of Royal Marriage moves 10% more instructions.
template <class G>
[[gnu::always_inline]] inline std::optional<typename G::Move> legal_equal(
    const G& pos, const typename G::Move& mv) {
  typename G::Move moves[G::kMaxMoves];
  const int n = pos.generate(moves);
  for (int i = 0; i < n; ++i)
    if (moves[i] == mv) return moves[i];
  return std::nullopt;
}

// Whether action a (in the space) is legal in pos: one of its legal actions, which are ascending.
template <class G>
bool legal_action(const G& pos, int a) {
  StoredAction actions[G::kMaxMoves];
  const int n = pos.legal_actions(actions);
  return std::binary_search(actions, actions + n, static_cast<StoredAction>(a));
}

// The Python object of legal action a: one per action, made on first use and kept for the
// process, as a move is an immutable value. A Royal Marriage move's position hint is then 0,
// which is harmless: play() and is_legal() use the generated move equal to the one given, never a
// Python move's hint.
template <class G>
py::object action_object(int a) {
  static std::vector<PyObject*> made(G::kNumActions, nullptr);
  if (!made[a]) made[a] = py::cast(G::move_of_action(a)).release().ptr();
  return py::reinterpret_borrow<py::object>(made[a]);
}

// The Python object of move m: action_object() of its action, when it has one.
template <class G>
py::object move_object(const typename G::Move& m) {
  const int a = G::action(m);
  return a < 0 ? py::cast(m) : action_object<G>(a);
}

// A game position seen from Python: the position, where it started and the moves played.
// The moves played are kept with their Undos for C++ and, once read, as Python Move objects for
// move_stack, so that reading it copies a list as the reference does instead of making one
// Python object per move each time. play() makes no Python object (a loop of play() calls pays
// for none); move_stack and undo() make the missing ones, so every read gives the same objects.
// Only touched with the GIL.
template <class G>
class PyState {
 public:
  using Move = typename G::Move;
  G root;
  G pos;
  explicit PyState(const G& g) : root(g), pos(g) {}
  // A copy has a list of its own (holding the same immutable Move objects).
  PyState(const PyState& other)
      : root(other.root),
        pos(other.pos),
        history_(other.history_),
        moves_(py::reinterpret_steal<py::list>(
            PyList_GetSlice(other.moves_.ptr(), 0, PY_SSIZE_T_MAX))) {
    if (!moves_) throw py::error_already_set();
  }
  PyState(PyState&&) = default;
  PyState& operator=(const PyState&) = delete;
  PyState& operator=(PyState&&) = delete;

  const std::vector<std::pair<Move, typename G::Undo>>& history() const { return history_; }
  // A new list of the moves played, oldest first: the reference's semantics (a copy the caller
  // may change), at the cost of copying n pointers.
  py::list move_stack() {
    made_to(history_.size());
    return py::reinterpret_steal<py::list>(PyList_GetSlice(moves_.ptr(), 0, PY_SSIZE_T_MAX));
  }
  // Plays a legal move. The history grows before make(): a std::bad_alloc there leaves the
  // position as it was.
  void play(const Move& legal) {
    history_.emplace_back(legal, typename G::Undo{});
    history_.back().second = pos.make(legal);
  }
  // Takes back the last move and returns it, the same object move_stack held.
  py::object undo() {
    if (history_.empty()) throw py::index_error("undo: no move to take back");
    const auto& [mv, saved] = history_.back();
    const auto last = static_cast<Py_ssize_t>(history_.size()) - 1;
    py::object played;
    if (PyList_GET_SIZE(moves_.ptr()) > last) {
      played = moves_[last];
      if (PyList_SetSlice(moves_.ptr(), last, last + 1, nullptr) != 0)
        throw py::error_already_set();
    } else {
      played = move_object<G>(mv);
    }
    pos.unmake(mv, saved);
    history_.pop_back();
    return played;
  }

 private:
  // Makes the Python objects of the first n moves played that have none yet.
  void made_to(std::size_t n) {
    for (auto k = static_cast<std::size_t>(PyList_GET_SIZE(moves_.ptr())); k < n; ++k)
      moves_.append(move_object<G>(history_[k].first));
  }

  std::vector<std::pair<Move, typename G::Undo>> history_;
  py::list moves_;  // the Python objects of the first moves played, none beyond history_
};

}  // namespace pe
