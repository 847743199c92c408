// Germaine 2-Move's solver rules (core/search.hpp states what SolverRules must provide): the
// bound by runs of ranks, the move order that keeps the cards together, and the narrowed passes.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdint>

#include "core/search.hpp"
#include "germaine.hpp"

namespace pe {

namespace germaine_solver_detail {

using G = Germaine;
using Bitboard = G::Bitboard;

// Cells at most three steps from a cell of b, through any cells: three rounds of growing by one.
constexpr Bitboard dilate3(Bitboard b) {
  for (int step = 0; step < 3; ++step) b |= G::neighbours(b);
  return b;
}

// kReach[cell] = dilate3 of that cell alone.
constexpr std::array<Bitboard, G::kCells> make_reach() {
  std::array<Bitboard, G::kCells> t{};
  for (int i = 0; i < G::kCells; ++i) t[i] = dilate3(Bitboard{1} << i);
  return t;
}
inline constexpr auto kReach = make_reach();

// dilate3(b) by table: dilation distributes over union, and a rank has at most four cards.
inline Bitboard reach(Bitboard b) {
  Bitboard r = 0;
  for (; b; b &= b - 1) r |= kReach[ctz(b)];
  return r;
}

// A position's cells of rank index k, as a function of k.
struct RankCells {
  const Germaine& g;
  // Cells of rank index k.
  Bitboard operator()(int k) const { return g.rank_cells(k); }
};
// Entry k of a per-rank table, as a function of k.
struct Table {
  const Bitboard* t;
  // Entry k.
  Bitboard operator()(int k) const { return t[k]; }
};

// kFromMiddle[cell]: columns between the cell and the middle column (g), 0 to 6.
constexpr std::array<int, G::kCells> make_from_middle() {
  std::array<int, G::kCells> t{};
  for (int i = 0; i < G::kCells; ++i) {
    const int c = i % G::kCols - G::kCols / 2;
    t[i] = c < 0 ? -c : c;
  }
  return t;
}
inline constexpr auto kFromMiddle = make_from_middle();

// How far m brings the cards in towards the middle column, in columns: a combine takes the moving
// card's cell off the grid's occupied cells (the covered card's cell stays), a slide moves a card.
inline int inward(const Germaine::Move& m) {
  const int out = kFromMiddle[m.src];
  return m.kind == Germaine::Kind::kCombine ? out : out - kFromMiddle[m.dst];
}

}  // namespace germaine_solver_detail

// Germaine 2-Move: maximise the score of docs/rules.md "Germaine 2-Move". Tracks which ranks are
// still on the grid and, per rank, the cells within three steps of its cards (what partnered()
// counts with).
template <>
struct SolverRules<Germaine> {
  using G = Germaine;
  using Bitboard = G::Bitboard;
  // 52 minus one card left: a one-card finish scores 51 + its rank, two cards left at most 50.
  static constexpr int kWinValue = 52;
  static constexpr bool kScored = true;
  // Each combine removes one of 51 cards; at most two slides before each and at the start.
  static constexpr int kMaxPly = 2 + 3 * (kDeck - 1);
  static constexpr unsigned kAllRanks = (1u << 13) - 1;
  // Highest score: a King left alone.
  static constexpr int kPerfect = kDeck - 1 + 13;
  static constexpr int kRanks = G::kRanks;
  // What order() returns: the weights of its inward() term (points per column) and of its style
  // term (combines first, a high card moved and a low card covered first), and how many moves
  // (0: every move).
  struct Order {
    int inward;
    int style;
    int breadth;
  };
  // The search of every move.
  static constexpr Order kOrder{4, 1, 0};
  // The hunt's narrowed passes (Solver::hunt), one each: the first 3 moves in orders of their
  // own: varied orders try more alternatives near the root than wider passes in one order
  // (docs/solver.md "Experiments" has the trials that chose these ten).
  static constexpr Order kPasses[] = {{4, 1, 3}, {8, 1, 3}, {2, 1, 3},  {4, 0, 3}, {8, 0, 3},
                                      {6, 1, 3}, {3, 0, 3}, {12, 1, 3}, {1, 1, 3}, {16, 0, 3}};

  // Counts the cards of each rank on g's grid and works out each rank's reach.
  explicit SolverRules(const G& g) {
    for (int i = 0; i < G::kCells; ++i)
      if (g.cell(i) != kNoCard) add(g.cell(i));
    for (int k = 0; k < kRanks; ++k) reach_[k] = germaine_solver_detail::reach(g.rank_cells(k));
  }
  // One card left (or none, on a hand-made empty grid): the score cannot change any more.
  static bool goal(const G& g) { return g.cards_left() <= 1; }
  // The score of docs/rules.md "Germaine 2-Move".
  static int value(const G& g) { return g.score(); }

