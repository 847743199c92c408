// The Wish (docs/rules.md "The Wish"): eight piles of four piquet cards; the top cards of two
// piles of one rank go to the foundation together. The example game of docs/adding-a-game.md,
// compiled only with the CMake option PATIENCE_EXAMPLE_GAME.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "core/cards.hpp"
#include "core/rl.hpp"

namespace pe {

struct TheWish {
  static constexpr const char* kName = "TheWish";
  static constexpr const char* kMoveName = "TheWishMove";
  static constexpr const char* kDoc =
      "A position of The Wish: eight piles of a 32-card piquet deck, face down but the tops.\n\n"
      "The top cards of two piles of the same rank go to the foundation together, and the card\n"
      "under each turns up in the same move (docs/rules.md \"The Wish\"). Make one with deal(n)\n"
      "or from_text(text).";

  static constexpr int kPiles = 8;
  static constexpr int kHeight = 4;  // cards a pile holds at most: a deal's four
  static constexpr int kCards = 32;  // the piquet deck: A and 7 to K of each suit
  static constexpr int kRanks = 14;  // rank values 1..13 index arrays by rank (0 unused)
  // A move pairs two of the 8 top cards of one rank, and a rank has at most 4 cards: the most
  // pairs is two ranks of four tops, 2 * C(4, 2) = 12.
  static constexpr int kMaxMoves = 12;

  // A move: the top cards of piles low < high (0-based here, 1-based in the notation).
  struct Move {
    std::uint8_t low;
    std::uint8_t high;
    // Same two piles.
    bool operator==(const Move& o) const { return low == o.low && high == o.high; }
    // 64-bit identity for Python's hash.
    std::uint64_t id() const { return low | high << 8; }
  };

  // The keys before make(); the cards taken stay in the pile arrays above the heights.
  struct Undo {
    std::uint64_t hash, canonical;
  };

  // Numbered deal n (docs/rules.md "Numbered deals").
  static TheWish deal(std::uint64_t n);
  // Reads the text format (docs/rules.md "Text formats"); throws ParseError naming the line and
  // token.
  static TheWish from_text(std::string_view text);
  // Reads "2+7"; throws ParseError "bad move text '...': why".
  static Move parse_move(std::string_view text);
  // The notation of a move.
  static std::string move_text(const Move& m);
  // The position in its text format, no trailing newline.
  std::string to_text() const { return to_text(false); }
  // With hidden, each face-down card is written "(??)" (docs/rl.md "Hidden view").
  static constexpr bool kHasFaceDown = true;
  std::string to_text(bool hidden) const;

  // --- Reinforcement learning (docs/rl.md "The Wish: 28 actions") ---

  static constexpr int kNumActions = kPiles * (kPiles - 1) / 2;
  // Every move takes two of the 32 cards, so an episode is over by its 16th move: never truncated.
  static constexpr int kDefaultMaxMoves = kCards / 2;
  // Index [pile][slot] (slot 0 the bottom); plane 17 face down; plane 18 the foundation, indexed
  // [rank row][suit] instead (the same 8 x 4 grid).
  static constexpr std::array<int, 3> kObservationShape = {19, kPiles, kHeight};
  static constexpr int kPlaneSize = kPiles * kHeight;
  static constexpr int kFaceDownPlane = 17;
  static constexpr int kFoundationPlane = 18;
  // The pairs low < high in increasing order: the pairs before low's first are 7 + 6 + ...
  static int action(const Move& m) {
    return m.low * (2 * kPiles - 1 - m.low) / 2 + m.high - m.low - 1;
  }
  // The move of an action in 0 .. kNumActions - 1 (every one names a move).
  static Move move_of_action(int a) { return kPairs[a]; }
  // Writes the observation into obs (kObservationShape, zeroed by the caller).
  void observe(std::uint8_t* obs, bool hidden) const;
  // Updates obs, this position's observation, to the one after the legal move m (call before
  // make(m)): the two top cards go to the foundation plane, the cards under them turn up.
  inline void patch_observation(std::uint8_t* obs, const Move& m, bool hidden) const;
  // A position the player cannot tell from this one: the face-down cards shuffled among the
  // face-down slots by SplitMix64(seed) (docs/rl.md "Determinization").
  TheWish determinize(std::uint64_t seed) const;

