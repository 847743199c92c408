"""One hard deal on two threads against one: the time to the verdict of ``solve`` (issue 31).

Each deal of ``HARD_DEALS`` is solved with no limit, as ``patience solve GAME N`` solves it, on one
thread and on ``--threads`` threads (default 2), in interleaved rounds (1, T, 1, T, ...) so that a
change of the machine's load hits both alike, and the table gives the median seconds of each and
their ratio, then the median ratio over the deals and the slowest deal's. Every solve must run to
the end with one thread's status and score, its line replaying in the reference to that score,
so a fault of the threaded search cannot pass as a speed-up. The goals (docs/solver.md "Threads"):
a median ratio of at least 1.6 at two threads, and no deal more than 1.2 times slower.

``HARD_DEALS`` are every deal of 1-1,000 per game that takes 1 to 60 s on one thread with no limit
(docs/solver.md "Threads" lists them and how they were found): ``python bench/solve_threads.py
--scan germaine 1-1000`` solves each deal of the range on one thread, stopping any at
``--scan-nodes`` nodes (default 250,000,000: past 60 s at the solver's speed), and prints the
nodes and seconds of those taking 1 s or more, as JSON lines. Only Germaine has such deals: every
deal of Royal Marriage and Geoffrey in 1-1,000 is settled within a second.

``--deals A-B`` times the hard deals of A-B alone; ``--time-limit S`` solves under a time limit, as
the issue's figures were measured (its phases are then shares of S seconds, so what a search finds
depends on the machine's speed). ``--quick`` solves two short deals once each, to check that the script works
(``bench/test_solve_threads_bench.py`` does). Prints the CPU, the load average before and after,
and a Markdown table; the figures of docs/results.md "Threads" come from ``nice -n 19 python
bench/solve_threads.py`` on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

import patience_engine
from patience_engine import Solution, reference, solve
from patience_engine.games import REGISTRY, TITLES
from patience_engine.limits import parse_deal_range
from threads import cpu_name

HARD_DEALS: Dict[str, Tuple[int, ...]] = {
    "germaine": (
        1, 3, 6, 10, 18, 63, 92, 105, 108, 124, 128, 149, 171, 172, 214, 231, 239, 262, 278, 296,
        309, 313, 314, 319, 332, 335, 336, 341, 355, 373, 377, 405, 410, 414, 416, 427, 453, 482,
        487, 498, 501, 519, 528, 543, 554, 567, 575, 577, 586, 589, 590, 623, 633, 637, 651, 654,
        657, 665, 702, 712, 714, 733, 738, 770, 771, 802, 817, 818, 836, 853, 854, 855, 866, 873,
        896, 957, 963, 976, 984, 989, 991, 996,
    ),
}
"""Per game, the deals of 1-1,000 that take 1 to 60 s on one thread with no limit (``--scan``)."""
QUICK_DEALS: Dict[str, Tuple[int, ...]] = {"germaine": (96, 2)}
"""Short deals of ``--quick``: a perfect 64 within some thousand nodes."""
GOAL_MEDIAN = 1.6
GOAL_WORST = 1 / 1.2


@dataclass
class Timing:
    """One deal's median seconds at one thread and at ``threads``, and its settled (status, score)."""

    game: str
    deal: int
    one: float
    many: float
    verdict: Tuple[str, int]

    @property
    def speedup(self) -> float:
        """One thread's median seconds over ``threads`` threads' (above 1: faster on threads)."""
        return self.one / self.many


def load() -> str:
    """The 1-minute load average, or '?' where the system has none."""
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:
        return "?"


def checked(game: str, deal: int, solution: Solution, verdict: Optional[Tuple[str, int]]) -> Tuple[str, int]:
    """The solution's (status, score), after checking that it ran to the end with verdict (when given) and
    that its line replays in the reference to its score; AssertionError when not."""
    what = f"{TITLES[game]} deal {deal}"
    if not solution.proven:
        raise AssertionError(f"{what}: the search did not run to the end ({solution.status})")
    found = (solution.status, solution.score)
    if verdict is not None and found != verdict:
        raise AssertionError(f"{what}: {found} on several threads, {verdict} on one")
    state = reference.GAMES[game].deal(deal)
    for move in solution.moves:
        state.play(str(move))
    if state.score != solution.score or state.is_won != (solution.status == "won"):
        raise AssertionError(f"{what}: the line does not replay to {found}")
    return found


def deal_timing(game: str, deal: int, threads: int, rounds: int, time_limit: Optional[float] = None) -> Timing:
    """Median seconds to the verdict over rounds of 1 and threads threads taken in turn (each solve under
    time_limit seconds when given), every result checked."""
    seconds: Dict[int, List[float]] = {1: [], threads: []}
    verdict: Optional[Tuple[str, int]] = None
    for _ in range(rounds):
        for count in (1, threads):
            solution = solve(REGISTRY[game].cpp.deal(deal), time_limit=time_limit, num_threads=count)
            verdict = checked(game, deal, solution, verdict)
            seconds[count].append(solution.seconds)
    assert verdict is not None
    return Timing(game, deal, statistics.median(seconds[1]), statistics.median(seconds[threads]), verdict)


