// The Wish's solver rules (core/search.hpp states what SolverRules must provide): win or lose,
// with a bound that proves when a rank can no longer leave in pairs.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/search.hpp"
#include "the_wish.hpp"

namespace pe {

// The Wish is acyclic, as the generic search requires (core/search.hpp): every move takes two
// cards away and none comes back, so no position is its own descendant.
template <>
struct SolverRules<TheWish> : PlainMoves<TheWish> {
  using G = TheWish;
  static constexpr int kWinValue = 1;
  static constexpr bool kScored = false;
  // Every move takes two of the 32 cards.
  static constexpr int kMaxPly = G::kCards / 2;

  explicit SolverRules(const G&) {}
  // Won: all 32 cards on the foundation.
  static bool goal(const G& g) { return g.is_won(); }
  // 1 for a win, 0 for a dead end.
  static int value(const G& g) { return g.is_won(); }

  // Pruning rule (pruning=true): 0 when some rank can no longer leave in pairs, else 1.
  // Why it is safe: a move takes the top cards of two different piles, both of one rank. So the
  // c cards of a rank left in the piles leave in c / 2 moves (none when c is odd), and each of
  // those moves takes at most one of them from any one pile: a pile holding more than c / 2 of
  // them keeps one for good. Either way no line wins, and 0 bounds every value reachable.
  static int bound(const SolverRules&, const G& g, bool pruning) {
    return !pruning || ranks_can_pair(g);
  }

  // Every legal move, the child with the most legal moves first (docs/solver.md "The Wish": the
  // order changes the nodes little, the bound much).
  int order(G& g, G::Move* out, bool) const {
    const int n = g.generate(out);
    int priority[G::kMaxMoves];
    for (int i = 0; i < n; ++i) priority[i] = g.count_after(out[i], n);
    return sort_moves(out, priority, n, n);
  }

 private:
  // Whether every rank's cards in the piles are even in number, with no pile holding more than
  // half of them (bound() above says why a win needs it).
  static bool ranks_can_pair(const G& g) {
    int total[G::kRanks] = {}, most[G::kRanks] = {};
    for (int k = 0; k < G::kPiles; ++k) {
      int here[G::kRanks] = {};
      for (int i = 0; i < g.height(k); ++i) {
        const int rank = rank_of(g.card(k, i));
        ++total[rank];
        most[rank] = std::max(most[rank], ++here[rank]);
      }
    }
    for (int rank = 1; rank < G::kRanks; ++rank)
      if (total[rank] % 2 || 2 * most[rank] > total[rank]) return false;
    return true;
  }
};

}  // namespace pe
