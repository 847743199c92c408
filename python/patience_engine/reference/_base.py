"""What the reference games share: move values, play/undo, copying, pickling, perft,
and the reinforcement-learning interface (integer actions, masks, observations, determinization).

A game subclass keeps its position in instance attributes (no __slots__) and
supplies: ``_deal``, ``_parse``,
``_text``, ``_generate``, ``_make``/``_unmake`` (which keep the Zobrist
keys up to date), ``_position`` (a tuple that identifies the position),
``hash``, ``canonical_hash``, ``is_won`` and ``score``; for the RL interface
(docs/rl.md) the class constants ``NUM_ACTIONS``, ``OBSERVATION_SHAPE`` and
``DEFAULT_MAX_MOVES``, ``_decode`` (action -> move) and ``_observe``; its
Move subclass supplies ``_parse`` (notation -> move key), ``_encode`` (move key -> action),
``__str__`` (the notation) and the move's own properties. A game with face-down cards overrides
``_determinize``.
"""

from __future__ import annotations

import copy as _copy
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Hashable, List, SupportsIndex, Tuple, Type, TypeVar, Union, cast

from .._errors import IllegalMoveError
from .._replay import replay
from .._shown import qualified_name, type_text
from ..limits import check_int, check_threads, int_value
from ..registry import GAMES
from ._cards import check_deal_number

if TYPE_CHECKING:
    # A move of the C++ engine, which play() and is_legal() read by its text (the game's own only).
    from .._core import _Move as EngineMove

OBSERVATION_DTYPE = "uint8"
"""dtype name of every game's observation (docs/rl.md "Observations")."""
RANK_PLANES = 0
"""First observation plane of the rank one-hot: plane ``RANK_PLANES + rank - 1`` for ranks A..K."""
SUIT_PLANES = 13
"""First observation plane of the suit one-hot: plane ``SUIT_PLANES + suit`` for suits C D H S."""
NO_ACTION = -1
"""``_encode``'s answer for a move that has no action (it can never be legal)."""

MoveT = TypeVar("MoveT", bound="Move")
GameT = TypeVar("GameT", bound="Game[Any]")


def other_type_name(value: object, expected: str) -> str:
    """``type_text(value)`` for an error message, with the type's module when its name is the one
    expected (a class of another module named as this game's move class)."""
    name = type_text(value)
    return qualified_name(type(value)) if name == expected else name


def other_implementations_move(value: object, move_class: type) -> bool:
    """Whether ``value`` is a move of this game of another class: the other implementation's, a
    subclass, a stale class after a reload (its class, or a base of it, has the name of
    ``move_class`` in a patience_engine module); a move argument reads it by its text, as moves
    compare equal only within one class."""
    return any(cls.__name__ == move_class.__name__ and isinstance(getattr(cls, "__module__", None), str)
               and cls.__module__.startswith("patience_engine.") for cls in type(value).__mro__)


