"""Both implementations read move texts alike and give moves the same properties.

Every move text, good or bad, must give the same move (same ``str``) or the same
exception type and message, whether it goes through ``parse_move``, ``is_legal``
or ``play``; the move properties must agree, values and types.
"""

from __future__ import annotations

import random
import re
from typing import Any, Callable, List, Tuple

import pytest

from conftest import GAME_NAMES, game_cases, game_class, game_data
from patience_engine import IllegalMoveError

# Characters a mutation inserts: notation pieces, out-of-range digits, other case, white space,
# control characters (NUL cut C++ messages) and non-ASCII text (it was cut mid-character).
ALPHABET = list("0123456789:>+x-FfAaTtJjQqKkSsHhDdCcmnz ()'\\") + [
    "\t", "\n", "\r", "\x00", "\x1b", "\x7f", "\u00e9", "\u2665", "\u2660", "\u2663", "\u00a0", "\u200b",
    "\U0001f0a1", "10",
]


def random_position(game: str, rng: random.Random) -> Any:
    """A reference position a random walk of up to 40 moves from a random deal."""
    state = game_class("reference", game).deal(rng.randrange(2**64))
    for _ in range(rng.randrange(40)):
        moves = state.legal_moves()
        if not moves:
            break
        state.play(rng.choice(moves))
    return state


def mutate(text: str, rng: random.Random) -> str:
    """The text with one to three random edits (drop, insert, change, case, white space, join...)."""
    for _ in range(rng.randrange(1, 4)):
        i = rng.randrange(len(text) + 1)
        kind = rng.randrange(9)
        if kind == 0 and text:
            text = text[: min(i, len(text) - 1)] + text[min(i, len(text) - 1) + 1 :]
        elif kind == 1:
            text = text[:i] + rng.choice(ALPHABET) + text[i:]
        elif kind == 2 and text:
            j = min(i, len(text) - 1)
            text = text[:j] + rng.choice(ALPHABET) + text[j + 1 :]
        elif kind == 3:
            text = rng.choice([str.upper, str.lower, str.swapcase])(text)
        elif kind == 4:
            text = rng.choice([" ", "\t", "\n", ""]) + text + rng.choice([" ", "\n", "\r\n", ""])
        elif kind == 5:
            text = text + rng.choice(["+", ":", ">", "x", "-", " ", ","]) + text
        elif kind == 6:
            text = text[:i] + rng.choice(["0", "9", "13", "00", "-1", "10", "F", "f"]) + text[i:]
        elif kind == 7:
            text = text * rng.randrange(2, 30)
        elif kind == 8:
            text = "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(8)))
    return text


def outcome(action: Callable[[], Any]) -> Tuple[str, str]:
    """("ok", result) or (exception type name, message) of an action."""
    try:
        return "ok", str(action())
    except Exception as error:  # noqa: BLE001 - any difference in exception type is a finding
        return type(error).__name__, str(error)


def outcomes(impl: str, game: str, position: str, text: str) -> List[Tuple[str, str]]:
    """What parse_move, Move(), is_legal and play make of a move text in one implementation."""
    cls = game_class(impl, game)
    state = cls.from_text(position)

    def play() -> str:
        state.play(text)
        return state.to_text()

    return [
        outcome(lambda: cls.parse_move(text)),
        outcome(lambda: cls.Move(text)),
        outcome(lambda: state.is_legal(text)),
        outcome(play),
    ]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_move_texts_are_read_alike(game: str) -> None:
    rng = random.Random(f"moves {game}")
    accepted = refused = 0
    for _ in range(120):
        position = random_position(game, rng)
        moves = [str(move) for move in position.legal_moves()]
        for _ in range(25):
            text = rng.choice(moves) if moves and rng.random() < 0.6 else game_data(game).random_notation(rng)
            if rng.random() < 0.7:
                text = mutate(text, rng)
            cpp = outcomes("cpp", game, position.to_text(), text)
            ref = outcomes("reference", game, position.to_text(), text)
            assert cpp == ref, f"move text {text!r} on {position.to_text()!r}"
            accepted += cpp[0][0] == "ok"
            refused += cpp[0][0] != "ok"
    assert accepted > 300 and refused > 1000, "the mutations must make both good and bad texts"


@pytest.mark.parametrize("impl", ["cpp", "reference"])
@pytest.mark.parametrize(("game", "text", "message"), game_cases("BAD_MOVE_MESSAGES"))
def test_bad_move_messages(impl: str, game: str, text: str, message: str) -> None:
    with pytest.raises(ValueError) as error:
        game_class(impl, game).parse_move(text)
    assert str(error.value) == message