  // Writes the legal moves to out (room for kMaxMoves), in increasing action order, and returns
  // how many.
  inline int generate(Move* out) const;
  // The legal actions, ascending: generate()'s order already.
  int legal_actions(StoredAction* out) const {
    Move moves[kMaxMoves];
    const int n = generate(moves);
    for (int i = 0; i < n; ++i) out[i] = static_cast<StoredAction>(action(moves[i]));
    return n;
  }
  // The move of a legal action: the action alone names it.
  Move move_at(int a) const { return move_of_action(a); }
  // Number of legal moves: C(n, 2) pairs for each rank with n top cards.
  int count_moves() const { return pairs(top_ranks()); }
  // Number of legal moves after the legal move m, without making it; the second argument
  // (count_moves() here) is not needed.
  inline int count_after(const Move& m, int) const;
  // canonical_hash() after the legal move m, without making it (the solver's look-ahead).
  std::uint64_t child_canonical_hash(const Move& m) const {
    return canonical_ ^ canonical_term(m.low) ^ canonical_term(m.high);
  }
  // Plays a legal move; the Undo takes it back.
  inline Undo make(const Move& m);
  // Takes back m, the last move made, with the Undo make() returned.
  void unmake(const Move& m, const Undo& u) {
    ++height_[m.low];
    ++height_[m.high];
    hash_ = u.hash;
    canonical_ = u.canonical;
#ifndef NDEBUG
    check_keys();
#endif
  }

  // Zobrist key of the exact position, kept incrementally.
  std::uint64_t hash() const { return hash_; }
  // Zobrist key that ignores which pile is which, kept incrementally.
  std::uint64_t canonical_hash() const { return canonical_; }
  // Keys worked out from scratch (docs/architecture.md "Zobrist keys").
  std::uint64_t compute_hash() const { return compute_key(false); }
  std::uint64_t compute_canonical_hash() const { return compute_key(true); }
  // Cards on the foundation: the piquet cards in no pile.
  int score() const {
    int in_piles = 0;
    for (int k = 0; k < kPiles; ++k) in_piles += height_[k];
    return kCards - in_piles;
  }
  // All 32 cards are on the foundation.
  bool is_won() const { return score() == kCards; }
  // Same cards in the same piles.
  bool operator==(const TheWish& o) const;

  // Cards in pile k, and its card i (0 the bottom, i < height(k)): what the solver reads.
  int height(int k) const { return height_[k]; }
  Card card(int k, int i) const { return piles_[k][i]; }

 private:
  // Keys in their draw order (docs/architecture.md "Zobrist keys"): ON[c][d], BOTTOM[k][c],
  // BOTTOM_ANY[c], indexed by the 52-card index. Face-down and foundation cards need no keys of
  // their own: the piles decide both.
  static constexpr int kOn = 0, kBottom = kOn + kDeck * kDeck,
                       kBottomAny = kBottom + kPiles * kDeck, kKeyCount = kBottomAny + kDeck;
  static constexpr std::array<std::uint64_t, kKeyCount> kKeys =
      zobrist_keys<kKeyCount>(0x5468652057697368ULL);  // "The Wish"
  static constexpr std::array<Move, kNumActions> kPairs = [] {
    std::array<Move, kNumActions> pairs{};
    int a = 0;
    for (int low = 0; low < kPiles; ++low)
      for (int high = low + 1; high < kPiles; ++high)
        pairs[a++] = {static_cast<std::uint8_t>(low), static_cast<std::uint8_t>(high)};
    return pairs;
  }();

