"""Threads against one thread: the speed-up of ``VectorGame``, ``playouts`` and ``perft`` (issue 30).

For each game of the build, the calls that take ``num_threads`` run at 1 thread and at ``--threads``
threads (default 2), in interleaved rounds (1, T, 1, T, ...) so that a change of the machine's load
hits both alike, and the table gives the median seconds of each and their ratio:

- ``vector 8192`` and ``vector 1024``: 50 and 200 calls of
  ``step(sample_legal_actions())`` on a batch of that many slots, after an untimed
  ``reset(seed=1)``; each thread count steps a ``VectorGame`` of its own, made once (its pool
  starts with it), as a training loop does;
- ``playouts``: ``playouts(deal, n, seed=7)`` from the game's ``bench.timed.playouts`` deal, ``n``
  its ``n`` doubled until one call takes 0.2 s or more on one thread;
- ``perft``: the game's ``bench.timed.threaded_perft`` (2 s or more on one thread; deal, depth and
  count in ``python/patience_engine/registry.py``);
- ``perft ..., T processes``: the same perft on one thread in T processes at once against one
  alone, the speed-up being T times the one's seconds over the slowest process's: what the machine
  itself allows work that shares nothing (the cores share caches, memory and the clock's boost), a
  ceiling for the threaded perft's.

Every round's result must equal the one-thread result (the batch's rewards summed and its last
observations, the playouts' scores, the perft count), and the perft count the registry's, so a fault
of the threaded code cannot pass as a speed-up. ``--quick`` runs small sizes once, to check that
the script works (``bench/test_threads_bench.py`` does). Prints a Markdown table and the CPU; the
figures of docs/results.md "Threads" come from ``python bench/threads.py`` (some 5 minutes).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

import patience_engine
from patience_engine import VectorGame, perft, playouts
from patience_engine.games import REGISTRY, TITLES

PLAYOUT_SEED = 7
PLAYOUT_SECONDS = 0.2  # one-thread length of a playouts call, so that the hand-off is not what is timed


@dataclass
class Timing:
    """One workload's median seconds at one thread and at ``threads``."""

    game: str
    workload: str
    one: float
    many: float
    copies: int = 1  # calls that ran at once in ``many`` (processes); 1 for one call on threads

    @property
    def speedup(self) -> float:
        return self.copies * self.one / self.many


def cpu_name() -> str:
    """The CPU's model name from /proc/cpuinfo (Linux), else 'unknown CPU'."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


Timed = Callable[[], Tuple[float, Any]]
"""A call that times itself: (seconds of its timed part, its result)."""


def timed(call: Callable[[], Any]) -> Timed:
    """call, timed whole."""
    def run() -> Tuple[float, Any]:
        start = time.perf_counter()
        result = call()
        return time.perf_counter() - start, result
    return run


def interleaved(calls: Dict[int, Timed], rounds: int) -> Tuple[Dict[int, float], Dict[int, List[Any]]]:
    """Median seconds of each call (by thread count) over rounds taken in turn, and each round's result."""
    seconds: Dict[int, List[float]] = {t: [] for t in calls}
    results: Dict[int, List[Any]] = {t: [] for t in calls}
    for _ in range(rounds):
        for threads, call in calls.items():
            spent, result = call()
            seconds[threads].append(spent)
            results[threads].append(result)
    return {t: statistics.median(s) for t, s in seconds.items()}, results


def check_same(results: Dict[int, List[Any]], what: str, expected: Optional[Any] = None) -> None:
    """Every round's result equals the first one-thread round's (and expected when given)."""
    want = results[1][0] if expected is None else expected
    for threads, values in results.items():
        for value in values:
            if not _equal(value, want):
                raise AssertionError(f"{what} on {threads} threads: {value!r}, expected {want!r}")


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray):
        return bool(np.array_equal(a, b))
    return bool(a == b)


def vector_timing(game: str, slots: int, steps: int, threads: int, rounds: int) -> Timing:
    def stepping(batch: VectorGame) -> Timed:
        def run() -> Tuple[float, Any]:
            batch.reset(seed=1)  # untimed: only the steps are
            rewards = 0.0
            start = time.perf_counter()
            for _ in range(steps):
                obs, reward, _, _, _ = batch.step(batch.sample_legal_actions())
                rewards += float(reward.sum())
            return time.perf_counter() - start, (rewards, np.array(obs))
        return run

    medians, results = interleaved({t: stepping(VectorGame(game, slots, num_threads=t)) for t in (1, threads)},
                                   rounds)
    check_same(results, f"{game} vector {slots}")
    return Timing(game, f"vector {slots}", medians[1], medians[threads])


