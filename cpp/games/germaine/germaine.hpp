// Germaine 2-Move (docs/rules.md "Germaine 2-Move"): 52 cells in 4 rows of 13, bitboard move
// generation.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "core/bits.hpp"
#include "core/cards.hpp"
#include "core/rl.hpp"

namespace pe {

// A Germaine 2-Move position: the top card of each cell and the slide allowance.
// Alongside the cells it keeps occupancy and one bitboard per rank, so counting moves is a few
// dozen word operations, and the four symmetry keys, so hashing is free.
struct Germaine {
  // Bit 13 * row + col stands for one cell; the top 12 bits of the word are always clear.
  using Bitboard = std::uint64_t;
  static constexpr int kRows = 4;
  static constexpr int kCols = 13;
  static constexpr int kCells = kRows * kCols;
  static constexpr int kRanks = 13;
  // The four grid symmetries of docs/rules.md "Germaine 2-Move": identity, mirror left-right,
  // mirror top-bottom, half-turn.
  static constexpr int kSymmetries = 4;

  static constexpr const char* kName = "Germaine";
  static constexpr const char* kMoveName = "GermaineMove";
  static constexpr const char* kDoc =
      "A Germaine 2-Move position: 52 cells in 4 rows of 13 and a slide allowance.\n\n"
      "A combine puts a card on an adjacent near-ranked card (ranks one apart, K-A too) and\n"
      "resets the allowance to 2; a slide moves a card into an adjacent empty cell and uses one\n"
      "unit of allowance. Won with one card left (docs/rules.md \"Germaine 2-Move\"). Make one\n"
      "with deal(n) or from_text(text).";
  // Each ordered pair of adjacent cells is at most one move (a combine when both hold cards, a
  // slide when one is empty): 2 * (4 * 12 horizontal + 3 * 13 vertical pairs).
  static constexpr int kMaxMoves = 2 * (kRows * (kCols - 1) + (kRows - 1) * kCols);

  enum class Kind : std::uint8_t { kCombine, kSlide };

  // A combine src x dst or a slide src - dst; cells are 13 * row + col.
  struct Move {
    std::uint8_t src;
    std::uint8_t dst;
    Kind kind;

    // 64-bit identity (kind, src, dst) for Python's hash.
    std::uint64_t id() const {
      return (std::uint64_t{static_cast<std::uint8_t>(kind)} << 16) | (std::uint64_t{src} << 8) |
             dst;
    }
    // Same kind between the same cells.
    bool operator==(const Move& o) const { return src == o.src && dst == o.dst && kind == o.kind; }
  };

  // What make() overwrote: the keys (restored, never un-XORed), the covered card and the
  // allowance.
  struct Undo {
    std::array<std::uint64_t, kSymmetries> keys;
    Card covered;
    std::uint8_t allowance;
  };

  // --- The grid as bitboards (the solver's heuristics use them too) ---

  static constexpr Bitboard kFull = (Bitboard{1} << kCells) - 1;
  // Cells of column 0: kFull / (2^13 - 1) is bit 0 of each 13-bit row.
  static constexpr Bitboard kFirstColumn = kFull / ((Bitboard{1} << kCols) - 1);
  // Cells of every column but 12, whose right-hand shift would wrap onto the next row.
  static constexpr Bitboard kNotLastCol = kFull & ~(kFirstColumn << (kCols - 1));
  // Each cell's right-hand neighbour bit, no wrap between rows.
  static constexpr Bitboard right(Bitboard b) { return (b & kNotLastCol) << 1; }
  // Each cell's left-hand neighbour bit, no wrap between rows.
  static constexpr Bitboard left(Bitboard b) { return (b >> 1) & kNotLastCol; }
  // Each cell's lower neighbour bit.
  static constexpr Bitboard down(Bitboard b) { return (b << kCols) & kFull; }
  // Each cell's upper neighbour bit.
  static constexpr Bitboard up(Bitboard b) { return b >> kCols; }
  // Cells sharing a side with a cell of b.
  static constexpr Bitboard neighbours(Bitboard b) { return left(b) | right(b) | up(b) | down(b); }
  // Rank indices one below and one above k on the 13-cycle (K-A neighbours).
  static constexpr int rank_below(int k) { return k == 0 ? kRanks - 1 : k - 1; }
  static constexpr int rank_above(int k) { return k == kRanks - 1 ? 0 : k + 1; }
  // Rank index 0..12 of a card, by table to keep a division out of make/unmake.
  static constexpr std::array<std::uint8_t, kDeck> kRankIndex = [] {
    std::array<std::uint8_t, kDeck> t{};
    for (int c = 0; c < kDeck; ++c) t[c] = static_cast<std::uint8_t>(c % kRanks);
    return t;
  }();

