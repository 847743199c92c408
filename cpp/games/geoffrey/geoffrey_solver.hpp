// Geoffrey's solver rules (core/search.hpp states what SolverRules must provide): forced
// foundation moves and canonical duplicates left out.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/search.hpp"
#include "geoffrey.hpp"

namespace pe {

// Geoffrey: win or lose; forced foundation moves; canonical duplicates of a move skipped.
template <>
struct SolverRules<Geoffrey> : PlainMoves<Geoffrey> {
  using G = Geoffrey;
  static constexpr int kWinValue = 1;
  static constexpr bool kScored = false;
  // A card moves as a group's head at most three times: onto its successor (it never leaves it
  // again but to go home), as a King from on top of a card into an empty column (bottom-King
  // swaps are never searched), and home: 3 * 52.
  static constexpr int kMaxPly = 3 * kDeck;

  explicit SolverRules(const G&) {}
  // Won: all 52 cards home.
  static bool goal(const G& g) { return g.is_won(); }
  // 1 for a win, 0 for a dead end.
  static int value(const G& g) { return g.is_won(); }
  // A win is the most there is.
  static int bound(const SolverRules&, const G&, bool) { return 1; }

  // The moves to search, best first. Always, not a pruning rule: a move that leaves the canonical
  // key unchanged (a bottom King changing columns: only the column order moves) or gives the same
  // key as an earlier move (a King into one or another empty column) reaches a position already
  // searched or on the path, so it is left out; a real move changes the key by the XOR of two to
  // four distinct table entries, which is never zero but for a 64-bit collision.
  // Pruning rule (pruning=true): when a top card can go home, that move alone is searched.
  // Why it is safe: let P' be P after top card c (rank r) goes home, so its foundation stood at
  // r-1. Take any line L from P and play it from P' without the moves that c heads. Invariant:
  // P' is P with c taken out of the tableau (and home), with no more face-down cards than P.
  // Nothing is ever put on c (only its suit's r-1 could be, and that is home for good), so c
  // stays a top card in P and no move of L lands on it; a move of L headed by another card h
  // then finds h face up and the same destination top card (or an empty column) in P', moves
  // the same group less c, and keeps the invariant; c's suit takes no card until c goes home in
  // L. At the end of a winning L every card is home in P' too. So P wins whenever P' does.
  int order(G& g, G::Move* out, bool pruning) const {
    G::Move moves[G::kMaxMoves];
    const int n = g.generate(moves);
    if (pruning)
      for (int i = 0; i < n; ++i)
        if (moves[i].dst == G::kFoundation) {
          out[0] = moves[i];
          return 1;
        }
    const std::uint64_t parent = g.canonical_hash();
    std::uint64_t keys[G::kMaxMoves];
    int priority[G::kMaxMoves];
    int kept = 0;
    for (int i = 0; i < n; ++i) {
      const std::uint64_t key = g.child_canonical_hash(moves[i]);
      // Home moves first, then moves that turn a card up, then by the child's mobility.
      const int p = (moves[i].dst == G::kFoundation) * 256 + g.turns_card(moves[i]) * 128 +
                    g.count_after(moves[i], n);
      if (key == parent || std::find(keys, keys + kept, key) != keys + kept) continue;
      keys[kept] = key;
      priority[kept] = p;
      out[kept++] = moves[i];
    }
    return sort_moves(out, priority, kept, kept);
  }
};

}  // namespace pe
