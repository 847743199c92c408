// Royal Marriage (docs/rules.md "Royal Marriage"): one row of cards from QH to KH; a card, or two
// adjacent cards, between two matching cards (same rank or same suit) is removed.
//
// The row is the whole state. It is kept as bytes in a fixed buffer, each card coded
// suit << 4 | (rank - 1) so that "match" is a nibble test on a ^ b. Two 64-bit masks hold the
// legal moves by row position; a removal only changes the few bits whose card pairs straddle
// the gap, so make() updates them in O(1), count_moves() is two popcounts and count_after() needs
// no make.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/bits.hpp"
#include "core/cards.hpp"
#include "core/rl.hpp"

namespace pe {

struct RoyalMarriage {
  static constexpr const char* kName = "RoyalMarriage";
  static constexpr const char* kMoveName = "RoyalMarriageMove";
  static constexpr const char* kDoc =
      "Royal Marriage patience: one row of cards, QH first and KH last.\n\n"
      "A card whose two neighbours match (same rank or same suit) may be removed, and so may\n"
      "two adjacent cards whose outer neighbours match; the row closes up. QH and KH never\n"
      "leave. The game is won when only QH and KH are left. Moves are written '7S' (remove\n"
      "one) and '7S+JD' (remove two, left card first). Make a position with deal(n) or\n"
      "from_text(text).";
  // 52 cards: 50 remove-one and 49 remove-two moves at most.
  static constexpr int kMaxMoves = 99;

  // A removal. Identity is its card(s); `at` is where the first card stood in the position
  // that generated it, so make() needs no search (moves given to make() come from generate()).
  struct Move {
    Card first;
    Card second;      // right card of a remove-two; kNoCard for a remove-one
    std::uint8_t at;  // row position of `first`: a hint, not part of the identity

    bool operator==(const Move& o) const { return first == o.first && second == o.second; }
    bool operator!=(const Move& o) const { return !(*this == o); }
    // 64-bit identity for hashing: the two card bytes.
    std::uint64_t id() const { return std::uint64_t{first} | std::uint64_t{second} << 8; }
  };

  // Keys and move masks before the move: unmake() restores them instead of recomputing.
  struct Undo {
    std::uint64_t hash;
    std::uint64_t one;
    std::uint64_t two;
  };

  // Numbered deal n (docs/rules.md "Numbered deals"): QH, the shuffled 50 others, KH.
  static RoyalMarriage deal(std::uint64_t n);
  // Reads a row (docs/rules.md "Text formats"); throws ParseError naming the line and token.
  static RoyalMarriage from_text(std::string_view text);
  // Reads "7S" or "7S+JD"; throws ParseError "bad move text '...': what".
  static Move parse_move(std::string_view text);
  // Notation of a move: "7S" or "7S+JD".
  static std::string move_text(const Move& m);
  // The row, 13 cards to a line, lines joined by "\n".
  std::string to_text() const;
  // No card is face down: the hidden view is the text (docs/rl.md "Hidden view"), and
  // determinize() is not needed.
  static constexpr bool kHasFaceDown = false;
  std::string to_text(bool) const { return to_text(); }

  // --- Reinforcement learning (docs/rl.md) ---

