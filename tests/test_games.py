"""The registry of the games, and the one module that reads and checks numbers, ranges and limits."""

from __future__ import annotations

import argparse
from typing import Any

import pytest

import patience_engine
from conftest import GAME_DATA, GAME_NAMES, game_data
from patience_engine import cli, draw, limits, reference
from patience_engine.games import REGISTRY, TITLES, info_of
from patience_engine.reference import pysol
from patience_engine.registry import ENTRIES


def test_the_registry_names_each_implementations_class_once() -> None:
    assert list(REGISTRY) == list(reference.GAMES) == list(patience_engine.GAMES)
    for name, info in REGISTRY.items():
        assert info.name == name and TITLES[name] == info.title
        assert info.cpp is patience_engine.GAMES[name] and info.reference is reference.GAMES[name]
        # Both implementations spell the game and its move class alike.
        assert info.cpp.__name__ == info.reference.__name__
        assert info.cpp.Move.__name__ == info.reference.Move.__name__
        assert info.pysol_id == pysol.PYSOL_GAME_IDS.get(name)


DATA = {
    "TITLE": "GameInfo.title, pinned",
    "PYSOL_ID": "GameInfo.pysol_id, pinned",
    "ENV_ID": "the Gymnasium id, pinned (tests/test_envs.py)",
    "HIDDEN_CARDS": "GameInfo.hidden_cards, pinned",
    "PLAYED_FOR_SCORE": "GameInfo.played_for_score, pinned",
    "DEAL_TEXTS": "deal -> text, docs/rules.md \"Check values\" (tests/test_rules.py)",
    "RULES_PERFT": "deal -> perft counts by depth, docs/rules.md \"Check values\" (tests/test_perft.py)",
    "MORE_PERFT": "deal -> perft counts by depth of more deals (tests/test_perft.py)",
    "GOLDEN_KEYS": "deal -> (hash, canonical_hash) (tests/test_hashing.py)",
    "documented_keys": "text -> (hash, canonical_hash) by docs/architecture.md \"Zobrist keys\" (tests/test_hashing.py)",
    "SIGNATURE_PERFT": "(deal, depth) -> the bench signature's perft count (tests/test_signature.py)",
    "SIGNATURE_SOLVES": "deal -> the end of the bench signature's solve line (tests/test_signature.py)",
    "MOVE_PROPERTIES": "move property -> the types of its values (tests/test_move_parity.py)",
    "random_notation": "rng -> well-formed-looking move text (tests/test_move_parity.py)",
    "BAD_MOVE_MESSAGES": "(move text, message) parse_move refuses (tests/test_move_parity.py)",
    "BAD_MOVE_TEXTS": "move texts parse_move refuses (tests/test_text.py)",
    "BAD_POSITION_TEXTS": "(text, message pattern) from_text refuses (tests/test_text.py)",
    "SPELLINGS": "(text with odd spellings, its to_text) (tests/test_text.py)",
    "NUM_ACTIONS": "the action space's size (tests/test_rl_reference.py)",
    "NAMED_ACTIONS": "how many actions name a move (tests/test_rl_reference.py)",
    "HAND_WORKED_ACTIONS": "move text -> action, worked by hand (tests/test_rl_reference.py)",
    "RL_PARITY_PLIES": "plies of each random game (tests/test_rl_parity.py)",
    "RANDOM_MOVES": "moves of each random game (tests/test_rl_reference.py)",
    "decoded_text": "plain observation -> the position's text (tests/test_rl_reference.py)",
    "VECTOR_MIRROR_RUNS": "(max_moves, steps) of reference batches (tests/test_rl_vector.py)",
    "PLAYOUT_LOOPS": "(n, max_moves) of reference playouts (tests/test_rl_vector.py)",
    "VECTOR_MAX_MOVES": "the move limit of a batch that must truncate (tests/test_vector_game.py)",
    "KNOWN_VERDICTS": "(text or deal, status) the solver proves (tests/test_solver.py)",
    "SOLVE_ALIKE_DEALS": "deals whose verdicts must agree across tables and pruning (tests/test_solver.py)",
    "visible_cards": "text -> the cards its picture shows (tests/test_pictures.py)",
    "HIGHLIGHT": "(text or deal, move, moving cards, target marked) (tests/test_pictures.py)",
    "HIGHLIGHT_REFUSALS": "(text or deal, highlight, error, message) (tests/test_pictures.py)",
    "SOLUTION_PAGE_DEAL": "the deal whose solution page is stepped through (tests/test_browser.py)",
}
"""What every game's test data file (tests/game_data/<module>.py) defines, and what for; a game PySolFC has
defines PYSOL_GAME_1 too (tests/test_pysol.py). The data files' docstrings say where each value came from."""


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_game_has_its_test_data(game: str) -> None:
    """A registered game is tested by every generic test, which reads its data file: name what it lacks."""
    data = game_data(game)
    wanted = [*DATA, *(["PYSOL_GAME_1"] if REGISTRY[game].pysol_id is not None else [])]
    missing = [name for name in wanted if not hasattr(data, name)]
    assert not missing, f"{data.__file__} lacks {', '.join(missing)}: see tests/test_games.py DATA"


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_registry_entry_is_the_pinned_one(game: str) -> None:
    info, data = REGISTRY[game], game_data(game)
    assert (TITLES[game], info.title, info.pysol_id) == (data.TITLE, data.TITLE, data.PYSOL_ID)
    assert (info.hidden_cards, info.played_for_score) == (data.HIDDEN_CARDS, data.PLAYED_FOR_SCORE)


