"""The C++ engine and the reference, move for move and hash for hash over seeded random games."""

from __future__ import annotations

import random
from typing import Any

import pytest

from conftest import GAME_NAMES, game_class

GAMES_PER_GAME = 200
MAX_PLIES = 120


def observe(state: Any) -> tuple:
    """Everything the two implementations must agree on about one position."""
    return (
        [str(move) for move in state.legal_moves()],  # as they come: both list in action order
        state.legal_actions(),
        state.hash,
        state.canonical_hash,
        state.to_text(),
        state.is_won,
        state.is_over,
        state.score,
    )


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("chunk", range(4))
def test_random_games_agree(game: str, chunk: int) -> None:
    per_chunk = GAMES_PER_GAME // 4
    for deal in range(chunk * per_chunk, (chunk + 1) * per_chunk):
        rng = random.Random(f"{game}-{deal}")
        cpp = game_class("cpp", game).deal(deal)
        ref = game_class("reference", game).deal(deal)
        seen = [observe(cpp)]
        assert seen[0] == observe(ref), f"deal {deal} differs at the start"
        for ply in range(MAX_PLIES):
            moves = [str(move) for move in ref.legal_moves()]
            if not moves:
                break
            move = rng.choice(moves)
            cpp.play(move)
            ref.play(move)
            now = observe(cpp)
            assert now == observe(ref), f"deal {deal} differs after {ply + 1} moves, last {move}"
            seen.append(now)
        while seen[:-1]:
            assert str(cpp.undo()) == str(ref.undo())
            seen.pop()
            assert observe(cpp) == seen[-1] == observe(ref), f"deal {deal} differs on undo"
        assert cpp == game_class("cpp", game).deal(deal)
