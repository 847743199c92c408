// Geoffrey (rules.md "Geoffrey"): eight columns, same-suit building of any face-up
// card with everything above it, King-headed groups into empty columns, four foundations.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <string>
#include <string_view>

#include "common.hpp"

namespace pe {

struct Geoffrey {
  static constexpr const char* kName = "Geoffrey";
  static constexpr const char* kMoveName = "GeoffreyMove";
  static constexpr const char* kDoc =
      "A Geoffrey position: eight tableau columns and four foundations.\n\n"
      "Any face-up card moves with every card above it onto the next higher card of its\n"
      "suit, or, when it is a King, into an empty column; a column's top card may go to its\n"
      "foundation; a face-down card left on top turns up in the same move (rules.md\n"
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

  // What make() changed that the move itself does not say: the keys before it (restored, never
  // un-XORed) and whether it turned a face-down card up.
  struct Undo {
    std::uint64_t hash;
    std::uint64_t canonical;
    bool turned;
  };

  // Numbered deal n (rules.md "Numbered deals").
  static Geoffrey deal(std::uint64_t n);
  // Reads the README text format; throws ParseError naming the line and token.
  static Geoffrey from_text(std::string_view text);
  // Reads "3:9S>5" or "2:AH>F"; throws ParseError "bad move text '...': why".
  static Move parse_move(std::string_view text);
  // The notation of a move.
  static std::string move_text(const Move& m);
  // The position in the README text format, no trailing newline.
  std::string to_text() const;

  // Writes the legal moves to out (room for kMaxMoves) and returns how many.
  inline int generate(Move* out) const;
  // Number of legal moves, without listing them (perft's bulk count).
  int count_moves() const { return count_with(tops_, up_, next_home_, empty_, ColumnOf{this}); }
  // Number of legal moves after the legal move m, without making it (perft's last two plies);
  // the second argument (count_moves() here) is not needed.
  inline int count_after(const Move& m, int) const;
  // canonical_hash() after the legal move m, without making it (the solver's look-ahead).
  std::uint64_t child_canonical_hash(const Move& m) const { return canonical_ ^ canonical_change(m); }
  // Whether the legal move m turns up the face-down card it uncovers.
  bool turns_card(const Move& m) const {
    const int i = idx_[m.card];
    return i && i == down_[m.src];
  }
  // Plays a legal move; the Undo takes it back.
  inline Undo make(const Move& m);
  // Takes back m, the last move made, with the Undo make() returned.
  inline void unmake(const Move& m, const Undo& u);

  // Zobrist key of the exact position, kept incrementally.
  std::uint64_t hash() const { return hash_; }
  // Zobrist key that ignores which column holds which pile, kept incrementally.
  std::uint64_t canonical_hash() const { return canonical_; }
  // Key of the exact position worked out from scratch (README "Zobrist keys").
  std::uint64_t compute_hash() const;
  // Canonical key worked out from scratch.
  std::uint64_t compute_canonical_hash() const;
  // Cards on the foundations.
  int score() const { return found_[0] + found_[1] + found_[2] + found_[3]; }
  // All 52 cards are on the foundations.
  bool is_won() const { return score() == kDeck; }
  // Same columns, face-down cards and foundations.
  bool operator==(const Geoffrey& o) const;

 private:
  // Keys in the README's draw order: ON[c][d], BOTTOM[k][c], BOTTOM_ANY[c], DOWN[c], HOME[c].
  static constexpr int kOn = 0, kBottom = kOn + kDeck * kDeck, kBottomAny = kBottom + kColumns * kDeck,
                       kDown = kBottomAny + kDeck, kHome = kDown + kDeck, kKeyCount = kHome + kDeck;
  static constexpr std::array<std::uint64_t, kKeyCount> kKeys =
      zobrist_keys<kKeyCount>(0x47656F6666726579ULL);  // "Geoffrey"

  static constexpr std::uint64_t bit(Card c) { return std::uint64_t{1} << c; }
  static constexpr std::uint64_t kAces = 0x0000'0080'0400'2001ULL;   // AC AD AH AS
  static constexpr std::uint64_t kKings = 0x0008'0040'0200'1000ULL;  // KC KD KH KS

  // Key term of card c lying on card below (kNoCard: bottom of column k), exact and canonical.
  static std::uint64_t term(Card c, Card below, int k) {
    return kKeys[below == kNoCard ? kBottom + k * kDeck + c : kOn + c * kDeck + below];
  }
  static std::uint64_t canonical_term(Card c, Card below) {
    return kKeys[below == kNoCard ? kBottomAny + c : kOn + c * kDeck + below];
  }

