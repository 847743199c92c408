#include "the_wish.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

#include "core/bits.hpp"

namespace pe {

namespace {

// The 52-card bit mask of the piquet deck: A and 7 to K of each suit.
constexpr std::uint64_t kPiquet = [] {
  std::uint64_t mask = 0;
  for (int c = 0; c < kDeck; ++c)
    if (rank_of(static_cast<Card>(c)) == 1 || rank_of(static_cast<Card>(c)) >= 7)
      mask |= std::uint64_t{1} << c;
  return mask;
}();

// Pile number 0..7 of a notation pile "1".."8"; -1 when it is not one.
int parse_pile(std::string_view s) {
  return s.size() == 1 && s[0] >= '1' && s[0] <= '8' ? s[0] - '1' : -1;
}

// The card of token number tn of a pile line (top: the line's last token), added to seen;
// throws ParseError naming the line and the token when it breaks a rule, checked in the
// reference's order (reference/the_wish.py _parse_token).
Card parse_token(int line, int tn, std::string_view tok, bool top, std::uint64_t& seen) {
  if (tok == "-") parse_fail(line, tn, tok, "unexpected token");
  if (tn > TheWish::kHeight)
    parse_fail(line, tn, tok,
               "a pile holds at most " + std::to_string(TheWish::kHeight) + " cards");
  if (tok == "(?\?)")
    parse_fail(line, tn, tok,
               "face-down card not known (a hidden view: determinize() gives a position)");
  const bool down = tok.size() > 2 && tok.front() == '(' && tok.back() == ')';
  const Card c = parse_card(down ? tok.substr(1, tok.size() - 2) : tok);
  if (c == kNoCard) parse_fail(line, tn, tok, "unknown card");
  const std::uint64_t bit = std::uint64_t{1} << c;
  if (!(kPiquet & bit)) parse_fail(line, tn, tok, "not a piquet card (A, 7 to K)");
  if (seen & bit) parse_fail(line, tn, tok, "duplicate card");
  if (down && top) parse_fail(line, tn, tok, "face-down card on top of a pile");
  if (!down && !top) parse_fail(line, tn, tok, "face-up card under the top card");
  seen |= bit;
  return c;
}

}  // namespace

TheWish TheWish::deal(std::uint64_t n) {
  Card deck[kCards];
  int next = 0;
  for (std::uint64_t b = kPiquet; b; b &= b - 1) deck[next++] = static_cast<Card>(ctz(b));
  shuffle(deck, kCards, n);
  // Four rounds of one card to each pile: shuffled card k lies at height k / 8 of pile k % 8.
  TheWish g;
  for (int k = 0; k < kCards; ++k) g.piles_[k % kPiles][k / kPiles] = deck[k];
  std::fill(g.height_, g.height_ + kPiles, kHeight);
  g.set_keys();
  return g;
}

TheWish TheWish::from_text(std::string_view text) {
  const std::vector<TextLine> lines = split_lines(text);
  TheWish g;
  std::uint64_t seen = 0;
  int k = 0;
  for (const TextLine& line : lines) {
    if (k == kPiles) parse_fail_line(line.number, "unexpected line");
    if (!(line.tokens.size() == 1 && line.tokens[0] == "-")) {
      const int count = static_cast<int>(line.tokens.size());
      for (int t = 0; t < count; ++t) {
        // Read before it is stored: parse_token() refuses a fifth card, which has no slot.
        const Card c = parse_token(line.number, t + 1, line.tokens[t], t + 1 == count, seen);
        g.piles_[k][t] = c;
      }
      g.height_[k] = static_cast<std::uint8_t>(count);
    }
    ++k;
  }
  if (k < kPiles)
    parse_fail_line(static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1,
                    "expected 8 piles");
  g.set_keys();
  return g;
}

TheWish::Move TheWish::parse_move(std::string_view text) {
  const std::size_t plus = text.find('+');
  if (plus == std::string_view::npos || plus == 0 || plus + 1 == text.size() ||
      text.find('+', plus + 1) != std::string_view::npos)
    move_fail(text, "expected two piles joined by '+', as in 2+7");
  const std::string_view parts[2] = {text.substr(0, plus), text.substr(plus + 1)};
  for (const std::string_view part : parts)
    if (parse_pile(part) < 0) move_fail(text, "pile " + quote(part) + " is not 1..8");
  const int low = parse_pile(parts[0]), high = parse_pile(parts[1]);
  if (low == high) move_fail(text, "the two piles must differ");
  // The example is written from the piles read, not from the input: a message shows input only
  // through quote().
  if (low > high)
    move_fail(text, "the lower pile comes first, as in " + std::to_string(high + 1) + "+" +
                        std::to_string(low + 1));
  return {static_cast<std::uint8_t>(low), static_cast<std::uint8_t>(high)};
}

std::string TheWish::move_text(const Move& m) {
  return {static_cast<char>('1' + m.low), '+', static_cast<char>('1' + m.high)};
}

std::string TheWish::to_text(bool hidden) const {
  std::string s;
  for (int k = 0; k < kPiles; ++k) {
    if (k) s += '\n';
    if (!height_[k]) s += '-';
    for (int i = 0; i < height_[k]; ++i) {
      if (i) s += ' ';
      const bool down = i + 1 < height_[k];
      if (down) s += '(';
      s += down && hidden ? "??" : card_text(piles_[k][i]);
      if (down) s += ')';
    }
  }
  return s;
}

std::uint64_t TheWish::compute_key(bool canonical) const {
  std::uint64_t h = 0;
  for (int k = 0; k < kPiles; ++k)
    for (int i = 0; i < height_[k]; ++i) {
      const Card c = piles_[k][i];
      if (i)
        h ^= kKeys[kOn + c * kDeck + piles_[k][i - 1]];
      else
        h ^= kKeys[canonical ? kBottomAny + c : kBottom + k * kDeck + c];
    }
  return h;
}

bool TheWish::operator==(const TheWish& o) const {
  for (int k = 0; k < kPiles; ++k) {
    if (height_[k] != o.height_[k]) return false;
    if (!std::equal(piles_[k], piles_[k] + height_[k], o.piles_[k])) return false;
  }
  return true;
}

void TheWish::observe(std::uint8_t* obs, bool hidden) const {
  std::uint64_t in_piles = 0;
  for (int k = 0; k < kPiles; ++k)
    for (int i = 0; i < height_[k]; ++i) {
      const Card c = piles_[k][i];
      const bool down = i + 1 < height_[k];
      in_piles |= std::uint64_t{1} << c;
      if (down) obs[kFaceDownPlane * kPlaneSize + k * kHeight + i] = 1;
      if (!(down && hidden)) put_card_planes(obs, kPlaneSize, k * kHeight + i, c, 1);
    }
  for (std::uint64_t b = kPiquet & ~in_piles; b; b &= b - 1)
    obs[kFoundationPlane * kPlaneSize + foundation_slot(static_cast<Card>(ctz(b)))] = 1;
}

TheWish TheWish::determinize(std::uint64_t seed) const {
  // The face-down cards in increasing card order, shuffled, then dealt to the face-down slots
  // pile by pile, bottom first.
  std::uint64_t down = 0;
  for (int k = 0; k < kPiles; ++k)
    for (int i = 0; i + 1 < height_[k]; ++i) down |= std::uint64_t{1} << piles_[k][i];
  Card cards[kCards];
  int n = 0;
  for (std::uint64_t b = down; b; b &= b - 1) cards[n++] = static_cast<Card>(ctz(b));
  shuffle(cards, n, seed);
  TheWish g = *this;
  int next = 0;
  for (int k = 0; k < kPiles; ++k)
    for (int i = 0; i + 1 < height_[k]; ++i) g.piles_[k][i] = cards[next++];
  g.set_keys();
  return g;
}

}  // namespace pe
