// Geoffrey (docs/rules.md "Geoffrey"): eight columns, same-suit building of any face-up
// card with everything above it, King-headed groups into empty columns, four foundations.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/bits.hpp"
#include "core/cards.hpp"
#include "core/rl.hpp"

namespace pe {

struct Geoffrey {
  static constexpr const char* kName = "Geoffrey";
  static constexpr const char* kMoveName = "GeoffreyMove";
  static constexpr const char* kDoc =
      "A Geoffrey position: eight tableau columns and four foundations.\n\n"
      "Any face-up card moves with every card above it onto the next higher card of its\n"
      "suit, or, when it is a King, into an empty column; a column's top card may go to its\n"
      "foundation; a face-down card left on top turns up in the same move (docs/rules.md\n"
      "\"Geoffrey\"). Make one with deal(n) or from_text(text).";

  static constexpr int kColumns = 8;
  // Destination of a foundation move.
  static constexpr std::uint8_t kFoundation = 8;
  // Builds <= non-empty columns, foundation moves <= non-empty columns, King moves <= 4 per
  // empty column: with e empty columns at most (8 - e) * 2 + 4 * e <= 30 (e <= 7).
  static constexpr int kMaxMoves = 32;

  // A move: the head card leaves column src (0..7) with every card above it for dst (0..7,
  // or kFoundation). Columns are 0-based here and 1-based in the notation.
  struct Move {
    std::uint8_t src;
    Card card;
    std::uint8_t dst;
    // Same source, head card and destination.
    bool operator==(const Move& o) const { return src == o.src && card == o.card && dst == o.dst; }
    // 64-bit identity for Python's hash.
    std::uint64_t id() const { return src | card << 8 | dst << 16; }
  };

  // What make() changed, as it was before: unmake() stores the masks back rather than work them
  // out again, and moves the cards back by the pile masks.
  struct Undo {
    std::uint64_t hash, canonical, up, tops, next_home, same;
    std::uint64_t from, onto;  // the source and destination piles (onto: 0 for a foundation)
    std::uint32_t empty;
    Card below;  // the card h lay on, kNoCard at the bottom
  };

  // Numbered deal n (docs/rules.md "Numbered deals").
  static Geoffrey deal(std::uint64_t n);
  // Reads the text format (docs/rules.md "Text formats"); throws ParseError naming the line and
  // token.
  static Geoffrey from_text(std::string_view text);
  // Reads "3:9S>5" or "2:AH>F"; throws ParseError "bad move text '...': why".
  static Move parse_move(std::string_view text);
  // The notation of a move.
  static std::string move_text(const Move& m);
  // The position in its text format (docs/rules.md "Text formats"), no trailing newline.
  std::string to_text() const { return to_text(false); }
  // With hidden, each face-down card is written "(??)" (docs/rl.md "Hidden view").
  static constexpr bool kHasFaceDown = true;
  std::string to_text(bool hidden) const;

  // --- Reinforcement learning (docs/rl.md) ---

