"""The store floor of a batch step: how fast a ``VectorGame`` could step if a step did nothing but write
the observation and mask entries it changes.

For each game, a batch of ``--slots`` slots is reset with ``seed=1`` and stepped
``--warm`` times by ``step(sample_legal_actions())``; over the next ``--steps`` steps it
records, for each step, the 64-byte lines of the observation and mask buffers
that hold a changed byte, slot by slot as the step goes (a slot's observation
lines, then its mask lines, each in address order). It then times, best of ``--rounds`` rounds taking turns:

- the real steps: a fresh batch from the same seed, the warm-up untimed, then the
  same steps timed (their rewards must sum as in the recorded run);
- the stores alone: one byte stored in each recorded line, step by step, into a
  buffer the size of the batch's observations and masks (numpy fancy-index stores);
- the same stores into a 16 KiB buffer, which the level-1 cache holds: the cost of
  the store loop itself, subtracted to leave what the memory costs.

``--channels-last`` counts the observation's lines as if each index's planes
were stored side by side (the layout a trial of docs/rl-design.md timed); the real step
stays the committed one.

No step moves its lines faster than a loop that does nothing but store them, so
``slots x steps / (stores - L1 stores)`` bounds the slot steps a second of any step
that writes this observation and mask layout on the machine, however little else it
computes (and it leaves out the reads of the slots' positions). Prints a
Markdown table: lines per slot step, nanoseconds per slot step of each timing,
the bound ("none" when the stores ran no slower than in L1, as for a batch the
caches hold) and the real rate (M slot steps a second). The bound moves with
the machine's load, so compare runs, not one figure. Run ``python
bench/store_floor.py`` with an optimised build installed (under a minute);
docs/rl-design.md "The store floor" quotes it.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

import numpy as np

import patience_engine
from patience_engine import VectorGame
from patience_engine.games import REGISTRY, TITLES

LINE = 64  # bytes per cache line
L1_BYTES = 16384  # the replay buffer the level-1 cache holds (48 KiB data caches and up)
MAX_SLOTS = 2**31 - 1  # VectorGame's num_envs


@dataclass
class Recording:
    """The lines each recorded step changed (offsets into obs rows, then mask rows) and the steps' reward sum."""

    steps: List[np.ndarray]
    rewards: float
    buffer_bytes: int


def warmed(game: str, slots: int, warm: int) -> Tuple[VectorGame, np.ndarray]:
    """A batch reset with seed 1 and stepped ``warm`` times at random (the batch's own draws), and its
    observations: a view of its buffer, which later steps change."""
    vec = VectorGame(game, slots)
    obs = vec.reset(seed=1)[0]
    for _ in range(warm):
        vec.step(vec.sample_legal_actions())
    return vec, obs


