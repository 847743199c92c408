"""Text round trips, bad text, move values, illegal moves, undo and pickling on both implementations."""

from __future__ import annotations

import copy
import pickle
import random
import re

import pytest

import patience_engine
from conftest import game_cases, game_class, sorted_moves
from patience_engine import IllegalMoveError, reference
from patience_engine.games import REGISTRY

FULL_ROW = " ".join(
    ["QH"] + [r + s for s in "CDHS" for r in "A23456789TJQK" if r + s not in ("QH", "KH")] + ["KH"]
)


def walk(state, plies: int, seed: int):
    rng = random.Random(seed)
    for _ in range(plies):
        moves = state.legal_moves()
        if not moves:
            break
        state.play(rng.choice(moves))
    return state


def test_text_round_trip(impl: str, game: str) -> None:
    for deal in range(20):
        state = walk(game_class(impl, game).deal(deal), 15, deal)
        again = game_class(impl, game).from_text(state.to_text())
        assert again == state
        assert again.to_text() == state.to_text() == str(state)
        assert again.hash == state.hash and again.canonical_hash == state.canonical_hash
        assert sorted_moves(again) == sorted_moves(state)


@pytest.mark.parametrize("game, text, shown", game_cases("SPELLINGS"))
def test_extra_blank_space_and_card_spellings_are_read(impl: str, game: str, text: str, shown: str) -> None:
    assert game_class(impl, game).from_text(text).to_text() == shown


def test_a_germaine_text_without_its_slides_line_allows_none(impl: str) -> None:
    germaine = game_class(impl, "germaine").from_text("\n".join(["-- " * 12 + "AS"] + ["-- " * 13] * 3))
    assert germaine.to_text().endswith("slides: 0")


def test_a_geoffrey_text_without_its_foundations_line_has_none_home(impl: str) -> None:
    deal = game_class(impl, "geoffrey").deal(5)
    body = "\n".join(deal.to_text().split("\n")[1:])
    assert game_class(impl, "geoffrey").from_text(body) == deal