  // action = (src * 52 + card) * 8 + target, target dst - (dst > src) or 7 for the foundation
  // (docs/rl.md "Geoffrey: 3328 actions").
  static constexpr int kTargets = 8;
  static constexpr int kNumActions = kColumns * kDeck * kTargets;
  static constexpr int kDefaultMaxMoves = 1000;
  // Piles 0..7 the columns, 8..11 the foundations; 52 slots each; plane 17 face down.
  static constexpr std::array<int, 3> kObservationShape = {18, kColumns + 4, kDeck};
  static constexpr int kPlaneSize = (kColumns + 4) * kDeck;
  static constexpr int kFaceDownPlane = 17;
  static int action(const Move& m) {
    const int target = m.dst == kFoundation ? kTargets - 1 : m.dst - (m.dst > m.src);
    return (m.src * kDeck + m.card) * kTargets + target;
  }
  // The move of an action in 0 .. kNumActions - 1 (every one names a move).
  static Move move_of_action(int a) {
    const int target = a % kTargets, card = a / kTargets % kDeck, src = a / (kTargets * kDeck);
    const int dst = target == kTargets - 1 ? kFoundation : target + (target >= src);
    return {static_cast<std::uint8_t>(src), static_cast<Card>(card),
            static_cast<std::uint8_t>(dst)};
  }
  // Writes the observation into obs (kObservationShape, zeroed by the caller).
  void observe(std::uint8_t* obs, bool hidden) const;
  // Updates obs, this position's observation, to the one after the legal move m (call before
  // make(m)): the moved cards' slots and a card turned up.
  inline void patch_observation(std::uint8_t* obs, const Move& m, bool hidden) const;
  // A position the player cannot tell from this one: the face-down cards shuffled among the
  // face-down slots by SplitMix64(seed) (docs/rl.md "Determinization").
  Geoffrey determinize(std::uint64_t seed) const;

  // Writes the legal moves to out (room for kMaxMoves) and returns how many.
  inline int generate(Move* out) const;
  // The legal actions, ascending (core/rl.hpp).
  inline int legal_actions(StoredAction* out) const;
  // The move of a legal action: the action alone names it.
  Move move_at(int a) const { return move_of_action(a); }
  // The legal move of the r-th legal action, r in 0 .. count_moves() - 1, found without listing
  // the actions (a playout's draw): whole columns are skipped by their counts.
  inline Move nth_legal_move(int r) const;
  // Number of legal moves, without listing them (perft's bulk count).
  int count_moves() const { return moves_with(tops_, up_, next_home_, same_, popcount(empty_)); }
  // Number of legal moves after the legal move m, without making it (perft's last two plies);
  // the second argument (count_moves() here) is not needed.
  int count_after(const Move& m, int) const {
    const After v = after(m);
    return moves_with(v.tops, v.up, v.next_home, v.same, v.empty);
  }
  // perft(*this, 2) without listing or making a move: count_after() summed over the legal moves,
  // enumerated as generate() does.
  std::uint64_t count_two_plies() const { return count_two_plies_in(here()); }
  // perft(*this, 3): count_two_plies() of the position after each legal move, read through this
  // one rather than made (the moved cards' links are looked up as make() would leave them).
  inline std::uint64_t count_three_plies() const;
  // canonical_hash() after the legal move m, without making it (the solver's look-ahead).
  std::uint64_t child_canonical_hash(const Move& m) const {
    return canonical_ ^ canonical_change(m);
  }
  // Whether the legal move m turns up the face-down card it uncovers.
  bool turns_card(const Move& m) const { return face_down(low_[m.card]); }
  // Plays a legal move; the Undo takes it back.
  inline Undo make(const Move& m);
  // Takes back m, the last move made, with the Undo make() returned.
  inline void unmake(const Move& m, const Undo& u);

  // Zobrist key of the exact position, kept incrementally.
  std::uint64_t hash() const { return hash_; }
  // Zobrist key that ignores which column holds which pile, kept incrementally.
  std::uint64_t canonical_hash() const { return canonical_; }
  // Key of the exact position worked out from scratch (docs/architecture.md "Zobrist keys").
  std::uint64_t compute_hash() const { return compute_key(false); }
  // Canonical key worked out from scratch.
  std::uint64_t compute_canonical_hash() const { return compute_key(true); }
  // Cards on the foundations.
  int score() const { return found_[0] + found_[1] + found_[2] + found_[3]; }
  // All 52 cards are on the foundations.
  bool is_won() const { return score() == kDeck; }
  // Same columns, face-down cards and foundations.
  bool operator==(const Geoffrey& o) const;

