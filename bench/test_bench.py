"""Nodes per second for every game and path (pytest-benchmark; outside the default test run).

Each benchmark asserts its result (a perft count; the solver's verdict and
node count per deal) as well as timing it, and saves ``nodes``,
``nodes_per_second`` (nodes / the fastest round's seconds) and
``build_type`` in ``extra_info``. ``nodes`` is the perft count (the leaves
of the walked tree), or for the solver the positions it expanded; the
Royal Marriage survey benchmark saves ``deals`` and ``deals_per_second``
instead. Run ``python -m pytest bench``; CI runs it with
``--benchmark-disable`` so the assertions still hold. ``bench/compare.py``
compares two builds with this suite and ``bench/table.py`` prints the
README's performance table from the same workloads.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, NamedTuple, Tuple

import pytest

import patience_engine
from instructions import python_walk
from patience_engine import reference
from patience_engine.games import REGISTRY

Workload = Tuple[str, int, int, int]
"""(game, deal, depth, leaves): perft of numbered deal ``deal`` to ``depth`` is ``leaves``."""
Walk = Tuple[int, int, int]
"""(deal, depth, leaves) of one game."""
SolverWorkload = Tuple[str, Tuple[int, ...], int, bool, List[Tuple[str, int]]]
"""(game, deals, node limit, pruning, [(status, nodes) per deal])."""


class GameBench(NamedTuple):
    """One game's workloads, each with the result it must give."""

    perft_bulk: Tuple[Walk, ...]
    """C++ perft with bulk counting."""
    make_unmake: Tuple[Walk, ...]
    """C++ perft making and unmaking every move."""
    reference: Walk
    """The pure-Python reference's perft (and C++ on the same position)."""
    python_loop: Walk
    """A perft loop written in Python over each implementation."""
    solver: Tuple[Tuple[int, ...], int, bool, List[Tuple[str, int]]]
    """(deals, node limit, pruning, [(status, nodes) per deal]) of the C++ solver."""


# Depths chosen so one round takes about 0.1-1 s on an optimised build. Deal 1
# has bushy trees in every game; Geoffrey deal 3 is narrow (few leaves per
# interior node), so it weighs the make/unmake path rather than the counting.
# Every count was computed both with and without bulk counting and agreed.
# The reference walks its depth in about 0.2-0.3 s; the counts equal the C++
# engine's (and docs/rules.md "Check values" where those reach). A loop written
# in Python makes every move through the public API, so it walks one depth less
# than the reference's own perft for about the same time.
# The solver under a node limit is deterministic. Mostly deals that take it 10^5 nodes or more,
# so the figure is search speed rather than set-up. Royal Marriage runs without its pruning rule:
# with it the row analysis settles a deal in a few dozen nodes, so only the plain search shows
# the search's speed.
BENCH: Dict[str, GameBench] = {
    "royal-marriage": GameBench(
        perft_bulk=((1, 6, 297321615), (3, 6, 245025199)),
        make_unmake=((1, 5, 13300292), (3, 5, 10985558)),
        reference=(1, 4, 562500),
        python_loop=(1, 3, 22464),
        solver=((1, 96, 97), 1_000_000, False, [("won", 395), ("won", 218934), ("won", 209182)]),
    ),
    "germaine": GameBench(
        perft_bulk=((1, 6, 658221497), (3, 6, 312498652)),
        make_unmake=((1, 5, 20514590), (3, 5, 11307700)),
        reference=(1, 4, 651248),
        python_loop=(1, 3, 21265),
        solver=((230, 262), 500_000, True, [("unknown", 500000), ("unknown", 500000)]),
    ),
    "geoffrey": GameBench(
        perft_bulk=((1, 11, 27201807), (3, 14, 2754747)),
        make_unmake=((1, 10, 7547283), (3, 13, 2436543)),
        reference=(1, 7, 135171),
        python_loop=(1, 6, 31802),
        solver=((2, 43, 92, 98), 1_000_000, True,
                [("won", 88), ("lost", 134717), ("lost", 102112), ("lost", 96735)]),
    ),
}
"""Every game of ``games.REGISTRY`` by command-line name (a game missing here fails at import)."""