def playouts_timing(game: str, threads: int, rounds: int, quick: bool) -> Timing:
    deal, n = REGISTRY[game].bench.timed.playouts
    start = REGISTRY[game].cpp.deal(deal)
    first = playouts(start, n, seed=PLAYOUT_SEED)
    while not quick:
        began = time.perf_counter()
        playouts(start, n, seed=PLAYOUT_SEED)
        if time.perf_counter() - began >= PLAYOUT_SECONDS:
            break
        n *= 2
    medians, results = interleaved(
        {t: timed(partial(playouts, start, n, seed=PLAYOUT_SEED, num_threads=t)) for t in (1, threads)}, rounds)
    check_same(results, f"{game} playouts")
    # Playout i draws from its own stream: the first ones are the registry's n.
    check_same({1: [results[1][0][:len(first)]]}, f"{game} playouts prefix", first)
    return Timing(game, f"playouts {n:,}", medians[1], medians[threads])


def perft_timing(game: str, threads: int, rounds: int, quick: bool) -> Timing:
    deal, depth, leaves = REGISTRY[game].bench.timed.threaded_perft
    if quick:
        deal, depth, leaves = REGISTRY[game].bench.timed.perft_bulk[0]
    start = REGISTRY[game].cpp.deal(deal)
    medians, results = interleaved({t: timed(partial(perft, start, depth, num_threads=t)) for t in (1, threads)},
                                   rounds)
    check_same(results, f"{game} perft", leaves)
    return Timing(game, f"perft deal {deal} depth {depth}", medians[1], medians[threads])


# A child process's perft on one thread: prints its seconds and the count.
_PERFT_CHILD = ("import sys, time, patience_engine as pe; start = pe.GAMES[sys.argv[1]].deal(int(sys.argv[2])); "
                "began = time.perf_counter(); n = pe.perft(start, int(sys.argv[3])); "
                "print(time.perf_counter() - began, n)")


def perft_processes_timing(game: str, processes: int, rounds: int, quick: bool) -> Timing:
    deal, depth, leaves = REGISTRY[game].bench.timed.perft_bulk[0] if quick else REGISTRY[game].bench.timed.threaded_perft

    def at_once(copies: int) -> Timed:
        def run() -> Tuple[float, Any]:
            children = [subprocess.Popen([sys.executable, "-c", _PERFT_CHILD, game, str(deal), str(depth)],
                                         stdout=subprocess.PIPE, text=True) for _ in range(copies)]
            outputs = [child.communicate()[0].split() for child in children]
            if any(child.returncode for child in children):
                raise AssertionError(f"{game} perft child failed: {[c.returncode for c in children]}")
            return max(float(seconds) for seconds, _ in outputs), tuple(int(n) for _, n in outputs)
        return run

    medians, results = interleaved({1: at_once(1), processes: at_once(processes)}, rounds)
    for copies, values in results.items():
        check_same({1: [v for value in values for v in value]}, f"{game} perft in {copies} processes", leaves)
    return Timing(game, f"perft deal {deal} depth {depth}, {processes} processes", medians[1], medians[processes],
                  processes)


def timings(games: Sequence[str], threads: int, quick: bool) -> List[Timing]:
    """Every workload of every game, at 1 thread and at threads."""
    out: List[Timing] = []
    for game in games:
        if quick:
            out.append(vector_timing(game, 200, 5, threads, 1))
        else:
            out.append(vector_timing(game, 8192, 50, threads, 9))
            out.append(vector_timing(game, 1024, 200, threads, 9))
        out.append(playouts_timing(game, threads, 1 if quick else 9, quick))
        out.append(perft_timing(game, threads, 1 if quick else 3, quick))
        out.append(perft_processes_timing(game, threads, 1 if quick else 3, quick))
    return out


def markdown(rows: Sequence[Timing], threads: int) -> str:
    """The table: game, workload, median seconds at 1 and at threads threads (or processes), and the speed-up."""
    lines = [f"| game | workload | 1 thread (s) | {threads} threads (s) | speed-up |", "|---|---|---:|---:|---:|"]
    lines += [f"| {TITLES[r.game]} | {r.workload} | {r.one:.4g} | {r.many:.4g} | {r.speedup:.2f}x |" for r in rows]
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=2, help="threads against one (default 2)")
    parser.add_argument("--game", action="append", choices=list(REGISTRY),
                        help="a game to time (repeatable; default every game of the build)")
    parser.add_argument("--quick", action="store_true", help="small sizes, one round: checks, not figures")
    args = parser.parse_args(argv)
    if args.threads < 2:
        parser.error("--threads must be 2 or more")
    games = args.game or list(REGISTRY)
    print(f"{cpu_name()}, {patience_engine.usable_cores()} usable cores, build {patience_engine.BUILD_TYPE}")
    print(markdown(timings(games, args.threads, args.quick), args.threads))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
