"""Perft fixtures: docs/rules.md "Check values" and more deals, on both implementations."""

from __future__ import annotations

import random

import pytest

from conftest import GAME_NAMES, game_cases, game_class, game_data, perft_of
from patience_engine.games import REGISTRY


@pytest.mark.parametrize("game, deal", game_cases("RULES_PERFT"))
def test_rules_check_values(impl: str, game: str, deal: int) -> None:
    state = game_class(impl, game).deal(deal)
    depths = game_data(game).RULES_PERFT[deal]
    if impl == "reference":
        # Deeper counts run on the C++ engine only: past its signature's shallow depth the reference is slow.
        depths = depths[: REGISTRY[game].bench.signature_depths[0]]
    before = state.to_text()
    counts = [perft_of(impl)(state, d) for d in range(1, len(depths) + 1)]
    assert counts == depths
    assert state.to_text() == before
    assert perft_of(impl)(state, 0) == 1


@pytest.mark.parametrize("game, deal", game_cases("MORE_PERFT"))
def test_more_deals(impl: str, game: str, deal: int) -> None:
    state = game_class(impl, game).deal(deal)
    counts = game_data(game).MORE_PERFT[deal]
    assert [perft_of(impl)(state, d) for d in range(1, len(counts) + 1)] == counts


@pytest.mark.parametrize("game", GAME_NAMES)
def test_bulk_counting_agrees_along_random_games(game: str) -> None:
    # Bulk counting takes the last two plies without making their moves (count_after()): check it
    # against making every move, in every phase of the game (empty cells, slides left, empty
    # columns, foundations), and against the reference now and then.
    import patience_engine
    from patience_engine import reference

    rng = random.Random(2026)
    for deal in range(30):
        state = patience_engine.GAMES[game].deal(deal)
        twin = reference.GAMES[game].deal(deal)
        for step in range(120):
            for depth in (2, 3):
                assert patience_engine.perft(state, depth) == patience_engine.perft(state, depth, bulk=False)
            if step % 10 == 0:
                assert patience_engine.perft(state, 2) == reference.perft(twin, 2)
            moves = sorted(str(move) for move in state.legal_moves())
            if not moves:
                break
            move = rng.choice(moves)
            state.play(move)
            twin.play(move)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_walk_without_bulk_counting_agrees(game: str) -> None:
    import patience_engine

    state = game_class("cpp", game).deal(1)
    for depth, count in enumerate(game_data(game).RULES_PERFT[1], start=1):
        assert patience_engine.perft(state, depth, bulk=False) == count


def test_bad_depths_are_refused(impl: str, game: str) -> None:
    state = game_class(impl, game).deal(1)
    for depth in (-1, 501, 1 << 70):
        with pytest.raises(ValueError, match="depth"):
            perft_of(impl)(state, depth)
    for depth in (1.5, True, "2", None):
        with pytest.raises(TypeError, match="depth"):
            perft_of(impl)(state, depth)


# Column 1 holds KS alone and column 8 is empty: the King can shuttle between empty columns for
# ever, so perft is 1 at every depth and the walk is as long as the depth.
SHUTTLE = """\
Foundations: C-0 D-0 H-0 S-0
KS
(AC) (TC) (4D) (QD) (5H) (JH) (4S) (TS) 3C
(2C) (JC) (6D) (KD) (6H) (QH) (5S) (JS) 5C
(4C) (QC) (8D) (AH) (7H) (KH) (6S) (QS) 7C
(6C) (KC) (9D) (2H) (8H) (AS) (7S) 3D
(8C) (AD) (TD) (3H) (9H) (2S) (8S) 5D
(9C) (2D) (JD) (4H) (TH) (3S) (9S) 7D
-"""


def test_deepest_perft_on_an_endless_line(impl: str) -> None:
    state = game_class(impl, "geoffrey").from_text(SHUTTLE)
    assert [str(m) for m in state.legal_moves()] == ["1:KS>8"]
    assert perft_of(impl)(state, 500) == 1
