"""Nodes per second for every game and path (pytest-benchmark; outside the default test run).

Each benchmark asserts its result (a perft count; the solver's verdict and
node count per deal) as well as timing it, and saves ``nodes``,
``nodes_per_second`` (nodes / the fastest round's seconds) and
``build_type`` in ``extra_info``. ``nodes`` is the perft count (the leaves
of the walked tree), or for the solver the positions it expanded; a
survey benchmark saves ``deals`` and ``deals_per_second`` instead. Run ``python -m pytest bench``; CI runs it with
``--benchmark-disable`` so the assertions still hold. ``bench/compare.py``
compares two builds with this suite and ``bench/table.py`` prints the
README's performance table from the same workloads.
"""

from __future__ import annotations

from typing import Any, Callable, List, Tuple

import pytest

import patience_engine
from instructions import python_walk
from patience_engine import reference
from patience_engine.games import REGISTRY

Workload = Tuple[str, int, int, int]
"""(game, deal, depth, leaves): perft of numbered deal ``deal`` to ``depth`` is ``leaves``."""
SolverWorkload = Tuple[str, Tuple[int, ...], int, bool, List[Tuple[str, int]]]
"""(game, deals, node limit, pruning, [(status, nodes) per deal])."""


# Each game's workloads and the result each must give are its registry entry's ``bench.timed``
# (python/patience_engine/registry.py), chosen so one round takes about 0.1-1 s on an optimised build.
# Every perft count was computed both with and without bulk counting and agreed; the reference walks
# its depth in about 0.2-0.3 s, and its counts equal the C++ engine's. A loop written in Python makes
# every move through the public API, so it walks one depth less than the reference's own perft for
# about the same time. The solver under a node limit is deterministic.
TIMED = {game: info.bench.timed for game, info in REGISTRY.items()}

CPP_PERFT_BULK: List[Workload] = [(game, *w) for game in REGISTRY for w in TIMED[game].perft_bulk]
CPP_MAKE_UNMAKE: List[Workload] = [(game, *w) for game in REGISTRY for w in TIMED[game].make_unmake]
REFERENCE_PERFT: List[Workload] = [(game, *TIMED[game].reference) for game in REGISTRY]
PYTHON_LOOP: List[Workload] = [(game, *TIMED[game].python_loop) for game in REGISTRY]
SOLVER: List[SolverWorkload] = [(game, deals, limit, pruning, list(expected))
                                for game in REGISTRY for deals, limit, pruning, expected in [TIMED[game].solver]]
SURVEY: List[Tuple[str, int, Tuple[int, int]]] = [(game, *TIMED[game].survey) for game in REGISTRY
                                                  if TIMED[game].survey is not None]
"""(game, deals, (won, lost)): deals 1..deals solved as a survey solves them (default solve), every one
settled. The figure is deals per second."""
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


def survey_verdicts(game: str, deals: int) -> Tuple[int, int]:
    """(won, lost) over deals 1..``deals`` of ``game``, solved as a survey does (default solve)."""
    statuses = [patience_engine.solve(REGISTRY[game].cpp.deal(n)).status for n in range(1, deals + 1)]
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


@pytest.mark.parametrize("game, deals, expected", SURVEY, ids=[w[0] for w in SURVEY])
def test_survey_deals_per_second(benchmark: Any, game: str, deals: int, expected: Tuple[int, int]) -> None:
    verdicts = benchmark.pedantic(survey_verdicts, args=(game, deals), rounds=SOLVER_ROUNDS, iterations=1,
                                  warmup_rounds=1)
    assert verdicts == expected
    benchmark.extra_info["deals"] = deals
    benchmark.extra_info["build_type"] = patience_engine.BUILD_TYPE
    if benchmark.stats is not None:
        benchmark.extra_info["deals_per_second"] = deals / benchmark.stats.stats.min