  // Card c's index in the foundation plane: its rank's row (A 0, 7 1, ..., K 7) times the row's
  // kHeight = 4 slots, one per suit, plus its suit.
  static int foundation_slot(Card c) {
    const int rank = rank_of(c);
    return (rank == 1 ? 0 : rank - 6) * kHeight + suit_of(c);
  }
  // How many top cards each rank value has.
  using RankCounts = std::array<std::uint8_t, kRanks>;
  RankCounts top_ranks() const {
    RankCounts n{};
    for (int k = 0; k < kPiles; ++k)
      if (height_[k]) ++n[rank_of(piles_[k][height_[k] - 1])];
    return n;
  }
  // The legal moves of a position whose top cards have these ranks.
  static int pairs(const RankCounts& n) {
    int total = 0;
    for (const int c : n) total += c * (c - 1) / 2;
    return total;
  }
  // Key terms of the top card of non-empty pile k: on the card under it, or the pile's bottom.
  std::uint64_t term(int k) const {
    const int h = height_[k];
    const Card c = piles_[k][h - 1];
    return kKeys[h > 1 ? kOn + c * kDeck + piles_[k][h - 2] : kBottom + k * kDeck + c];
  }
  std::uint64_t canonical_term(int k) const {
    const int h = height_[k];
    const Card c = piles_[k][h - 1];
    return kKeys[h > 1 ? kOn + c * kDeck + piles_[k][h - 2] : kBottomAny + c];
  }
  // The exact (canonical: false) or canonical key worked out from scratch.
  std::uint64_t compute_key(bool canonical) const;
  // Sets both keys from the piles (after deal(), from_text() and determinize()).
  void set_keys() {
    hash_ = compute_hash();
    canonical_ = compute_canonical_hash();
  }
#ifndef NDEBUG
  // Debug check that the incremental keys have not drifted from the position.
  void check_keys() const {
    assert(hash_ == compute_hash());
    assert(canonical_ == compute_canonical_hash());
  }
#endif

  // Pile k holds piles_[k][0 .. height_[k]), bottom first; every card but the top is face down,
  // and the piquet cards in no pile are on the foundation. Entries at and above a height are the
  // cards make() took, which unmake() takes back by raising the height.
  Card piles_[kPiles][kHeight] = {};
  std::uint8_t height_[kPiles] = {};
  std::uint64_t hash_ = 0;
  std::uint64_t canonical_ = 0;
};

inline int TheWish::generate(Move* out) const {
  int rank[kPiles];  // each pile's top card's rank, 0 for an empty pile
  for (int k = 0; k < kPiles; ++k) rank[k] = height_[k] ? rank_of(piles_[k][height_[k] - 1]) : 0;
  int n = 0;
  for (int low = 0; low < kPiles; ++low)
    for (int high = low + 1; high < kPiles; ++high)
      if (rank[low] && rank[low] == rank[high])
        out[n++] = {static_cast<std::uint8_t>(low), static_cast<std::uint8_t>(high)};
  return n;
}

inline int TheWish::count_after(const Move& m, int) const {
  RankCounts n = top_ranks();
  n[rank_of(piles_[m.low][height_[m.low] - 1])] -= 2;
  for (const int k : {m.low, m.high})
    if (height_[k] > 1) ++n[rank_of(piles_[k][height_[k] - 2])];
  return pairs(n);
}

inline TheWish::Undo TheWish::make(const Move& m) {
  const Undo u{hash_, canonical_};
  for (const int k : {m.low, m.high}) {
    hash_ ^= term(k);
    canonical_ ^= canonical_term(k);
    --height_[k];
  }
#ifndef NDEBUG
  check_keys();
#endif
  return u;
}

inline void TheWish::patch_observation(std::uint8_t* obs, const Move& m, bool hidden) const {
  for (const int k : {m.low, m.high}) {
    const int h = height_[k];
    const Card c = piles_[k][h - 1];
    put_card_planes(obs, kPlaneSize, k * kHeight + h - 1, c, 0);
    obs[kFoundationPlane * kPlaneSize + foundation_slot(c)] = 1;
    if (h > 1) {
      obs[kFaceDownPlane * kPlaneSize + k * kHeight + h - 2] = 0;
      if (hidden) put_card_planes(obs, kPlaneSize, k * kHeight + h - 2, piles_[k][h - 2], 1);
    }
  }
}

}  // namespace pe