@pytest.mark.parametrize("impl", ["cpp", "reference"])
def test_position_tokens_are_escaped_and_shortened(impl: str) -> None:
    cls = game_class(impl, "royal-marriage")
    with pytest.raises(ValueError) as error:
        cls.from_text("QH 7S\x00 KH")
    assert str(error.value) == "line 1, token 2 '7S\\x00': unknown card"
    with pytest.raises(ValueError) as error:
        cls.from_text("QH 7S " + "\u00e9" * 10**6 + "\x01 KH")
    assert str(error.value) == "line 1, token 3 '" + "\u00e9" * 40 + "'...: unknown card"


@pytest.mark.parametrize("game", GAME_NAMES)
def test_move_properties_agree(game: str) -> None:
    rng = random.Random(f"properties {game}")
    properties = game_data(game).MOVE_PROPERTIES
    seen = set()
    for _ in range(300):
        ref_state = random_position(game, rng)
        cpp_state = game_class("cpp", game).from_text(ref_state.to_text())
        ref_moves = {str(move): move for move in ref_state.legal_moves()}
        cpp_moves = {str(move): move for move in cpp_state.legal_moves()}
        assert cpp_moves.keys() == ref_moves.keys()
        for text, cpp_move in cpp_moves.items():
            for name in properties:
                cpp_value, ref_value = getattr(cpp_move, name), getattr(ref_moves[text], name)
                assert (type(cpp_value), cpp_value) == (type(ref_value), ref_value), f"{text}.{name}"
                seen.add((name, type(ref_value)))
    # Every property was met with each of the types of value it takes, and with no other.
    assert seen == {(name, kind) for name, kinds in properties.items() for kind in kinds}


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("value", [None, 5.0, True, b"QH", ["QH"]])
def test_non_text_arguments_give_the_same_type_error(game: str, value: Any) -> None:
    # An int is an action now (docs/rl.md "Actions"), so it is no longer a wrong type for play.
    def errors(impl: str) -> List[str]:
        cls = game_class(impl, game)
        state = cls.deal(1)
        move_class = type(state.legal_moves()[0])
        found = []
        for call in (cls.from_text, cls.parse_move, move_class, state.play, state.is_legal):
            with pytest.raises(TypeError) as error:
                call(value)
            found.append(str(error.value))
        assert state == cls.deal(1) and state.move_stack == []
        return found

    assert errors("cpp") == errors("reference")
    assert errors("cpp")[0] == f"position text must be a str, got {type(value).__name__}"


def test_signatures_name_the_types_taken() -> None:
    # The C++ methods take any object (to raise the reference's TypeError) but say what they need.
    cls = game_class("cpp", "germaine")
    assert cls.play.__doc__.startswith(
        "play(self: patience_engine._core.Germaine, move: patience_engine._core.GermaineMove | str | int) -> None")
    assert cls.is_legal.__doc__.startswith(
        "is_legal(self: patience_engine._core.Germaine, move: patience_engine._core.GermaineMove | str | int) -> bool")
    assert cls.from_text.__doc__.startswith("from_text(text: str) -> patience_engine._core.Germaine")
    assert cls.parse_move.__doc__.startswith("parse_move(text: str) -> patience_engine._core.GermaineMove")


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_move_of_the_other_implementation_plays_as_its_text(game: str) -> None:
    for mine, theirs in (("cpp", "reference"), ("reference", "cpp")):
        state, other = game_class(mine, game).deal(4), game_class(theirs, game).deal(4)
        for move in other.legal_moves():
            assert state.is_legal(move)
            played, by_text = state.copy(), state.copy()
            played.play(move)
            by_text.play(str(move))
            assert played.to_text() == by_text.to_text() and played.hash == by_text.hash
            assert type(played.move_stack[-1]) is type(state).Move  # read into this side's move
        # One that is not legal here is refused as its text would be, the position unchanged.
        stale = next(m for deal in range(5, 50) for m in game_class(theirs, game).deal(deal).legal_moves()
                     if not state.is_legal(str(m)))
        before = state.to_text()
        with pytest.raises(IllegalMoveError, match=f"^illegal move {re.escape(str(stale))}: not legal"):
            state.play(stale)
        assert state.to_text() == before


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_foreign_move_class_of_the_same_name_is_named_with_its_module(game: str) -> None:
    name = type(game_class("cpp", game).deal(1).legal_moves()[0]).__name__
    impostor = type(name, (), {"__str__": lambda self: "1:AS>F"})()
    other_game = next(g for g in GAME_NAMES if g != game)
    foreign = game_class("cpp", other_game).deal(1).legal_moves()[0]
    for impl in ("cpp", "reference"):
        state = game_class(impl, game).deal(1)
        for call in (state.play, state.is_legal):
            with pytest.raises(TypeError, match=f"got {__name__}.{name}$"):
                call(impostor)
            with pytest.raises(TypeError, match=f"got {type(foreign).__name__}$"):
                call(foreign)
