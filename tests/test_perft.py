"""Perft fixtures: docs/rules.md "Check values" and more deals, on both implementations."""

from __future__ import annotations

import random

import pytest

from conftest import GAME_NAMES, game_class, perft_of
from patience_engine.games import REGISTRY

# docs/rules.md "Check values": perft from deals 1, 2 and 3 at depths 1, 2, ...
RULES_PERFT = {
    ("royal-marriage", 1): [30, 846, 22464, 562500],
    ("royal-marriage", 2): [34, 1085, 32469, 910715],
    ("royal-marriage", 3): [28, 750, 19208, 470064],
    ("germaine", 1): [26, 724, 21265],
    ("germaine", 2): [40, 1603, 64421],
    ("germaine", 3): [24, 598, 15478],
    ("geoffrey", 1): [7, 45, 266, 1428, 6986],
    ("geoffrey", 2): [4, 18, 85, 407, 1998],
    ("geoffrey", 3): [7, 44, 247, 1233, 5448],
}
# More deals, counted by the reference and the engine alike when these were pinned.
MORE_PERFT = {
    ("royal-marriage", 0): [32, 971, 27935],
    ("royal-marriage", 4): [35, 1150, 35451],
    ("royal-marriage", 5): [39, 1419, 48187],
    ("royal-marriage", 1000): [34, 1100, 33812],
    ("royal-marriage", 2**64 - 1): [25, 600, 13784],
    ("germaine", 0): [30, 953, 31717],
    ("germaine", 4): [26, 714, 20614],
    ("germaine", 5): [30, 926, 29475],
    ("germaine", 1000): [30, 900, 27196],
    ("germaine", 2**64 - 1): [20, 434, 10082],
    ("geoffrey", 0): [5, 24, 115, 567, 2895],
    ("geoffrey", 4): [4, 17, 73, 303, 1220],
    ("geoffrey", 5): [5, 23, 106, 469, 1992],
    ("geoffrey", 1000): [5, 23, 98, 393, 1512],
    ("geoffrey", 2**64 - 1): [6, 35, 194, 1036, 5299],
}


@pytest.mark.parametrize("game, deal", list(RULES_PERFT))
def test_rules_check_values(impl: str, game: str, deal: int) -> None:
    state = game_class(impl, game).deal(deal)
    depths = RULES_PERFT[game, deal]
    if impl == "reference":
        # Deeper counts run on the C++ engine only: past its signature's shallow depth the reference is slow.
        depths = depths[: REGISTRY[game].bench.signature_depths[0]]
    before = state.to_text()
    counts = [perft_of(impl)(state, d) for d in range(1, len(depths) + 1)]
    assert counts == depths
    assert state.to_text() == before
    assert perft_of(impl)(state, 0) == 1


@pytest.mark.parametrize("game, deal", list(MORE_PERFT))
def test_more_deals(impl: str, game: str, deal: int) -> None:
    state = game_class(impl, game).deal(deal)
    assert [perft_of(impl)(state, d) for d in range(1, len(MORE_PERFT[game, deal]) + 1)] == MORE_PERFT[game, deal]


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
    for depth, count in enumerate(RULES_PERFT[game, 1], start=1):
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
