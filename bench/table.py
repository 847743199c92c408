"""Print the performance tables of docs/results.md (Markdown): nodes per second and instructions per node.

Run ``python bench/table.py`` with an optimised build installed (a minute or
two on an idle machine, then some minutes under valgrind);
``python bench/table.py --write docs/results.md`` also puts the tables in
place of the lines between the file's ``<!-- bench/table.py -->`` and
``<!-- end bench/table.py -->`` lines. It times the workloads of
``bench/test_bench.py``, asserting each count, and prints millions of nodes
(perft leaves) per second for: C++ perft with bulk counting, the C++
make/unmake walk, the reference's perft, a loop written in Python over the
C++ API, the same loop over the reference, and the solver (positions
expanded per second) under a node limit; under the table, the deals
settled per second by the default solve of each game with a survey benchmark. The two ratios are measured
in the same run on the same positions and depths: C++ bulk perft against the
reference's perft (their rounds taking turns), and the Python loop over C++
against the same loop over the reference. Each figure is the best of several
rounds, so other load on the machine inflates it less.

Then it counts the instructions per node of every benchmark path with
``bench/instructions.py`` (``valgrind --tool=callgrind``): the
machine-independent figure, which load does not disturb. Under the tables it
prints the date, the machine (CPU model, logical cores, Python version) and
the load average before and after timing, with a warning when the load
exceeded the logical cores, so the timings were disturbed.

Exit code 2 on a debug build, whose timings would mislead, without valgrind
on PATH, and on a file to write without the two marker lines.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import sys
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import patience_engine
from instructions import VALGRIND_MISSING, CountError, instructions_per_node, markdown_table
from patience_engine import reference
from patience_engine.games import TITLES
from test_bench import (
    CPP_MAKE_UNMAKE,
    CPP_PERFT_BULK,
    PYTHON_LOOP,
    REFERENCE_PERFT,
    SOLVER,
    SURVEY,
    Workload,
    python_walk,
    solve_all,
    survey_verdicts,
)

# The lines around the table in the file --write rewrites; the table goes between them.
BEGIN_MARKER = "<!-- bench/table.py -->"
END_MARKER = "<!-- end bench/table.py -->"
# Rounds per measurement; each figure is the fastest round.
ROUNDS = {"cpp": 5, "reference": 3, "loop_cpp": 10, "loop_reference": 3, "solver": 3}
# The C++ engine walks the reference's positions in a millisecond or less, so
# more rounds are needed for a steady minimum (split evenly between the
# reference's rounds, see same_run_rates).
CPP_ON_REFERENCE_ROUNDS = 60


def best_seconds(fn: Callable[[], int], expected: int, rounds: int) -> float:
    """Fastest of ``rounds`` calls of ``fn`` in seconds, after one warm-up; each call must return ``expected``."""
    best = float("inf")
    for i in range(rounds + 1):
        start = time.perf_counter()
        nodes = fn()
        if i:  # round 0 warms caches up
            best = min(best, time.perf_counter() - start)
        if nodes != expected:
            raise AssertionError(f"counted {nodes} nodes, expected {expected}")
    return best


def rate(workloads: List[Workload], game: str, timer: Callable[[Workload], float]) -> float:
    """Nodes per second of one game's workloads: their leaves over the sum of their best times."""
    mine = [w for w in workloads if w[0] == game]
    return sum(w[3] for w in mine) / sum(timer(w) for w in mine)


def cpp_perft(bulk: bool, rounds: int) -> Callable[[Workload], float]:
    """A timer of C++ perft on a workload (with or without bulk counting)."""

    def timer(w: Workload) -> float:
        state = patience_engine.GAMES[w[0]].deal(w[1])
        return best_seconds(lambda: patience_engine.perft(state, w[2], bulk=bulk), w[3], rounds)

    return timer


def reference_perft(rounds: int) -> Callable[[Workload], float]:
    """A timer of the reference's perft on a workload."""

    def timer(w: Workload) -> float:
        state = reference.GAMES[w[0]].deal(w[1])
        return best_seconds(lambda: reference.perft(state, w[2]), w[3], rounds)

    return timer


