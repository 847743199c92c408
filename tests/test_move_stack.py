"""``move_stack`` and ``undo`` of both implementations: what they return and what reading costs.

The reference's ``move_stack`` is a new list of the Move objects it keeps, so reading it copies
n references and makes no move; the C++ classes must not cost more (they once made a new
Python object per move on every read, twelve times the reference's time at 2,000 moves).
"""

from __future__ import annotations

import timeit
from typing import Any

import pytest

from conftest import game_class

LONG_GAME = 2000
"""Moves in the long games below."""


# Geoffrey deal 9 after these moves has column 3's king alone and column 4 empty, so the king
# can go back and forth for ever.
OPENING = "4:4C>8 2:9C>5 1:5H>2 2:6H>1 1:7H>8 8:6C>1 3:QS>8 7:KC>3".split()
SHUTTLE = ("3:KC>4", "4:KC>3")


def long_geoffrey(impl: str) -> Any:
    """Geoffrey deal 9 after LONG_GAME moves: OPENING, then the king's shuttle."""
    state = game_class(impl, "geoffrey").deal(9)
    for move in OPENING:
        state.play(move)
    for _ in range((LONG_GAME - len(OPENING)) // 2):
        for move in SHUTTLE:
            state.play(move)
    assert len(state.move_stack) == LONG_GAME
    return state


def test_move_stack_is_a_new_list_of_the_same_moves(impl: str, game: str) -> None:
    state = game_class(impl, game).deal(1)
    for _ in range(3):
        state.play(state.legal_moves()[0])
    stack = state.move_stack
    assert stack == state.move_stack and stack is not state.move_stack
    # The same objects at every read: nothing is made per move.
    assert all(a is b for a, b in zip(stack, state.move_stack))
    # The list is the caller's: changing it leaves the state alone.
    stack.clear()
    assert len(state.move_stack) == 3
    # A copy shares the (immutable) moves but not the list.
    clone = state.copy()
    assert clone.move_stack == state.move_stack
    clone.undo()
    assert len(clone.move_stack) == 2 and len(state.move_stack) == 3
    # undo() returns the object the stack held.
    last = state.move_stack[-1]
    assert state.undo() is last and len(state.move_stack) == 2


@pytest.mark.timing
def test_reading_move_stack_costs_no_more_than_the_reference() -> None:
    """Both read in one run, best of several rounds; the slack of 2 absorbs noise, not a factor of n."""
    cpp, ref = long_geoffrey("cpp"), long_geoffrey("reference")
    assert [str(m) for m in cpp.move_stack] == [str(m) for m in ref.move_stack]

    def read_time(state: Any) -> float:
        return min(timeit.repeat(lambda: state.move_stack, number=20, repeat=15))

    assert read_time(cpp) <= 2 * read_time(ref)


@pytest.mark.parametrize("impl", ["cpp", "reference"])
def test_undoing_a_long_game_through_move_stack(impl: str) -> None:
    state = long_geoffrey(impl)
    undone = 0
    while state.move_stack:
        state.undo()
        undone += 1
    assert undone == LONG_GAME and state == game_class(impl, "geoffrey").deal(9)
