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

// Code points beyond ASCII that quote() escapes: C1 controls, characters that show as nothing or
// as a space, and lone surrogates, which no output encoding takes (the same ranges as
// patience_engine._shown._INVISIBLE_RANGES).
static constexpr char32_t kInvisible[][2] = {
    {0x80, 0xA0},       {0xAD, 0xAD},     {0x34F, 0x34F},   {0x600, 0x605},   {0x61C, 0x61C},
    {0x115F, 0x1160},   {0x1680, 0x1680}, {0x17B4, 0x17B5}, {0x180B, 0x180F}, {0x2000, 0x200F},
    {0x2028, 0x202F},   {0x205F, 0x206F}, {0x3000, 0x3000}, {0x3164, 0x3164}, {0xD800, 0xDFFF},
    {0xFE00, 0xFE0F},   {0xFEFF, 0xFEFF}, {0xFFA0, 0xFFA0}, {0xFFF9, 0xFFFB}, {0x1D173, 0x1D17A},
    {0xE0000, 0xE0FFF},
};

// Whether quote() escapes the non-ASCII code point c.
static bool invisible(char32_t c) {
  for (const auto& range : kInvisible)
    if (c >= range[0] && c <= range[1]) return true;
  return false;
}

std::string quote(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  const auto hex = [](char32_t c, int digits) {
    std::string h;
    for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) h += kHex[(c >> shift) & 0xF];
    return h;
  };
  std::string out = "'";
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (chars++ == kShownChars) return out + "'...";
    const auto ch = static_cast<unsigned char>(text[i]);
    if (ch >= 0x80) {
      // One UTF-8 sequence (the text came from a Python str, so it is well formed but for a lone
      // surrogate's three bytes, which decode the same way).
      const std::size_t len = std::min<std::size_t>(ch < 0xE0   ? 2
                                                    : ch < 0xF0 ? 3
                                                                : 4,
                                                    text.size() - i);
      char32_t c = ch & (0x7F >> len);
      for (std::size_t k = 1; k < len; ++k)
        c = c << 6 | (static_cast<unsigned char>(text[i + k]) & 0x3F);
      if (invisible(c))
        out += c < 0x100 ? "\\x" + hex(c, 2) : c < 0x10000 ? "\\u" + hex(c, 4) : "\\U" + hex(c, 8);
      else
        out.append(text.substr(i, len));
      i += len;
      continue;
    }
    ++i;
    switch (ch) {
      case '\\':
        out += "\\\\";
        break;
      case '\'':
        out += "\\'";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (ch < 0x20 || ch == 0x7F)
          out += "\\x" + hex(ch, 2);
        else
          out += static_cast<char>(ch);
    }
  }
  return out + "'";
}

void move_fail(std::string_view text, std::string_view why) {
  throw ParseError("bad move text " + quote(text) + ": " + std::string(why));
}

void parse_fail(int line, int token, std::string_view tok, std::string_view what) {
  throw ParseError("line " + std::to_string(line) + ", token " + std::to_string(token) + " " +
                   quote(tok) + ": " + std::string(what));
}

void parse_fail_line(int line, std::string_view what) {
  throw ParseError("line " + std::to_string(line) + ": " + std::string(what));
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