  // Upper bound on the final score (pruning=false: the perfect score). Pruning rule: a card of
  // rank r leaves the grid only when a card of rank r +- 1 (K-A neighbours) is put on it, and no
  // card ever comes back. Split the ranks on the grid into runs of neighbouring ranks on the
  // 13-cycle: a card of a run can only be covered by a card of the same run, and the last card
  // of a run stays, so at least one card per run is left at the end. With k >= 2 runs the score
  // is at most 52 - k; with one run, at most 51 + the highest rank on the grid (the last card is
  // one of the cards now showing; two or more left scores at most 50).
  static int bound(const SolverRules& r, const G& g, bool pruning) {
    if (goal(g)) return value(g);
    if (!pruning) return kPerfect;
    const unsigned ranks = r.present_;
    const unsigned below_set = ((ranks << 1) | (ranks >> 12)) & kAllRanks;
    const int runs = ranks == kAllRanks ? 1 : popcount(ranks & ~below_set);
    if (runs >= 2) return kDeck - runs;
    return kDeck - 1 + (32 - clz(ranks));
  }

  // The moves to search, best first: by the child's partnered() (most cards keeping a partner in
  // reach), then combines before slides, a high card moved and a low card covered first (they
  // keep high cards for the last one), and moves that bring the cards in towards the middle
  // column (inward(): at kOrder's four points a column, at most 24, it orders moves that keep as
  // many cards partnered; passes weighing it 12 or 16 can put it above a partnered card); ties
  // in generation order; only the first order_.breadth of them in a narrowed pass.
  // Keeping the cards together is what wins: a plain combines-first order strands cards one by
  // one and never gets back up the tree to undo it, and cards left at both ends of the rows are
  // many slides apart while slides come only two per combine. Clearing the grid from its ends in
  // towards the middle keeps the cards in one block (docs/solver.md "Experiments"). Independent
  // slides played in either order reach the same position, which the table answers the second
  // time. Children are worked out from g's bitboards, not played.
  //
  // Pruning rule (pruning=true): a slide that spends the last unit of allowance and leaves no
  // combine is skipped. Why it is safe: its child has no legal move and the same cards as g, so
  // its value is 52 minus g's cards left (two or more: g is not a goal). Every line from g ends
  // with no more cards than g has (with one card, above 51), so the best value below g is at
  // least that much; when every move of g is skipped, g itself counts as the dead end
  // (search() scores a position with no move to search), with that same value.
  int order(G& g, G::Move* out, bool pruning) const {
    using namespace germaine_solver_detail;
    G::Move moves[G::kMaxMoves];
    const int n = g.generate(moves);
    // Each rank's share of partnered() of g, which a move changes for three or four ranks only.
    int counted[kRanks];
    int parent = 0;
    for (int k = 0; k < kRanks; ++k)
      parent += counted[k] = partnered(RankCells{g}, Table{reach_}, k, 1);
    const int combines = static_cast<int>(std::count_if(
        moves, moves + n, [](const G::Move& m) { return m.kind == G::Kind::kCombine; }));
    int priority[G::kMaxMoves];
    int kept = 0;
    for (int i = 0; i < n; ++i) {
      const G::Move m = moves[i];
      const bool combine = m.kind == G::Kind::kCombine;
      const bool skip =
          pruning && !combine && g.allowance() == 1 && g.combines_after(m, combines) == 0;
      const int partners = skip ? -1 : child_partnered(g, m, parent, counted);
      assert(agrees_with_play(g, m, pruning, skip, partners));
      if (skip) continue;
      const int style = combine ? 32 + 2 * rank_of(g.cell(m.src)) - rank_of(g.cell(m.dst)) : 0;
      priority[kept] = 64 * partners + order_.style * style + order_.inward * inward(m);
      out[kept++] = m;
    }
    return sort_moves(out, priority, kept, order_.breadth ? order_.breadth : kept);
  }

  // Sets what order() returns.
  void use(const Order& order) { order_ = order; }

  // Plays m, noting the card a combine covers and the reach of the ranks that moved.
  G::Undo make(G& g, const G::Move& m) {
    if (m.kind == G::Kind::kCombine) remove(g.cell(m.dst));
    const G::Undo u = g.make(m);
    update_reach(g, g.cell(m.dst), u.covered);
    return u;
  }
  // Takes m back, noting the uncovered card and the reach of the ranks that moved.
  void unmake(G& g, const G::Move& m, const G::Undo& u) {
    g.unmake(m, u);
    if (m.kind == G::Kind::kCombine) add(g.cell(m.dst));
    update_reach(g, g.cell(m.src), u.covered);
  }