 private:
  // Keys in their draw order (docs/architecture.md "Zobrist keys"): ON[c][d], BOTTOM[k][c],
  // BOTTOM_ANY[c], DOWN[c], HOME[c].
  static constexpr int kOn = 0, kBottom = kOn + kDeck * kDeck,
                       kBottomAny = kBottom + kColumns * kDeck, kDown = kBottomAny + kDeck,
                       kHome = kDown + kDeck, kKeyCount = kHome + kDeck;
  static constexpr std::array<std::uint64_t, kKeyCount> kKeys =
      zobrist_keys<kKeyCount>(0x47656F6666726579ULL);  // "Geoffrey"

  static constexpr std::uint64_t bit(Card c) { return std::uint64_t{1} << c; }
  // bit(c), or 0 for kNoCard.
  static constexpr std::uint64_t bit_or_none(Card c) { return c == kNoCard ? 0 : bit(c); }
  // How next_home_ changes when h goes home: the suit's next card follows h (none after a King,
  // whose next bit is the next suit's Ace, or bit 52).
  static constexpr std::uint64_t home_change(Card h) {
    return bit(h) | (bit(h) << 1 & ~kAces & ((std::uint64_t{1} << kDeck) - 1));
  }
  // Whether c is a face-down tableau card (false for kNoCard).
  bool face_down(Card c) const { return c != kNoCard && !(up_ & bit(c)); }
  // The top card of column k, kNoCard when it is empty.
  Card top(int k) const {
    const std::uint64_t b = tops_ & piles_[k];
    return b ? static_cast<Card>(ctz(b)) : kNoCard;
  }
  static constexpr std::uint64_t kAces = 0x0000'0080'0400'2001ULL;   // AC AD AH AS
  static constexpr std::uint64_t kKings = 0x0008'0040'0200'1000ULL;  // KC KD KH KS

  // Key term of card c lying on card below (kNoCard: bottom of column k), exact and canonical.
  static std::uint64_t term(Card c, Card below, int k) {
    return kKeys[below == kNoCard ? kBottom + k * kDeck + c : kOn + c * kDeck + below];
  }
  static std::uint64_t canonical_term(Card c, Card below) {
    return kKeys[below == kNoCard ? kBottomAny + c : kOn + c * kDeck + below];
  }

