"""PySolFC game numbers: known layouts, the generator boundaries, refused numbers, the CLI."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import game_class, game_data
from patience_engine import cli
from patience_engine.games import REGISTRY, names_where
from patience_engine.reference import pysol

PYSOL_GAMES = names_where(lambda info: info.pysol_id is not None)
"""The games PySolFC has."""


@pytest.mark.parametrize("game", PYSOL_GAMES)
def test_game_1_is_pysolfc_layout(impl: str, game: str) -> None:
    assert game_class(impl, game).from_pysol(1).to_text() == game_data(game).PYSOL_GAME_1


@pytest.mark.parametrize("game", PYSOL_GAMES)
@pytest.mark.parametrize("text", ["1", "ms1", " #1 ", "0001", "1L", "ms1\n"])
def test_texts_a_pysolfc_user_types(impl: str, game: str, text: str) -> None:
    cls = game_class(impl, game)
    assert cls.from_pysol(text).to_text() == cls.from_pysol(1).to_text()


@pytest.mark.parametrize("game", PYSOL_GAMES)
def test_both_implementations_agree(game: str) -> None:
    for number in [2, 31999, 32000, 123456, "ms2147483648", "ms4294967296", 10**19]:
        assert (game_class("cpp", game).from_pysol(number).to_text()
                == game_class("reference", game).from_pysol(number).to_text())


def test_generator_switches_at_32000() -> None:
    # PySolFC's constructRandom: plain numbers below 32000 use the Microsoft-compatible
    # LCRandom31, the same as their 'ms' form; from 32000 up, the Mersenne Twister.
    assert pysol.parse_number(31999) == (31999, True)
    assert pysol.parse_number(32000) == (32000, False)
    assert pysol.talon(31999) == pysol.talon("ms31999")
    assert pysol.talon(32000) != pysol.talon("ms32000")


def test_ms_numbers_cover_all_three_lcrandom31_ranges() -> None:
    # Below 2**31, from 2**31 (high bit forced on) and from 2**32 (a 16-bit draw + 1).
    decks = [pysol.talon(f"ms{n}") for n in (2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**33 - 1)]
    for deck in decks:
        assert sorted(deck) == sorted(pysol.talon(1))
    assert len({tuple(deck) for deck in decks}) == len(decks)


def test_pinned_mersenne_twister_layouts() -> None:
    # Worked out by this module and checked against pysol-cards 0.24.0 (PySolFC's generator package).
    assert pysol.royal_marriage_text(123456).split()[:8] == ["QH", "3D", "2D", "2C", "9C", "AC", "6H", "4C"]
    assert pysol.geoffrey_text("ms4294967296").splitlines()[1] == "TS 3S KC 4H 9H 3H 4D"


@pytest.mark.parametrize("game", PYSOL_GAMES)
@pytest.mark.parametrize("number", [0, "0", "ms0", "ms8589934592", "abc", "", "12x", -5, "ms-3"])
def test_numbers_pysolfc_refuses(impl: str, game: str, number: object) -> None:
    with pytest.raises(ValueError, match="PySolFC refuses"):
        game_class(impl, game).from_pysol(number)


def test_numbers_too_long_for_int_are_refused_in_one_short_line(impl: str) -> None:
    geoffrey = game_class(impl, "geoffrey")
    for number, why in [("9" * 5000, "more than 4300 digits"), ("ms" + "9" * 5000, "ms numbers go up to ms8589934591")]:
        with pytest.raises(ValueError) as raised:
            geoffrey.from_pysol(number)
        assert str(raised.value) == f"PySolFC refuses game number '{number[:40]}'...: {why}"
    # Leading zeros are no digits of the number.
    assert geoffrey.from_pysol("ms" + "0" * 5000 + "7") == geoffrey.from_pysol("ms7")
    assert geoffrey.from_pysol("0" * 5000 + "40000") == geoffrey.from_pysol(40000)


def test_non_number_types_are_type_errors(impl: str) -> None:
    for number, shown in [(1.0, "float"), (True, "bool"), (np.True_, "numpy.bool")]:
        with pytest.raises(TypeError, match=f"^PySolFC game number must be an int or a str, got {shown}$"):
            game_class(impl, "geoffrey").from_pysol(number)


def test_numpy_integers_are_game_numbers_as_in_deal(impl: str) -> None:
    geoffrey = game_class(impl, "geoffrey")
    assert geoffrey.from_pysol(np.int64(5)) == geoffrey.from_pysol(5)
    assert geoffrey.from_pysol(np.uint64(40000)) == geoffrey.from_pysol(40000)  # the Mersenne Twister's range
    with pytest.raises(ValueError, match="^PySolFC refuses game number -1: game numbers are not negative$"):
        geoffrey.from_pysol(np.int8(-1))


@pytest.mark.parametrize("game", names_where(lambda info: info.pysol_id is None))
def test_a_game_pysolfc_lacks_has_no_pysolfc_game(impl: str, game: str) -> None:
    with pytest.raises(ValueError, match="PySolFC has no such game"):
        game_class(impl, game).from_pysol(1)


def test_cli_deal_pysol(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["deal", "geoffrey", "--pysol", "ms1"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == game_data("geoffrey").PYSOL_GAME_1.splitlines()[1:]


def test_cli_deal_all_pysol_covers_the_pysolfc_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["deal", "all", "--pysol", "1"]) == 0
    out = capsys.readouterr().out
    for game, info in REGISTRY.items():
        assert (f"# {info.title}, PySolFC game 1" in out) == (game in PYSOL_GAMES), game
        assert (info.title in out) == (game in PYSOL_GAMES), game


def test_cli_perft_pysol(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["perft", "royal-marriage", "--pysol", "1", "--depth", "1", "--impl", "both"]) == 0
    assert "PySolFC game 1" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [
    ["deal", "geoffrey", "--pysol", "0"],
    ["deal", "germaine", "--pysol", "1"],
    ["deal", "geoffrey", "3", "--pysol", "1"],
    ["deal", "geoffrey"],
])
def test_cli_bad_pysol_usage(argv: list, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(argv)
    assert exit_info.value.code == 2
    assert "error" in capsys.readouterr().err
