// What a game must provide, declared once and checked by the compiler: the Game concept, a
// position type G that bind_game<G>(), perft, the reinforcement-learning interface, VectorGame
// and the solver work on, and SolverRules<G>, the solver's knowledge of the game
// (games/<game>/<game>_solver.hpp). check_game<G>() and check_solver_rules<G>() assert each
// member, naming the one missing; bind_game<G>() and Solver<G> check first.
//
// A game G provides:
//   using Move: trivially copyable; == compares what the move is; std::uint64_t id() const, an
//     identity for Python's hash. using Undo: what make() needs to be taken back.
//   kName, kMoveName, kDoc (const char*: the Python class names and the position class's doc),
//     int kMaxMoves: the capacity of a move buffer.
//   static G deal(std::uint64_t n): numbered deal n (docs/rules.md "Numbered deals");
//   static G from_text(std::string_view), static Move parse_move(std::string_view): both throw
//     ParseError (core/cards.hpp) naming what is wrong; static std::string move_text(const Move&);
//   std::string to_text() const, and to_text(bool hidden) const (face-down cards as "(??)").
//   int generate(Move* out) const: the legal moves into a buffer of kMaxMoves, in the order the
//     solver searches; int count_moves() const; int count_after(const Move&, int moves_here) const:
//     the legal moves after a legal move, without making it (count_moves() here given).
//   Undo make(const Move&) (a legal move), void unmake(const Move&, const Undo&).
//   std::uint64_t hash() const, canonical_hash() const (equal up to the game's symmetries);
//   bool is_won() const; int score() const; bool operator==(const G&) const.
//   For the RL interface (docs/rl.md): int kNumActions, int kDefaultMaxMoves, bool kHasFaceDown,
//     std::array<int, N> kObservationShape; static int action(const Move&) (-1: a move that can
//     never be legal); static Move move_of_action(int a) (a in 0 .. kNumActions - 1; throws
//     ParseError "action A names no move: ..." for one that names none); int
//     legal_actions(StoredAction* out) const (ascending); Move move_at(int a) const (the legal
//     move of a legal action here, ready for make()); void observe(std::uint8_t* obs, bool hidden)
//     const (obs zeroed by the caller); void patch_observation(std::uint8_t* obs, const Move&, bool
//     hidden) const (called before make(): turns this position's observation into the next's);
//     when kHasFaceDown, G determinize(std::uint64_t seed) const.
//   For the solver: std::uint64_t child_canonical_hash(const Move&) const, canonical_hash() after
//     a legal move without making it (the table prefetch).
// Optional, found by the detection idiom (Has<G, Op>):
//   std::uint64_t count_two_plies() const, count_three_plies() const: perft of depth 2 and 3,
//     faster than by moves (core/perft.hpp);
//   kActionWords, kActionsPerWord and void legal_action_words(std::uint64_t* words) const: the
//     legal actions as bits, action w * kActionsPerWord + b being bit b of word w (a batch then
//     patches its masks from the bits that changed, core/vector_game.hpp);
//   Move nth_legal_move(int r) const: the legal move of the r-th legal action, r below
//     count_moves(), without listing them (playouts draw with it).
//
// SolverRules<G> provides (core/search.hpp says how the search uses them):
//   static constexpr int kWinValue: values >= it are wins;
//   static constexpr bool kScored: a value below a win is still worth a line (Germaine's score);
//   static constexpr int kMaxPly: the longest line from any position;
//   explicit SolverRules(const G&): the rules' own state for a root position (move-assignable);
//   static bool goal(const G&): stop here, nothing better lies below;
//   static int value(const G&): the value of a position where the search stops;
//   static int bound(const SolverRules&, const G&, bool pruning): an upper bound on every value
//     reachable from the position (never below the truth, or a verdict is wrong);
//   int order(G&, Move* out, bool pruning) const: the moves to search, best first (G is left as it
//     came); returns how many, 0 for a dead end;
//   make(G&, const Move&) returning an undo, void unmake(G&, const Move&, const undo&): the
//     position's, plus any state the rules track (PlainMoves, core/search.hpp, when none);
//   scored games only: struct Order, static constexpr Order kOrder and kPasses[] (the narrowed
//     passes of the hunt for a win), void use(const Order&).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "core/rl.hpp"

