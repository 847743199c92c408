#include "core/cards.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace pe {

namespace {
constexpr char kRanks[] = "A23456789TJQK";
constexpr char kSuits[] = "CDHS";
// UTF-8 spellings of the suit symbols, in suit order C D H S.
constexpr std::string_view kSuitSymbols[4] = {"\xE2\x99\xA3", "\xE2\x99\xA6", "\xE2\x99\xA5",
                                              "\xE2\x99\xA0"};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
}  // namespace

char rank_char(int rank) { return kRanks[rank - 1]; }
char suit_char(int suit) { return kSuits[suit]; }

std::string card_text(Card c) { return {rank_char(rank_of(c)), suit_char(suit_of(c))}; }

int parse_rank(std::string_view t) {
  if (t == "10") return 10;
  if (t.size() != 1) return 0;
  char ch = t[0];
  if (ch >= 'a' && ch <= 'z') ch = static_cast<char>(ch - 'a' + 'A');
  for (int r = 1; r <= 13; ++r)
    if (kRanks[r - 1] == ch) return r;
  return 0;
}

int parse_suit(std::string_view t) {
  for (int suit = 0; suit < 4; ++suit)
    if (t == kSuitSymbols[suit]) return suit;
  if (t.size() != 1) return -1;
  char ch = t[0];
  if (ch >= 'a' && ch <= 'z') ch = static_cast<char>(ch - 'a' + 'A');
  for (int suit = 0; suit < 4; ++suit)
    if (kSuits[suit] == ch) return suit;
  return -1;
}

Card parse_card(std::string_view t) {
  // The suit is the last character or the last symbol (three UTF-8 bytes each).
  for (const std::size_t len : {std::size_t{3}, std::size_t{1}}) {
    if (t.size() <= len) continue;
    const int suit = parse_suit(t.substr(t.size() - len));
    if (suit < 0) continue;
    const int rank = parse_rank(t.substr(0, t.size() - len));
    return rank ? make_card(rank, suit) : kNoCard;
  }
  return kNoCard;
}

void shuffle(Card* list, int n, std::uint64_t seed) {
  SplitMix64 rng{seed};
  for (int i = n - 1; i >= 1; --i) {
    const int j = static_cast<int>(rng.below(i + 1));
    std::swap(list[i], list[j]);
  }
}

Message Message::input(std::string_view text) {
  Message m;
  m.pieces_ = {std::string(), std::string(text), std::string()};
  return m;
}

std::string Message::plain() const {
  std::string out;
  for (std::size_t i = 0; i < pieces_.size(); ++i)
    out += i % 2 ? "'" + pieces_[i] + "'" : pieces_[i];
  return out;
}

Message operator+(Message a, const Message& b) {
  // a's last piece and b's first are both text: they join.
  a.pieces_.back() += b.pieces_.front();
  a.pieces_.insert(a.pieces_.end(), b.pieces_.begin() + 1, b.pieces_.end());
  return a;
}

void move_fail(std::string_view text, const Message& why) {
  throw ParseError("bad move text " + quote(text) + ": " + why);
}

void parse_fail(int line, int token, std::string_view tok, const Message& what) {
  throw ParseError("line " + std::to_string(line) + ", token " + std::to_string(token) + " " +
                   quote(tok) + ": " + what);
}

void parse_fail_line(int line, const Message& what) {
  throw ParseError("line " + std::to_string(line) + ": " + what);
}

std::vector<TextLine> split_lines(std::string_view text) {
  std::vector<TextLine> lines;
  int number = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    ++number;
    TextLine line{number, {}};
    std::size_t i = start;
    while (i < end) {
      while (i < end && is_space(text[i])) ++i;
      std::size_t j = i;
      while (j < end && !is_space(text[j])) ++j;
      if (j > i) line.tokens.push_back(text.substr(i, j - i));
      i = j;
    }
    if (!line.tokens.empty()) lines.push_back(std::move(line));
    start = end + 1;
  }
  return lines;
}

}  // namespace pe
