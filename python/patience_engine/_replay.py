"""Rebuilding a pickled position: the one unpickling path of both implementations."""

from typing import Any, Sequence


def replay(cls: Any, root_text: str, moves: Sequence[str]) -> Any:
    """The position ``cls.from_text(root_text)`` after ``moves`` (move texts), played in order.

    Raises ValueError (IllegalMoveError) when a move does not apply.
    """
    state = cls.from_text(root_text)
    for text in moves:
        state.play(text)
    return state
