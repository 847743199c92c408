// Batches of positions stepped in C++ (docs/rl.md "Episodes", "For the C++ engine"): VectorGame<G>
// holds num_envs positions with their observation, legal-action mask, reward and flag buffers,
// and playouts() plays random games from a position. Neither touches Python; the binding
// (core/bind_vector.hpp) exposes the buffers as numpy arrays.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/cards.hpp"
#include "core/perft.hpp"
#include "core/rl.hpp"

namespace pe {

// A bad action found by VectorGame<G>::check(): the slot, the action, and whether it lies outside
// the space (else it is in the space but not legal); slot -1 when every slot can play.
struct StepFault {
  int slot = -1;
  std::int64_t action = 0;
  bool outside = false;
};

template <class G>
class VectorGame {
 public:
  using Move = typename G::Move;
  static constexpr int kObservationSize = observation_size<G>();
  static_assert(G::kNumActions <= 65536 && G::kMaxMoves <= 255, "actions and counts fit the slots");

  VectorGame(int num_envs, int max_moves, bool hidden)
      : n_(num_envs),
        max_moves_(max_moves),
        hidden_(hidden),
        pos_(static_cast<std::size_t>(num_envs), G::deal(0)),
        moves_(static_cast<std::size_t>(num_envs) * G::kMaxMoves),
        actions_(static_cast<std::size_t>(num_envs) * G::kMaxMoves),
        count_(static_cast<std::size_t>(num_envs)),
        played_(static_cast<std::size_t>(num_envs)),
        ended_(static_cast<std::size_t>(num_envs)),
        obs_(static_cast<std::size_t>(num_envs) * kObservationSize),
        mask_(static_cast<std::size_t>(num_envs) * G::kNumActions),
        reward_(static_cast<std::size_t>(num_envs)),
        terminated_(static_cast<std::size_t>(num_envs)),
        truncated_(static_cast<std::size_t>(num_envs)) {}

  int num_envs() const { return n_; }
  void seed(std::uint64_t s) { rng_ = SplitMix64{s}; }

  // Every slot to a new deal: deals[i] when deals is given, else a draw of the generator.
  void reset(const std::uint64_t* deals) {
    for (int i = 0; i < n_; ++i) start(i, deals ? deals[i] : rng_.next());
  }

  // The first slot whose action cannot be played (a slot awaiting autoreset, or dealt a position
  // with no legal move, ignores its own).
  StepFault check(const std::int64_t* actions) const {
    for (int i = 0; i < n_; ++i) {
      if (ended_[i] || !count_[i]) continue;
      const std::int64_t a = actions[i];
      if (a < 0 || a >= G::kNumActions) return StepFault{i, a, true};
      if (find(i, static_cast<int>(a)) < 0) return StepFault{i, a, false};
    }
    return StepFault{};
  }

  // Plays each slot's action (check() having passed), or resets a slot whose episode ended at the
  // last step (Gymnasium's next-step autoreset). A slot reset to a position with no legal move
  // (Geoffrey deal 787) cannot report it from reset(), so its next step ends the episode with
  // no move: reward 0, terminated.
  void step(const std::int64_t* actions) {
    for (int i = 0; i < n_; ++i) {
      if (ended_[i]) {
        start(i, rng_.next());
        continue;
      }
      if (!count_[i]) {
        reward_[i] = 0;
        terminated_[i] = true;
        truncated_[i] = false;
        ended_[i] = true;
        continue;
      }
      G& g = pos_[i];
      const Move m = moves_[base(i) + find(i, static_cast<int>(actions[i]))];
      const int before = g.score();
      g.patch_observation(&obs_[static_cast<std::size_t>(i) * kObservationSize], m, hidden_);
      g.make(m);
      refresh_legal(i);
      const bool over = count_[i] == 0;
      const bool cut = !over && ++played_[i] >= max_moves_;
      reward_[i] = static_cast<float>(g.score() - before);
      terminated_[i] = over;
      truncated_[i] = cut;
      ended_[i] = over || cut;
    }
  }

