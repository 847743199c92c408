// Royal Marriage's solver rules (core/search.hpp states what SolverRules must provide): the row
// analysis that settles a row without a search.
#pragma once

#include <cassert>
#include <cstdint>

#include "core/search.hpp"
#include "royal_marriage.hpp"

namespace pe {

// Which stretches of a Royal Marriage row can be cleared: W(l, r), for row positions l < r, says
// every card strictly between l and r can be removed while l and r stay.
// Claim: W(l, l + 1) holds; for r > l + 1, W(l, r) holds exactly when l and r match and either
// some m in (l, r) has W(l, m) and W(m, r) (m goes last, alone), or some m1 < m2 in (l, r) have
// W(l, m1), W(m1, m2) and W(m2, r) (m1 and m2 go last, together).
// Why: while l and r stay, a card between them only ever has neighbours in [l, r], so the stretch
// is a game of its own. Its last removal leaves l next to r, so it took the one or two cards left
// between them and needed l and r to match; those cards stayed until then, so each shorter stretch
// between them was cleared with its ends staying. Conversely, clearing those stretches one after
// another and then making that last removal is a legal line. QH and KH always stay, so the row is
// won from here exactly when W(0, n - 1): the question is settled in O(n^2) word operations,
// without a search.
class RowAnalysis {
 public:
  using G = RoyalMarriage;

  // Works out W for every stretch of g's row.
  explicit RowAnalysis(const G& g) : g_(g), n_(g.size()) {
    for (int i = 0; i < n_; ++i) {
      suit_[i] = static_cast<std::uint8_t>(suit_of(g.card(i)));
      rank_[i] = static_cast<std::uint8_t>(rank_of(g.card(i)));
      w_[i] = ends_[i] = one_[i] = 0;
    }
    for (int l = 0; l + 1 < n_; ++l) {
      w_[l] |= bit(l + 1);
      ends_[l + 1] |= bit(l);
    }
    for (int d = 2; d < n_; ++d)
      for (int l = 0; l + d < n_; ++l) {
        const int r = l + d;
        const std::uint64_t inside = between(l, r);
        const bool one = w_[l] & ends_[r] & inside;
        if (one) one_[l] |= bit(r);
        if (match(l, r) && (one || (one_[l] & ends_[r] & inside))) {
          w_[l] |= bit(r);
          ends_[r] |= bit(l);
        }
      }
  }

  // Whether some line from the position wins: W(0, n - 1).
  bool winnable() const { return n_ >= 2 && (w_[0] >> (n_ - 1) & 1); }

  // The first move of a winning line; winnable() holds and more than QH and KH are left.
  // Walks down the stretches of the claim to the leftmost one that is a single removal;
  // remove-twos are tried first (they shorten the row fastest).
  G::Move first_move() const {
    assert(winnable() && n_ > 2);
    int l = 0, r = n_ - 1;
    for (;;) {
      // Here W(l, r) holds and at least one card lies between l and r.
      const std::uint64_t inside = between(l, r);
      if (const std::uint64_t twos = one_[l] & ends_[r] & inside) {
        const int m2 = ctz(twos);
        const int m1 = ctz(w_[l] & ends_[m2] & between(l, m2));
        if (m1 > l + 1) {
          r = m1;
        } else if (m2 > m1 + 1) {
          l = m1;
          r = m2;
        } else if (r > m2 + 1) {
          l = m2;
        } else {
          return G::Move{g_.card(m1), g_.card(m2), static_cast<std::uint8_t>(m1)};
        }
        continue;
      }
      const int m = ctz(w_[l] & ends_[r] & inside);
      if (m > l + 1) {
        r = m;
      } else if (r > m + 1) {
        l = m;
      } else {
        return G::Move{g_.card(m), kNoCard, static_cast<std::uint8_t>(m)};
      }
    }
  }

 private:
  static std::uint64_t bit(int i) { return std::uint64_t{1} << i; }
  // Positions strictly between l and r.
  static std::uint64_t between(int l, int r) { return (bit(r) - 1) & ~(bit(l + 1) - 1); }
  // Same rank or same suit.
  bool match(int a, int b) const { return suit_[a] == suit_[b] || rank_[a] == rank_[b]; }

  const G& g_;
  int n_;
  std::uint8_t suit_[kDeck], rank_[kDeck];
  std::uint64_t w_[kDeck];     // bit r of w_[l]: W(l, r)
  std::uint64_t ends_[kDeck];  // bit l of ends_[r]: W(l, r)
  std::uint64_t one_[kDeck];   // bit r of one_[l]: the stretch (l, r) can be cut down to one card
};

// Royal Marriage: win or lose; the row is the whole state, so RowAnalysis settles it.
template <>
struct SolverRules<RoyalMarriage> : PlainMoves<RoyalMarriage> {
  using G = RoyalMarriage;
  static constexpr int kWinValue = 1;
  static constexpr bool kScored = false;
  static constexpr int kMaxPly = 50;  // each move removes a card; 50 can go

  explicit SolverRules(const G&) {}
  // Won: only QH and KH left.
  static bool goal(const G& g) { return g.is_won(); }
  // 1 for a win, 0 for a dead end.
  static int value(const G& g) { return g.is_won(); }
  // A win is the most there is. Pruning rule: 0 when RowAnalysis proves no line wins (its claim
  // is proved above), so the search stops there.
  static int bound(const SolverRules&, const G& g, bool pruning) {
    return pruning ? RowAnalysis(g).winnable() : 1;
  }
  // Pruning rule (pruning=true): the first move of a winning line that RowAnalysis finds, alone.
  // Safe: it is searched only when bound() found a win, and its child still has that line's
  // rest. Otherwise every move: remove-twos first (they shorten the row fastest), generation
  // order (left to right) within each kind.
  int order(const G& g, G::Move* out, bool pruning) const {
    if (pruning) {
      const RowAnalysis analysis(g);
      if (analysis.winnable()) {
        out[0] = analysis.first_move();
        return 1;
      }
    }
    const int n = g.generate(out);
    int priority[G::kMaxMoves];
    for (int i = 0; i < n; ++i) priority[i] = out[i].second != kNoCard;
    return sort_moves(out, priority, n, n);
  }
};

}  // namespace pe
