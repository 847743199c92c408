"""Instructions per node of the benchmarks' workloads, counted by ``valgrind --tool=callgrind``.

Counts of the same build repeat to within some thousands of instructions (11,000 seen),
under 0.02% of a workload, however loaded the machine is (what still varies is
how often a C++ walk polls for Ctrl-C, which it does by the wall clock, and
how the GIL passes between threads), so they show a slowdown of 1% that
timings on a shared machine cannot. Each workload of ``bench/test_bench.py``
has a smaller twin here (under callgrind code runs some 50 times slower),
which asserts its result as the timed one does: a perft count, or the solver's (status, score, nodes)
per deal. Workloads drive the engine only through the public API, so one
script counts any revision's build (it imports nothing else from bench/). The workloads are each
game's ``bench.counted`` in ``python/patience_engine/registry.py``, read from this script's source
tree by path, never from the installed package, which may be an older revision's.

``python bench/instructions.py`` counts every workload on the installed build
and prints instructions per node; ``bench/compare.py --instructions``
compares two builds with it. ``instructions_per_node()`` gives
``bench/table.py`` the figures for docs/results.md.

A node is a perft leaf for perft, a position expanded for the solver, a move
played (``play``) for the Python loops (the perft walk by ``Move`` objects and
the random loop by int actions), a slot step for the batched stepping
(``VectorGame.step``), a move made for ``playouts``, and a deal for a survey.

How only the workload is counted: one child process under callgrind imports
and sets up in its main thread, then runs each workload alone in a thread of
its own, and callgrind (``--separate-threads=yes``) writes one count per
thread. This counts none
of interpreter start-up, imports, set-up and exit, needs no symbol name
(``--toggle-collect`` would tie the count to a C++ or CPython symbol, which
renames, inlining and stripped interpreters break, and cannot bracket a loop
written in Python) and runs each workload once (subtracting a run with one
repetition from a run with two costs three workloads and two start-ups).
Counts depend on the set run together (a Python function's specialisation
carries over from one workload to the next), so compare a set with itself.
"""

from __future__ import annotations

import _thread
import argparse
import functools
import gc
import importlib.util
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

VALGRIND_MISSING = ("valgrind is not on PATH: instruction counts need valgrind --tool=callgrind "
                    "(Debian: apt-get install valgrind)")

# The seed of the playouts workloads (docs/results.md's figures use it too).
PLAYOUT_SEED = 7

Expected = Any
"""A perft count (int), the solver's [(status, score, nodes)] per deal, the survey's (won, lost), the
batched steps' or playouts' score sum, or the int loop's (last deal, moves played, last score)."""


@dataclass(frozen=True)
class Workload:
    """One counted workload: ``path`` is the benchmark path (a column of bench/table.py's table).

    ``deals`` holds one deal for perft, the loops and the playouts, the seed of
    the batched stepping; ``size`` is the perft depth, the solver's node
    limit, the number of batched steps, of playouts, or of the int loop's
    draws; ``pruning`` is the solver's.
    ``quick`` marks the set CI runs; ``module`` is the game's registry module (names a survey).
    """

    path: str
    game: str
    module: str
    deals: Tuple[int, ...]
    size: int
    expected: Expected
    quick: bool = False
    pruning: bool = True

    @property
    def name(self) -> str:
        """The workload's name, e.g. ``cpp_perft_bulk[germaine-deal1-depth5]`` (no spaces, no colon)."""
        if self.path == "solver":
            return f"solver[{self.game}-deals{'-'.join(map(str, self.deals))}-limit{self.size}]"
        if self.path == "vector_step":
            return f"vector_step[{self.game}-seed{self.deals[0]}-steps{self.size}]"
        if self.path == "playouts":
            return f"playouts[{self.game}-deal{self.deals[0]}-n{self.size}-seed{PLAYOUT_SEED}]"
        if self.path == "python_int_loop":
            return f"python_int_loop[{self.game}-deal{self.deals[0]}-draws{self.size}]"
        if self.path == "survey":
            return f"{self.module}_survey[deals1-{self.size}]"
        return f"{self.path}[{self.game}-deal{self.deals[0]}-depth{self.size}]"