def test_every_test_data_file_is_a_game_s() -> None:
    """A data file whose game left the registry (or whose name is misspelt) would go unread."""
    modules = {info.module for info in ENTRIES}
    assert {path.stem for path in GAME_DATA.glob("*.py")} <= modules


def test_info_of_knows_positions_of_both_implementations(impl: str, game: str) -> None:
    state = getattr(REGISTRY[game], impl).deal(1)
    assert info_of(state) is REGISTRY[game]
    assert draw.game_of(state) == game
    with pytest.raises(KeyError):
        info_of(state.legal_moves()[0])


def test_the_cli_lists_the_registry() -> None:
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for command in ("deal", "perft", "show", "solve", "survey"):
        game = next(a for a in sub.choices[command]._actions if a.dest == "game")
        assert list(game.choices or [])[:len(REGISTRY)] == list(REGISTRY)


def test_pictures_read_the_reference_properties() -> None:
    row = reference.RoyalMarriage.from_text("QH 3C 9D 2S 3S KH")
    assert row.row == ("QH", "3C", "9D", "2S", "3S", "KH")
    grid = reference.Germaine.deal(1)
    grid.play("d1xd2")
    assert grid.slides == 2 and grid.grid[0][3] is None and len(grid.grid) == 4
    assert {len(line) for line in grid.grid} == {13}
    assert " ".join(card or "--" for card in grid.grid[0]) == grid.to_text().splitlines()[0]
    layout = reference.Geoffrey.from_text(
        "Foundations: C-K D-Q H-0 S-K\n-\n-\n-\n-\n-\n-\n(KD) KH\nQH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH")
    assert layout.foundations == (13, 12, 0, 13)
    assert layout.tableau[6] == ("KD", "KH") and layout.face_down[6] == 1 and layout.tableau[0] == ()
    assert layout.face_down == (0, 0, 0, 0, 0, 0, 1, 0)


def test_a_highlight_that_is_no_move_of_the_game_is_refused() -> None:
    with pytest.raises(ValueError, match="bad move text"):
        draw.to_svg("geoffrey", reference.Geoffrey.deal(1).to_text(), highlight="9D+2S")


@pytest.mark.parametrize("value, error", [
    (1.5, TypeError), (True, TypeError), ("3", TypeError), (None, TypeError),
    (0, ValueError), (501, ValueError), (-1, ValueError),
])
def test_check_int_type_then_range(value: Any, error: type) -> None:
    with pytest.raises(error, match="depth must be"):
        limits.check_int(value, "depth", 1, 500)


def test_check_int_bounds_are_inclusive() -> None:
    assert limits.check_int(1, "depth", 1, 500) == 1 and limits.check_int(500, "depth", 1, 500) == 500
    assert limits.check_int(10**30, "jobs", 1) == 10**30
    with pytest.raises(ValueError, match=r"deal number must be in 0 \.\. 2\*\*64-1, got 18446744073709551616"):
        limits.check_int(1 << 64, "deal number", 0, limits.MAX_DEAL)


@pytest.mark.parametrize("value, error", [("1", TypeError), (False, TypeError), (None, TypeError),
                                          (0, ValueError), (-0.5, ValueError), (float("nan"), ValueError),
                                          (float("inf"), ValueError)])
def test_check_seconds(value: Any, error: type) -> None:
    with pytest.raises(error, match="time limit must be"):
        limits.check_seconds(value, "time limit")


def test_seconds_as_text() -> None:
    assert limits.check_seconds(2, "t") == 2.0 and isinstance(limits.check_seconds(2, "t"), float)
    assert limits.parse_seconds("0.25", "time limit") == 0.25
    for bad in ("", "abc", "0", "-1", "nan", "inf"):
        with pytest.raises(ValueError, match="time limit must be"):
            limits.parse_seconds(bad, "time limit")


def test_parse_decimal_takes_digits_alone() -> None:
    assert limits.parse_decimal("007", "jobs", 1) == 7
    for bad in ("", "+1", "-1", "1_0", " 1", "0x1", "\u0663"):
        with pytest.raises(ValueError, match="digits 0-9 alone"):
            limits.parse_decimal(bad, "jobs", 1)
    with pytest.raises(ValueError, match="jobs must be >= 1, got 0"):
        limits.parse_decimal("0", "jobs", 1)


def test_deal_ranges_checked_for_the_api() -> None:
    assert limits.check_deal_range(range(3, 7)) == range(3, 7)
    with pytest.raises(TypeError, match="deals must be a range"):
        limits.check_deal_range([3, 4])
    for bad in (range(1, 9, 2), range(-1, 2), range(0, (1 << 63) + 1)):
        with pytest.raises(ValueError, match="contiguous range"):
            limits.check_deal_range(bad)


def test_the_survey_api_follows_the_rule(tmp_path: Any) -> None:
    from patience_engine import survey

    db = str(tmp_path / "s.sqlite")
    with pytest.raises(TypeError, match="node limit must be an int"):
        survey.run_survey("royal-marriage", range(1, 2), db=db, node_limit=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="jobs must be >= 1"):
        survey.run_survey("royal-marriage", range(1, 2), db=db, jobs=0)
    assert list(tmp_path.iterdir()) == []