namespace pe {

// Whether Op<G> is a valid type (the detection idiom).
template <class G, template <class> class Op, class = void>
struct Has : std::false_type {};
template <class G, template <class> class Op>
struct Has<G, Op, std::void_t<Op<G>>> : std::true_type {};

// Whether Op<G> is a valid type that converts to R.
template <class R, class G, template <class> class Op, class = void>
struct Gives : std::false_type {};
template <class R, class G, template <class> class Op>
struct Gives<R, G, Op, std::void_t<Op<G>>> : std::is_convertible<Op<G>, R> {};

template <class T>
struct IsIntArray : std::false_type {};
template <std::size_t N>
struct IsIntArray<std::array<int, N>> : std::true_type {};

// Whether Op<G> is a valid type, a std::array<int, N>.
template <class G, template <class> class Op, class = void>
struct GivesIntArray : std::false_type {};
template <class G, template <class> class Op>
struct GivesIntArray<G, Op, std::void_t<Op<G>>> : IsIntArray<std::remove_cv_t<Op<G>>> {};

// The members of the Game concept, one expression each.
namespace game_members {
template <class G>
using Move = typename G::Move;
template <class G>
using Undo = typename G::Undo;
template <class G>
using MoveEquals = decltype(std::declval<const Move<G>&>() == std::declval<const Move<G>&>());
template <class G>
using MoveId = decltype(std::declval<const Move<G>&>().id());
template <class G>
using Name = decltype(G::kName);
template <class G>
using MoveName = decltype(G::kMoveName);
template <class G>
using Doc = decltype(G::kDoc);
template <class G>
using MaxMoves = decltype(G::kMaxMoves);
template <class G>
using Deal = decltype(G::deal(std::uint64_t{}));
template <class G>
using FromText = decltype(G::from_text(std::string_view()));
template <class G>
using ParseMove = decltype(G::parse_move(std::string_view()));
template <class G>
using MoveText = decltype(G::move_text(std::declval<const Move<G>&>()));
template <class G>
using ToText = decltype(std::declval<const G&>().to_text());
template <class G>
using ToHiddenText = decltype(std::declval<const G&>().to_text(true));
template <class G>
using Generate = decltype(std::declval<const G&>().generate(std::declval<Move<G>*>()));
template <class G>
using CountMoves = decltype(std::declval<const G&>().count_moves());
template <class G>
using CountAfter =
    decltype(std::declval<const G&>().count_after(std::declval<const Move<G>&>(), 0));
template <class G>
using Make = decltype(std::declval<G&>().make(std::declval<const Move<G>&>()));
template <class G>
using Unmake = decltype(std::declval<G&>().unmake(std::declval<const Move<G>&>(),
                                                  std::declval<const Undo<G>&>()));
template <class G>
using Hash = decltype(std::declval<const G&>().hash());
template <class G>
using CanonicalHash = decltype(std::declval<const G&>().canonical_hash());
template <class G>
using IsWon = decltype(std::declval<const G&>().is_won());
template <class G>
using Score = decltype(std::declval<const G&>().score());
template <class G>
using Equals = decltype(std::declval<const G&>() == std::declval<const G&>());
template <class G>
using NumActions = decltype(G::kNumActions);
template <class G>
using DefaultMaxMoves = decltype(G::kDefaultMaxMoves);
template <class G>
using HasFaceDown = decltype(G::kHasFaceDown);
template <class G>
using ObservationShape = decltype(G::kObservationShape);
template <class G>
using Action = decltype(G::action(std::declval<const Move<G>&>()));
template <class G>
using MoveOfAction = decltype(G::move_of_action(0));
template <class G>
using LegalActions =
    decltype(std::declval<const G&>().legal_actions(std::declval<StoredAction*>()));
template <class G>
using MoveAt = decltype(std::declval<const G&>().move_at(0));
template <class G>
using Observe = decltype(std::declval<const G&>().observe(std::declval<std::uint8_t*>(), true));
template <class G>
using PatchObservation = decltype(std::declval<const G&>().patch_observation(
    std::declval<std::uint8_t*>(), std::declval<const Move<G>&>(), true));
template <class G>
using Determinize = decltype(std::declval<const G&>().determinize(std::uint64_t{}));
template <class G>
using ChildCanonicalHash =
    decltype(std::declval<const G&>().child_canonical_hash(std::declval<const Move<G>&>()));
}  // namespace game_members

// The optional members.
template <class G>
using CountTwoPlies = decltype(std::declval<const G&>().count_two_plies());
template <class G>
using CountThreePlies = decltype(std::declval<const G&>().count_three_plies());
template <class G>
using ActionWordsOp = decltype(std::declval<const G&>().legal_action_words(nullptr));
template <class G>
using NthLegalMoveOp = decltype(std::declval<const G&>().nth_legal_move(0));

// Asserts that G is a game (above); true when it is. Called first by bind_game<G>().
template <class G>
constexpr bool check_game() {
  using namespace game_members;
  using std::uint64_t;
  static_assert(Has<G, Move>::value, "a game needs `using Move` (core/game_concept.hpp)");
  static_assert(Has<G, Undo>::value, "a game needs `using Undo` (core/game_concept.hpp)");
  if constexpr (Has<G, Move>::value && Has<G, Undo>::value) {
    using M = typename G::Move;
    static_assert(std::is_trivially_copyable_v<M>, "a game's Move must be trivially copyable");
    static_assert(Gives<bool, G, MoveEquals>::value, "a game's Move needs ==");
    static_assert(Gives<uint64_t, G, MoveId>::value, "a game's Move needs uint64_t id() const");
    static_assert(Gives<const char*, G, Name>::value, "a game needs const char* kName");
    static_assert(Gives<const char*, G, MoveName>::value, "a game needs const char* kMoveName");
    static_assert(Gives<const char*, G, Doc>::value, "a game needs const char* kDoc");
    static_assert(Gives<int, G, MaxMoves>::value, "a game needs int kMaxMoves");
    static_assert(Gives<G, G, Deal>::value, "a game needs static G deal(uint64_t)");
    static_assert(Gives<G, G, FromText>::value, "a game needs static G from_text(string_view)");
    static_assert(Gives<M, G, ParseMove>::value,
                  "a game needs static Move parse_move(string_view)");
    static_assert(Gives<std::string, G, MoveText>::value,
                  "a game needs static std::string move_text(const Move&)");
    static_assert(Gives<std::string, G, ToText>::value, "a game needs std::string to_text() const");
    static_assert(Gives<std::string, G, ToHiddenText>::value,
                  "a game needs std::string to_text(bool hidden) const");
    static_assert(Gives<int, G, Generate>::value, "a game needs int generate(Move*) const");
    static_assert(Gives<int, G, CountMoves>::value, "a game needs int count_moves() const");
    static_assert(Gives<int, G, CountAfter>::value,
                  "a game needs int count_after(const Move&, int moves_here) const");
    static_assert(Gives<typename G::Undo, G, Make>::value, "a game needs Undo make(const Move&)");
    static_assert(Has<G, Unmake>::value, "a game needs void unmake(const Move&, const Undo&)");
    static_assert(Gives<uint64_t, G, Hash>::value, "a game needs uint64_t hash() const");
    static_assert(Gives<uint64_t, G, CanonicalHash>::value,
                  "a game needs uint64_t canonical_hash() const");
    static_assert(Gives<bool, G, IsWon>::value, "a game needs bool is_won() const");
    static_assert(Gives<int, G, Score>::value, "a game needs int score() const");
    static_assert(Gives<bool, G, Equals>::value, "a game needs bool operator==(const G&) const");
    static_assert(Gives<int, G, NumActions>::value, "a game needs int kNumActions");
    static_assert(Gives<int, G, DefaultMaxMoves>::value, "a game needs int kDefaultMaxMoves");
    static_assert(Gives<bool, G, HasFaceDown>::value, "a game needs bool kHasFaceDown");
    static_assert(GivesIntArray<G, ObservationShape>::value,
                  "a game needs std::array<int, N> kObservationShape");
    static_assert(Gives<int, G, Action>::value, "a game needs static int action(const Move&)");
    static_assert(Gives<M, G, MoveOfAction>::value, "a game needs static Move move_of_action(int)");
    static_assert(Gives<int, G, LegalActions>::value,
                  "a game needs int legal_actions(StoredAction*) const");
    static_assert(Gives<M, G, MoveAt>::value, "a game needs Move move_at(int) const");
    static_assert(Has<G, Observe>::value, "a game needs void observe(uint8_t*, bool) const");
    static_assert(Has<G, PatchObservation>::value,
                  "a game needs void patch_observation(uint8_t*, const Move&, bool) const");
    if constexpr (Gives<bool, G, HasFaceDown>::value) {
      static_assert(!G::kHasFaceDown || Gives<G, G, Determinize>::value,
                    "a game with face-down cards needs G determinize(uint64_t) const");
    }
  }
  return true;
}

template <class G>
struct SolverRules;

// The members of the SolverRules concept, one expression each.
namespace rules_members {
template <class G>
using R = SolverRules<G>;
template <class G>
using Defined = decltype(sizeof(R<G>));
template <class G>
using WinValue = decltype(R<G>::kWinValue);
template <class G>
using Scored = decltype(R<G>::kScored);
template <class G>
using MaxPly = decltype(R<G>::kMaxPly);
template <class G>
using Goal = decltype(R<G>::goal(std::declval<const G&>()));
template <class G>
using Value = decltype(R<G>::value(std::declval<const G&>()));
template <class G>
using Bound = decltype(R<G>::bound(std::declval<const R<G>&>(), std::declval<const G&>(), true));
template <class G>
using Order = decltype(std::declval<const R<G>&>().order(std::declval<G&>(),
                                                         std::declval<typename G::Move*>(), true));
template <class G>
using Make = decltype(std::declval<R<G>&>().make(std::declval<G&>(),
                                                 std::declval<const typename G::Move&>()));
template <class G>
using Unmake = decltype(std::declval<R<G>&>().unmake(
    std::declval<G&>(), std::declval<const typename G::Move&>(), std::declval<const Make<G>&>()));
template <class G>
using OrderType = typename R<G>::Order;
template <class G>
using DefaultOrder = decltype(R<G>::kOrder);
template <class G>
using Passes = decltype(R<G>::kPasses[0]);
template <class G>
using PassCount = decltype(std::size(R<G>::kPasses));
template <class G>
using Use = decltype(std::declval<R<G>&>().use(std::declval<const OrderType<G>&>()));
}  // namespace rules_members

// Asserts that SolverRules<G> is specialised and complete (above), and that G has what the solver
// needs of a game; true when so. Called first by Solver<G>.
template <class G>
constexpr bool check_solver_rules() {
  using namespace rules_members;
  static_assert(Has<G, game_members::ChildCanonicalHash>::value,
                "the solver needs the game's uint64_t child_canonical_hash(const Move&) const");
  static_assert(Has<G, Defined>::value,
                "SolverRules<G> is not defined: specialise it (games/<game>/<game>_solver.hpp) "
                "before the solver or the binding is instantiated");
  if constexpr (Has<G, Defined>::value) {
    using Rules = SolverRules<G>;
    static_assert(Gives<int, G, WinValue>::value, "SolverRules needs int kWinValue");
    static_assert(Gives<bool, G, Scored>::value, "SolverRules needs bool kScored");
    static_assert(Gives<int, G, MaxPly>::value, "SolverRules needs int kMaxPly");
    static_assert(std::is_constructible_v<Rules, const G&> && std::is_move_assignable_v<Rules>,
                  "SolverRules needs explicit SolverRules(const G&) and move assignment");
    static_assert(Gives<bool, G, Goal>::value, "SolverRules needs static bool goal(const G&)");
    static_assert(Gives<int, G, Value>::value, "SolverRules needs static int value(const G&)");
    static_assert(Gives<int, G, Bound>::value,
                  "SolverRules needs static int bound(const SolverRules&, const G&, bool)");
    static_assert(Gives<int, G, Order>::value,
                  "SolverRules needs int order(G&, Move*, bool pruning) const");
    static_assert(Has<G, Make>::value && Has<G, Unmake>::value,
                  "SolverRules needs make(G&, const Move&) and unmake(G&, const Move&, undo)");
    if constexpr (Gives<bool, G, Scored>::value) {
      if constexpr (Rules::kScored) {
        static_assert(Has<G, OrderType>::value, "a scored game's SolverRules needs struct Order");
        static_assert(
            Has<G, DefaultOrder>::value && Has<G, Passes>::value && Has<G, PassCount>::value,
            "a scored game's SolverRules needs Order kOrder and kPasses[]");
        static_assert(Has<G, Use>::value,
                      "a scored game's SolverRules needs void use(const Order&)");
      }
    }
  }
  return true;
}

}  // namespace pe
