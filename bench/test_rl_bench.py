"""Steps per second of the reinforcement-learning interface (issue 14; pytest-benchmark).

- ``test_vector_game_steps``: a Python loop of ``step(sample_legal_actions())`` on a
  1024-slot ``VectorGame``; saves ``steps_per_second`` (slot steps) and ``bytes_per_position``.
  Checks the rewards of the steps against the registry's ``bench.timed.vector_rewards`` (the reference's
  ``VectorGame`` gives the same), that every timed round ends where an untimed
  one does, and that the buffers the steps patched equal each slot's
  position's own observation and mask.
- ``test_playouts``: ``playouts`` from the registry's ``bench.timed.playouts`` deals (deals whose playouts score
  differently, so a wrong draw shows); saves ``moves_per_second``. Checks the scores
  and counts the moves with the same games replayed through the single-position API.
- ``test_single_position_loop``: one position played at random from Python, by int actions
  (``legal_actions()``, ``play(int)``), by ``Move`` objects and over the reference; saves
  ``steps_per_second``. Checks that the engine and the reference play the same games.

Rates use the fastest round. Run ``python -m pytest bench/test_rl_bench.py``.
"""

from __future__ import annotations

from typing import Any, List, Tuple

import numpy as np
import pytest

import patience_engine
from instructions import loop_draws, random_loop, replayed_playouts
from patience_engine import VectorGame, playouts
from patience_engine.games import REGISTRY

GAMES = list(REGISTRY)
SLOTS = 1024
VECTOR_STEPS = 100
# The rewards of VECTOR_STEPS steps of SLOTS slots from reset(seed=1), summed, are each game's
# bench.timed.vector_rewards: the engine and the reference agree (`reference.VectorGame`, a minute for
# Geoffrey, too slow to run here each time).
LOOP_STEPS = 30_000
ROUNDS = 5


def rate(benchmark: Any, key: str, count: int) -> None:
    """Save count / the fastest round's seconds as ``key``, with the build type."""
    benchmark.extra_info["build_type"] = patience_engine.BUILD_TYPE
    if benchmark.stats is not None:
        benchmark.extra_info[key] = count / benchmark.stats.stats.min


@pytest.mark.parametrize("game", GAMES)
def test_vector_game_steps(benchmark: Any, game: str) -> None:
    vec = VectorGame(game, SLOTS)

    def loop() -> VectorGame:
        vec.reset(seed=1)
        for _ in range(VECTOR_STEPS):
            vec.step(vec.sample_legal_actions())
        return vec

    benchmark.pedantic(loop, rounds=ROUNDS, iterations=1, warmup_rounds=1)
    rate(benchmark, "steps_per_second", SLOTS * VECTOR_STEPS)
    benchmark.extra_info["bytes_per_position"] = vec.bytes_per_position
    timed = [vec.state(i).to_text() for i in range(SLOTS)]
    obs = vec.reset(seed=1)[0]
    rewards = 0.0
    for _ in range(VECTOR_STEPS):
        rewards += float(vec.step(vec.sample_legal_actions())[1].sum())
    assert rewards == REGISTRY[game].bench.timed.vector_rewards
    assert [vec.state(i).to_text() for i in range(SLOTS)] == timed
    for i in range(0, SLOTS, 7):
        state = vec.state(i)
        assert np.array_equal(obs[i], state.observation()) and np.array_equal(vec.action_masks[i], state.legal_action_mask())


@pytest.mark.parametrize("game", GAMES)
def test_playouts(benchmark: Any, game: str) -> None:
    deal, n = REGISTRY[game].bench.timed.playouts
    start = REGISTRY[game].cpp.deal(deal)
    scores = benchmark.pedantic(lambda: playouts(start, n, seed=7), rounds=ROUNDS, iterations=1, warmup_rounds=1)
    expected, moves = replayed_playouts(start, n, 7)
    assert scores.tolist() == expected
    benchmark.extra_info["moves"] = moves
    rate(benchmark, "moves_per_second", moves)


LOOPS: List[Tuple[str, bool]] = [("cpp", True), ("cpp", False), ("reference", True)]


@pytest.mark.parametrize("impl, by_int", LOOPS, ids=[f"{i}-{'int' if b else 'move'}" for i, b in LOOPS])
@pytest.mark.parametrize("game", GAMES)
def test_single_position_loop(benchmark: Any, game: str, impl: str, by_int: bool) -> None:
    cls = REGISTRY[game].implementation(impl)
    draws = loop_draws(game, LOOP_STEPS if impl == "cpp" else LOOP_STEPS // 10)
    final = benchmark.pedantic(lambda: random_loop(cls, draws, by_int)[0], rounds=ROUNDS, iterations=1,
                               warmup_rounds=1)
    # The same games in the other implementation: the reference's for the engine, the engine's for
    # the reference; every game's final position, the deals and the moves played.
    other = REGISTRY[game].implementation("reference" if impl == "cpp" else "cpp")
    trail: List[int] = []
    other_trail: List[int] = []
    state, deal, moves = random_loop(cls, draws, by_int, trail)
    other_state, other_deal, other_moves = random_loop(other, draws, True, other_trail)
    assert final.to_text() == state.to_text() == other_state.to_text()
    assert (trail, deal, moves) == (other_trail, other_deal, other_moves) and len(trail) > 10
    rate(benchmark, "steps_per_second", len(draws))
