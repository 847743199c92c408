#include "geoffrey.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace pe {

namespace {

// ASCII case-insensitive equality of a token and a lower-case word.
bool same_word(std::string_view token, std::string_view lower) {
  if (token.size() != lower.size()) return false;
  for (std::size_t i = 0; i < token.size(); ++i) {
    char ch = token[i];
    if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
    if (ch != lower[i]) return false;
  }
  return true;
}

// What a foundation token parse_foundation() refuses is told, as the reference words it.
constexpr const char* kBadFoundation =
    "bad foundation: expected a suit, '-' and 0 or A..K, as C-0 or H-Q";

// Reads a foundation token "S-r" (S a suit as parse_suit() reads it, r "0" or a rank); false
// when it is not one.
bool parse_foundation(std::string_view token, int& suit, int& rank) {
  const std::size_t dash = token.find('-');
  if (dash == std::string_view::npos) return false;
  suit = parse_suit(token.substr(0, dash));
  const std::string_view r = token.substr(dash + 1);
  rank = r == "0" ? 0 : parse_rank(r);
  return suit >= 0 && (rank > 0 || r == "0");
}

// Column number 0..7 of a notation column "1".."8"; -1 when it is not one.
int parse_column(std::string_view s) {
  return s.size() == 1 && s[0] >= '1' && s[0] <= '8' ? s[0] - '1' : -1;
}

}  // namespace

Geoffrey Geoffrey::deal(std::uint64_t n) {
  Card deck[kDeck];
  for (int c = 0; c < kDeck; ++c) deck[c] = static_cast<Card>(c);
  shuffle(deck, kDeck, n);
  Layout columns;
  // Columns 0..3 take 7 cards each, face up; columns 4..7 take 6, the bottom four face down.
  const Card* next = deck;
  for (int k = 0; k < kColumns; ++k) {
    const int count = k < 4 ? 7 : 6;
    std::copy(next, next + count, columns.cards[k]);
    next += count;
    columns.len[k] = count;
    columns.down[k] = k < 4 ? 0 : 4;
  }
  Geoffrey g;
  g.set_up(columns);
  return g;
}

Geoffrey Geoffrey::from_text(std::string_view text) {
  const std::vector<TextLine> lines = split_lines(text);
  const int after_last = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
  Geoffrey g;
  Layout columns{};
  bool seen[kDeck] = {};
  std::size_t li = 0;

  if (!lines.empty() && same_word(lines[0].tokens[0], "foundations:")) {
    const TextLine& line = lines[li++];
    bool suit_seen[4] = {};
    for (std::size_t t = 1; t < line.tokens.size(); ++t) {
      const std::string_view tok = line.tokens[t];
      const int tn = static_cast<int>(t) + 1;
      if (t > 4) parse_fail(line.number, tn, tok, "unexpected token");
      int suit = 0, rank = 0;
      if (!parse_foundation(tok, suit, rank)) parse_fail(line.number, tn, tok, kBadFoundation);
      if (suit_seen[suit]) parse_fail(line.number, tn, tok, "duplicate suit");
      suit_seen[suit] = true;
      g.found_[suit] = static_cast<std::uint8_t>(rank);
      for (int r = 1; r <= rank; ++r) seen[make_card(r, suit)] = true;
    }
    if (line.tokens.size() < 5)
      parse_fail_line(line.number,
                      "expected 4 foundations, got " + std::to_string(line.tokens.size() - 1));
  }

  int k = 0;
  for (; li < lines.size(); ++li, ++k) {
    const TextLine& line = lines[li];
    if (k == kColumns) parse_fail_line(line.number, "unexpected line");
    if (line.tokens.size() == 1 && line.tokens[0] == "-") continue;
    bool face_up_below = false;
    for (std::size_t t = 0; t < line.tokens.size(); ++t) {
      const std::string_view tok = line.tokens[t];
      const int tn = static_cast<int>(t) + 1;
      if (tok == "-") parse_fail(line.number, tn, tok, "unexpected token");
      if (tok == "(?\?)")
        parse_fail(line.number, tn, tok,
                   "face-down card not known (a hidden view: determinize() gives a position)");
      const bool down = tok.size() > 2 && tok.front() == '(' && tok.back() == ')';
      const Card c = parse_card(down ? tok.substr(1, tok.size() - 2) : tok);
      if (c == kNoCard) parse_fail(line.number, tn, tok, "unknown card");
      if (rank_of(c) <= g.found_[suit_of(c)])
        parse_fail(line.number, tn, tok, "duplicate card (on its foundation)");
      if (seen[c]) parse_fail(line.number, tn, tok, "duplicate card");
      if (down && face_up_below)
        parse_fail(line.number, tn, tok, "face-down card above a face-up card");
      if (down && t + 1 == line.tokens.size())
        parse_fail(line.number, tn, tok, "face-down card on top of a column");
      seen[c] = true;
      face_up_below |= !down;
      columns.down[k] += down;
      columns.cards[k][columns.len[k]++] = c;
    }
  }
  if (k < kColumns) parse_fail_line(after_last, "expected 8 columns");
  for (int c = 0; c < kDeck; ++c)
    if (!seen[c]) parse_fail_line(after_last, "missing card " + card_text(static_cast<Card>(c)));
  g.set_up(columns);
  return g;
}