  // Numbered deal n (docs/rules.md "Numbered deals").
  static Germaine deal(std::uint64_t n);
  // Reads a position (docs/rules.md "Text formats"); throws ParseError naming the line and the
  // token.
  static Germaine from_text(std::string_view text);
  // Reads g3xh3 / g3-h3; throws ParseError on a bad cell name or non-adjacent cells.
  static Move parse_move(std::string_view text);
  // Notation of a move: g3xh3 (combine) or g3-h3 (slide).
  static std::string move_text(const Move& m);
  // Four lines of 13 tokens and "slides: N", no trailing newline.
  std::string to_text() const;
  // No card is face down: the hidden view is the text (docs/rl.md "Hidden view"), and
  // determinize() is not needed.
  static constexpr bool kHasFaceDown = false;
  std::string to_text(bool) const { return to_text(); }

  // --- Reinforcement learning (docs/rl.md) ---

  // action = (kind * 4 + direction) * 52 + src, directions up, left, right, down (docs/rl.md
  // "Germaine 2-Move: 416 actions").
  static constexpr int kNumActions = 8 * kCells;
  static constexpr int kDefaultMaxMoves = 153;
  static constexpr std::array<int, 3> kObservationShape = {19, kRows, kCols};
  // Planes 17 and 18: all ones when the allowance is at least 1, at least 2.
  static constexpr int kAllowancePlanes = 17;
  static int action(const Move& m) {
    const int offset = m.dst - m.src;
    const int direction = offset == -kCols ? 0 : offset == -1 ? 1 : offset == 1 ? 2 : 3;
    return (static_cast<int>(m.kind) * 4 + direction) * kCells + m.src;
  }
  // The move of an action in 0 .. kNumActions - 1; throws ParseError for one pointing off the grid.
  static Move move_of_action(int a);
  // The move of an action that points onto the grid.
  static Move action_move(int a) {
    static constexpr std::int8_t kOffsets[] = {-kCols, -1, 1, kCols};
    const int src = a % kCells, group = a / kCells;
    return Move{static_cast<std::uint8_t>(src),
                static_cast<std::uint8_t>(src + kOffsets[group % 4]),
                group < 4 ? Kind::kCombine : Kind::kSlide};
  }
  // Writes the observation into obs (kObservationShape, zeroed by the caller).
  void observe(std::uint8_t* obs, bool) const {
    for (int cell = 0; cell < kCells; ++cell)
      if (cells_[cell] != kNoCard) put_card_planes(obs, kCells, cell, cells_[cell], 1);
    fill_allowance(obs, allowance_);
  }
  // Updates obs, this position's observation, to the one after the legal move m (call before
  // make(m)): the two cells and, when it changes, the allowance planes.
  void patch_observation(std::uint8_t* obs, const Move& m, bool) const {
    const Card card = cells_[m.src];
    put_card_planes(obs, kCells, m.src, card, 0);
    if (m.kind == Kind::kCombine) put_card_planes(obs, kCells, m.dst, cells_[m.dst], 0);
    put_card_planes(obs, kCells, m.dst, card, 1);
    if (allowance_after(m) != allowance_) fill_allowance(obs, allowance_after(m));
  }

