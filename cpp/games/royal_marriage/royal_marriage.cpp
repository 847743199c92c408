// Royal Marriage: set-up, text formats and from-scratch keys (hot paths are inline in the header).
#include "royal_marriage.hpp"

namespace pe {

namespace {

constexpr Card kQH = make_card(12, 2);
constexpr Card kKH = make_card(13, 2);
constexpr int kPerLine = 13;

// "RoyalMar" read as a big-endian 64-bit number (docs/architecture.md "Zobrist keys").
constexpr std::uint64_t kSeed = 0x526F79616C4D6172ULL;

// NEXT[a][b], a outer: the pair key table in the spec's layout, used by the from-scratch key.
constexpr std::array<std::uint64_t, kDeck * kDeck> kNext = zobrist_keys<kDeck * kDeck>(kSeed);

// NEXT spread over byte codes: entry (code a) << 6 | (code b).
constexpr std::array<std::uint64_t, 64 * 64> pair_keys() {
  std::array<std::uint64_t, 64 * 64> table{};
  for (int a = 0; a < kDeck; ++a)
    for (int b = 0; b < kDeck; ++b)
      table[(suit_of(a) << 4 | (rank_of(a) - 1)) << 6 | (suit_of(b) << 4 | (rank_of(b) - 1))] =
          kNext[a * kDeck + b];
  return table;
}

}  // namespace

// Built at compile time (constant initialisation), so no start-up order issue.
const std::array<std::uint64_t, 64 * 64> RoyalMarriage::kPairKeys = pair_keys();

RoyalMarriage RoyalMarriage::deal(std::uint64_t n) {
  Card cards[kDeck];
  int count = 0;
  cards[count++] = kQH;
  for (int c = 0; c < kDeck; ++c)
    if (c != kQH && c != kKH) cards[count++] = static_cast<Card>(c);
  shuffle(cards + 1, kDeck - 2, n);
  cards[count++] = kKH;
  RoyalMarriage g;
  g.set_row(cards, count);
  return g;
}

RoyalMarriage RoyalMarriage::from_text(std::string_view text) {
  Card cards[kDeck];
  bool seen[kDeck] = {};
  int count = 0;
  // Where each card came from, for the QH/KH messages after the scan.
  int first_line = 0, last_line = 0, last_token = 0;
  std::string_view first_tok, last_tok;
  for (const TextLine& line : split_lines(text)) {
    for (std::size_t t = 0; t < line.tokens.size(); ++t) {
      const std::string_view tok = line.tokens[t];
      const int token = static_cast<int>(t) + 1;
      const Card c = parse_card(tok);
      if (c == kNoCard) parse_fail(line.number, token, tok, "unknown card");
      if (seen[c]) parse_fail(line.number, token, tok, "duplicate card");
      seen[c] = true;
      if (count == 0) {
        first_line = line.number;
        first_tok = tok;
      }
      last_line = line.number;
      last_token = token;
      last_tok = tok;
      cards[count++] = c;
    }
  }
  if (count < 2) {
    int lines = 1;
    for (char ch : text) lines += ch == '\n';
    parse_fail_line(lines, "a row needs QH and KH");
  }
  if (cards[0] != kQH) parse_fail(first_line, 1, first_tok, "QH must be first");
  if (cards[count - 1] != kKH) parse_fail(last_line, last_token, last_tok, "KH must be last");
  RoyalMarriage g;
  g.set_row(cards, count);
  return g;
}

RoyalMarriage::Move RoyalMarriage::parse_move(std::string_view text) {
  constexpr std::size_t kNone = std::string_view::npos;
  const std::size_t plus = text.find('+');
  const std::string_view left = text.substr(0, plus);
  const std::string_view right = plus == kNone ? std::string_view{} : text.substr(plus + 1);
  if (left.empty() || (plus != kNone && (right.empty() || right.find('+') != kNone)))
    move_fail(text, "expected a card or two cards joined by '+'");
  const Card first = parse_card(left);
  if (first == kNoCard) move_fail(text, quote(left) + " is not a card");
  if (plus == kNone) return Move{first, kNoCard, 0};
  const Card second = parse_card(right);
  if (second == kNoCard) move_fail(text, quote(right) + " is not a card");
  if (second == first) move_fail(text, "the two cards must differ");
  return Move{first, second, 0};
}

std::string RoyalMarriage::move_text(const Move& m) {
  return m.second == kNoCard ? card_text(m.first) : card_text(m.first) + "+" + card_text(m.second);
}

std::string RoyalMarriage::to_text() const {
  std::string out;
  for (int i = 0; i < n_; ++i) {
    if (i) out += i % kPerLine ? ' ' : '\n';
    out += card_text(card(i));
  }
  return out;
}

std::uint64_t RoyalMarriage::compute_hash() const {
  std::uint64_t h = 0;
  for (int i = 0; i + 1 < n_; ++i) h ^= kNext[card(i) * kDeck + card(i + 1)];
  return h;
}

void RoyalMarriage::compute_masks(std::uint64_t& one, std::uint64_t& two) const {
  const std::uint8_t* r = row();
  one = two = 0;
  for (int i = 1; i + 1 < n_; ++i) one |= bit(r[i - 1], r[i + 1]) << i;
  for (int i = 1; i + 2 < n_; ++i) two |= bit(r[i - 1], r[i + 2]) << i;
}

void RoyalMarriage::set_row(const Card* cards, int n) {
  for (int i = 0; i < n; ++i) row()[i] = kCode[cards[i]];
  n_ = n;
  hash_ = compute_hash();
  compute_masks(one_, two_);
}

#ifndef NDEBUG
void RoyalMarriage::check_keys() const {
  std::uint64_t one, two;
  compute_masks(one, two);
  assert(hash_ == compute_hash() && one_ == one && two_ == two);
}
#endif

}  // namespace pe