  // Middle cards (all but QH and KH) in increasing order: remove-one actions 0..49, and the
  // pairs of remove-two actions (docs/rl.md "Royal Marriage: 2500 actions").
  static constexpr int kMiddle = kDeck - 2;
  static constexpr int kNumActions = kMiddle + kMiddle * (kMiddle - 1);
  static constexpr int kDefaultMaxMoves = 50;
  static constexpr std::array<int, 2> kObservationShape = {17, kDeck};
  // The action of m; -1 for a move that removes QH or KH (never legal).
  static int action(const Move& m) {
    const int l = kMiddleIndex[m.first];
    if (m.second == kNoCard) return l;
    const int r = kMiddleIndex[m.second];
    if (l < 0 || r < 0) return -1;
    return kMiddle + l * (kMiddle - 1) + r - (r > l);
  }
  // The move of an action in 0 .. kNumActions - 1 (every one names a move).
  static Move move_of_action(int a) {
    if (a < kMiddle) return Move{kMiddleCard[a], kNoCard, 0};
    const int l = (a - kMiddle) / (kMiddle - 1), rr = (a - kMiddle) % (kMiddle - 1);
    return Move{kMiddleCard[l], kMiddleCard[rr + (rr >= l)], 0};
  }
  // Writes the observation into obs (kObservationShape, zeroed by the caller): card planes at
  // each row position.
  void observe(std::uint8_t* obs, bool) const {
    for (int p = 0; p < n_; ++p) put_card_planes(obs, kDeck, p, card(p), 1);
  }
  // Updates obs, this position's observation, to the one after the legal move m (call before
  // make(m)): every plane's tail shifts left over the removed cards.
  void patch_observation(std::uint8_t* obs, const Move& m, bool) const {
    const int k = m.second == kNoCard ? 1 : 2;
    for (int plane = 0; plane < kObservationShape[0]; ++plane)
      close_gap(obs + plane * kDeck, m.at, k, n_);
  }

  // Writes the legal moves to out (room for kMaxMoves); returns how many.
  int generate(Move* out) const {
    const std::uint8_t* r = row();
    int count = 0;
    for (std::uint64_t b = one_; b; b &= b - 1) {
      const int i = ctz(b);
      out[count++] = Move{kIndex[r[i]], kNoCard, static_cast<std::uint8_t>(i)};
    }
    for (std::uint64_t b = two_; b; b &= b - 1) {
      const int i = ctz(b);
      out[count++] = Move{kIndex[r[i]], kIndex[r[i + 1]], static_cast<std::uint8_t>(i)};
    }
    return count;
  }

  // The legal actions, ascending (core/rl.hpp): the remove-ones by card, then the remove-twos by
  // left card (a left card has one right neighbour). Middle indices keep card order, so a set of
  // middle indices sorts each kind.
  int legal_actions(StoredAction* out) const {
    std::uint8_t at[kMiddle];  // read only where a set has a bit
    int n = 0;
    for (std::uint64_t ones = middle_set(one_, at); ones; ones &= ones - 1)
      out[n++] = static_cast<StoredAction>(ctz(ones));
    for (std::uint64_t lefts = middle_set(two_, at); lefts; lefts &= lefts - 1) {
      const int l = ctz(lefts), rr = kMiddleOfCode[row()[at[l] + 1]];
      out[n++] = static_cast<StoredAction>(kMiddle + l * (kMiddle - 1) + rr - (rr > l));
    }
    return n;
  }
  // The legal move of the r-th legal action, r in 0 .. count_moves() - 1, found without listing
  // the actions (a playout's draw); the kind is selected by masks, not a branch on the draw.
  Move nth_legal_move(int r) const {
    const int ones = popcount(one_);
    const std::uint64_t two = std::uint64_t{0} - (r >= ones);
    std::uint8_t at[kMiddle];  // read only where the set has a bit
    const int l = select_bit(middle_set((two_ & two) | (one_ & ~two), at),
                             r - (ones & static_cast<int>(two)));
    const std::uint8_t second = kIndex[row()[at[l] + 1]];
    return Move{kMiddleCard[l], static_cast<Card>(second | (kNoCard & ~two)), at[l]};
  }
  // The move of a legal action, with its row position.
  Move move_at(int a) const {
    Move m = move_of_action(a);
    m.at = static_cast<std::uint8_t>(find(kCode[m.first]));
    return m;
  }

  // Number of legal moves.
  int count_moves() const { return popcount(one_) + popcount(two_); }

  // Number of legal moves after the legal move m (from generate()), without making it; the
  // second argument (count_moves() here) is not needed.
  int count_after(const Move& m, int) const {
    std::uint64_t one, two;
    masks_after(m, one, two);
    return popcount(one) + popcount(two);
  }