  // The exact (canonical: false) or canonical key worked out from scratch.
  std::uint64_t compute_key(bool canonical) const;
  // XOR of the canonical-key terms the legal move m changes, read before it is made.
  inline std::uint64_t canonical_change(const Move& m) const;
  // Cards c whose c + 1 is in the same pile, for a pile's mask (a suit's King and the next suit's
  // Ace are neighbours here too, but no card builds onto an Ace, so that pair is never read).
  static constexpr std::uint64_t pairs(std::uint64_t pile) { return pile & pile >> 1; }
  // same_ after group leaves the cards rest for the cards onto (disjoint masks; onto is 0 for a
  // foundation move). Only pairs with one card in group and one in rest or onto change, as
  // pairs(a | b) = pairs(a) ^ pairs(b) ^ (a & b >> 1) ^ (b & a >> 1) for disjoint a and b.
  static std::uint64_t same_after(std::uint64_t same, std::uint64_t rest, std::uint64_t onto,
                                  std::uint64_t group) {
    const std::uint64_t other = rest | onto;
    return same ^ (other & group >> 1) ^ (group & other >> 1);
  }
  // The tableau builds of a position with these masks: card T - 1 onto top card T when T - 1 is
  // face up in another column.
  static std::uint64_t builds(std::uint64_t tops, std::uint64_t up, std::uint64_t same) {
    return ((tops & ~kAces) >> 1) & up & ~same;
  }
  // Legal moves of a position with these masks and this many empty columns.
  static int moves_with(std::uint64_t tops, std::uint64_t up, std::uint64_t next_home,
                        std::uint64_t same, int empty) {
    return popcount(tops & next_home) + popcount(builds(tops, up, same)) +
           popcount(up & kKings) * empty;
  }
  // count_after() of a move from its parts (count_two_plies_in() reads them through an After):
  // low_card and under, the card right under the head and all cards under it; from, the pile the
  // head leaves; onto, the pile it joins (0 for an empty column or home); tops, up and next_home,
  // the masks as the move leaves them but for the card uncovered under the head; same, same_
  // before the move; empty, how many columns are empty after it but for the head's own.
  static inline int replies_with(Card low_card, std::uint64_t under, std::uint64_t from,
                                 std::uint64_t onto, std::uint64_t tops, std::uint64_t up,
                                 std::uint64_t next_home, std::uint64_t same, int empty);
  // A position one move on, read through this one without making the move: its masks and
  // piles, and which cards moved, so their links can be read as make() would leave them.
  struct After {
    std::uint64_t piles[kColumns];
    std::uint64_t tops, up, next_home, same;
    int empty;                // how many columns are empty
    std::uint64_t group = 0;  // the cards that changed column (0: none)
    std::uint64_t onto = 0;   // the pile they joined, as it was
    int to = 0;               // its column
    Card head = kNoCard;      // the group's bottom card and the card now under it
    Card head_low = kNoCard;
  };
  // This position as an After (nothing moved).
  inline After here() const;
  // The position after the legal move m: the masks and piles make() leaves.
  inline After after(const Move& m) const;
  // Links of card c in v: the moved cards' as make() leaves them.
  int col_in(const After& v, Card c) const { return v.group >> c & 1 ? v.to : col_[c]; }
  std::uint64_t under_in(const After& v, Card c) const {
    return v.group >> c & 1 ? (under_[c] & v.group) | v.onto : under_[c];
  }
  Card low_in(const After& v, Card c) const { return c == v.head ? v.head_low : low_[c]; }
  // count_two_plies() of the position v.
  inline std::uint64_t count_two_plies_in(const After& v) const;
  // Columns bottom card first, with how many of each are face down: what deal() and from_text()
  // build and to_text() writes.
  struct Layout {
    Card cards[kColumns][kDeck];  // a text may pile all 52 into one column
    int len[kColumns];
    int down[kColumns];
  };
  // The columns as a Layout.
  Layout layout() const;
  // Sets every field but found_ from a layout (the foundations are set first).
  void set_up(const Layout& columns);
#ifndef NDEBUG
  // Debug check that the incremental keys have not drifted from the position.
  void check_keys() const {
    assert(hash_ == compute_hash());
    assert(canonical_ == compute_canonical_hash());
  }
#endif

