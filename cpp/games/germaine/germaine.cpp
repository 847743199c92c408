// Germaine 2-Move: set-up, text formats, move notation and from-scratch keys (docs/rules.md
// "Germaine 2-Move", "Text formats", "Move notation").
#include "germaine.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

namespace pe {

namespace {

constexpr int kRows = Germaine::kRows;
constexpr int kCols = Germaine::kCols;

constexpr std::string_view kAllowanceError = "slide allowance must be 0, 1 or 2";

// Cell index of a name a1..m4 (lowercase only: the notation is fixed); -1 when it is not one.
int parse_cell(std::string_view name) {
  if (name.size() != 2) return -1;
  const int col = name[0] - 'a';
  const int row = name[1] - '1';
  if (col < 0 || col >= kCols || row < 0 || row >= kRows) return -1;
  return kCols * row + col;
}

// Name of a cell: column letter a..m, then row number 1..4.
std::string cell_name(int cell) {
  return {static_cast<char>('a' + cell % kCols), static_cast<char>('1' + cell / kCols)};
}

// Whether two cells share a side (same row, neighbouring columns, or the reverse).
bool adjacent(int a, int b) {
  const int dr = a / kCols - b / kCols;
  const int dc = a % kCols - b % kCols;
  return (dr == 0 && (dc == 1 || dc == -1)) || (dc == 0 && (dr == 1 || dr == -1));
}

// ASCII case-insensitive equality with a lowercase word.
bool equals_lower(std::string_view token, std::string_view word) {
  if (token.size() != word.size()) return false;
  for (std::size_t i = 0; i < token.size(); ++i) {
    char ch = token[i];
    if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
    if (ch != word[i]) return false;
  }
  return true;
}

}  // namespace

Germaine::Germaine(const std::array<Card, kCells>& cells, int allowance)
    : occupied_(0),
      ranks_{},
      keys_{},
      cells_(cells),
      allowance_(static_cast<std::uint8_t>(allowance)) {
  for (int i = 0; i < kCells; ++i) {
    if (cells_[i] == kNoCard) continue;
    occupied_ |= Bitboard{1} << i;
    ranks_[kRankIndex[cells_[i]]] |= Bitboard{1} << i;
  }
  keys_ = compute_keys();
}

Germaine Germaine::deal(std::uint64_t n) {
  std::array<Card, kCells> cells;
  std::iota(cells.begin(), cells.end(), Card{0});
  shuffle(cells.data(), kCells, n);
  return Germaine(cells, 0);
}

Germaine Germaine::from_text(std::string_view text) {
  const std::vector<TextLine> lines = split_lines(text);
  std::array<Card, kCells> cells;
  cells.fill(kNoCard);
  std::array<bool, kDeck> seen{};
  const std::size_t rows = std::min<std::size_t>(lines.size(), kRows);
  for (std::size_t r = 0; r < rows; ++r) {
    const TextLine& line = lines[r];
    if (line.tokens.size() != kCols)
      parse_fail_line(line.number, "expected 13 cells, got " + std::to_string(line.tokens.size()));
    for (int c = 0; c < kCols; ++c) {
      const std::string_view token = line.tokens[c];
      if (token == "--") continue;
      const Card card = parse_card(token);
      if (card == kNoCard) parse_fail(line.number, c + 1, token, "unknown card");
      if (seen[card]) parse_fail(line.number, c + 1, token, "duplicate card");
      seen[card] = true;
      cells[kCols * r + c] = card;
    }
  }
  if (lines.size() < kRows)
    parse_fail_line(static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1,
                    "expected 4 rows of 13 cells");
  int allowance = 0;
  if (lines.size() > kRows) {
    const TextLine& line = lines[kRows];
    if (!equals_lower(line.tokens[0], "slides:")) parse_fail_line(line.number, "unexpected line");
    if (line.tokens.size() < 2)
      parse_fail(line.number, 1, line.tokens[0], "slide allowance missing");
    const std::string_view token = line.tokens[1];
    if (token != "0" && token != "1" && token != "2")
      parse_fail(line.number, 2, token, kAllowanceError);
    if (line.tokens.size() > 2) parse_fail(line.number, 3, line.tokens[2], "unexpected token");
    allowance = token[0] - '0';
  }
  if (lines.size() > kRows + 1) parse_fail_line(lines[kRows + 1].number, "unexpected line");
  return Germaine(cells, allowance);
}

Germaine::Move Germaine::parse_move(std::string_view text) {
  // Byte offsets of the first six UTF-8 characters: the checks count characters, as Python does,
  // so a non-ASCII character is never taken apart (and a long text is not scanned to its end).
  std::size_t start[6] = {};
  int chars = 0;
  for (std::size_t i = 0; i < text.size() && chars < 6; ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) start[chars++] = i;
  if (chars != 5) move_fail(text, "expected a combine 'g3xh3' or a slide 'g3-h3'");
  const std::string_view sep = text.substr(start[2], start[3] - start[2]);
  if (sep != "x" && sep != "-")
    move_fail(text, "expected 'x' (combine) or '-' (slide) between the cells, got " + quote(sep));
  const std::string_view src_name = text.substr(0, start[2]);
  const int src = parse_cell(src_name);
  if (src < 0) move_fail(text, "bad cell " + quote(src_name) + " (columns a..m, rows 1..4)");
  const std::string_view dst_name = text.substr(start[3]);
  const int dst = parse_cell(dst_name);
  if (dst < 0) move_fail(text, "bad cell " + quote(dst_name) + " (columns a..m, rows 1..4)");
  if (!adjacent(src, dst))
    move_fail(text, "cells " + cell_name(src) + " and " + cell_name(dst) + " are not adjacent");
  return Move{static_cast<std::uint8_t>(src), static_cast<std::uint8_t>(dst),
              sep == "x" ? Kind::kCombine : Kind::kSlide};
}

std::string Germaine::move_text(const Move& m) {
  return cell_name(m.src) + (m.kind == Kind::kCombine ? 'x' : '-') + cell_name(m.dst);
}

std::string Germaine::to_text() const {
  std::string out;
  out.reserve(kRows * kCols * 3 + 10);
  for (int r = 0; r < kRows; ++r) {
    for (int c = 0; c < kCols; ++c) {
      const Card card = cells_[kCols * r + c];
      out += card == kNoCard ? std::string("--") : card_text(card);
      out += c + 1 < kCols ? ' ' : '\n';
    }
  }
  out += "slides: ";
  out += static_cast<char>('0' + allowance_);
  return out;
}

std::array<std::uint64_t, Germaine::kSymmetries> Germaine::compute_keys() const {
  std::array<std::uint64_t, kSymmetries> keys;
  keys.fill(kKeys[kSlideKeys + allowance_]);
  for (int i = 0; i < kCells; ++i) {
    if (cells_[i] == kNoCard) continue;
    for (int s = 0; s < kSymmetries; ++s) keys[s] ^= kKeys[kSymBase[s][i] + cells_[i]];
  }
  return keys;
}

std::uint64_t Germaine::compute_canonical_hash() const {
  const std::array<std::uint64_t, kSymmetries> keys = compute_keys();
  return *std::min_element(keys.begin(), keys.end());
}

bool Germaine::consistent() const {
  Bitboard occupied = 0;
  std::array<Bitboard, kRanks> ranks{};
  for (int i = 0; i < kCells; ++i) {
    if (cells_[i] == kNoCard) continue;
    occupied |= Bitboard{1} << i;
    ranks[kRankIndex[cells_[i]]] |= Bitboard{1} << i;
  }
  return occupied == occupied_ && ranks == ranks_ && allowance_ <= 2 && keys_ == compute_keys();
}

Germaine::Move Germaine::move_of_action(int a) {
  static constexpr const char* kDirections[] = {"up", "left", "right", "down"};
  const int src = a % kCells, direction = a / kCells % 4;
  const int row = src / kCols, col = src % kCols;
  const bool on_grid = direction == 0   ? row > 0
                       : direction == 1 ? col > 0
                       : direction == 2 ? col < kCols - 1
                                        : row < kRows - 1;
  if (!on_grid)
    throw ParseError("action " + std::to_string(a) + " names no move: cell " +
                     std::string{static_cast<char>('a' + col), static_cast<char>('1' + row)} +
                     " has no neighbour " + kDirections[direction]);
  return action_move(a);
}

}  // namespace pe