  // perft(*this, 2) without listing or making a move: count_after() summed over every legal move
  // in closed form. A removal at i keeps the mask bits away from the gap and re-tests the few
  // that straddle it; the re-tested pairs are cards three (two_), four or five places apart, so
  // the sum is popcounts of the masks against shifted copies of themselves and of two masks of
  // matches four and five places apart.
  std::uint64_t count_two_plies() const {
    const std::uint64_t four = matches_apart(4), five = matches_apart(5);
    const auto pc = [](std::uint64_t b) { return std::uint64_t(popcount(b)); };
    const std::uint64_t one = one_, two = two_, n1 = pc(one), n2 = pc(two);
    // Remove-one at i: drops one bits i-1..i+1 and two bits i-2..i+1, re-tests one bits i-1, i
    // (pairs 3 apart: two bits i-1, i) and two bits i-2..i (pairs 4 apart).
    const std::uint64_t ones = n1 * (n1 + n2) - n1 - 2 * pc(one & one >> 1) - pc(one & two << 2) -
                               pc(one & two >> 1) + pc(one & four << 3) + pc(one & four << 2) +
                               pc(one & four << 1);
    // Remove-two at i: drops one bits i-1..i+2 and two bits i-2..i+2, re-tests one bits i-1, i
    // (pairs 4 apart) and two bits i-2..i (pairs 5 apart).
    const std::uint64_t twos =
        n2 * (n1 + n2) - n2 - 2 * pc(two & two >> 1) - 2 * pc(two & two >> 2) - pc(two & one << 1) -
        pc(two & one) - pc(two & one >> 1) - pc(two & one >> 2) + pc(two & four << 2) +
        pc(two & four << 1) + pc(two & five << 3) + pc(two & five << 2) + pc(two & five << 1);
    return ones + twos;
  }

  // Plays a legal move from generate() of this position; returns what unmake() needs.
  // make(), unmake() and the helpers make() calls are always inlined: they are most of a walk's
  // work, and GCC's own choice (swayed by how many callers the whole module has) moved them out
  // of line.
  [[gnu::always_inline]] Undo make(const Move& m) {
    const Undo undo{hash_, one_, two_};
    const int i = m.at;
    const int k = m.second == kNoCard ? 1 : 2;
    std::uint8_t* r = row();
    hash_ ^= hash_change(m);
    masks_after(m, one_, two_);
    shift(r + i + k, r + i);
    n_ -= k;
#ifndef NDEBUG
    check_keys();
#endif
    return undo;
  }

  // Takes back make(m), which returned undo.
  [[gnu::always_inline]] void unmake(const Move& m, const Undo& undo) {
    const int i = m.at;
    const bool two = m.second != kNoCard;
    std::uint8_t* r = row();
    shift(r + i, r + i + 1 + two);
    // A remove-one writes its card twice, which saves a branch.
    r[i] = kCode[m.first];
    r[i + two] = kCode[two ? m.second : m.first];
    n_ += 1 + two;
    hash_ = undo.hash;
    one_ = undo.one;
    two_ = undo.two;
#ifndef NDEBUG
    check_keys();
#endif
  }

  // canonical_hash() after the legal move m (from generate()), without making it.
  std::uint64_t child_canonical_hash(const Move& m) const { return hash_ ^ hash_change(m); }

  // Zobrist key of the row (kept incrementally).
  std::uint64_t hash() const { return hash_; }
  // Same as hash(): the game has no symmetry.
  std::uint64_t canonical_hash() const { return hash_; }
  // Zobrist key from scratch: XOR of NEXT[a][b] over adjacent pairs.
  std::uint64_t compute_hash() const;
  // Same as compute_hash().
  std::uint64_t compute_canonical_hash() const { return compute_hash(); }

  // Won when only QH and KH are left.
  bool is_won() const { return n_ == 2; }
  // Cards removed: 52 minus the row length.
  int score() const { return kDeck - n_; }
  // Number of cards in the row.
  int size() const { return n_; }
  // Card at row position i.
  Card card(int i) const { return kIndex[row()[i]]; }

