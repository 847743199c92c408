"""The CPython-level methods of the C++ positions (cpp/core/fast_methods.hpp ``FastMethods``).

``legal_actions()``, ``play()``, ``is_legal()``, ``score``, ``is_over`` and ``is_won`` bypass
pybind11's dispatcher: ``play()`` and ``is_legal()`` take a lone int action themselves and hand
every other call to the pybind11 function they replace. These tests hold both routes to the
reference's answers and to the same errors.
"""

from __future__ import annotations

import enum
import random
import re

import numpy as np
import pytest

from conftest import GAME_NAMES, game_class
from patience_engine import IllegalMoveError


@pytest.mark.parametrize("seed", range(20))
def test_int_route_equals_move_route_and_the_reference(game: str, seed: int) -> None:
    cls = game_class("cpp", game)
    fast, slow, ref = cls.deal(seed), cls.deal(seed), game_class("reference", game).deal(seed)
    rng = random.Random(seed)
    for _ in range(60):
        legal = fast.legal_actions()
        assert legal == ref.legal_actions()
        assert (fast.score, fast.is_over, fast.is_won) == (ref.score, ref.is_over, ref.is_won)
        # Every action of the space is legal exactly when listed (the fast route answers True, the
        # pybind11 route False), as the reference says: 40 of them, or all of a smaller space.
        listed = set(legal)
        sample = rng.sample(range(fast.NUM_ACTIONS), min(40, fast.NUM_ACTIONS)) + legal
        for a in sample:
            try:
                expected = ref.is_legal(a)
            except ValueError:  # an action that names no move (one off a grid)
                with pytest.raises(ValueError):
                    fast.is_legal(a)
                continue
            assert fast.is_legal(a) == expected == (a in listed)
        if not legal:
            break
        action = rng.choice(legal)
        fast.play(action)
        slow.play(type(slow).move_of(action))
        ref.play(action)
        assert fast == slow and fast.to_text() == ref.to_text() and fast.hash == ref.hash
        assert [str(m) for m in fast.move_stack] == [str(m) for m in ref.move_stack]


def test_numpy_integers_and_other_forms_are_taken(game: str, impl: str) -> None:
    """A numpy integer, an IntEnum, the Move and its text, by position or keyword (in C++ the
    pybind11 route), in both implementations."""
    cls = game_class(impl, game)
    state = cls.deal(1)
    action = state.legal_actions()[0]

    class Action(enum.IntEnum):
        FIRST = action

    for form in (np.int64(action), np.uint16(action), np.array(action), Action.FIRST, cls.move_of(action),
                 str(cls.move_of(action))):
        copy = state.copy()
        assert copy.is_legal(form) and copy.is_legal(move=form)
        copy.play(form)
        keyword = state.copy()
        keyword.play(move=form)
        assert copy == keyword and copy.move_stack == [cls.move_of(action)]


def test_refusals_keep_the_pybind11_messages_and_the_position(game: str) -> None:
    cls = game_class("cpp", game)
    state = cls.deal(1)
    before = state.copy()
    illegal = next(a for a in range(cls.NUM_ACTIONS) if not _off_grid(cls, a) and not state.is_legal(a))
    text = re.escape(str(cls.move_of(illegal)))
    with pytest.raises(IllegalMoveError, match=rf"^illegal move {text}: not legal in this position$"):
        state.play(illegal)
    for bad, error in [(True, TypeError), (np.True_, TypeError), (cls.NUM_ACTIONS, ValueError), (-1, ValueError),
                       (np.int64(-1), ValueError), (2**70, ValueError), (1.0, TypeError), (np.float64(1), TypeError)]:
        with pytest.raises(error) as raised:
            state.play(bad)
        assert "\n" not in str(raised.value)
        with pytest.raises(error):
            state.is_legal(bad)
    with pytest.raises(TypeError):
        state.play()
    with pytest.raises(TypeError):
        state.play(0, 1)
    with pytest.raises(TypeError):
        state.legal_actions(1)
    assert state == before and state.move_stack == []


def test_methods_refuse_another_game_and_properties_are_read_only(game: str) -> None:
    cls = game_class("cpp", game)
    other = game_class("cpp", next(name for name in GAME_NAMES if name != game)).deal(1)
    for name, args in [("legal_actions", ()), ("play", (0,)), ("is_legal", (0,))]:
        with pytest.raises(TypeError, match="doesn't apply to a"):
            getattr(cls, name)(other, *args)
    state = cls.deal(1)
    for name in ("score", "is_over", "is_won"):
        with pytest.raises(AttributeError):
            setattr(state, name, 0)
        assert getattr(cls, name).__doc__  # the pybind11 property's docstring, kept
    assert cls.play.__doc__.startswith("play(self")


def _off_grid(cls: type, action: int) -> bool:
    try:
        cls.move_of(action)  # type: ignore[attr-defined]
    except ValueError:
        return True
    return False


def test_moves_are_made_once_per_action_and_play_anywhere() -> None:
    """legal_moves() hands out one object per action. A Royal Marriage move carries the row position
    where it was first generated (a hint); played in a row where its card stands elsewhere it must
    still remove that card, as the reference does."""
    cls, ref = game_class("cpp", "royal-marriage"), game_class("reference", "royal-marriage")
    first = cls.deal(1)
    moves = {m.action: m for m in first.legal_moves()}
    state, mirror = cls.deal(1), ref.deal(1)
    rng = random.Random(5)
    played_elsewhere = 0
    while state.legal_actions():
        again = {m.action: m for m in state.legal_moves()}
        for action, move in again.items():
            assert move == cls.move_of(action)
            if action in moves:
                assert move is moves[action]
        action = rng.choice(sorted(again))
        move = moves.get(action, again[action])
        played_elsewhere += action in moves and state.move_stack != []
        state.play(move)
        mirror.play(action)
        assert state.to_text() == mirror.to_text() and state.move_stack[-1] is move
    assert played_elsewhere > 0 and state.undo() is move