  // For each slot, one of its legal actions drawn uniformly (legal[draw() % n] over the ascending
  // list); 0, with no draw, for a slot with none or awaiting autoreset.
  void sample(std::int64_t* out) {
    for (int i = 0; i < n_; ++i) {
      const int n = count_[i];
      out[i] = ended_[i] || !n ? 0 : actions_[base(i) + rng_.next() % static_cast<unsigned>(n)];
    }
  }

  // The bytes a slot costs: its position, legal moves and actions, counters and buffer rows.
  static constexpr std::size_t bytes_per_position() {
    return sizeof(G) + G::kMaxMoves * (sizeof(Move) + sizeof(StoredAction)) + 1 + sizeof(int) + 1 +
           kObservationSize + G::kNumActions + sizeof(float) + 2;
  }

  const G& position(int i) const { return pos_[i]; }
  std::uint8_t* observations() { return obs_.data(); }
  std::uint8_t* masks() { return mask_.data(); }
  float* rewards() { return reward_.data(); }
  std::uint8_t* terminated() { return terminated_.data(); }
  std::uint8_t* truncated() { return truncated_.data(); }

 private:
  std::size_t base(int i) const { return static_cast<std::size_t>(i) * G::kMaxMoves; }

  // Index of action a among slot i's legal actions, -1 when it is not one (binary search).
  int find(int i, int a) const {
    const StoredAction* list = &actions_[base(i)];
    int lo = 0, hi = count_[i];
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      if (list[mid] < a)
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo < count_[i] && list[lo] == a ? lo : -1;
  }

  // Slot i to deal d: a fresh episode, its observation written whole.
  void start(int i, std::uint64_t d) {
    pos_[i] = G::deal(d);
    std::uint8_t* obs = &obs_[static_cast<std::size_t>(i) * kObservationSize];
    std::memset(obs, 0, kObservationSize);
    pos_[i].observe(obs, hidden_);
    refresh_legal(i);
    played_[i] = 0;
    ended_[i] = false;
    reward_[i] = 0;
    terminated_[i] = truncated_[i] = false;
  }

  // Slot i's legal moves and actions anew; the mask loses the old actions and gains the new.
  void refresh_legal(int i) {
    std::uint8_t* mask = &mask_[static_cast<std::size_t>(i) * G::kNumActions];
    StoredAction* list = &actions_[base(i)];
    for (int j = 0; j < count_[i]; ++j) mask[list[j]] = 0;
    const int n = pos_[i].generate_by_action(&moves_[base(i)], list);
    for (int j = 0; j < n; ++j) mask[list[j]] = 1;
    count_[i] = static_cast<std::uint8_t>(n);
  }

  int n_;
  int max_moves_;
  bool hidden_;
  SplitMix64 rng_{0};
  std::vector<G> pos_;
  std::vector<Move> moves_;            // per slot kMaxMoves, ascending action order
  std::vector<StoredAction> actions_;  // their actions
  std::vector<std::uint8_t> count_;    // how many
  std::vector<int> played_;            // moves played in the episode
  std::vector<std::uint8_t> ended_;    // terminated or truncated at the last step
  std::vector<std::uint8_t> obs_;
  std::vector<std::uint8_t> mask_;
  std::vector<float> reward_;
  std::vector<std::uint8_t> terminated_;
  std::vector<std::uint8_t> truncated_;
};

// n random games from start with one SplitMix64(seed): at each move legal[draw() % len] of the
// ascending legal actions, until none is left or max_moves are played; out[k] the k-th game's
// final score (VECTOR_SPEC "playouts").
template <class G>
void playouts(const G& start, std::int64_t n, std::uint64_t seed, int max_moves, std::int32_t* out,
              Interrupt& interrupt) {
  SplitMix64 rng{seed};
  typename G::Move moves[G::kMaxMoves];
  StoredAction actions[G::kMaxMoves];
  for (std::int64_t k = 0; k < n; ++k) {
    G g = start;
    for (int played = 0; played < max_moves; ++played) {
      const int count = g.generate_by_action(moves, actions);
      if (!count) break;
      g.make(moves[rng.next() % static_cast<unsigned>(count)]);
      interrupt.tick();
    }
    out[k] = g.score();
  }
}

}  // namespace pe