  // Same row (the bytes past the end are scratch).
  bool operator==(const RoyalMarriage& o) const {
    return n_ == o.n_ && std::memcmp(row(), o.row(), static_cast<std::size_t>(n_)) == 0;
  }
  bool operator!=(const RoyalMarriage& o) const { return !(*this == o); }

 private:
  // Bytes before the row: make() reads 3 cards left of a gap at position >= 1 (and masks the
  // bits those reads feed).
  static constexpr int kFront = 2;
  // make()/unmake() shift a fixed 64 bytes (the longest tail is 50 cards), so the buffer runs
  // on past the row: the farthest byte touched is row position 51 + 63.
  static constexpr int kShift = 64;
  static constexpr int kBuffer = kFront + kDeck + kShift;

  // Card index of a byte code suit << 4 | (rank - 1); kNoCard for the bytes that code no card.
  static constexpr std::array<Card, 64> kIndex = [] {
    std::array<Card, 64> t{};
    for (int b = 0; b < 64; ++b)
      t[b] = (b & 15) < 13 ? static_cast<Card>((b >> 4) * 13 + (b & 15)) : kNoCard;
    return t;
  }();
  static constexpr Card kQueenOfHearts = make_card(12, 2), kKingOfHearts = make_card(13, 2);
  // Card of each middle index, and middle index of each card (-1: QH, KH).
  static constexpr std::array<Card, kMiddle> kMiddleCard = [] {
    std::array<Card, kMiddle> t{};
    for (int c = 0, m = 0; c < kDeck; ++c)
      if (c != kQueenOfHearts && c != kKingOfHearts) t[m++] = static_cast<Card>(c);
    return t;
  }();
  static constexpr std::array<int, kDeck> kMiddleIndex = [] {
    std::array<int, kDeck> t{};
    for (int c = 0, m = 0; c < kDeck; ++c)
      t[c] = c == kQueenOfHearts || c == kKingOfHearts ? -1 : m++;
    return t;
  }();
  // Middle index of the card of a byte code (0 for QH, KH and the bytes that code no card).
  static constexpr std::array<std::uint8_t, 64> kMiddleOfCode = [] {
    std::array<std::uint8_t, 64> t{};
    for (int b = 0; b < 64; ++b)
      if (kIndex[b] != kNoCard && kMiddleIndex[kIndex[b]] >= 0)
        t[b] = static_cast<std::uint8_t>(kMiddleIndex[kIndex[b]]);
    return t;
  }();
  // Byte code of a card index.
  static constexpr std::array<std::uint8_t, kDeck> kCode = [] {
    std::array<std::uint8_t, kDeck> t{};
    for (int c = 0; c < kDeck; ++c)
      t[c] = static_cast<std::uint8_t>(suit_of(c) << 4 | (rank_of(c) - 1));
    return t;
  }();
  // NEXT[a][b] (docs/architecture.md "Zobrist keys") indexed by byte codes a << 6 | b, so make()
  // needs no conversion; defined in royal_marriage.cpp.
  static const std::array<std::uint64_t, 64 * 64> kPairKeys;