class Move:
    """A move of one game, a value made from its notation (``str(move)``).

    Moves compare equal and hash by what they do; ``repr`` can be pasted back
    into Python. Raises ValueError naming what is wrong with the text.
    """

    __slots__ = ("_key", "_action")
    _key: Tuple[Hashable, ...]
    _action: int

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise TypeError(f"move text must be a str, got {type_text(text)}")
        self._key = self._parse(text)
        self._action = self._encode(self._key)

    @classmethod
    def _of(cls: Type[MoveT], key: Tuple[Hashable, ...]) -> MoveT:
        move = cls.__new__(cls)
        move._key = key
        move._action = cls._encode(key)
        return move

    @staticmethod
    def _parse(text: str) -> Tuple[Hashable, ...]:
        raise NotImplementedError

    @staticmethod
    def _encode(key: Any) -> int:  # Any: each game's key is a tuple of its own shape
        raise NotImplementedError

    @property
    def action(self) -> int:
        """The move's action, an int in ``0 .. NUM_ACTIONS - 1`` that does not depend on the position.

        The encoding of each game is tabled in docs/rl.md "Actions". Raises
        ValueError for a move that can never be legal and so has no action
        (a Royal Marriage move that removes ``QH`` or ``KH``).
        """
        if self._action == NO_ACTION:
            raise ValueError(f"move {self} has no action: it can never be legal")
        return self._action

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
    NUM_ACTIONS: ClassVar[int]
    """Size of the action space: actions are ints ``0 .. NUM_ACTIONS - 1`` (docs/rl.md "Actions")."""
    OBSERVATION_SHAPE: ClassVar[Tuple[int, ...]]
    """Shape of ``observation()`` (docs/rl.md "Observations")."""
    OBSERVATION_DTYPE: ClassVar[str] = OBSERVATION_DTYPE
    """dtype name of ``observation()``'s values: ``'uint8'``, each 0 or 1."""
    DEFAULT_MAX_MOVES: ClassVar[int]
    """Moves after which an episode is truncated unless told otherwise (docs/rl.md "Episodes")."""
    _history: List[Tuple[MoveT, Any]]
    _root_text: str

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        name = type(self).__name__
        raise TypeError(f"{name} cannot be made that way: use {name}.deal(n) or {name}.from_text(text)")

    if TYPE_CHECKING:  # given to every game class at import (reference.pysol.install, draw.install)
        @classmethod
        def from_pysol(cls: Type[GameT], number: Union[SupportsIndex, str]) -> GameT:
            """PySolFC's layout for game ``number`` (docs/usage.md "PySolFC game numbers")."""

        def to_svg(self, highlight: Union[MoveT, str, SupportsIndex, None] = None, *, hidden: bool = False) -> str:
            """The position as an SVG picture (``patience_engine.draw``)."""

    @classmethod
    def deal(cls: Type[GameT], n: SupportsIndex) -> GameT:
        """Numbered deal ``n``, ``0 <= n < 2**64`` (docs/rules.md "Numbered deals").

        Raises ValueError out of range, TypeError for a non-int.
        """
        return cls._set_up(cls._deal(check_deal_number(n)))

    @classmethod
    def from_text(cls: Type[GameT], text: str) -> GameT:
        """Read a position in the game's text format (a str); a leading byte-order mark (U+FEFF, as
        editors on Windows write) is dropped.

        Raises ValueError naming the line and the token that break a rule, TypeError for a non-str.
        """
        if not isinstance(text, str):
            raise TypeError(f"position text must be a str, got {type_text(text)}")
        return cls._set_up(cls._parse(text.removeprefix("\ufeff")))

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

    def to_text(self, hidden: bool = False) -> str:
        """The position in the game's text format (docs/rules.md "Text formats").

        ``hidden=True`` writes what the player sees: each face-down card as
        ``(??)`` (a game without face-down cards has none; docs/rl.md "Hidden view"), a
        text that ``from_text`` refuses. Raises TypeError for a non-bool ``hidden``.
        """
        return self._text(check_hidden(hidden))

    def _text(self, hidden: bool) -> str:
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
        """The legal moves of the position, as a list of moves in ascending action order."""
        return sorted(self._generate(), key=_action_of)

    def legal_actions(self) -> List[int]:
        """The legal moves' actions, ascending: a list of ints (docs/rl.md "Actions")."""
        return sorted(move._action for move in self._generate())

    def legal_action_mask(self) -> List[bool]:
        """A list of ``NUM_ACTIONS`` bools, True at each legal action."""
        mask = [False] * self.NUM_ACTIONS
        for move in self._generate():
            mask[move._action] = True
        return mask

    @classmethod
    def move_of(cls, action: SupportsIndex) -> MoveT:
        """The move whose action is ``action`` (docs/rl.md "Actions").

        ``action``: an int or an integer with ``__index__`` (a numpy integer),
        never a bool. Raises TypeError for anything else and ValueError for an
        int outside ``0 .. NUM_ACTIONS - 1`` or one that names no move (a
        Germaine direction off the grid).
        """
        return cls._decode(check_int(action, "action", 0, cls.NUM_ACTIONS - 1, index=ValueError))

    @classmethod
    def _decode(cls, action: int) -> MoveT:
        raise NotImplementedError

    def observation(self, hidden: bool = False) -> List[Any]:
        """The position as nested lists of 0/1 ints of shape ``OBSERVATION_SHAPE`` (docs/rl.md "Observations").

        ``hidden=True`` shows only where face-down cards lie, never which they
        are (a game without face-down cards has none). Raises TypeError for a non-bool ``hidden``.
        """
        return self._observe(check_hidden(hidden))

    def _observe(self, hidden: bool) -> List[Any]:
        raise NotImplementedError

    def determinize(self: GameT, seed: SupportsIndex) -> GameT:
        """A position consistent with what the player sees (docs/rl.md "Determinization").

        The face-down cards are drawn uniformly from the cards not in view with
        the SplitMix64 shuffle seeded by ``seed`` (docs/rules.md "Numbered
        deals"); a game without face-down cards returns ``copy()``. Raises
        TypeError for a non-int seed and ValueError outside 0 .. 2**64-1.
        """
        return self._determinize(check_deal_number(seed, "seed"))

    def _determinize(self: GameT, seed: int) -> GameT:
        return self.copy()

    def _coerce(self, move: Union[MoveT, EngineMove, str, SupportsIndex]) -> MoveT:
        if isinstance(move, str):
            return self.parse_move(move)
        number = int_value(move)
        if number is not None:
            try:
                return self.move_of(number)
            except ValueError as error:  # no position allows an action that names no move
                if not 0 <= number < self.NUM_ACTIONS:
                    raise
                raise IllegalMoveError(str(error)) from None
        if type(move) is self.Move:
            return move
        if other_implementations_move(move, self.Move):
            return self.parse_move(str(move))
        got = other_type_name(move, self.Move.__name__)
        raise TypeError(f"expected a {self.Move.__name__}, its text or an int action, got {got}")

    def is_legal(self, move: Union[MoveT, EngineMove, str, SupportsIndex]) -> bool:
        """Whether the move (of either implementation, or its text, or its int action) is legal in this position.

        False for an action that names no move (a Germaine step off the grid). Raises TypeError for anything
        else; ValueError for bad move text or an int outside the action space.
        """
        try:
            return self._coerce(move) in self._generate()
        except IllegalMoveError:  # an action that names no move
            return False

    def play(self, move: Union[MoveT, EngineMove, str, SupportsIndex]) -> None:
        """Play a move (of either implementation, or its text, or its int action).

        Raises IllegalMoveError (a ValueError) for a move not legal here or an
        action that names no move (a Germaine step off the grid), leaving the
        position unchanged; TypeError for anything else; ValueError for bad
        move text or an int outside the action space.
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


def _action_of(move: Move) -> int:
    return move._action


def check_hidden(hidden: object) -> bool:
    """``hidden`` when it is a bool; TypeError otherwise (numpy's bool too), as every ``hidden=`` says."""
    if not isinstance(hidden, bool):
        raise TypeError(f"hidden must be a bool, got {type_text(hidden)}")
    return hidden


def zeros(shape: Tuple[int, ...]) -> List[Any]:
    """Nested lists of 0s of the given shape."""
    if len(shape) == 1:
        return [0] * shape[0]
    return [zeros(shape[1:]) for _ in range(shape[0])]


def put_card(planes: List[Any], card: int, *at: int) -> None:
    """Set the rank and suit one-hot planes of ``card`` at index ``at`` within each plane."""
    for plane in (RANK_PLANES + card % 13, SUIT_PLANES + card // 13):
        row = planes[plane]
        for i in at[:-1]:
            row = row[i]
        row[at[-1]] = 1


MAX_PERFT_DEPTH = 500
"""Deepest perft accepted, as in the C++ engine (a Geoffrey King can shuttle forever)."""


GAME_NAMES = tuple(info.class_name for info in GAMES.values())
"""The game classes' names, the same in both implementations."""


def not_a_position(state: object, function: str) -> TypeError:
    """The TypeError of ``function()`` given ``state``, not a reference position, worded as the
    engine's: it names the games, the module of a class of a game's name (the engine's), and how to
    make a position of a game class given for one."""
    kind = state if isinstance(state, type) else type(state)
    game_name = kind.__name__ in GAME_NAMES
    foreign = game_name and not issubclass(kind, Game)
    if foreign:
        shown = ("the class " if isinstance(state, type) else "") + qualified_name(kind)
    else:  # "the class X" for a class
        shown = type_text(state)
        if isinstance(state, type) and game_name:
            shown += f", not a position of it ({kind.__qualname__}.deal(n) makes one)"
    return TypeError(f"{function}() expects a reference position ({', '.join(GAME_NAMES[:-1])} or {GAME_NAMES[-1]}), "
                     f"got {shown}")


def perft(state: Game[Any], depth: SupportsIndex, bulk: bool = True, *, num_threads: SupportsIndex = 1) -> int:
    """Number of legal move sequences of ``depth`` moves from ``state`` (docs/rules.md "Perft").

    ``bulk`` counts the last ply's moves without making them; ``state`` is
    unchanged. ``num_threads`` is checked as the engine checks it (an int in
    0 .. MAX_THREADS) and the walk runs on this thread: the count is the same.
    Raises TypeError for a non-Game state, a non-int depth or num_threads or a
    non-bool bulk and ValueError for a depth outside 0 .. MAX_PERFT_DEPTH or
    num_threads outside 0 .. MAX_THREADS.
    """
    if not isinstance(state, Game):
        raise not_a_position(state, "perft")
    depth = check_int(depth, "perft depth", 0, MAX_PERFT_DEPTH)
    if not isinstance(bulk, bool):  # as the engine: numpy's bool is refused too
        raise TypeError(f"perft bulk must be a bool, got {type_text(bulk)}")
    check_threads(num_threads)
    return state.copy()._perft(depth, bulk)