Geoffrey::Move Geoffrey::parse_move(std::string_view text) {
  const std::size_t colon = text.find(':');
  const std::size_t arrow = text.rfind('>');
  if (colon == std::string_view::npos || arrow == std::string_view::npos || arrow < colon)
    move_fail(text, "expected source:card>destination, as in 3:9S>5 or 2:AH>F");
  const std::string_view src_text = text.substr(0, colon);
  const int src = parse_column(src_text);
  if (src < 0) move_fail(text, "source column " + quote(src_text) + " is not 1..8");
  const std::string_view card_part = text.substr(colon + 1, arrow - colon - 1);
  const Card card = parse_card(card_part);
  if (card == kNoCard) move_fail(text, quote(card_part) + " is not a card");
  const std::string_view dst_text = text.substr(arrow + 1);
  int dst = kFoundation;
  if (dst_text != "F") {
    dst = parse_column(dst_text);
    if (dst < 0) move_fail(text, "destination " + quote(dst_text) + " is not 1..8 or F");
    if (dst == src) move_fail(text, "source and destination are the same column");
  }
  return {static_cast<std::uint8_t>(src), card, static_cast<std::uint8_t>(dst)};
}

std::string Geoffrey::move_text(const Move& m) {
  std::string s{static_cast<char>('1' + m.src), ':'};
  s += card_text(m.card);
  s += '>';
  s += m.dst == kFoundation ? 'F' : static_cast<char>('1' + m.dst);
  return s;
}

std::string Geoffrey::to_text(bool hidden) const {
  std::string s = "Foundations:";
  for (int suit = 0; suit < 4; ++suit) {
    s += ' ';
    s += suit_char(suit);
    s += '-';
    s += found_[suit] ? rank_char(found_[suit]) : '0';
  }
  const Layout columns = layout();
  for (int k = 0; k < kColumns; ++k) {
    s += '\n';
    if (!columns.len[k]) s += '-';
    for (int i = 0; i < columns.len[k]; ++i) {
      if (i) s += ' ';
      const bool down = i < columns.down[k];
      if (down) s += '(';
      s += down && hidden ? "??" : card_text(columns.cards[k][i]);
      if (down) s += ')';
    }
  }
  return s;
}

Geoffrey::Layout Geoffrey::layout() const {
  Layout columns;
  for (int k = 0; k < kColumns; ++k) {
    columns.len[k] = popcount(piles_[k]);
    columns.down[k] = popcount(piles_[k] & ~up_);
    for (std::uint64_t b = piles_[k]; b; b &= b - 1) {
      const Card c = static_cast<Card>(ctz(b));
      columns.cards[k][popcount(under_[c])] = c;
    }
  }
  return columns;
}

