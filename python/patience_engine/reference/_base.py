"""What the three reference games share: move values, play/undo, copying, pickling, perft.

A game subclass keeps its position in instance attributes (no __slots__) and
supplies: ``_deal``, ``_parse``,
``to_text``, ``_generate``, ``_make``/``_unmake`` (which keep the Zobrist
keys up to date), ``_position`` (a tuple that identifies the position),
``hash``, ``canonical_hash``, ``is_won`` and ``score``.
"""

from __future__ import annotations

import copy as _copy
from typing import Any, ClassVar, Generic, Hashable, List, Tuple, Type, TypeVar, Union, cast

from .._errors import IllegalMoveError
from .._replay import replay
from ._cards import check_deal_number

MoveT = TypeVar("MoveT", bound="Move")
GameT = TypeVar("GameT", bound="Game[Any]")


class Move:
    """A move of one game, a value made from its notation (``str(move)``).

    Moves compare equal and hash by what they do; ``repr`` can be pasted back
    into Python. Raises ValueError naming what is wrong with the text.
    """

    __slots__ = ("_key",)
    _key: Tuple[Hashable, ...]

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise TypeError(f"move text must be a str, got {type(text).__name__}")
        self._key = self._parse(text)

    @classmethod
    def _of(cls: Type[MoveT], key: Tuple[Hashable, ...]) -> MoveT:
        move = cls.__new__(cls)
        move._key = key
        return move

    @staticmethod
    def _parse(text: str) -> Tuple[Hashable, ...]:
        raise NotImplementedError

    def __str__(self) -> str:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._key == self._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __reduce__(self) -> Tuple[Any, ...]:
        return (type(self), (str(self),))

    def __copy__(self: MoveT) -> MoveT:
        return self

    def __deepcopy__(self: MoveT, memo: Any) -> MoveT:
        return self


class Game(Generic[MoveT]):
    """A position of one game with the moves that led to it (python-chess style).

    Make one with ``deal(n)`` or ``from_text(text)``.
    """

    Move: ClassVar[Type[Move]]
    _history: List[Tuple[MoveT, Any]]
    _root_text: str

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        name = type(self).__name__
        raise TypeError(f"{name} cannot be made that way: use {name}.deal(n) or {name}.from_text(text)")

    @classmethod
    def deal(cls: Type[GameT], n: int) -> GameT:
        """Numbered deal ``n``, ``0 <= n < 2**64`` (docs/rules.md "Numbered deals").

        Raises ValueError out of range, TypeError for a non-int.
        """
        return cls._set_up(cls._deal(check_deal_number(n)))

    @classmethod
    def from_text(cls: Type[GameT], text: str) -> GameT:
        """Read a position in the game's text format.

        Raises ValueError naming the line and the token that break a rule.
        """
        if not isinstance(text, str):
            raise TypeError(f"position text must be a str, got {type(text).__name__}")
        return cls._set_up(cls._parse(text))

    @classmethod
    def _set_up(cls: Type[GameT], game: GameT) -> GameT:
        game._history = []
        game._root_text = game.to_text()
        return game

    @classmethod
    def _deal(cls: Type[GameT], n: int) -> GameT:
        raise NotImplementedError

    @classmethod
    def _parse(cls: Type[GameT], text: str) -> GameT:
        raise NotImplementedError

    @classmethod
    def parse_move(cls, text: str) -> MoveT:
        """Read a move's notation; raises ValueError naming what is wrong."""
        return cls.Move(text)  # type: ignore[return-value]

    def to_text(self) -> str:
        """The position in the game's text format."""
        raise NotImplementedError

    def _generate(self) -> List[MoveT]:
        raise NotImplementedError

    def _make(self, move: MoveT) -> Any:
        raise NotImplementedError

    def _unmake(self, move: MoveT, undo: Any) -> None:
        raise NotImplementedError

    def _position(self) -> Tuple[Hashable, ...]:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_text({self.to_text()!r})"

    def legal_moves(self) -> List[MoveT]:
        """The legal moves of the position, as a list of moves."""
        return self._generate()

    def _coerce(self, move: Union[MoveT, str]) -> MoveT:
        if isinstance(move, str):
            return self.parse_move(move)
        if not isinstance(move, self.Move):
            got = type(move).__name__
            if got == self.Move.__name__:  # a move of the other implementation: say which
                got = f"{type(move).__module__}.{got}"
            raise TypeError(f"expected a {self.Move.__name__} or its text, got {got}")
        return move

    def is_legal(self, move: Union[MoveT, str]) -> bool:
        """Whether the move (or its text) is legal in this position."""
        return self._coerce(move) in self._generate()

    def play(self, move: Union[MoveT, str]) -> None:
        """Play a move (or its text).

        Raises IllegalMoveError (a ValueError), leaving the position unchanged.
        """
        move = self._coerce(move)
        if move not in self._generate():
            raise IllegalMoveError(f"illegal move {move}: not legal in this position")
        self._history.append((move, self._make(move)))

    def undo(self) -> MoveT:
        """Take back the last move and return it; raises IndexError when there is none."""
        if not self._history:
            raise IndexError("undo: no move to take back")
        move, undo = self._history.pop()
        self._unmake(move, undo)
        return move

    @property
    def move_stack(self) -> List[MoveT]:
        """The moves played since the position was set up, oldest first."""
        return [move for move, _ in self._history]

    @property
    def is_over(self) -> bool:
        """True when no move is legal."""
        return not self._generate()

    def copy(self: GameT) -> GameT:
        """An independent copy, move stack included."""
        clone = type(self).__new__(type(self))
        clone.__dict__.update(_copy.deepcopy(self.__dict__))
        return clone

    def __copy__(self: GameT) -> GameT:
        return self.copy()

    def __deepcopy__(self: GameT, memo: Any) -> GameT:
        return self.copy()

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and cast(Game[Any], other)._position() == self._position()

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> Tuple[Any, ...]:
        return (replay, (type(self), self._root_text, [str(move) for move, _ in self._history]))

    def _perft(self, depth: int, bulk: bool) -> int:
        if depth == 0:
            return 1
        moves = self._generate()
        if bulk and depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            undo = self._make(move)
            total += self._perft(depth - 1, bulk)
            self._unmake(move, undo)
        return total


MAX_PERFT_DEPTH = 500
"""Deepest perft accepted, as in the C++ engine (a Geoffrey King can shuttle forever)."""


def perft(state: Game[Any], depth: int, bulk: bool = True) -> int:
    """Number of legal move sequences of ``depth`` moves from ``state`` (docs/rules.md "Perft").

    ``bulk`` counts the last ply's moves without making them; ``state`` is
    unchanged. Raises TypeError for a non-Game state or a non-int depth and
    ValueError for a depth outside 0 .. MAX_PERFT_DEPTH.
    """
    if not isinstance(state, Game):
        raise TypeError(f"perft needs a reference game position, got {type(state).__name__}")
    if not isinstance(depth, int) or isinstance(depth, bool):
        raise TypeError(f"perft depth must be an int, got {type(depth).__name__}")
    if not 0 <= depth <= MAX_PERFT_DEPTH:
        raise ValueError(f"perft depth must be in 0 .. {MAX_PERFT_DEPTH}, got {depth}")
    return state.copy()._perft(depth, bulk)