  // A column is a pile mask plus, per card, the card right under it and the mask of all cards
  // under it, so a move rewrites the links of the moving cards only and needs no card order.
  // Move generation and counting read only the masks (and the columns of the moves' cards): a
  // build onto top card T is made by T - 1 (same suit) when it is face up in another column,
  // that is when T - 1 is not in same_.
  std::uint64_t up_ = 0;         // face-up tableau cards
  std::uint64_t tops_ = 0;       // top cards of the non-empty columns
  std::uint64_t next_home_ = 0;  // per suit, the card its foundation takes next
  std::uint64_t same_ = 0;       // cards c with c + 1 in the same column: pairs() of every pile
  std::uint32_t empty_ = 0;      // bit k: column k is empty
  std::uint64_t hash_ = 0;
  std::uint64_t canonical_ = 0;
  std::uint64_t piles_[kColumns] = {};  // the cards of each column
  // The next three are stale for cards at home; they hold again once the card is taken back.
  std::uint64_t under_[kDeck] = {};  // the cards under a tableau card in its column
  Card low_[kDeck] = {};             // the card right under it, kNoCard at the bottom
  std::uint8_t col_[kDeck] = {};     // its column
  std::uint8_t found_[4] = {};       // top rank per suit, 0 for none
};

inline int Geoffrey::generate(Move* out) const {
  int n = 0;
  for (std::uint64_t b = tops_ & next_home_; b; b &= b - 1) {
    const Card c = static_cast<Card>(ctz(b));
    out[n++] = {col_[c], c, kFoundation};
  }
  for (std::uint64_t b = builds(tops_, up_, same_); b; b &= b - 1) {
    const Card c = static_cast<Card>(ctz(b));
    out[n++] = {col_[c], c, col_[c + 1]};
  }
  // A King's own column holds it, so every empty column is another one.
  if (empty_)
    for (std::uint64_t b = up_ & kKings; b; b &= b - 1) {
      const Card c = static_cast<Card>(ctz(b));
      for (std::uint32_t e = empty_; e; e &= e - 1)
        out[n++] = {col_[c], c, static_cast<std::uint8_t>(ctz(e))};
    }
  return n;
}

// Actions run by source column, then head card, then target; a card's targets ascend as its
// build or its King moves (to empty columns, in column order) come before its foundation move.
inline int Geoffrey::legal_actions(StoredAction* out) const {
  const std::uint64_t home = tops_ & next_home_;
  const std::uint64_t build = builds(tops_, up_, same_);
  const std::uint64_t kings = empty_ ? up_ & kKings : 0;
  int n = 0;
  const auto emit = [&](int src, Card c, int dst) {
    out[n++] = static_cast<StoredAction>(
        action({static_cast<std::uint8_t>(src), c, static_cast<std::uint8_t>(dst)}));
  };
  for (int k = 0; k < kColumns; ++k)
    for (std::uint64_t b = (home | build | kings) & piles_[k]; b; b &= b - 1) {
      const Card c = static_cast<Card>(ctz(b));
      if (build & bit(c)) emit(k, c, col_[c + 1]);
      if (kings & bit(c))
        for (std::uint32_t e = empty_; e; e &= e - 1) emit(k, c, ctz(e));
      if (home & bit(c)) emit(k, c, kFoundation);
    }
  return n;
}

inline Geoffrey::Move Geoffrey::nth_legal_move(int r) const {
  const std::uint64_t home = tops_ & next_home_;
  const std::uint64_t build = builds(tops_, up_, same_);
  const int empty = popcount(empty_);
  const std::uint64_t kings = empty ? up_ & kKings : 0;
  int k = 0;
  for (;; ++k) {
    const std::uint64_t p = piles_[k];
    const int here = popcount(home & p) + popcount(build & p) + popcount(kings & p) * empty;
    if (r < here) break;
    r -= here;
  }
  // A card's actions in target order: its build or its King moves, then its foundation move.
  for (std::uint64_t b = (home | build | kings) & piles_[k];; b &= b - 1) {
    const Card c = static_cast<Card>(ctz(b));
    const int first = (build & bit(c)) ? 1 : (kings & bit(c)) ? empty : 0;
    const auto src = static_cast<std::uint8_t>(k);
    if (r < first)
      return {src, c,
              static_cast<std::uint8_t>(build & bit(c) ? col_[c + 1] : select_bit(empty_, r))};
    r -= first;
    if (home & bit(c)) {
      if (!r) return {src, c, kFoundation};
      --r;
    }
  }
}

inline void Geoffrey::patch_observation(std::uint8_t* obs, const Move& m, bool hidden) const {
  const Card h = m.card;
  const int s = m.src;
  const int from = popcount(under_[h]);
  if (m.dst == kFoundation) {
    put_card_planes(obs, kPlaneSize, s * kDeck + from, h, 0);
    put_card_planes(obs, kPlaneSize, (kColumns + suit_of(h)) * kDeck + rank_of(h) - 1, h, 1);
  } else {
    // The group keeps its order: the card at slot from + i goes to slot height + i.
    const int to = m.dst * kDeck + popcount(piles_[m.dst]) - from;
    for (std::uint64_t b = piles_[s] ^ under_[h]; b; b &= b - 1) {
      const Card c = static_cast<Card>(ctz(b));
      const int slot = popcount(under_[c]);
      put_card_planes(obs, kPlaneSize, s * kDeck + slot, c, 0);
      put_card_planes(obs, kPlaneSize, to + slot, c, 1);
    }
  }
  const Card below = low_[h];
  if (face_down(below)) {
    obs[kFaceDownPlane * kPlaneSize + s * kDeck + from - 1] = 0;
    if (hidden) put_card_planes(obs, kPlaneSize, s * kDeck + from - 1, below, 1);
  }
}

inline int Geoffrey::replies_with(Card low_card, std::uint64_t under, std::uint64_t from,
                                  std::uint64_t onto, std::uint64_t tops, std::uint64_t up,
                                  std::uint64_t next_home, std::uint64_t same, int empty) {
  // The card under the head becomes a top card, turned up if it was not; with none, from empties.
  const std::uint64_t low = bit_or_none(low_card);
  tops = (tops | low) & ~onto;
  up |= low;
  empty += !low;
  // The cards under the head stay; the head and the cards above it move.
  return moves_with(tops, up, next_home, same_after(same, under, onto, from ^ under), empty);
}

inline Geoffrey::After Geoffrey::here() const {
  After v;
  for (int k = 0; k < kColumns; ++k) v.piles[k] = piles_[k];
  v.tops = tops_;
  v.up = up_;
  v.next_home = next_home_;
  v.same = same_;
  v.empty = popcount(empty_);
  return v;
}

inline Geoffrey::After Geoffrey::after(const Move& m) const {
  After v = here();
  const int s = m.src;
  const Card h = m.card;
  const Card below = low_[h];
  const std::uint64_t rest = under_[h];
  const std::uint64_t group = piles_[s] ^ rest;
  const std::uint64_t onto = m.dst == kFoundation ? 0 : piles_[m.dst];
  v.same = same_after(same_, rest, onto, group);
  v.piles[s] = rest;
  if (m.dst == kFoundation) {
    // h leaves the tableau, so nothing reads its links.
    v.up ^= bit(h);
    v.tops ^= bit(h);
    v.next_home ^= home_change(h);
  } else {
    v.tops &= ~onto;
    v.empty -= !onto;
    v.piles[m.dst] = onto | group;
    v.group = group;
    v.onto = onto;
    v.to = m.dst;
    v.head = h;
    v.head_low = top(m.dst);
  }
  if (below == kNoCard) {
    ++v.empty;
  } else {
    v.tops |= bit(below);
    v.up |= bit(below);
  }
  return v;
}

inline std::uint64_t Geoffrey::count_two_plies_in(const After& v) const {
  const auto replies_in = [&](Card c, std::uint64_t onto, std::uint64_t tops, std::uint64_t up,
                              std::uint64_t next_home, int empty) {
    return replies_with(low_in(v, c), under_in(v, c), v.piles[col_in(v, c)], onto, tops, up,
                        next_home, v.same, empty);
  };
  std::uint64_t total = 0;
  for (std::uint64_t b = v.tops & v.next_home; b; b &= b - 1) {
    const Card c = static_cast<Card>(ctz(b));
    total += static_cast<std::uint64_t>(
        replies_in(c, 0, v.tops ^ bit(c), v.up ^ bit(c), v.next_home ^ home_change(c), v.empty));
  }
  for (std::uint64_t b = builds(v.tops, v.up, v.same); b; b &= b - 1) {
    const Card c = static_cast<Card>(ctz(b));
    total += static_cast<std::uint64_t>(replies_in(c, v.piles[col_in(v, static_cast<Card>(c + 1))],
                                                   v.tops, v.up, v.next_home, v.empty));
  }
  if (v.empty) {
    // Every empty column leaves the same position up to column order, so the same count.
    int kings = 0;
    for (std::uint64_t b = v.up & kKings; b; b &= b - 1) {
      const Card c = static_cast<Card>(ctz(b));
      kings += replies_in(c, 0, v.tops, v.up, v.next_home, v.empty - 1);
    }
    total += static_cast<std::uint64_t>(kings) * static_cast<std::uint64_t>(v.empty);
  }
  return total;
}

inline std::uint64_t Geoffrey::count_three_plies() const {
  Move moves[kMaxMoves];
  const int n = generate(moves);
  std::uint64_t total = 0;
  for (int i = 0; i < n; ++i) total += count_two_plies_in(after(moves[i]));
  return total;
}

inline std::uint64_t Geoffrey::canonical_change(const Move& m) const {
  const Card h = m.card;
  const Card below = low_[h];
  std::uint64_t x = canonical_term(h, below);
  x ^= m.dst == kFoundation ? kKeys[kHome + h] : canonical_term(h, top(m.dst));
  return face_down(below) ? x ^ kKeys[kDown + below] : x;
}

// The masks and piles after() works out, updated in place here: building an After in make()
// slows the make/unmake walk (docs/solver.md "Experiments").
inline Geoffrey::Undo Geoffrey::make(const Move& m) {
  const int s = m.src;
  const Card h = m.card;
  const Card below = low_[h];
  const int t = m.dst;
  const std::uint64_t onto = t == kFoundation ? 0 : piles_[t];
  const Undo u{hash_, canonical_, up_, tops_, next_home_, same_, piles_[s], onto, empty_, below};
  canonical_ ^= canonical_change(m);
  hash_ ^= term(h, below, s);
  const std::uint64_t rest = under_[h];
  const std::uint64_t group = piles_[s] ^ rest;
  same_ = same_after(same_, rest, onto, group);
  piles_[s] = rest;
  if (t == kFoundation) {
    hash_ ^= kKeys[kHome + h];
    up_ ^= bit(h);
    tops_ ^= bit(h);
    next_home_ ^= home_change(h);
    ++found_[suit_of(h)];
  } else {
    const Card onto_top = top(t);
    hash_ ^= term(h, onto_top, t);
    tops_ &= ~onto;
    empty_ &= ~(1u << t);
    low_[h] = onto_top;
    for (std::uint64_t b = group; b; b &= b - 1) {
      const Card c = static_cast<Card>(ctz(b));
      col_[c] = static_cast<std::uint8_t>(t);
      under_[c] = (under_[c] & group) | onto;
    }
    piles_[t] = onto | group;
  }
  if (below == kNoCard) {
    empty_ |= 1u << s;
  } else {
    tops_ |= bit(below);
    // h was face up, so the card under it turns up exactly when it is face down.
    if (!(up_ & bit(below))) {
      up_ |= bit(below);
      hash_ ^= kKeys[kDown + below];
    }
  }
#ifndef NDEBUG
  check_keys();
#endif
  return u;
}

inline void Geoffrey::unmake(const Move& m, const Undo& u) {
  const int s = m.src;
  const Card h = m.card;
  if (m.dst == kFoundation) {
    // h's links and column have not changed while it was home.
    --found_[suit_of(h)];
  } else {
    const std::uint64_t rest = piles_[s];
    const std::uint64_t group = u.from ^ rest;
    low_[h] = u.below;
    for (std::uint64_t b = group; b; b &= b - 1) {
      const Card c = static_cast<Card>(ctz(b));
      col_[c] = static_cast<std::uint8_t>(s);
      under_[c] = (under_[c] & group) | rest;
    }
    piles_[m.dst] = u.onto;
  }
  piles_[s] = u.from;
  hash_ = u.hash;
  canonical_ = u.canonical;
  up_ = u.up;
  tops_ = u.tops;
  next_home_ = u.next_home;
  same_ = u.same;
  empty_ = u.empty;
#ifndef NDEBUG
  check_keys();
#endif
}

}  // namespace pe
