"""Nodes per second for every game and path (pytest-benchmark; outside the default test run).

Each benchmark asserts its node count as well as timing it, and saves nodes,
nodes per second (nodes / the fastest round's seconds) and the build type in
``extra_info``. Run ``python -m pytest bench``; CI runs it with
``--benchmark-disable`` so the assertions still hold.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import patience_engine
from patience_engine import reference

# (game, deal, depth, leaves): C++ walks; the counts were cross-checked bulk against no-bulk.
CPP_PERFT = [
    ("royal-marriage", 1, 5, None),
    ("germaine", 1, 5, 20514590),
    ("geoffrey", 1, 10, None),
]
# (game, deal, depth, leaves): rules.md check values, small enough for the pure-Python reference.
REFERENCE_PERFT = [
    ("royal-marriage", 1, 3, 22464),
    ("germaine", 1, 3, 21265),
    ("geoffrey", 1, 5, 6986),
]


def record(benchmark: Any, nodes: int) -> None:
    """Save nodes, nodes per second and the build type with the benchmark's results."""
    benchmark.extra_info["nodes"] = nodes
    benchmark.extra_info["build_type"] = patience_engine.BUILD_TYPE
    if benchmark.stats is not None:
        benchmark.extra_info["nodes_per_second"] = nodes / benchmark.stats.stats.min


def python_walk(state: Any, depth: int) -> int:
    """Perft written in Python over the public API (legal_moves, play, undo): counts leaves."""
    if depth == 0:
        return 1
    total = 0
    for move in state.legal_moves():
        state.play(move)
        total += python_walk(state, depth - 1)
        state.undo()
    return total


def run(benchmark: Any, fn: Callable[[], int], expected: int, rounds: int = 5) -> None:
    nodes = benchmark.pedantic(fn, rounds=rounds, iterations=1, warmup_rounds=1)
    assert nodes == expected
    record(benchmark, nodes)


@pytest.mark.parametrize("game, deal, depth, leaves", CPP_PERFT)
def test_cpp_perft_bulk(benchmark: Any, game: str, deal: int, depth: int, leaves: int) -> None:
    state = patience_engine.GAMES[game].deal(deal)
    run(benchmark, lambda: patience_engine.perft(state, depth), leaves)


@pytest.mark.parametrize("game, deal, depth, leaves", CPP_PERFT)
def test_cpp_make_unmake_walk(benchmark: Any, game: str, deal: int, depth: int, leaves: int) -> None:
    state = patience_engine.GAMES[game].deal(deal)
    run(benchmark, lambda: patience_engine.perft(state, depth, bulk=False), leaves)


@pytest.mark.parametrize("game, deal, depth, leaves", REFERENCE_PERFT)
def test_reference_perft(benchmark: Any, game: str, deal: int, depth: int, leaves: int) -> None:
    state = reference.GAMES[game].deal(deal)
    run(benchmark, lambda: reference.perft(state, depth), leaves, rounds=1)


@pytest.mark.parametrize("game, deal, depth, leaves", REFERENCE_PERFT)
def test_python_loop_over_cpp(benchmark: Any, game: str, deal: int, depth: int, leaves: int) -> None:
    state = patience_engine.GAMES[game].deal(deal)
    run(benchmark, lambda: python_walk(state, depth), leaves, rounds=3)


@pytest.mark.parametrize("game, deal, depth, leaves", REFERENCE_PERFT)
def test_python_loop_over_reference(benchmark: Any, game: str, deal: int, depth: int, leaves: int) -> None:
    state = reference.GAMES[game].deal(deal)
    run(benchmark, lambda: python_walk(state, depth), leaves, rounds=1)