  // Bit b of kMatches[a]: byte codes a and b (below 64) have the same rank (low nibble) or the
  // same suit (high nibble). A load and a shift, where the nibble tests take several operations
  // and make() tests five pairs.
  static constexpr std::array<std::uint64_t, 64> kMatches = [] {
    std::array<std::uint64_t, 64> t{};
    for (unsigned a = 0; a < 64; ++a)
      for (unsigned b = 0; b < 64; ++b)
        if (((a ^ b) & 0x0F) == 0 || (a ^ b) < 0x10) t[a] |= std::uint64_t{1} << b;
    return t;
  }();
  static std::uint64_t bit(std::uint8_t a, std::uint8_t b) { return kMatches[a] >> b & 1; }
  static bool match(std::uint8_t a, std::uint8_t b) { return bit(a, b); }
  static std::uint64_t pair_key(std::uint8_t a, std::uint8_t b) { return kPairKeys[a << 6 | b]; }
  // Bits 1 .. end-1; position 0 (QH) never starts a removal.
  static std::uint64_t inner_bits(int end) {
    return ((std::uint64_t{1} << end) - 1) & ~std::uint64_t{1};
  }
  // Where a remove-one may stand in a row of n: 1 .. n-2.
  static std::uint64_t valid_one(int n) { return inner_bits(n - 1); }
  // Where a remove-two may start in a row of n: 1 .. n-3.
  static std::uint64_t valid_two(int n) { return inner_bits(n - 2); }
  // Moves kShift bytes from src to the overlapping dst: a few full-width loads then stores,
  // cheaper than a length-exact memmove call.
  static void shift(const std::uint8_t* src, std::uint8_t* dst) {
    std::uint8_t tmp[kShift];
    std::memcpy(tmp, src, kShift);
    std::memcpy(dst, tmp, kShift);
  }

