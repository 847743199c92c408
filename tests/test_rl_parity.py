"""The C++ engine against the reference on the reinforcement-learning interface (docs/rl.md).

Seeded random games of each game, the same moves played in both: legal actions, masks,
observations (plain and hidden), hidden texts and determinized positions agree at every ply;
every action decodes alike, with the same errors.
"""

from __future__ import annotations

import random
from typing import Any, List

import numpy as np
import pytest

from conftest import GAME_NAMES, game_class, game_data
from patience_engine import IllegalMoveError
from patience_engine.games import REGISTRY, names_where

RANDOM_GAMES = 40


def errors(call: Any, *args: Any) -> str:
    """The exception a call raises, as 'TypeName: message', or its result as a string."""
    try:
        return str(call(*args))
    except (TypeError, ValueError) as e:
        return f"{type(e).__name__}: {e}"


@pytest.mark.parametrize("game", GAME_NAMES)
def test_constants_agree(game: str) -> None:
    cpp, ref = game_class("cpp", game), game_class("reference", game)
    for name in ("NUM_ACTIONS", "OBSERVATION_SHAPE", "OBSERVATION_DTYPE", "DEFAULT_MAX_MOVES"):
        assert getattr(cpp, name) == getattr(ref, name), name
    assert isinstance(cpp.OBSERVATION_SHAPE, tuple)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_action_decodes_alike(game: str) -> None:
    cpp, ref = game_class("cpp", game), game_class("reference", game)
    for action in range(-2, cpp.NUM_ACTIONS + 2):
        assert errors(cpp.move_of, action) == errors(ref.move_of, action), action
        got = errors(lambda a: cpp.move_of(a).action, action)
        assert got == errors(lambda a: ref.move_of(a).action, action), action
    for bad in (1.0, True, "1", None, 2**70, -(2**70)):
        assert errors(cpp.move_of, bad) == errors(ref.move_of, bad), bad


def test_moves_without_an_action_agree() -> None:
    cpp, ref = game_class("cpp", "royal-marriage"), game_class("reference", "royal-marriage")
    for text in ("QH", "KH", "QH+2C", "2C+KH", "AC", "AC+2C"):
        assert errors(lambda t: cpp.Move(t).action, text) == errors(lambda t: ref.Move(t).action, text)


def hidden_texts_and_views(state: Any) -> List[Any]:
    return [state.to_text(hidden=True), state.to_text(hidden=False), state.to_text()]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_random_games_agree_on_actions_masks_observations(game: str) -> None:
    plies = game_data(game).RL_PARITY_PLIES
    for number in range(RANDOM_GAMES):
        rng = random.Random(f"rl-{game}-{number}")
        deal = rng.randrange(2**64)
        cpp, ref = game_class("cpp", game).deal(deal), game_class("reference", game).deal(deal)
        for ply in range(plies + 1):
            actions = cpp.legal_actions()
            assert actions == ref.legal_actions(), (deal, ply)
            assert actions == sorted(set(actions))
            assert [str(m) for m in cpp.legal_moves()] == [str(m) for m in ref.legal_moves()]
            assert [m.action for m in cpp.legal_moves()] == actions
            mask = cpp.legal_action_mask()
            assert mask.dtype == np.bool_ and mask.shape == (cpp.NUM_ACTIONS,)
            assert mask.tolist() == ref.legal_action_mask()
            assert np.flatnonzero(mask).tolist() == actions
            for hidden in (False, True):
                obs = cpp.observation(hidden=hidden)
                assert obs.dtype == np.uint8 and obs.shape == cpp.OBSERVATION_SHAPE
                assert obs.tolist() == ref.observation(hidden=hidden), (deal, ply, hidden)
            assert hidden_texts_and_views(cpp) == hidden_texts_and_views(ref)
            seed = rng.randrange(2**64)
            mine, theirs = cpp.determinize(seed), ref.determinize(seed)
            assert mine.to_text() == theirs.to_text() and mine.hash == theirs.hash
            assert [str(m) for m in mine.move_stack] == [str(m) for m in theirs.move_stack]
            if not actions or ply == plies:
                break
            action = rng.choice(actions)
            for state in (cpp, ref):
                assert state.is_legal(action)
                # Alternately the int and the Move of the same action: the same game either way.
                state.play(action if ply % 2 else type(state).move_of(action))
            assert cpp.move_stack[-1].action == action