CPP_PERFT_BULK: List[Workload] = [(game, *w) for game in REGISTRY for w in BENCH[game].perft_bulk]
CPP_MAKE_UNMAKE: List[Workload] = [(game, *w) for game in REGISTRY for w in BENCH[game].make_unmake]
REFERENCE_PERFT: List[Workload] = [(game, *BENCH[game].reference) for game in REGISTRY]
PYTHON_LOOP: List[Workload] = [(game, *BENCH[game].python_loop) for game in REGISTRY]
SOLVER: List[SolverWorkload] = [(game, *BENCH[game].solver) for game in REGISTRY]
# Royal Marriage as a survey solves it (default solve): deals 1..ROYAL_MARRIAGE_DEALS, every one
# settled; (won, lost) over them. The figure is deals per second.
ROYAL_MARRIAGE_DEALS = 500
ROYAL_MARRIAGE_VERDICTS = (495, 5)
# The default 64 MiB table would add its allocation (tens of ms) to every
# solve; node counts depend on the table size, so it is fixed here.
SOLVER_TABLE_BYTES = 1 << 24

# Rounds per benchmark: enough for a stable minimum without long runs.
CPP_ROUNDS = 5
# C++ walks the reference's positions in a millisecond or less: more rounds for a steady minimum.
CPP_ON_REFERENCE_POSITIONS_ROUNDS = 50
REFERENCE_ROUNDS = 3
PYTHON_LOOP_OVER_CPP_ROUNDS = 20
SOLVER_ROUNDS = 3


def _ids(workloads: List[Workload]) -> List[str]:
    return [f"{game}-deal{deal}-depth{depth}" for game, deal, depth, _ in workloads]


def solve_all(game: str, deals: Tuple[int, ...], node_limit: int, pruning: bool = True) -> List[Tuple[str, int]]:
    """Solve each numbered deal of ``game`` with the C++ solver; returns (status, nodes) per deal."""
    results = []
    for deal in deals:
        solution = patience_engine.solve(
            REGISTRY[game].cpp.deal(deal), node_limit=node_limit, table_bytes=SOLVER_TABLE_BYTES,
            pruning=pruning,
        )
        results.append((solution.status, solution.nodes))
    return results


def royal_marriage_verdicts() -> Tuple[int, int]:
    """(won, lost) over Royal Marriage deals 1..ROYAL_MARRIAGE_DEALS, solved as a survey does (default solve)."""
    statuses = [patience_engine.solve(patience_engine.RoyalMarriage.deal(n)).status
                for n in range(1, ROYAL_MARRIAGE_DEALS + 1)]
    assert "unknown" not in statuses
    return statuses.count("won"), statuses.count("lost")


def run(benchmark: Any, fn: Callable[[], int], expected: int, rounds: int) -> None:
    """Time ``fn`` (one warm-up round, then ``rounds``), assert it returned ``expected``, record rates."""
    nodes = benchmark.pedantic(fn, rounds=rounds, iterations=1, warmup_rounds=1)
    assert nodes == expected
    record(benchmark, nodes)


def record(benchmark: Any, nodes: int) -> None:
    """Save nodes, nodes per second of the fastest round and the build type in ``extra_info``."""
    benchmark.extra_info["nodes"] = nodes
    benchmark.extra_info["build_type"] = patience_engine.BUILD_TYPE
    # stats is None under --benchmark-disable: nothing was timed.
    if benchmark.stats is not None:
        benchmark.extra_info["nodes_per_second"] = nodes / benchmark.stats.stats.min