  // Writes the legal moves to out (room for kMaxMoves) and returns how many.
  inline int generate(Move* out) const;
  // The legal actions as eight words, one per action group (kind, direction), a bit per source
  // cell (core/rl.hpp).
  static constexpr int kActionWords = 8;
  static constexpr int kActionsPerWord = kCells;
  inline void legal_action_words(std::uint64_t* words) const;
  // The legal actions, ascending (core/rl.hpp).
  int legal_actions(StoredAction* out) const {
    std::uint64_t words[kActionWords];
    legal_action_words(words);
    return actions_of_words<kActionWords, kActionsPerWord>(words, out);
  }
  // The move of a legal action: the action alone names it.
  Move move_at(int a) const { return action_move(a); }
  // Number of legal moves, without listing them (perft's bulk count, is_over).
  int count_moves() const { return count_combines() + (allowance_ ? count_slides(occupied_) : 0); }
  // Number of legal moves after the legal move m, without making it; moves_here is
  // count_moves() of this position (perft's last two plies, counted in bulk).
  int count_after(const Move& m, int moves_here) const {
    return replies_after(m, moves_here - (allowance_ ? count_slides(occupied_) : 0));
  }
  // Number of legal combines after the legal move m, without making it; combines_here is
  // count_combines() of this position.
  inline int combines_after(const Move& m, int combines_here) const;
  // perft(*this, 2) without listing or making a move: count_after() summed over every legal
  // move, with this position's combines and slides counted once.
  inline std::uint64_t count_two_plies() const;
  // Plays a legal move; returns what unmake() needs.
  inline Undo make(const Move& m);
  // Takes back m, the last move made, given what its make() returned.
  inline void unmake(const Move& m, const Undo& undo);

  // Zobrist key of the exact position (kept incrementally).
  std::uint64_t hash() const { return keys_[0]; }
  // Smallest of the four symmetry keys: equal for positions alike up to a grid symmetry.
  std::uint64_t canonical_hash() const { return smallest(keys_); }
  // hash() computed from scratch.
  std::uint64_t compute_hash() const { return compute_keys()[0]; }
  // canonical_hash() computed from scratch.
  std::uint64_t compute_canonical_hash() const;
  // canonical_hash() of the position after m, a legal move, without making it (the solver's
  // move ordering).
  inline std::uint64_t child_canonical_hash(const Move& m) const;

  // Number of cards on the grid.
  int cards_left() const { return popcount(occupied_); }
  // Won: exactly one card left (it may still be able to slide).
  bool is_won() const { return cards_left() == 1; }
  // 52 minus the cards left, plus the last card's rank when exactly one is left.
  int score() const {
    const int left = cards_left();
    return kDeck - left + (left == 1 ? rank_of(cells_[ctz(occupied_)]) : 0);
  }
  // Top card of a cell (13 * row + col), kNoCard when empty.
  Card cell(int index) const { return cells_[index]; }
  // Slides still allowed (0, 1 or 2).
  int allowance() const { return allowance_; }
  // Cells holding a card (solver heuristics read the bitboards rather than rebuild them).
  Bitboard occupied() const { return occupied_; }
  // Cells whose top card has rank index k (0: Ace .. 12: King).
  Bitboard rank_cells(int k) const { return ranks_[k]; }
  // Cells whose top card is near-ranked to rank index k.
  Bitboard near(int k) const { return ranks_[rank_below(k)] | ranks_[rank_above(k)]; }
  // Number of legal combines (count_moves() without the slides).
  int count_combines() const {
    const Pairs p = near_pairs();
    return 2 * (popcount(p.across) + popcount(p.vertical));
  }

  // Same cards in the same cells and the same allowance.
  bool operator==(const Germaine& o) const {
    return cells_ == o.cells_ && allowance_ == o.allowance_;
  }

 private:
  // Zobrist tables (docs/rules.md "Germaine 2-Move"): CELL[cell][card] (cell outer), then
  // SLIDES[0..2].
  static constexpr std::uint64_t kSeed = 0x4765726D61696E65ULL;  // "Germaine"
  static constexpr int kSlideKeys = kCells * kDeck;
  static constexpr auto kKeys = zobrist_keys<kCells * kDeck + 3>(kSeed);
  // kSymBase[s][cell] = 52 * s(cell): where CELL[s(cell)][.] starts, so a key is one table load.
  static constexpr std::array<std::array<std::uint16_t, kCells>, kSymmetries> kSymBase = [] {
    std::array<std::array<std::uint16_t, kCells>, kSymmetries> t{};
    for (int r = 0; r < kRows; ++r)
      for (int c = 0; c < kCols; ++c) {
        const int cell = kCols * r + c;
        const int image[kSymmetries] = {cell, kCols * r + (kCols - 1 - c),
                                        kCols * (kRows - 1 - r) + c,
                                        kCols * (kRows - 1 - r) + (kCols - 1 - c)};
        for (int s = 0; s < kSymmetries; ++s)
          t[s][cell] = static_cast<std::uint16_t>(image[s] * kDeck);
      }
    return t;
  }();