@pytest.mark.parametrize("game", GAME_NAMES)
def test_int_actions_refused_alike(game: str) -> None:
    """An action outside the space, one naming no move, an illegal one: same error, nothing changes."""
    cpp, ref = game_class("cpp", game).deal(5), game_class("reference", game).deal(5)
    legal = set(cpp.legal_actions())
    candidates = [-1, cpp.NUM_ACTIONS, 2**64, True, 3.0] + [a for a in range(0, cpp.NUM_ACTIONS, 7) if a not in legal]
    for action in candidates:
        for call in ("play", "is_legal"):
            assert errors(getattr(cpp, call), action) == errors(getattr(ref, call), action), (call, action)
        assert cpp.to_text() == ref.to_text() and cpp.move_stack == [] and ref.move_stack == []
    illegal = next(a for a in candidates[5:] if not errors(cpp.move_of, a).startswith("ValueError"))
    with pytest.raises(IllegalMoveError, match=r"^illegal move \S+: not legal in this position$"):
        cpp.play(illegal)


@pytest.mark.parametrize("impl", ["cpp", "reference"])
@pytest.mark.parametrize("game", GAME_NAMES)
def test_is_legal_agrees_with_the_mask_at_every_action(game: str, impl: str) -> None:
    """is_legal(a) never raises inside the space: False for an action that names no move, as the mask says."""
    state = game_class(impl, game).deal(3)
    rng = random.Random(f"is-legal-{game}")
    for _ in range(4):
        mask = list(state.legal_action_mask())
        assert [state.is_legal(a) for a in range(state.NUM_ACTIONS)] == mask
        if not state.legal_actions():
            break
        state.play(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("impl", ["cpp", "reference"])
def test_an_action_that_names_no_move_is_an_illegal_move(impl: str) -> None:
    state = game_class(impl, "germaine").deal(1)
    for action in (0, 7 * 52 + 51):  # a1 up, m4 down: off the grid
        assert not state.is_legal(action)
        with pytest.raises(IllegalMoveError, match=rf"^action {action} names no move: cell (a1|m4) has no neighbour"):
            state.play(action)
    assert state.to_text() == game_class(impl, "germaine").deal(1).to_text() and state.move_stack == []
    with pytest.raises(ValueError, match="^action 0 names no move") as raised:
        state.move_of(0)  # a move cannot be made of it
    assert type(raised.value) is ValueError


@pytest.mark.parametrize("game", GAME_NAMES)
def test_hidden_and_seed_arguments_checked_alike(game: str) -> None:
    cpp, ref = game_class("cpp", game).deal(2), game_class("reference", game).deal(2)
    for bad in (1, 0, None, "yes"):
        assert errors(cpp.observation, bad) == errors(ref.observation, bad)
        assert errors(cpp.to_text, bad) == errors(ref.to_text, bad)
    for bad in (-1, 2**64, 1.5, True, None):
        assert errors(cpp.determinize, bad) == errors(ref.determinize, bad)


@pytest.mark.parametrize("game", names_where(lambda info: info.hidden_cards))
def test_hidden_text_refused_alike(game: str) -> None:
    cpp, ref = game_class("cpp", game), game_class("reference", game)
    text = cpp.deal(3).to_text(hidden=True)
    assert "(??)" in text
    assert errors(cpp.from_text, text) == errors(ref.from_text, text)
    assert "face-down card not known" in errors(cpp.from_text, text)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_determinize_copies_the_move_stack_without_face_down_cards(game: str) -> None:
    """With no card face down the copy is the game, moves and all; with some, a new deal of the
    position, which has no moves behind it."""
    state = game_class("cpp", game).deal(4)
    state.play(state.legal_actions()[0])
    copy = state.determinize(9)
    if REGISTRY[game].hidden_cards:
        assert copy.move_stack == []
    else:
        assert copy == state and copy.move_stack == state.move_stack
