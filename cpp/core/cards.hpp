// Shared pieces of the games: cards, the numbered-deal generator,
// Zobrist key tables, text tokenising and parse errors (docs/rules.md "Cards", "Numbered deals",
// "Text formats").
#pragma once

#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pe {

// A card is its index suit * 13 + (rank - 1), C=0 D=1 H=2 S=3 (docs/rules.md "Cards").
using Card = std::uint8_t;
inline constexpr Card kNoCard = 0xFF;
inline constexpr int kDeck = 52;

// Rank value 1..13 of a card.
constexpr int rank_of(Card c) { return c % 13 + 1; }
// Suit 0..3 (C D H S) of a card.
constexpr int suit_of(Card c) { return c / 13; }
// Card of a rank value 1..13 and a suit 0..3.
constexpr Card make_card(int rank, int suit) { return static_cast<Card>(suit * 13 + rank - 1); }

// Two-character upper-case text of a card: "QH", "TC".
std::string card_text(Card c);
// Reads a card token (rank then suit; lowercase, "10" for T, suit symbols); kNoCard when it is not
// one.
Card parse_card(std::string_view token);
// Reads a suit token (a letter C D H S in either case, or a suit symbol) into 0..3; -1 when it is
// not one.
int parse_suit(std::string_view token);
// Reads a rank token ("A".."K", "T", "10", lowercase) into 1..13; 0 when it is not one.
int parse_rank(std::string_view token);
// Rank character of a value 1..13.
char rank_char(int rank);
// Suit character 0..3 -> 'C' 'D' 'H' 'S'.
char suit_char(int suit);

// SplitMix64 (docs/rules.md "Numbered deals"); also the source of every Zobrist key.
struct SplitMix64 {
  std::uint64_t s;
  // Advances the state and returns the next 64-bit draw.
  constexpr std::uint64_t next() {
    s += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // next() % n for n in 1 .. kMaxBelow, without a division (a 64-bit divide is tens of cycles):
  // Lemire, Kaser and Kurz, "Faster remainder by direct computation" (2019). With the 128-bit
  // reciprocal c = ceil(2^128 / n) the remainder is exact for every 64-bit draw, as 128 >= 64 +
  // log2(n); n = 1 wraps c to 0, which gives the right remainder 0.
  static constexpr int kMaxBelow = 256;
  std::uint64_t below(int n) {
    assert(n >= 1 && n <= kMaxBelow);
    const unsigned __int128 low = kReciprocal[n] * next();
    const unsigned __int128 d = static_cast<std::uint64_t>(n);
    return static_cast<std::uint64_t>((((low & ~std::uint64_t{0}) * d >> 64) + (low >> 64) * d) >>
                                      64);
  }

 private:
  static constexpr std::array<unsigned __int128, kMaxBelow + 1> kReciprocal = [] {
    std::array<unsigned __int128, kMaxBelow + 1> t{};
    for (int n = 1; n <= kMaxBelow; ++n) t[n] = ~static_cast<unsigned __int128>(0) / n + 1;
    return t;
  }();
};

// The seed of random stream i of seed (docs/rl.md "Random streams"): the (i + 1)-th draw of
// SplitMix64(seed), worked out directly as the first draw of SplitMix64(seed + i * gamma). A
// batch's slot i and playout i draw from SplitMix64(stream_seed(seed, i)), so what they draw does
// not depend on which thread plays them or in what order.
constexpr std::uint64_t stream_seed(std::uint64_t seed, std::uint64_t i) {
  return SplitMix64{seed + i * 0x9E3779B97F4A7C15ULL}.next();
}

// Shuffles list[0..n) in place with the shuffle of docs/rules.md "Numbered deals", driven by
// SplitMix64(seed).
void shuffle(Card* list, int n, std::uint64_t seed);

// N consecutive draws of SplitMix64(seed): the Zobrist key tables (docs/architecture.md "Zobrist
// keys").
template <std::size_t N>
constexpr std::array<std::uint64_t, N> zobrist_keys(std::uint64_t seed) {
  std::array<std::uint64_t, N> keys{};
  SplitMix64 rng{seed};
  for (std::size_t i = 0; i < N; ++i) keys[i] = rng.next();
  return keys;
}

// The message of a ParseError: text, with the input text it shows (quote()) kept apart, so that
// the binding shows the input as patience_engine._shown.quote() does (escaped and cut short, the
// same for both implementations) and that function alone knows how. Made from text, quote() and +.
class Message {
 public:
  Message(std::string text) : pieces_{std::move(text)} {}
  Message(std::string_view text) : Message(std::string(text)) {}
  Message(const char* text) : Message(std::string(text)) {}
  // Input text (UTF-8), shown quoted.
  static Message input(std::string_view text);

  // Text, input, text, ... (an odd count): every other piece is input text.
  const std::vector<std::string>& pieces() const { return pieces_; }
  // The message with each input in plain single quotes, for readers other than Python.
  std::string plain() const;

  friend Message operator+(Message a, const Message& b);

 private:
  Message() = default;
  std::vector<std::string> pieces_;
};

// Input text as an error message shows it (Message).
inline Message quote(std::string_view text) { return Message::input(text); }

// Bad position or move text; the message names the line and the token, or what is wrong with a
// move (-> Python ValueError; what() is message().plain()).
class ParseError : public std::invalid_argument {
 public:
  explicit ParseError(const Message& message)
      : std::invalid_argument(message.plain()),
        message_(std::make_shared<const Message>(message)) {}
  const Message& message() const { return *message_; }

 private:
  std::shared_ptr<const Message> message_;  // shared: copying an exception must not throw
};

// Throws ParseError "bad move text 'text': why".
[[noreturn]] void move_fail(std::string_view text, const Message& why);

// Throws ParseError "line L, token T 'tok': what" (token numbers count from 1).
[[noreturn]] void parse_fail(int line, int token, std::string_view tok, const Message& what);
// Throws ParseError "line L: what" for a fault of a whole line.
[[noreturn]] void parse_fail_line(int line, const Message& what);

// One non-blank input line: its 1-based number and its white-space separated tokens.
struct TextLine {
  int number;
  std::vector<std::string_view> tokens;
};

// Splits text into its non-blank lines; the views point into text.
std::vector<TextLine> split_lines(std::string_view text);

}  // namespace pe