  // The middle indices of the cards at the row positions of a move mask; at[index] is the
  // card's row position.
  std::uint64_t middle_set(std::uint64_t positions, std::uint8_t* at) const {
    std::uint64_t set = 0;
    for (; positions; positions &= positions - 1) {
      const int i = ctz(positions), l = kMiddleOfCode[row()[i]];
      set |= std::uint64_t{1} << l;
      at[l] = static_cast<std::uint8_t>(i);
    }
    return set;
  }
  // Row position of the first byte equal to code; the card must be in the row. Eight bytes a
  // step; the lowest byte the zero-byte test flags is always a true zero.
  int find(std::uint8_t code) const {
    constexpr std::uint64_t kOnes = 0x0101010101010101ULL, kTops = 0x8080808080808080ULL;
    const std::uint8_t* r = row();
    for (int j = 0;; j += 8) {
      std::uint64_t x;
      std::memcpy(&x, r + j, 8);
      x ^= kOnes * code;
      const std::uint64_t zero = (x - kOnes) & ~x & kTops;
      if (zero) return j + ctz(zero) / 8;
    }
  }
  // Moves row[at + gap .. end) down to row[at ..) and zeroes the gap bytes left at the end,
  // writing nothing outside row[at .. end): fixed-size copies the compiler keeps in registers,
  // cheaper than a memmove and a memset call per observation plane.
  static void close_gap(std::uint8_t* row, int at, int gap, int end) {
    std::uint8_t* dst = row + at;
    const std::uint8_t* src = dst + gap;
    const int len = end - at - gap;
    const auto copy = [&](auto width) {
      constexpr int w = decltype(width)::value;
      if (len < w) return false;
      // The last chunk is read first: the ascending chunks' stores may overlap its bytes.
      std::uint8_t last[w], chunk[w];
      std::memcpy(last, src + len - w, w);
      for (int j = 0; j + w <= len; j += w) {
        std::memcpy(chunk, src + j, w);
        std::memcpy(dst + j, chunk, w);
      }
      std::memcpy(dst + len - w, last, w);
      return true;
    };
    if (!copy(std::integral_constant<int, 16>{}) && !copy(std::integral_constant<int, 4>{}) &&
        len > 0)
      for (int j = 0; j < len; ++j) dst[j] = src[j];
    row[end - 1] = 0;
    row[end - gap] = 0;
  }
  std::uint8_t* row() { return buf_ + kFront; }
  const std::uint8_t* row() const { return buf_ + kFront; }
  // XOR of the pair keys the legal move m changes: (a1,c) (d,b0) and, for a remove-two, (c,d)
  // break; (a1,b0) forms (c .. d the removed cards, a1 and b0 their neighbours).
  [[gnu::always_inline]] std::uint64_t hash_change(const Move& m) const {
    const int i = m.at;
    const int k = m.second == kNoCard ? 1 : 2;
    const std::uint8_t* r = row();
    const std::uint8_t a1 = r[i - 1], c = r[i], d = r[i + k - 1], b0 = r[i + k];
    const std::uint64_t inner = pair_key(c, d);
    return pair_key(a1, c) ^ pair_key(d, b0) ^ pair_key(a1, b0) ^ (k == 2 ? inner : 0);
  }
  // The move masks after the legal move m: bit j of one tests the pair (j-1, j+1), of two the
  // pair (j-1, j+2). Bits whose pair lies left of the gap stay, bits right of it move down by the
  // cards removed; the few whose pair straddles the gap are tested afresh.
  [[gnu::always_inline]] void masks_after(const Move& m, std::uint64_t& one,
                                          std::uint64_t& two) const {
    const int i = m.at;
    const int k = m.second == kNoCard ? 1 : 2;
    const std::uint8_t* r = row();
    assert(i >= 1 && i + k < n_ && kIndex[r[i]] == m.first &&
           (k == 1 || kIndex[r[i + 1]] == m.second) && match(r[i - 1], r[i + k]));
    const std::uint8_t a3 = r[i - 3], a2 = r[i - 2], a1 = r[i - 1];
    const std::uint8_t b0 = r[i + k], b1 = r[i + k + 1], b2 = r[i + k + 2];
    const int n = n_ - k;
    const std::uint64_t left = (std::uint64_t{1} << i) - 1;
    const std::uint64_t fresh_one = (bit(a2, b0) << (i - 1)) | (bit(a1, b1) << i);
    const std::uint64_t fresh_two = ((bit(a3, b0) | bit(a2, b1) << 1 | bit(a1, b2) << 2) << i) >> 2;
    one = ((one_ & (left >> 1)) | fresh_one | ((one_ >> k) & ~(left << 1 | 1))) & valid_one(n);
    two = ((two_ & (left >> 2)) | fresh_two | ((two_ >> k) & ~(left << 1 | 1))) & valid_two(n);
  }
  // Bit j set when the cards at j and j + d (< n_) match; eight byte pairs per step, as in match().
  std::uint64_t matches_apart(int d) const {
    constexpr std::uint64_t kLow = 0x0F0F0F0F0F0F0F0FULL, kSuit = 0x3030303030303030ULL;
    constexpr std::uint64_t kCarry = 0x7F7F7F7F7F7F7F7FULL, kTop = 0x8080808080808080ULL;
    const std::uint8_t* r = row();
    std::uint64_t out = 0;
    for (int j = 0; j + d < n_; j += 8) {
      std::uint64_t a, b;
      std::memcpy(&a, r + j, 8);
      std::memcpy(&b, r + j + d, 8);
      const std::uint64_t x = a ^ b;
      // Codes are below 64, so adding 0x7F sets a byte's top bit exactly when its field is not 0.
      const std::uint64_t differ = ((x & kLow) + kCarry) & ((x & kSuit) + kCarry) & kTop;
      const std::uint64_t same = (~differ & kTop) >> 7;
      static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "byte k of a load is card j + k");
      // Gathers each byte's low bit, byte k to bit k.
      out |= ((same * 0x0102040810204080ULL) >> 56) << j;
    }
    return out & ((std::uint64_t{1} << (n_ > d ? n_ - d : 0)) - 1);
  }
  // Sets the row to cards[0..n) and computes the keys and move masks from scratch.
  void set_row(const Card* cards, int n);
  // Move masks from scratch: bit i of one is a legal remove-one at i, of two a remove-two.
  void compute_masks(std::uint64_t& one, std::uint64_t& two) const;
#ifndef NDEBUG
  // Asserts the incremental keys and masks equal the from-scratch ones.
  void check_keys() const;
#endif

  std::uint8_t buf_[kBuffer] = {};
  std::uint64_t hash_ = 0;
  std::uint64_t one_ = 0;
  std::uint64_t two_ = 0;
  int n_ = 0;
};

}  // namespace pe