std::uint64_t Geoffrey::compute_key(bool canonical) const {
  std::uint64_t h = 0;
  for (int suit = 0; suit < 4; ++suit)
    for (int r = 1; r <= found_[suit]; ++r) h ^= kKeys[kHome + make_card(r, suit)];
  for (int k = 0; k < kColumns; ++k)
    for (std::uint64_t b = piles_[k]; b; b &= b - 1) {
      const Card c = static_cast<Card>(ctz(b));
      h ^= canonical ? canonical_term(c, low_[c]) : term(c, low_[c], k);
      if (face_down(c)) h ^= kKeys[kDown + c];
    }
  return h;
}

bool Geoffrey::operator==(const Geoffrey& o) const {
  if (up_ != o.up_) return false;
  for (int suit = 0; suit < 4; ++suit)
    if (found_[suit] != o.found_[suit]) return false;
  for (int k = 0; k < kColumns; ++k) {
    if (piles_[k] != o.piles_[k]) return false;
    for (std::uint64_t b = piles_[k]; b; b &= b - 1) {
      const Card c = static_cast<Card>(ctz(b));
      if (low_[c] != o.low_[c]) return false;
    }
  }
  return true;
}

void Geoffrey::set_up(const Layout& columns) {
  up_ = tops_ = next_home_ = same_ = 0;
  empty_ = 0;
  for (int k = 0; k < kColumns; ++k) {
    piles_[k] = 0;
    Card below = kNoCard;
    for (int i = 0; i < columns.len[k]; ++i) {
      const Card c = columns.cards[k][i];
      col_[c] = static_cast<std::uint8_t>(k);
      under_[c] = piles_[k];
      low_[c] = below;
      piles_[k] |= bit(c);
      if (i >= columns.down[k]) up_ |= bit(c);
      below = c;
    }
    same_ ^= pairs(piles_[k]);
    if (below == kNoCard)
      empty_ |= 1u << k;
    else
      tops_ |= bit(below);
  }
  for (int suit = 0; suit < 4; ++suit)
    if (found_[suit] < 13) next_home_ |= bit(make_card(found_[suit] + 1, suit));
  hash_ = compute_hash();
  canonical_ = compute_canonical_hash();
}

void Geoffrey::observe(std::uint8_t* obs, bool hidden) const {
  const Layout columns = layout();
  for (int k = 0; k < kColumns; ++k)
    for (int i = 0; i < columns.len[k]; ++i) {
      const bool down = i < columns.down[k];
      if (down) obs[kFaceDownPlane * kPlaneSize + k * kDeck + i] = 1;
      if (!(down && hidden))
        put_card_planes(obs, kPlaneSize, k * kDeck + i, columns.cards[k][i], 1);
    }
  for (int suit = 0; suit < 4; ++suit)
    for (int r = 1; r <= found_[suit]; ++r)
      put_card_planes(obs, kPlaneSize, (kColumns + suit) * kDeck + r - 1, make_card(r, suit), 1);
}

Geoffrey Geoffrey::determinize(std::uint64_t seed) const {
  Layout columns = layout();
  // The face-down cards in increasing card order, shuffled, then dealt to the face-down slots
  // column by column, bottom first.
  std::uint64_t tableau = 0;
  for (int k = 0; k < kColumns; ++k) tableau |= piles_[k];
  Card cards[kDeck];
  int n = 0;
  for (std::uint64_t b = tableau & ~up_; b; b &= b - 1) cards[n++] = static_cast<Card>(ctz(b));
  shuffle(cards, n, seed);
  int next = 0;
  for (int k = 0; k < kColumns; ++k)
    for (int i = 0; i < columns.down[k]; ++i) columns.cards[k][i] = cards[next++];
  Geoffrey g = *this;
  g.set_up(columns);
  return g;
}

}  // namespace pe