def table_head(threads: int) -> str:
    """The head of the Markdown table, then a line a deal (table_line())."""
    return f"| game | deal | verdict | 1 thread (s) | {threads} threads (s) | speed-up |\n|---|---:|---|---:|---:|---:|"


def table_line(r: Timing) -> str:
    """One deal's line of the table under table_head()."""
    return f"| {TITLES[r.game]} | {r.deal} | {r.verdict[0]} {r.verdict[1]} | {r.one:.3g} | {r.many:.3g} | {r.speedup:.2f}x |"


def summary(rows: Sequence[Timing]) -> str:
    """The median and the least speed-up, each against its goal."""
    median = statistics.median(r.speedup for r in rows)
    worst = min(rows, key=lambda r: r.speedup)
    return (f"median speed-up {median:.2f}x (goal {GOAL_MEDIAN}x: {'met' if median >= GOAL_MEDIAN else 'not met'}); "
            f"least {worst.speedup:.2f}x, {TITLES[worst.game]} deal {worst.deal} (goal: no deal more than "
            f"{1 / GOAL_WORST:.1f}x slower: {'met' if worst.speedup >= GOAL_WORST else 'not met'})")


class Stop(KeyboardInterrupt):
    """Raised by ``scan``'s progress callback at its node count: a KeyboardInterrupt, so that ``solve`` hands
    back what it found, but not the user's Ctrl-C, which ends the scan."""


def scan(game: str, deals: range, most_nodes: int) -> None:
    """Print, as JSON lines, the deals of ``deals`` whose one-thread solve with no limit takes 1 s or more
    (those stopped at most_nodes nodes with "stopped": true)."""
    for deal in deals:
        def stop(nodes: int, best_score: int) -> None:
            if nodes > most_nodes:
                raise Stop

        try:
            solution = solve(REGISTRY[game].cpp.deal(deal), progress=stop)
            stopped = False
        except Stop as interrupt:
            solution = interrupt.solution  # type: ignore[attr-defined]
            stopped = True
        if solution.seconds >= 1 or stopped:
            print(json.dumps({"game": game, "deal": deal, "status": solution.status, "score": solution.score,
                              "nodes": solution.nodes, "seconds": round(solution.seconds, 3), "stopped": stopped}),
                  flush=True)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=2, help="threads against one (default 2)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each thread count per deal (default 3)")
    parser.add_argument("--game", action="append", choices=list(HARD_DEALS),
                        help="a game to time (repeatable; default every game with hard deals)")
    parser.add_argument("--quick", action="store_true", help="two short deals, one round: checks, not figures")
    parser.add_argument("--deals", type=parse_deal_range, metavar="A-B",
                        help="only the hard deals of A-B (default: all of them)")
    parser.add_argument("--time-limit", type=float, metavar="S",
                        help="solve under a time limit of S seconds, as issue 31 measured (its phases are then "
                        "shares of S; default: none)")
    parser.add_argument("--scan", nargs=2, metavar=("GAME", "A-B"),
                        help="list the deals of A-B that take 1 s or more on one thread, instead of timing")
    parser.add_argument("--scan-nodes", type=int, default=250_000_000,
                        help="nodes after which --scan stops a deal (default 250,000,000)")
    args = parser.parse_args(argv)
    if args.scan:
        game, deals = args.scan
        if game not in REGISTRY:
            parser.error(f"--scan: no game {game!r}")
        scan(game, parse_deal_range(deals), args.scan_nodes)
        return 0
    if args.threads < 2 or args.rounds < 1:
        parser.error("--threads must be 2 or more and --rounds 1 or more")
    deals = QUICK_DEALS if args.quick else HARD_DEALS
    games = args.game or list(deals)
    rounds = 1 if args.quick else args.rounds
    print(f"{cpu_name()}, {patience_engine.usable_cores()} usable cores, build {patience_engine.BUILD_TYPE}, "
          f"load average {load()} before", flush=True)
    start = time.perf_counter()
    chosen = [(game, deal) for game in games for deal in deals[game] if args.deals is None or deal in args.deals]
    print(table_head(args.threads), flush=True)
    rows = []
    for game, deal in chosen:
        rows.append(deal_timing(game, deal, args.threads, rounds, args.time_limit))
        print(table_line(rows[-1]), flush=True)
    print(summary(rows))
    print(f"{rounds} rounds per deal and thread count; {time.perf_counter() - start:.0f} s in all, load average "
          f"{load()} after")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