  // XOR of the canonical-key terms the legal move m changes, read before it is made.
  inline std::uint64_t canonical_change(const Move& m) const;
  // The column of a tableau card, as a function for count_with().
  struct ColumnOf {
    const Geoffrey* g;
    int operator()(Card c) const { return g->col_[c]; }
  };
  // Legal moves of a position with these masks, column_of(c) giving the column of a face-up card.
  template <class Columns>
  static int count_with(std::uint64_t tops, std::uint64_t up, std::uint64_t next_home,
                        std::uint32_t empty, Columns column_of);
  // Sets the derived fields (masks, locations, keys) from columns, face-down counts, foundations.
  void set_up();
#ifndef NDEBUG
  // Debug check that the incremental keys have not drifted from the position.
  void check_keys() const {
    assert(hash_ == compute_hash());
    assert(canonical_ == compute_canonical_hash());
  }
#endif

  // Move generation reads only these masks and the location of a few cards: a build onto top
  // card T is made by T - 1 (same suit) when it is face up in another column.
  std::uint64_t up_ = 0;         // face-up tableau cards
  std::uint64_t tops_ = 0;       // top cards of the non-empty columns
  std::uint64_t next_home_ = 0;  // per suit, the card its foundation takes next
  std::uint32_t empty_ = 0;      // bit k: column k is empty
  std::uint64_t hash_ = 0;
  std::uint64_t canonical_ = 0;
  std::uint8_t col_[kDeck] = {};  // column of a tableau card (stale for cards at home)
  std::uint8_t idx_[kDeck] = {};  // its index from the bottom
  std::uint8_t len_[kColumns] = {};
  std::uint8_t down_[kColumns] = {};  // the bottom down_[k] cards of column k are face down
  std::uint8_t found_[4] = {};        // top rank per suit, 0 for none
  Card cards_[kColumns][kDeck] = {};  // bottom first; a text may pile all 52 into one column
};

inline int Geoffrey::generate(Move* out) const {
  int n = 0;
  for (std::uint64_t b = tops_ & next_home_; b; b &= b - 1) {
    const Card c = static_cast<Card>(__builtin_ctzll(b));
    out[n++] = {col_[c], c, kFoundation};
  }
  // Card T - 1 of the same suit builds on top card T (no card goes onto an Ace).
  for (std::uint64_t b = ((tops_ & ~kAces) >> 1) & up_; b; b &= b - 1) {
    const Card c = static_cast<Card>(__builtin_ctzll(b));
    if (col_[c] != col_[c + 1]) out[n++] = {col_[c], c, col_[c + 1]};
  }
  // A King's own column holds it, so every empty column is another one.
  if (empty_)
    for (std::uint64_t b = up_ & kKings; b; b &= b - 1) {
      const Card c = static_cast<Card>(__builtin_ctzll(b));
      for (std::uint32_t e = empty_; e; e &= e - 1)
        out[n++] = {col_[c], c, static_cast<std::uint8_t>(__builtin_ctz(e))};
    }
  return n;
}

template <class Columns>
int Geoffrey::count_with(std::uint64_t tops, std::uint64_t up, std::uint64_t next_home,
                         std::uint32_t empty, Columns column_of) {
  int n = __builtin_popcountll(tops & next_home) +
          __builtin_popcountll(up & kKings) * __builtin_popcount(empty);
  for (std::uint64_t b = ((tops & ~kAces) >> 1) & up; b; b &= b - 1) {
    const Card c = static_cast<Card>(__builtin_ctzll(b));
    n += column_of(c) != column_of(static_cast<Card>(c + 1));
  }
  return n;
}

inline int Geoffrey::count_after(const Move& m, int) const {
  const int s = m.src;
  const Card h = m.card;
  const int i = idx_[h];
  std::uint64_t tops = tops_, up = up_, next_home = next_home_;
  std::uint32_t empty = empty_;
  // The masks as make() leaves them.
  if (i) {
    const Card below = cards_[s][i - 1];
    tops |= bit(below);
    if (i == down_[s]) up |= bit(below);
  } else {
    empty |= 1u << s;
  }
  if (m.dst == kFoundation) {
    up ^= bit(h);
    tops ^= bit(h);
    next_home ^= bit(h) | (rank_of(h) < 13 ? bit(h) << 1 : 0);
    return count_with(tops, up, next_home, empty, ColumnOf{this});
  }
  const int t = m.dst;
  if (len_[t]) tops ^= bit(cards_[t][len_[t] - 1]);
  empty &= ~(1u << t);
  // h and the cards above it now lie in column t.
  return count_with(tops, up, next_home, empty, [this, s, i, t](Card c) {
    return col_[c] == s && idx_[c] >= i ? t : int{col_[c]};
  });
}

inline std::uint64_t Geoffrey::canonical_change(const Move& m) const {
  const Card h = m.card;
  const int i = idx_[h];
  const Card below = i ? cards_[m.src][i - 1] : kNoCard;
  std::uint64_t x = canonical_term(h, below);
  if (m.dst == kFoundation) {
    x ^= kKeys[kHome + h];
  } else {
    const int lt = len_[m.dst];
    x ^= canonical_term(h, lt ? cards_[m.dst][lt - 1] : kNoCard);
  }
  return turns_card(m) ? x ^ kKeys[kDown + below] : x;
}

inline Geoffrey::Undo Geoffrey::make(const Move& m) {
  Undo u{hash_, canonical_, false};
  const int s = m.src;
  const Card h = m.card;
  const int i = idx_[h];
  const Card below = i ? cards_[s][i - 1] : kNoCard;
  canonical_ ^= canonical_change(m);
  hash_ ^= term(h, below, s);
  if (m.dst == kFoundation) {
    hash_ ^= kKeys[kHome + h];
    up_ ^= bit(h);
    tops_ ^= bit(h);
    // The suit's next card follows h (none after a King).
    next_home_ ^= bit(h) | (rank_of(h) < 13 ? bit(h) << 1 : 0);
    ++found_[suit_of(h)];
  } else {
    const int t = m.dst;
    const int lt = len_[t];
    const Card onto = lt ? cards_[t][lt - 1] : kNoCard;
    hash_ ^= term(h, onto, t);
    if (lt) tops_ ^= bit(onto);
    empty_ &= ~(1u << t);
    const int n = len_[s] - i;
    for (int k = 0; k < n; ++k) {
      const Card c = cards_[s][i + k];
      cards_[t][lt + k] = c;
      col_[c] = static_cast<std::uint8_t>(t);
      idx_[c] = static_cast<std::uint8_t>(lt + k);
    }
    len_[t] = static_cast<std::uint8_t>(lt + n);
  }
  len_[s] = static_cast<std::uint8_t>(i);
  if (i) {
    tops_ |= bit(below);
    // h was face up, so the card under it is face down exactly when it is the last one.
    if (i == down_[s]) {
      --down_[s];
      up_ |= bit(below);
      hash_ ^= kKeys[kDown + below];
      u.turned = true;
    }
  } else {
    empty_ |= 1u << s;
  }
#ifndef NDEBUG
  check_keys();
#endif
  return u;
}

inline void Geoffrey::unmake(const Move& m, const Undo& u) {
  const int s = m.src;
  const Card h = m.card;
  const int i = len_[s];
  if (i) {
    const Card below = cards_[s][i - 1];
    tops_ &= ~bit(below);
    if (u.turned) {
      ++down_[s];
      up_ &= ~bit(below);
    }
  } else {
    empty_ &= ~(1u << s);
  }
  if (m.dst == kFoundation) {
    cards_[s][i] = h;
    col_[h] = static_cast<std::uint8_t>(s);
    idx_[h] = static_cast<std::uint8_t>(i);
    len_[s] = static_cast<std::uint8_t>(i + 1);
    up_ |= bit(h);
    tops_ |= bit(h);
    next_home_ ^= bit(h) | (rank_of(h) < 13 ? bit(h) << 1 : 0);
    --found_[suit_of(h)];
  } else {
    const int t = m.dst;
    const int lt = idx_[h];  // column t's length before the move
    const int n = len_[t] - lt;
    for (int k = 0; k < n; ++k) {
      const Card c = cards_[t][lt + k];
      cards_[s][i + k] = c;
      col_[c] = static_cast<std::uint8_t>(s);
      idx_[c] = static_cast<std::uint8_t>(i + k);
    }
    len_[s] = static_cast<std::uint8_t>(i + n);
    len_[t] = static_cast<std::uint8_t>(lt);
    if (lt)
      tops_ |= bit(cards_[t][lt - 1]);
    else
      empty_ |= 1u << t;
  }
  hash_ = u.hash;
  canonical_ = u.canonical;
#ifndef NDEBUG
  check_keys();
#endif
}

}  // namespace pe