  // XORs m's change into keys, this position's four symmetry keys or a copy of them: the one key
  // update that make() and child_canonical_hash() share. Reads the cells before m is played.
  inline void play_keys(const Move& m, std::array<std::uint64_t, kSymmetries>& keys) const;
  // Number of legal moves after the legal move m, from combines_here = count_combines(): the
  // combines as combines_after() says, the slides counted afresh on the new occupancy.
  int replies_after(const Move& m, int combines_here) const {
    const Bitboard moved =
        (Bitboard{1} << m.src) | (m.kind == Kind::kCombine ? 0 : Bitboard{1} << m.dst);
    return combines_after(m, combines_here) +
           (allowance_after(m) ? count_slides(occupied_ ^ moved) : 0);
  }
  // Sets the allowance planes of an observation for this allowance.
  static void fill_allowance(std::uint8_t* obs, int allowance) {
    std::memset(obs + kAllowancePlanes * kCells, allowance >= 1, kCells);
    std::memset(obs + (kAllowancePlanes + 1) * kCells, allowance >= 2, kCells);
  }
  // Slide allowance after m.
  int allowance_after(const Move& m) const { return m.kind == Kind::kCombine ? 2 : allowance_ - 1; }
  // Smallest of four symmetry keys: the canonical one.
  static inline std::uint64_t smallest(const std::array<std::uint64_t, kSymmetries>& keys);

  // A position from its cells and allowance; derives the bitboards and keys.
  Germaine(const std::array<Card, kCells>& cells, int allowance);

  // The four symmetry keys from scratch, identity first.
  std::array<std::uint64_t, kSymmetries> compute_keys() const;
  // Bitboards and keys agree with cells_ and allowance_ (debug checks).
  bool consistent() const;

  // The near-ranked neighbours: across, the cells whose left-hand neighbour holds a near-ranked
  // card; vertical, the cells whose upper neighbour does.
  struct Pairs {
    Bitboard across, vertical;
  };
  inline Pairs near_pairs() const;
  // Moves the card of src to dst in the bitboards; a combine also takes the covered card off.
  inline void move_bits(const Move& m, Card card, Card covered);
  // Slides into an empty cell from an adjacent card, on the grid occupied, allowance left.
  static inline int count_slides(Bitboard occupied);
  // Appends a slide into each cell of dsts from the cell at offset from it.
  static inline int emit_slides(Move* out, int n, Bitboard dsts, int offset);