def same_run_rates(game: str) -> Tuple[float, float]:
    """Nodes per second of the reference's perft and of C++ bulk perft on the game's
    ``REFERENCE_PERFT`` workloads. The two sides take turns, one reference round then a share of
    the C++ rounds, so a slow spell of the machine weighs on both alike."""
    reference_timer = reference_perft(1)
    cpp_timer = cpp_perft(True, CPP_ON_REFERENCE_ROUNDS // ROUNDS["reference"])
    reference_best: Dict[Workload, float] = {}
    cpp_best: Dict[Workload, float] = {}
    mine = [w for w in REFERENCE_PERFT if w[0] == game]
    for _ in range(ROUNDS["reference"]):
        for w in mine:
            reference_best[w] = min(reference_best.get(w, float("inf")), reference_timer(w))
            cpp_best[w] = min(cpp_best.get(w, float("inf")), cpp_timer(w))
    leaves = sum(w[3] for w in mine)
    return leaves / sum(reference_best.values()), leaves / sum(cpp_best.values())


def loop(games: Dict[str, type], rounds: int) -> Callable[[Workload], float]:
    """A timer of the Python-written perft loop over one implementation's classes."""

    def timer(w: Workload) -> float:
        state = games[w[0]].deal(w[1])
        return best_seconds(lambda: python_walk(state, w[2]), w[3], rounds)

    return timer


def solver_rate(game: str) -> float:
    """Positions the solver expands per second on the game's ``SOLVER`` deals (best round)."""
    (_, deals, node_limit, pruning, expected), = [w for w in SOLVER if w[0] == game]
    nodes = sum(n for _, n in expected)
    return nodes / best_seconds(lambda: solve_nodes(game, deals, node_limit, pruning, expected), nodes, ROUNDS["solver"])


def solve_nodes(game: str, deals: Tuple[int, ...], node_limit: int, pruning: bool,
                expected: List[Tuple[str, int]]) -> int:
    """Solve the deals; returns the positions expanded, after checking every (status, nodes) is ``expected``."""
    results = solve_all(game, deals, node_limit, pruning)
    if results != expected:
        raise AssertionError(f"solver results {results}, expected {expected}")
    return sum(n for _, n in results)


def survey_deals_per_second(game: str, deals: int, expected: Tuple[int, int]) -> float:
    """Deals of ``game`` settled per second by the default solve (best round), verdicts checked."""
    def run() -> int:
        if survey_verdicts(game, deals) != expected:
            raise AssertionError(f"{TITLES[game]} survey verdicts changed")
        return deals

    return deals / best_seconds(run, deals, ROUNDS["solver"])


def millions(nodes_per_second: float) -> str:
    return f"{nodes_per_second / 1e6:,.3g}" if nodes_per_second < 1e7 else f"{nodes_per_second / 1e6:,.0f}"


def cpu_model() -> str:
    """The CPU model name from /proc/cpuinfo, else what ``platform`` knows."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def timing_table() -> str:
    """Time every game and path; returns the Markdown table of nodes per second with its notes."""
    header = [
        "game",
        "C++ bulk perft",
        "C++ make/unmake",
        "reference perft",
        "C++ / reference",
        "Python loop over C++",
        "Python loop over reference",
        "loop C++ / loop reference",
        "solver",
    ]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for game, title in TITLES.items():
        print(f"measuring {title} ...", file=sys.stderr, flush=True)
        bulk = rate(CPP_PERFT_BULK, game, cpp_perft(True, ROUNDS["cpp"]))
        make_unmake = rate(CPP_MAKE_UNMAKE, game, cpp_perft(False, ROUNDS["cpp"]))
        ref, cpp_same = same_run_rates(game)
        loop_cpp = rate(PYTHON_LOOP, game, loop(patience_engine.GAMES, ROUNDS["loop_cpp"]))
        loop_ref = rate(PYTHON_LOOP, game, loop(reference.GAMES, ROUNDS["loop_reference"]))
        cells = [title, millions(bulk), millions(make_unmake), millions(ref), f"{cpp_same / ref:,.0f}x",
                 millions(loop_cpp), millions(loop_ref), f"{loop_cpp / loop_ref:,.1f}x", millions(solver_rate(game))]
        lines.append("| " + " | ".join(cells) + " |")

    def positions(workloads: List[Workload]) -> str:
        return ", ".join(f"{g} deal {deal} depth {depth}" for g, deal, depth, _ in workloads)

    lines += [
        "",
        "Millions of nodes (perft leaves) per second, best of several rounds. Positions: "
        f"C++ bulk perft {positions(CPP_PERFT_BULK)}; make/unmake {positions(CPP_MAKE_UNMAKE)}; "
        f"reference perft and C++ / reference {positions(REFERENCE_PERFT)}; Python loops {positions(PYTHON_LOOP)}; "
        "solver (positions expanded per second) "
        + "; ".join(f"{g} deals {', '.join(map(str, deals))} node limit {limit:,}{'' if pruning else ' without pruning'}"
                    for g, deals, limit, pruning, _ in SOLVER)
        + ".",
        *(f"\n{TITLES[game]} solved as a survey does (default solve, pruning on): "
          f"{survey_deals_per_second(game, deals, expected):,.0f} deals per second over deals 1-{deals}, "
          "every one settled." for game, deals, expected in SURVEY),
    ]
    return "\n".join(lines)


def load_average() -> Optional[float]:
    """The machine's load average over the last minute, or None where the system does not say."""
    try:
        return os.getloadavg()[0]
    except OSError:
        return None


def machine_line(started: str, loads: Sequence[Optional[float]]) -> str:
    """The machine and the build, when timing ``started``, and ``loads`` (the load average before and after
    timing): a warning when either exceeded the logical cores, as other processes then took turns on them."""
    cores = os.cpu_count() or 1
    line = (f"Machine: {cpu_model()}, {cores} logical cores, {platform.python_implementation()} "
            f"{platform.python_version()}, {platform.system()} {platform.machine()}; "
            f"patience-engine {patience_engine.__version__} ({patience_engine.BUILD_TYPE} build); "
            f"timed from {started}.")
    known = [load for load in loads if load is not None]
    if len(known) == len(loads):
        line += f" Load average {' and '.join(f'{load:.1f}' for load in known)} before and after timing"
        if max(known) > cores:
            line += (f": above the {cores} cores, so other processes shared them, and the speeds and even the "
                     "ratios are disturbed; the instruction counts are not")
        line += "."
    return line


def tables() -> str:
    """Measure every game and path; returns the timing table, the instructions table and the machine line.

    Raises CountError when counting the instructions fails.
    """
    started, before = time.strftime("%Y-%m-%d %H:%M %Z"), load_average()
    timings = timing_table()
    after = load_average()
    print("counting instructions under callgrind ...", file=sys.stderr, flush=True)
    counts = markdown_table(instructions_per_node(), TITLES)
    return "\n".join([timings, "", counts, "", machine_line(started, [before, after])])


def replace_between_markers(document: str, table_text: str) -> str:
    """``document`` with the lines between ``BEGIN_MARKER`` and ``END_MARKER`` replaced by ``table_text``.

    Raises ValueError when either marker line is missing or the end comes first.
    """
    lines = document.split("\n")
    try:
        begin = lines.index(BEGIN_MARKER)
        end = lines.index(END_MARKER, begin + 1)
    except ValueError:
        raise ValueError(f"needs a line {BEGIN_MARKER!r} and, below it, a line {END_MARKER!r}") from None
    return "\n".join(lines[: begin + 1] + [table_text] + lines[end:])


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Print the tables and, with ``--write FILE``, put them between FILE's marker lines; returns
    the exit code (2 on a debug build, without valgrind, or on a file without the markers)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--write", metavar="FILE", type=Path,
                        help=f"also replace the lines between {BEGIN_MARKER} and {END_MARKER} in FILE")
    args = parser.parse_args(argv)
    if not patience_engine.OPTIMIZED:
        print(f"table.py needs an optimised build, this one is {patience_engine.BUILD_TYPE}", file=sys.stderr)
        return 2
    if shutil.which("valgrind") is None:
        print(f"table.py: {VALGRIND_MISSING}", file=sys.stderr)
        return 2
    if args.write is not None:
        # Checked before the minutes of measuring, so a wrong file fails at once.
        try:
            replace_between_markers(args.write.read_text(encoding="utf-8"), "")
        except (OSError, ValueError) as error:
            print(f"table.py: {args.write}: {error}", file=sys.stderr)
            return 2
    try:
        text = tables()
    except CountError as error:
        print(f"table.py: {error}", file=sys.stderr)
        return 2
    print(text)
    if args.write is not None:
        args.write.write_text(replace_between_markers(args.write.read_text(encoding="utf-8"), text), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