 private:
  // Cards with a near-ranked card at most three steps away (cards in between not counted as
  // obstacles): pairs that two slides and a combine may still join. A heuristic for order(),
  // never a bound: allowance won by combines elsewhere can walk any card anywhere. Summed over
  // the ranks lo, lo + 1, ... (count of them, on the 13-cycle) with ranks(k) the cells of rank k
  // and reach(k) = dilate3(ranks(k)): near-ranked cards of k lie in reach(k - 1) | reach(k + 1).
  template <class Ranks, class Reach>
  static int partnered(Ranks ranks, Reach reach, int lo = 0, int count = kRanks) {
    using namespace germaine_solver_detail;
    int n = 0;
    for (int i = 0, k = lo; i < count; ++i, k = G::rank_above(k))
      n += popcount(ranks(k) & (reach(G::rank_below(k)) | reach(G::rank_above(k))));
    return n;
  }

  // partnered() of g after m, from parent = partnered() of g and counted[k] = rank k's share of
  // it: only the moved card's rank a and a covered card's rank b change cells and reach, so only
  // the ranks within one of a or b count differently (a slide: a - 1 .. a + 1; a combine,
  // b = a +- 1: the four ranks around both).
  int child_partnered(const G& g, const G::Move& m, int parent, const int* counted) const {
    using namespace germaine_solver_detail;
    const int a = G::kRankIndex[g.cell(m.src)];
    const Bitboard ranks_a = g.rank_cells(a) ^ (Bitboard{1} << m.src) ^ (Bitboard{1} << m.dst);
    const Bitboard reach_a = germaine_solver_detail::reach(ranks_a);
    int b = -1;
    Bitboard ranks_b = 0;
    Bitboard reach_b = 0;
    int lo = G::rank_below(a);
    int count = 3;
    if (m.kind == G::Kind::kCombine) {
      b = G::kRankIndex[g.cell(m.dst)];
      ranks_b = g.rank_cells(b) ^ (Bitboard{1} << m.dst);
      reach_b = germaine_solver_detail::reach(ranks_b);
      lo = G::rank_below(b == G::rank_above(a) ? a : b);
      count = 4;
    }
    const auto child_ranks = [&](int k) {
      return k == a ? ranks_a : k == b ? ranks_b : g.rank_cells(k);
    };
    const auto child_reach = [&](int k) { return k == a ? reach_a : k == b ? reach_b : reach_[k]; };
    int before = 0;
    for (int i = 0, k = lo; i < count; ++i, k = G::rank_above(k)) before += counted[k];
    return parent + partnered(child_ranks, child_reach, lo, count) - before;
  }

  // Debug check of order()'s look-ahead against m played: the skip rule, the child's partnered()
  // (reach worked out afresh by dilate3) and its canonical key.
  static bool agrees_with_play(G& g, const G::Move& m, bool pruning, bool skip, int partners) {
    using namespace germaine_solver_detail;
    const std::uint64_t key = g.child_canonical_hash(m);
    const G::Undo u = g.make(m);
    const bool played_skip =
        pruning && m.kind == G::Kind::kSlide && g.allowance() == 0 && g.count_combines() == 0;
    const auto fresh_reach = [&g](int k) { return dilate3(g.rank_cells(k)); };
    const bool ok = skip == played_skip && key == g.canonical_hash() &&
                    (skip || partners == partnered(RankCells{g}, fresh_reach));
    g.unmake(m, u);
    return ok;
  }

  // Recomputes the reach of the moved card's rank and of a covered card's rank (kNoCard: none).
  void update_reach(const G& g, Card moved, Card covered) {
    const int a = G::kRankIndex[moved];
    reach_[a] = germaine_solver_detail::reach(g.rank_cells(a));
    if (covered == kNoCard) return;
    const int b = G::kRankIndex[covered];
    reach_[b] = germaine_solver_detail::reach(g.rank_cells(b));
  }
  void add(Card c) {
    const int k = rank_of(c) - 1;
    if (count_[k]++ == 0) present_ |= 1u << k;
  }
  void remove(Card c) {
    const int k = rank_of(c) - 1;
    if (--count_[k] == 0) present_ &= ~(1u << k);
  }

  int count_[kRanks] = {};
  unsigned present_ = 0;         // bit r-1: a card of rank r is on the grid
  Bitboard reach_[kRanks] = {};  // reach_[k] = dilate3(g.rank_cells(k)) of the position searched
  Order order_ = kOrder;
};

}  // namespace pe