PER = {
    "cpp_perft_bulk": ("C++ bulk perft", "leaf"),
    "cpp_make_unmake": ("C++ make/unmake", "leaf"),
    "reference_perft": ("reference perft", "leaf"),
    "python_loop_over_cpp": ("Python loop over C++", "step"),
    "python_loop_over_reference": ("Python loop over reference", "step"),
    "solver": ("solver", "position"),
    "vector_step": ("VectorGame step", "slot step"),
    "playouts": ("playouts", "move"),
    "python_int_loop": ("Python int-action loop", "step"),
    "survey": ("survey", "deal"),
}
"""Per benchmark path: its title, and what one node is (see the module docstring)."""


def source_registry() -> ModuleType:
    """``python/patience_engine/registry.py`` of the source tree this script lies in, loaded by path.

    The registry imports the standard library alone, so it loads whatever build is installed (the
    workloads of another revision's build are this revision's).
    """
    path = Path(__file__).resolve().parent.parent / "python" / "patience_engine" / "registry.py"
    spec = importlib.util.spec_from_file_location("_patience_engine_source_registry", path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


def registry_workloads() -> List[Workload]:
    """Every game's ``bench.counted`` as Workloads, path by path in ``PER``'s order, then game by game:
    counts depend on the set run together and its order (see the module docstring)."""
    games = source_registry().GAMES.values()
    return [Workload(path, info.name, info.module, deals, size, expected, quick, pruning)
            for path in PER for info in games
            for (row_path, deals, size, expected, quick, pruning) in info.bench.counted if row_path == path]


@functools.lru_cache(maxsize=None)
def workloads() -> Tuple[Workload, ...]:
    """Every workload: the same games, deals and paths as bench/test_bench.py, at depths and limits that
    callgrind counts in seconds (10^6-10^9 instructions; a count repeats to within a few thousand).

    Perft counts agree with and without bulk counting. No twin of C++ perft on the reference's
    positions: the reference walks shallower here than when timed, so it would be C++ bulk perft at
    other depths. Read when first asked for, not on import: the registry asks the installed build
    which optional games it has, which imports it, and a script that only says valgrind is missing
    must not need a build that runs (one built with the sanitizers, say).
    """
    return tuple(registry_workloads())


def by_name(name: str) -> Workload:
    """The workload named ``name``; KeyError for another name."""
    return {w.name: w for w in workloads()}[name]


# As bench/test_bench.py's: solver node counts depend on the table size.
SOLVER_TABLE_BYTES = 1 << 24
VECTOR_SLOTS = 64


def python_walk(state: Any, depth: int) -> int:
    """Perft written in Python over the public API (``legal_moves``, ``play``, ``undo``): the leaves at ``depth``.

    Works on either implementation's positions and leaves ``state`` as it found it. It lives here,
    not in test_bench.py, because this script must run on any revision's build and test_bench.py
    imports modules an older build lacks; test_bench.py imports it from here.
    """
    if depth == 0:
        return 1
    total = 0
    for move in state.legal_moves():
        state.play(move)
        total += python_walk(state, depth - 1)
        state.undo()
    return total


# The results of the workloads that draw random numbers as a build from before per-slot random
# streams (docs/rl.md "Random streams") gives them: one generator per batch and per playouts call.
# bench/compare.py counts both sides of a change with one revision's script, so a base from before
# them must pass its own check for its count to be compared.
ONE_STREAM_RESULTS: Dict[str, Expected] = {
    "vector_step[royal-marriage-seed1-steps50]": 4623,
    "vector_step[germaine-seed1-steps50]": 1546,
    "vector_step[geoffrey-seed1-steps50]": 493,
    "vector_step[the-wish-seed1-steps50]": 5968,
    "playouts[royal-marriage-deal1-n400-seed7]": 17092,
    "playouts[germaine-deal1-n400-seed7]": 6765,
    "playouts[geoffrey-deal2-n400-seed7]": 20572,
    "playouts[the-wish-deal2-n400-seed7]": 9344,
}


def per_slot_streams() -> bool:
    """Whether the installed build draws from a stream per slot and per playout (docs/rl.md "Random streams"),
    as the reference of the same build says."""
    from patience_engine.reference import _cards

    return hasattr(_cards, "stream_seed")


def replayed_playouts(start: Any, n: int, seed: int) -> Tuple[List[int], int]:
    """``playouts(start, n, seed=seed)`` replayed through the single-position API: (the scores, the moves made).

    Follows docs/rl.md "Batches: `VectorGame` and `playouts`": game k draws from stream k of ``seed`` (one
    SplitMix64(``seed``) for all games on a build from before per-slot streams), each move
    ``legal[draw % len(legal)]`` of the ascending legal actions, at most ``DEFAULT_MAX_MOVES`` a game.
    """
    from patience_engine.reference import _cards

    streams = per_slot_streams()
    rng = _cards.SplitMix64(seed)
    scores, moves = [], 0
    for k in range(n):
        if streams:
            rng = _cards.SplitMix64(_cards.stream_seed(seed, k))  # type: ignore[attr-defined]
        state = start.copy()
        for _ in range(start.DEFAULT_MAX_MOVES):
            legal = state.legal_actions()
            if not legal:
                break
            state.play(legal[rng.next() % len(legal)])
            moves += 1
        scores.append(state.score)
    return scores, moves


def random_loop(cls: Any, draws: Sequence[int], by_int: bool,
                trail: Optional[List[int]] = None) -> Tuple[Any, int, int]:
    """Random play from deal 0 on, a new deal when a game ends or reaches its move limit: (the last
    position, its deal number, the moves played).

    One draw per step picks ``legal[draw % len(legal)]``, by int actions (``legal_actions()``) or
    by Move objects (``legal_moves()``, in action order: the same games); a draw that finds the
    game over starts the next deal instead. ``trail`` gets each finished game's final Zobrist key,
    so that a check sees every game, not only the last.
    """
    state, deal, played, moves, limit = cls.deal(0), 0, 0, 0, cls.DEFAULT_MAX_MOVES
    for r in draws:
        legal = state.legal_actions() if by_int else state.legal_moves()
        if not legal or played == limit:
            if trail is not None:
                trail.append(state.hash)
            deal += 1
            state, played = cls.deal(deal), 0
            continue
        state.play(legal[r % len(legal)])
        played += 1
        moves += 1
    return state, deal, moves


def loop_draws(game: str, n: int) -> List[int]:
    """The ``n`` draws of ``random_loop`` for ``game`` (30-bit ints, seeded by the game's id)."""
    rng = random.Random(game)
    return [rng.getrandbits(30) for _ in range(n)]


def prepare(w: Workload) -> Tuple[Callable[[], Any], int]:
    """Set ``w`` up: returns (the job to count, which returns ``w.expected`` when right; the nodes it makes).

    Everything before the job (imports, deals, the step count of a loop) stays out of the count.
    """
    import patience_engine
    from patience_engine import reference

    engine = w.path not in ("reference_perft", "python_loop_over_reference")
    games = patience_engine.GAMES if engine else reference.GAMES
    if w.path == "solver":
        states = [games[w.game].deal(deal) for deal in w.deals]

        def solve_all() -> List[Tuple[str, int, int]]:
            solutions = [patience_engine.solve(s, node_limit=w.size, table_bytes=SOLVER_TABLE_BYTES,
                                               pruning=w.pruning) for s in states]
            return [(s.status, s.score, s.nodes) for s in solutions]

        return solve_all, sum(nodes for _, _, nodes in w.expected)
    if w.path == "vector_step":
        vector = patience_engine.VectorGame(w.game, VECTOR_SLOTS)

        def step_all() -> int:
            vector.reset(seed=w.deals[0])
            total = 0
            for _ in range(w.size):
                total += int(vector.step(vector.sample_legal_actions())[1].sum())
            return total

        return step_all, VECTOR_SLOTS * w.size
    if w.path == "playouts":
        start = games[w.game].deal(w.deals[0])
        # The moves are counted outside the job, by the same games played one move per call; the
        # job gives the scores' sum only when every game's score is the replayed one.
        replayed, moves = replayed_playouts(start, w.size, PLAYOUT_SEED)
        patience_engine.playouts(start, 1, seed=PLAYOUT_SEED)  # numpy's import and set-up, uncounted

        def play_out() -> Union[int, str]:
            scores = patience_engine.playouts(start, w.size, seed=PLAYOUT_SEED).tolist()
            return sum(scores) if scores == replayed else "scores other than the games replayed one move at a time"

        return play_out, moves
    if w.path == "python_int_loop":
        cls, draws = games[w.game], loop_draws(w.game, w.size)
        moves = random_loop(cls, draws, True)[2]

        def int_loop() -> Tuple[int, int, int]:
            state, deal, played = random_loop(cls, draws, True)
            return deal, played, state.score

        return int_loop, moves
    if w.path == "survey":
        deals = [games[w.game].deal(n) for n in range(1, w.size + 1)]

        def survey() -> Tuple[int, int]:
            statuses = [patience_engine.solve(d).status for d in deals]
            return statuses.count("won"), statuses.count("lost")

        return survey, w.size
    state = games[w.game].deal(w.deals[0])
    if w.path in ("python_loop_over_cpp", "python_loop_over_reference"):
        # Every position of depth 1..size below the root is entered by one play().
        engine_state = patience_engine.GAMES[w.game].deal(w.deals[0])
        steps = sum(patience_engine.perft(engine_state, d) for d in range(1, w.size + 1))
        return (lambda: python_walk(state, w.size)), steps
    if w.path == "reference_perft":
        return (lambda: reference.perft(state, w.size)), w.expected
    bulk = w.path != "cpp_make_unmake"
    return (lambda: patience_engine.perft(state, w.size, bulk=bulk)), w.expected


def check(w: Workload, result: Any) -> None:
    """Raise AssertionError unless ``result`` is what ``w``'s job must return."""
    expected = w.expected if per_slot_streams() else ONE_STREAM_RESULTS.get(w.name, w.expected)
    if isinstance(expected, list):  # the solver's per-deal tuples, written as tuples or lists
        result, expected = [tuple(r) for r in result], [tuple(e) for e in expected]
    if result != expected:
        raise AssertionError(f"{w.name}: got {result!r}, expected {expected!r}")


def run_children(names: Sequence[str]) -> None:
    """Run workloads one after another, each alone in a thread of its own; print one JSON line each.

    Each line is ``{"name", "nodes"}`` or ``{"name", "error"}``. Set-up runs in
    the main thread, only the job in the counted one. Every thread stays
    alive (blocked, so counting nothing) until all have run, so valgrind gives
    thread k + 2 to workload k and reuses no thread id.

    The threads are ``_thread``'s and the hand-overs its locks, not ``threading``'s: the two
    threads then run no Python code in common. Code shared by both (``Event.set``, ``Condition``)
    is quickened and specialised by whichever thread reaches it first, which the scheduler
    decides: some thousands of instructions landing in one count or another.
    """
    # No forced GIL hand-over (its timing is the wall clock's): a thread waiting for the GIL gets it
    # only when the holder blocks, so each workload runs through without a switch.
    sys.setswitchinterval(3600)
    threads: List[Tuple[Any, Any]] = []  # per workload: (its hold lock, its exit lock)
    for name in names:
        line: Dict[str, Any] = {"name": name}
        finished, hold, gone = (_thread.allocate_lock() for _ in range(3))
        for lock in (finished, hold, gone):
            lock.acquire()
        # A name the parent chose may name no workload of this build (a game it was built without).
        w = next((known for known in workloads() if known.name == name), None)
        job: Optional[Callable[[], Any]] = None
        nodes = 0
        try:
            if w is None:
                raise LookupError("this build has no such workload (a game it was built without?)")
            job, nodes = prepare(w)
        except Exception as error:  # reported to the parent, which names the workload
            line["error"] = f"{type(error).__name__}: {error}"

        def target(w: Optional[Workload] = w, job: Optional[Callable[[], Any]] = job, nodes: int = nodes,
                   line: Dict[str, Any] = line, finished: Any = finished, hold: Any = hold,
                   gone: Any = gone) -> None:
            if job is not None and w is not None:
                try:
                    check(w, job())
                    line["nodes"] = nodes
                except Exception as error:
                    line["error"] = f"{type(error).__name__}: {error}"
            finished.release()
            hold.acquire()
            gone.release()

        # The garbage collector's passes in the job then scan only the job's own objects, not what
        # earlier workloads and imports left (which would make a count depend on its neighbours).
        gc.collect()
        gc.freeze()
        _thread.start_new_thread(target, ())
        finished.acquire()
        threads.append((hold, gone))
        print(json.dumps(line), flush=True)
    for hold, gone in threads:
        hold.release()
        gone.acquire()


class CountError(Exception):
    """Counting failed: valgrind is missing, or the run of the workloads as a whole failed."""


def thread_totals(out_prefix: Path) -> Dict[int, int]:
    """Instructions per valgrind thread id from callgrind's ``--separate-threads`` files ``<prefix>-NN``."""
    totals: Dict[int, int] = {}
    for path in out_prefix.parent.glob(out_prefix.name + "-*"):
        thread = int(path.name.rsplit("-", 1)[1])
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith(("totals:", "summary:")):
                totals[thread] = int(line.split()[1])
                break
        else:
            raise CountError(f"no totals in {path}")
    return totals


@dataclass(frozen=True)
class Count:
    """One workload's count: ``instructions`` in the workload's thread, over ``nodes`` nodes."""

    instructions: int
    nodes: int

    @property
    def per_node(self) -> float:
        """Instructions per node (float)."""
        return self.instructions / self.nodes


def count_all(python: Path, names: Sequence[str], script: Path = Path(__file__)) -> Dict[str, Union[Count, str]]:
    """Count workloads ``names`` in one run of interpreter ``python`` (with its build of patience_engine).

    Returns name -> ``Count``, or the error (str) of a workload that failed or
    changed its result. ``script``: this file, or a snapshot of it
    (``bench/compare.py`` runs the one it built from). Raises CountError when
    valgrind is not on PATH or the run as a whole failed.
    """
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise CountError(VALGRIND_MISSING)
    with tempfile.TemporaryDirectory(prefix="patience-callgrind-") as tmp:
        prefix = Path(tmp) / "callgrind.out"
        # A fixed hash seed, and (setarch -R) no address randomisation: str hashing, and hashing by
        # address (object ids, pybind11's instance map), probe tables alike on every run.
        # OpenBLAS (under numpy, which the batched stepping's arrays import) starts a thread pool when
        # loaded: one thread only, so that the counted threads stay one per workload. LD_BIND_NOW: the
        # loader resolves every symbol at start-up, not on a symbol's first call, which the main thread
        # and a workload's thread race to make (some thousands of instructions landing in either).
        env = {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1", "LD_BIND_NOW": "1"}
        setarch = shutil.which("setarch")
        fixed_addresses = [setarch, platform.machine(), "-R"] if setarch else []
        cmd = [*fixed_addresses, valgrind, "--tool=callgrind", "--separate-threads=yes", f"--callgrind-out-file={prefix}",
               str(python), str(script.resolve()), "--child", *names]
        child = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=script.resolve().parent)
        lines = [json.loads(line) for line in child.stdout.splitlines() if line.startswith("{")]
        if child.returncode != 0 or [line["name"] for line in lines] != list(names):
            tail = "\n".join(child.stderr.strip().splitlines()[-5:])
            raise CountError(f"the workloads failed under callgrind (exit {child.returncode}):\n{tail}")
        totals = thread_totals(prefix)
    if sorted(totals) != list(range(1, len(names) + 2)):
        raise CountError(f"callgrind counted threads {sorted(totals)}, expected 1-{len(names) + 1}: "
                         "did something start threads of its own?")
    return {line["name"]: line["error"] if "error" in line else Count(totals[k + 2], line["nodes"])
            for k, line in enumerate(lines)}


def select(quick: bool = False, names: Optional[Sequence[str]] = None) -> List[Workload]:
    """The workloads to count: all, the ``quick`` set, or those whose names contain one of ``names``."""
    chosen = [w for w in workloads() if w.quick or not quick]
    if names:
        chosen = [w for w in chosen if any(part in w.name for part in names)]
    return chosen


def instructions_per_node(python: Optional[Path] = None) -> Dict[str, Dict[str, float]]:
    """Instructions per node of every benchmark path and game: {path: {game: instructions per node}}.

    Counts every workload with ``python`` (default: this interpreter, so its
    build of patience_engine) under callgrind, some minutes in all. Where a
    path has two deals of a game, their instructions over their nodes. See
    ``PER`` for what a node is per path. Raises CountError as ``count_all``,
    or when a workload failed.
    """
    counts = count_all(python or Path(sys.executable), [w.name for w in workloads()])
    sums: Dict[Tuple[str, str], List[int]] = {}
    for w in workloads():
        c = counts[w.name]
        if isinstance(c, str):
            raise CountError(f"{w.name}: {c}")
        total = sums.setdefault((w.path, w.game), [0, 0])
        total[0] += c.instructions
        total[1] += c.nodes
    table: Dict[str, Dict[str, float]] = {}
    for (path, game), (instructions, nodes) in sums.items():
        table.setdefault(path, {})[game] = instructions / nodes
    return table


def markdown_table(per_node: Dict[str, Dict[str, float]], titles: Dict[str, str]) -> str:
    """``instructions_per_node()``'s figures as Markdown: a row per game (``titles``: id -> title), a
    column per benchmark path, and a line under the table saying what a node is and how they were counted."""
    lines = ["| game | " + " | ".join(title for title, _ in PER.values()) + " |", "|" + "---|" * (len(PER) + 1)]
    for game, title in titles.items():
        figures = [per_node.get(path, {}).get(game) for path in PER]
        cells = ["-" if f is None else f"{f:,.1f}" if f < 100 else f"{f:,.0f}" for f in figures]
        lines.append(f"| {title} | " + " | ".join(cells) + " |")
    nodes = "; ".join(f"{title}: a {node}" for title, node in PER.values())
    lines += ["", "Instructions per node, counted by valgrind --tool=callgrind in the workload's thread alone "
              f"(bench/instructions.py). A node is, per column: {nodes} (a step is a move played). "
              "Counts depend on the build and its libraries, not on the machine's load or clock."]
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Count workloads on this interpreter's build and print instructions per node; returns the exit code."""
    parser = argparse.ArgumentParser(description="Instructions per node of the benchmark workloads (callgrind).")
    parser.add_argument("--child", nargs="+", metavar="NAME", help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true", help="only the set CI runs")
    parser.add_argument("-k", metavar="TEXT", action="append", help="only workloads whose names contain TEXT")
    args = parser.parse_args(argv)
    if args.child:  # inside valgrind
        run_children(args.child)
        return 0
    if shutil.which("valgrind") is None:  # said before the registry asks the build anything
        print(f"instructions.py: {VALGRIND_MISSING}", file=sys.stderr)
        return 2
    names = [w.name for w in select(args.quick, args.k)]
    if not names:
        print(f"instructions.py: no workload matches -k {' '.join(map(repr, args.k or []))}", file=sys.stderr)
        return 2
    try:
        counts = count_all(Path(sys.executable), names)
    except CountError as error:
        print(f"instructions.py: {error}", file=sys.stderr)
        return 2
    for name, c in counts.items():
        if isinstance(c, str):
            print(f"{name:<60} FAILED: {c}")
        else:
            print(f"{name:<60} {c.instructions:>15,} {c.per_node:>12,.1f} per {PER[by_name(name).path][1]}")
    return 1 if any(isinstance(c, str) for c in counts.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