@pytest.mark.parametrize("game, deal, depth, leaves", CPP_PERFT_BULK, ids=_ids(CPP_PERFT_BULK))
def test_cpp_perft_bulk(benchmark: Any, game: str, deal: int, depth: int, leaves: int) -> None:
    state = REGISTRY[game].cpp.deal(deal)
    run(benchmark, lambda: patience_engine.perft(state, depth), leaves, CPP_ROUNDS)


@pytest.mark.parametrize("game, deal, depth, leaves", CPP_MAKE_UNMAKE, ids=_ids(CPP_MAKE_UNMAKE))
def test_cpp_make_unmake(benchmark: Any, game: str, deal: int, depth: int, leaves: int) -> None:
    state = REGISTRY[game].cpp.deal(deal)
    run(benchmark, lambda: patience_engine.perft(state, depth, bulk=False), leaves, CPP_ROUNDS)


@pytest.mark.parametrize("game, deal, depth, leaves", REFERENCE_PERFT, ids=_ids(REFERENCE_PERFT))
def test_reference_perft(benchmark: Any, game: str, deal: int, depth: int, leaves: int) -> None:
    state = REGISTRY[game].reference.deal(deal)
    run(benchmark, lambda: reference.perft(state, depth), leaves, REFERENCE_ROUNDS)


@pytest.mark.parametrize("game, deal, depth, leaves", REFERENCE_PERFT, ids=_ids(REFERENCE_PERFT))
def test_cpp_perft_on_reference_positions(benchmark: Any, game: str, deal: int, depth: int, leaves: int) -> None:
    """C++ bulk perft where test_reference_perft runs: the two minima's ratio is C++ / reference."""
    state = REGISTRY[game].cpp.deal(deal)
    run(benchmark, lambda: patience_engine.perft(state, depth), leaves, CPP_ON_REFERENCE_POSITIONS_ROUNDS)


@pytest.mark.parametrize("game, deal, depth, leaves", PYTHON_LOOP, ids=_ids(PYTHON_LOOP))
def test_python_loop_over_cpp(benchmark: Any, game: str, deal: int, depth: int, leaves: int) -> None:
    state = REGISTRY[game].cpp.deal(deal)
    run(benchmark, lambda: python_walk(state, depth), leaves, PYTHON_LOOP_OVER_CPP_ROUNDS)


@pytest.mark.parametrize("game, deal, depth, leaves", PYTHON_LOOP, ids=_ids(PYTHON_LOOP))
def test_python_loop_over_reference(benchmark: Any, game: str, deal: int, depth: int, leaves: int) -> None:
    state = REGISTRY[game].reference.deal(deal)
    run(benchmark, lambda: python_walk(state, depth), leaves, REFERENCE_ROUNDS)


@pytest.mark.parametrize("game, deals, node_limit, pruning, expected", SOLVER, ids=[w[0] for w in SOLVER])
def test_solver(benchmark: Any, game: str, deals: Tuple[int, ...], node_limit: int, pruning: bool,
                expected: List[Tuple[str, int]]) -> None:
    results = benchmark.pedantic(solve_all, args=(game, deals, node_limit, pruning), rounds=SOLVER_ROUNDS,
                                 iterations=1, warmup_rounds=1)
    assert results == expected
    record(benchmark, sum(nodes for _, nodes in results))


def test_royal_marriage_deals_per_second(benchmark: Any) -> None:
    verdicts = benchmark.pedantic(royal_marriage_verdicts, rounds=SOLVER_ROUNDS, iterations=1, warmup_rounds=1)
    assert verdicts == ROYAL_MARRIAGE_VERDICTS
    benchmark.extra_info["deals"] = ROYAL_MARRIAGE_DEALS
    benchmark.extra_info["build_type"] = patience_engine.BUILD_TYPE
    if benchmark.stats is not None:
        benchmark.extra_info["deals_per_second"] = ROYAL_MARRIAGE_DEALS / benchmark.stats.stats.min