def record(game: str, slots: int, warm: int, steps: int, channels_last: bool = False) -> Recording:
    """The changed lines of ``steps`` steps after ``warm``; see the module's docstring. ``channels_last``
    counts them as if each observation's planes were stored side by side (entry (p, i) at i x planes + p)."""
    vec, view = warmed(game, slots, warm)
    planes = view.shape[1]
    obs = view.reshape(slots, -1)
    mask = vec.action_masks.view(np.uint8)
    row_o, row_m = obs.shape[1], mask.shape[1]
    mask_base = slots * row_o
    lines_in = -(-slots * (row_o + row_m) // LINE)
    lines: List[np.ndarray] = []
    rewards = 0.0
    for _ in range(steps):
        before_o, before_m = obs.copy(), mask.copy()
        rewards += float(vec.step(vec.sample_legal_actions())[1].sum())
        slot_o, at_o = np.nonzero(obs != before_o)
        if channels_last:
            index_size = row_o // planes
            at_o = at_o % index_size * planes + at_o // index_size
        slot_m, at_m = np.nonzero(mask != before_m)
        # A line shared by two slots' rows is written by each slot that changes it: (slot, line) pairs,
        # ordered by slot, a slot's observation lines before its mask lines.
        pairs = np.unique(np.concatenate([
            (slot_o * 2 * lines_in) + (slot_o * row_o + at_o) // LINE,
            (slot_m * 2 + 1) * lines_in + (mask_base + slot_m * row_m + at_m) // LINE,
        ]))
        lines.append(pairs % lines_in * LINE)
    return Recording(lines, rewards, slots * (row_o + row_m))


def replay_seconds(buffer: np.ndarray, steps: Sequence[np.ndarray]) -> float:
    """Seconds to store a byte at each offset of each step into ``buffer``."""
    start = time.perf_counter()
    for offsets in steps:
        buffer[offsets] = 1
    return time.perf_counter() - start


def real_seconds(game: str, slots: int, warm: int, steps: int, rewards: float) -> float:
    """Seconds of the recorded steps replayed on a fresh batch; their rewards must sum to ``rewards``."""
    vec = warmed(game, slots, warm)[0]
    total = 0.0
    start = time.perf_counter()
    for _ in range(steps):
        total += float(vec.step(vec.sample_legal_actions())[1].sum())
    seconds = time.perf_counter() - start
    if total != rewards:
        raise AssertionError(f"{game}: the timed steps' rewards sum to {total}, the recorded ones to {rewards}")
    return seconds


def floor_row(game: str, slots: int, warm: int, steps: int, rounds: int, channels_last: bool) -> List[str]:
    """One game's table row (see ``main``)."""
    rec = record(game, slots, warm, steps, channels_last)
    big = np.zeros(rec.buffer_bytes, np.uint8)
    small = np.zeros(L1_BYTES, np.uint8)
    folded = [offsets % L1_BYTES for offsets in rec.steps]
    stores = l1 = real = float("inf")
    for _ in range(rounds):
        stores = min(stores, replay_seconds(big, rec.steps))
        l1 = min(l1, replay_seconds(small, folded))
        real = min(real, real_seconds(game, slots, warm, steps, rec.rewards))
    n = slots * steps
    lines = sum(len(offsets) for offsets in rec.steps) / n
    memory = stores - l1
    # Stores that ran no slower than in L1 (a small batch that the caches hold) bound nothing.
    bound = f"{n / memory / 1e6:.1f}" if memory > 0 else "none"
    return [TITLES[game], f"{lines:.1f}", f"{stores / n * 1e9:.0f}", f"{l1 / n * 1e9:.0f}", f"{real / n * 1e9:.0f}",
            bound, f"{n / real / 1e6:.1f}"]


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slots", type=int, default=1024, help="slots of the batch (default 1024)")
    parser.add_argument("--warm", type=int, default=50, help="untimed steps first (default 50)")
    parser.add_argument("--steps", type=int, default=100, help="steps recorded and timed (default 100)")
    parser.add_argument("--rounds", type=int, default=7, help="rounds; each figure is the fastest (default 7)")
    parser.add_argument("--channels-last", action="store_true",
                        help="count the lines as if each observation's planes were stored side by side")
    parser.add_argument("-k", dest="games", action="append", choices=list(REGISTRY), help="only this game (repeatable)")
    args = parser.parse_args(argv)
    for name in ("slots", "steps", "rounds"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    if args.warm < 0:
        parser.error("--warm must be at least 0")
    if args.slots > MAX_SLOTS:
        parser.error(f"--slots must be at most {MAX_SLOTS}")
    if not patience_engine.OPTIMIZED:
        parser.exit(2, f"store_floor.py: needs an optimised build, this one is {patience_engine.BUILD_TYPE}\n")
    print("| game | lines a slot step | stores (ns) | stores in L1 (ns) | real step (ns) "
          "| bound (M/s) | real (M/s) |")
    print("|---|---|---|---|---|---|---|")
    for game in dict.fromkeys(args.games or REGISTRY):
        try:
            row = floor_row(game, args.slots, args.warm, args.steps, args.rounds, args.channels_last)
        except MemoryError as error:
            parser.exit(2, f"store_floor.py: {error}\n")
        print("| " + " | ".join(row) + " |", flush=True)
    layout = "; observation lines counted channels last" if args.channels_last else ""
    print(f"\n{args.slots} slots, {args.steps} steps after {args.warm}, best of {args.rounds} rounds; "
          f"ns per slot step{layout}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