  Bitboard occupied_;
  std::array<Bitboard, kRanks> ranks_;           // cells whose top card has rank index k
  std::array<std::uint64_t, kSymmetries> keys_;  // identity, left-right, top-bottom, half-turn
  std::array<Card, kCells> cells_;
  std::uint8_t allowance_;
};

inline int Germaine::generate(Move* out) const {
  int n = 0;
  const auto [across, vertical] = near_pairs();
  for (Bitboard b = across; b; b &= b - 1) {
    const auto j = static_cast<std::uint8_t>(ctz(b));
    out[n++] = Move{static_cast<std::uint8_t>(j - 1), j, Kind::kCombine};
    out[n++] = Move{j, static_cast<std::uint8_t>(j - 1), Kind::kCombine};
  }
  for (Bitboard b = vertical; b; b &= b - 1) {
    const auto j = static_cast<std::uint8_t>(ctz(b));
    out[n++] = Move{static_cast<std::uint8_t>(j - kCols), j, Kind::kCombine};
    out[n++] = Move{j, static_cast<std::uint8_t>(j - kCols), Kind::kCombine};
  }
  if (allowance_ == 0) return n;
  const Bitboard empty = ~occupied_ & kFull;
  n = emit_slides(out, n, empty & right(occupied_), -1);
  n = emit_slides(out, n, empty & left(occupied_), +1);
  n = emit_slides(out, n, empty & down(occupied_), -kCols);
  return emit_slides(out, n, empty & up(occupied_), +kCols);
}

// Word g is group g of the actions (docs/rl.md "Germaine 2-Move: 416 actions"): the source cells
// of its moves.
inline void Germaine::legal_action_words(std::uint64_t* words) const {
  const auto [across, vertical] = near_pairs();
  words[0] = vertical;
  words[1] = across;
  words[2] = across >> 1;
  words[3] = vertical >> kCols;
  const Bitboard empty = allowance_ ? ~occupied_ & kFull : 0;
  words[4] = occupied_ & down(empty);
  words[5] = occupied_ & right(empty);
  words[6] = occupied_ & left(empty);
  words[7] = occupied_ & up(empty);
}

// A move changes only the near-ranked pairs at its two cells, so the count is this position's,
// changed by those.
inline int Germaine::combines_after(const Move& m, int combines_here) const {
  const Bitboard src = Bitboard{1} << m.src;
  const Bitboard dst = Bitboard{1} << m.dst;
  const Bitboard near_a = near(kRankIndex[cells_[m.src]]);
  // Near-ranked pairs (each counted once) lost at src and won at dst by the moved card.
  int pairs = popcount(neighbours(dst) & near_a) - popcount(neighbours(src) & near_a);
  // A combine also loses the covered card's pairs; src-dst was counted at both cells, so one
  // comes back.
  if (m.kind == Kind::kCombine)
    pairs += 1 - popcount(neighbours(dst) & near(kRankIndex[cells_[m.dst]]));
  return combines_here + 2 * pairs;
}

// A combine empties its src, which then takes a slide from each card beside it and gives none to
// the empty cells beside it. The moves are enumerated as generate() does, not through it:
// writing them out is slower.
inline std::uint64_t Germaine::count_two_plies() const {
  const auto [across, vertical] = near_pairs();
  const int combines = 2 * (popcount(across) + popcount(vertical));
  const int slides = count_slides(occupied_);
  std::uint64_t total = 0;
  const auto add_combine = [&](int src, int dst) {
    const Move m{std::uint8_t(src), std::uint8_t(dst), Kind::kCombine};
    const Bitboard beside = neighbours(Bitboard{1} << src);
    total += static_cast<std::uint64_t>(combines_after(m, combines) + slides +
                                        2 * popcount(beside & occupied_) - popcount(beside));
  };
  for (Bitboard b = across; b; b &= b - 1) {
    const int j = ctz(b);
    add_combine(j - 1, j);
    add_combine(j, j - 1);
  }
  for (Bitboard b = vertical; b; b &= b - 1) {
    const int j = ctz(b);
    add_combine(j - kCols, j);
    add_combine(j, j - kCols);
  }
  if (allowance_ == 0) return total;
  const Bitboard empty = ~occupied_ & kFull;
  const auto add_slides = [&](Bitboard dsts, int offset) {
    for (Bitboard b = dsts; b; b &= b - 1) {
      const int j = ctz(b);
      total += static_cast<std::uint64_t>(
          replies_after(Move{std::uint8_t(j + offset), std::uint8_t(j), Kind::kSlide}, combines));
    }
  };
  add_slides(empty & right(occupied_), -1);
  add_slides(empty & left(occupied_), +1);
  add_slides(empty & down(occupied_), -kCols);
  add_slides(empty & up(occupied_), +kCols);
  return total;
}

inline Germaine::Undo Germaine::make(const Move& m) {
  const Undo undo{keys_, cells_[m.dst], allowance_};
  const Card card = cells_[m.src];
  move_bits(m, card, undo.covered);
  play_keys(m, keys_);
  cells_[m.dst] = card;
  cells_[m.src] = kNoCard;
  allowance_ = static_cast<std::uint8_t>(allowance_after(m));
  assert(consistent());
  return undo;
}

inline void Germaine::unmake(const Move& m, const Undo& undo) {
  const Card card = cells_[m.dst];
  move_bits(m, card, undo.covered);  // its own inverse
  cells_[m.src] = card;
  cells_[m.dst] = undo.covered;
  allowance_ = undo.allowance;
  keys_ = undo.keys;
  assert(consistent());
}

inline void Germaine::move_bits(const Move& m, Card card, Card covered) {
  const Bitboard src = Bitboard{1} << m.src;
  const Bitboard dst = Bitboard{1} << m.dst;
  ranks_[kRankIndex[card]] ^= src | dst;
  if (m.kind == Kind::kCombine) {
    ranks_[kRankIndex[covered]] ^= dst;
    occupied_ ^= src;
  } else {
    occupied_ ^= src | dst;
  }
}

inline std::uint64_t Germaine::child_canonical_hash(const Move& m) const {
  std::array<std::uint64_t, kSymmetries> keys = keys_;
  play_keys(m, keys);
  return smallest(keys);
}

inline void Germaine::play_keys(const Move& m, std::array<std::uint64_t, kSymmetries>& keys) const {
  const Card card = cells_[m.src];
  // Every symmetry key holds the same SLIDES term.
  const std::uint64_t slides =
      kKeys[kSlideKeys + allowance_] ^ kKeys[kSlideKeys + allowance_after(m)];
  if (m.kind == Kind::kCombine) {
    const Card covered = cells_[m.dst];
    for (int s = 0; s < kSymmetries; ++s)
      keys[s] ^= slides ^ kKeys[kSymBase[s][m.src] + card] ^ kKeys[kSymBase[s][m.dst] + card] ^
                 kKeys[kSymBase[s][m.dst] + covered];
  } else {
    for (int s = 0; s < kSymmetries; ++s)
      keys[s] ^= slides ^ kKeys[kSymBase[s][m.src] + card] ^ kKeys[kSymBase[s][m.dst] + card];
  }
}

inline std::uint64_t Germaine::smallest(const std::array<std::uint64_t, kSymmetries>& keys) {
  std::uint64_t k = keys[0];
  for (int s = 1; s < kSymmetries; ++s) k = keys[s] < k ? keys[s] : k;
  return k;
}

// Bit-sliced: the four bits of each cell's rank index as four bitboards, so one pass of word
// operations compares every cell with its neighbour. Ranks x and y (0..12) are near when x - y is
// 1 or -1, which are 1 and 15 mod 16, or when they are Ace and King, whose differences 12 and -12
// alias -4 and 4 mod 16 and are tested apart. Empty cells read as Aces and are masked off.
inline Germaine::Pairs Germaine::near_pairs() const {
  const auto& r = ranks_;
  const Bitboard x[4] = {r[1] | r[3] | r[5] | r[7] | r[9] | r[11],
                         r[2] | r[3] | r[6] | r[7] | r[10] | r[11],
                         r[4] | r[5] | r[6] | r[7] | r[12], r[8] | r[9] | r[10] | r[11] | r[12]};
  const auto pairs = [&](auto shift) {
    // d = x - y mod 16, y the neighbour's rank, by a borrow ripple.
    Bitboard d[4], borrow = 0;
    for (int bit = 0; bit < 4; ++bit) {
      const Bitboard y = shift(x[bit]), differ = x[bit] ^ y;
      d[bit] = differ ^ borrow;
      borrow = (~x[bit] & y) | (~differ & borrow);
    }
    const Bitboard one_apart = d[0] & ~(d[1] ^ d[2]) & ~(d[2] ^ d[3]);
    const Bitboard ace_king = (r[0] & shift(r[12])) | (r[12] & shift(r[0]));
    return (one_apart | ace_king) & occupied_ & shift(occupied_);
  };
  return {pairs([](Bitboard b) { return right(b); }), pairs([](Bitboard b) { return down(b); })};
}

inline int Germaine::count_slides(Bitboard occupied) {
  const Bitboard empty = ~occupied & kFull;
  return popcount(empty & right(occupied)) + popcount(empty & left(occupied)) +
         popcount(empty & down(occupied)) + popcount(empty & up(occupied));
}

inline int Germaine::emit_slides(Move* out, int n, Bitboard dsts, int offset) {
  for (Bitboard b = dsts; b; b &= b - 1) {
    const int j = ctz(b);
    out[n++] =
        Move{static_cast<std::uint8_t>(j + offset), static_cast<std::uint8_t>(j), Kind::kSlide};
  }
  return n;
}

}  // namespace pe