@pytest.mark.parametrize("game, text, message", game_cases("BAD_POSITION_TEXTS"))
def test_bad_text_names_line_and_token(impl: str, game: str, text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        game_class(impl, game).from_text(text)


@pytest.mark.parametrize("game, text", game_cases("BAD_MOVE_TEXTS"))
def test_bad_move_text_is_refused(impl: str, game: str, text: str) -> None:
    with pytest.raises(ValueError):
        game_class(impl, game).parse_move(text)


def test_moves_are_values(impl: str, game: str) -> None:
    cls = game_class(impl, game)
    state = cls.deal(7)
    namespace = {cls.Move.__name__: cls.Move}
    for move in state.legal_moves():
        again = cls.parse_move(str(move))
        assert again == move and hash(again) == hash(move)
        assert eval(repr(move), namespace) == move
        assert pickle.loads(pickle.dumps(move)) == move
        assert copy.deepcopy(move) == move
    assert len(set(state.legal_moves())) == len(state.legal_moves())


def test_illegal_move_leaves_position_unchanged(impl: str, game: str) -> None:
    state = game_class(impl, game).deal(11)
    before = (state.to_text(), state.hash, sorted_moves(state))
    legal = set(sorted_moves(state))
    other = game_class(impl, game).deal(12)
    tried = 0
    for move in other.legal_moves():
        if str(move) not in legal:
            with pytest.raises(IllegalMoveError, match="illegal move"):
                state.play(move)
            with pytest.raises(ValueError):
                state.play(str(move))
            with pytest.raises(IllegalMoveError, match=f"illegal move {re.escape(str(move))}: not legal"):
                state.play(move.action)
            assert not state.is_legal(move)
            assert not state.is_legal(move.action)
            tried += 1
    assert tried
    with pytest.raises(ValueError):
        state.play("nonsense")
    with pytest.raises(TypeError):
        state.play(42.0)  # an int is an action (docs/rl.md "Actions")
    with pytest.raises(TypeError, match="got bool$"):
        state.play(True)
    for outside in (-1, state.NUM_ACTIONS, 2**70):
        with pytest.raises(ValueError, match=f"action {outside} is outside 0 .. {state.NUM_ACTIONS - 1}$"):
            state.play(outside)
        with pytest.raises(ValueError, match="is outside"):
            state.is_legal(outside)
    assert (state.to_text(), state.hash, sorted_moves(state)) == before
    assert state.move_stack == []


def test_undo_on_a_fresh_deal(impl: str, game: str) -> None:
    state = game_class(impl, game).deal(3)
    with pytest.raises(IndexError):
        state.undo()
    move = state.legal_moves()[0]
    state.play(move)
    assert state.move_stack == [move]
    assert state.undo() == move
    assert state == game_class(impl, game).deal(3)
    with pytest.raises(IndexError):
        state.undo()


def test_copy_and_pickle_keep_the_move_stack(impl: str, game: str) -> None:
    state = walk(game_class(impl, game).deal(21), 6, 21)
    for clone in (state.copy(), copy.copy(state), copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert clone == state and clone.hash == state.hash
        assert clone.move_stack == state.move_stack
        if state.move_stack:
            assert clone.undo() == state.move_stack[-1]
            assert clone != state
    assert len(state.move_stack) == 6


@pytest.mark.parametrize("n", [-1, 1 << 64, 1 << 70])
def test_deal_number_out_of_range(impl: str, game: str, n: int) -> None:
    with pytest.raises(ValueError, match="deal number"):
        game_class(impl, game).deal(n)


def test_deal_number_limits(impl: str, game: str) -> None:
    cls = game_class(impl, game)
    assert cls.deal((1 << 64) - 1).to_text() == game_class("reference", game).deal((1 << 64) - 1).to_text()
    with pytest.raises(TypeError):
        cls.deal("1")


def test_full_royal_marriage_row(impl: str) -> None:
    state = game_class(impl, "royal-marriage").from_text(FULL_ROW)
    assert state.score == 0 and len(state.to_text().split()) == 52
    assert state.to_text().split("\n")[0] == " ".join(FULL_ROW.split()[:13])


def test_same_names_in_both_implementations() -> None:
    for game, info in REGISTRY.items():
        for module in (patience_engine, reference):
            cls = module.GAMES[game]
            assert (cls.__name__, cls.Move.__name__) == (info.class_name, info.move_class_name)
    # Both packages export the published games' classes by name; an optional game's are reached through GAMES
    # alone (docs/adding-a-game.md "The count": users never see it).
    classes = [name for info in REGISTRY.values() if not info.optional for name in (info.class_name, info.move_class_name)]
    for name in [*classes, "perft", "IllegalMoveError", "GAMES"]:
        assert hasattr(patience_engine, name) and hasattr(reference, name)
    assert reference.IllegalMoveError is patience_engine.IllegalMoveError
    assert issubclass(IllegalMoveError, ValueError)


def test_positions_are_made_only_by_deal_or_text(impl: str, game: str) -> None:
    cls = game_class(impl, game)
    with pytest.raises(TypeError, match="deal"):
        cls()
    if impl == "cpp":
        with pytest.raises(TypeError, match="deal"):
            cls.__new__(cls)
        with pytest.raises(TypeError, match="text"):
            cls.Move.__new__(cls.Move)


def test_text_arguments_must_be_str(impl: str, game: str) -> None:
    cls = game_class(impl, game)
    text = cls.deal(1).to_text()
    for bad in (text.encode(), None, 1):
        with pytest.raises(TypeError):
            cls.from_text(bad)
    with pytest.raises(ValueError):
        cls.from_text(text + "\ud800")
    with pytest.raises(TypeError):
        cls.parse_move(b"7S")
