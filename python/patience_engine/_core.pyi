"""Type stub of the compiled extension patience_engine._core (C++ engine).

Checked against the compiled module by ``python -m mypy.stubtest patience_engine._core``
(``.ci/run``); ``from_pysol`` and ``to_svg`` are pure Python, attached to the classes when
``patience_engine`` is imported.
"""

from typing import Any, Callable, ClassVar, Dict, List, Mapping, Optional, SupportsIndex, Tuple, Union, final

import numpy as np
from numpy.typing import NDArray

from patience_engine import reference as _reference
from patience_engine._arrays import ActionsLike

__version__: str
BUILD_TYPE: str
SANITIZERS: Tuple[str, ...]
OPTIMIZED: bool
MAX_PERFT_DEPTH: int
MAX_THREADS: int

def usable_cores() -> int:
    """The CPUs this process may run on: its affinity, capped by a cgroup CPU quota (num_threads=0)."""

@final
class RoyalMarriageMove:
    """A Royal Marriage move; ``str()`` is its notation."""

    def __init__(self, text: str) -> None: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    @property
    def action(self) -> int:
        """The move's action, an int in 0 .. NUM_ACTIONS - 1 (docs/rl.md "Actions")."""
    @property
    def cards(self) -> Tuple[str, ...]:
        """The removed cards as text, left one first: ``('7S',)`` or ``('7S', 'JD')``."""

@final
class RoyalMarriage:
    """A Royal Marriage position with the moves that led to it."""

    Move: ClassVar[type[RoyalMarriageMove]]
    __hash__: ClassVar[None]  # type: ignore[assignment]
    NUM_ACTIONS: ClassVar[int]
    OBSERVATION_SHAPE: ClassVar[Tuple[int, ...]]
    OBSERVATION_DTYPE: ClassVar[str]
    DEFAULT_MAX_MOVES: ClassVar[int]
    @staticmethod
    def move_of(action: SupportsIndex) -> RoyalMarriageMove: ...
    def legal_actions(self) -> List[int]: ...
    def legal_action_mask(self) -> NDArray[np.bool_]: ...
    def observation(self, hidden: bool = False) -> NDArray[np.uint8]: ...
    def determinize(self, seed: SupportsIndex) -> RoyalMarriage: ...
    @staticmethod
    def deal(n: SupportsIndex) -> RoyalMarriage: ...
    @staticmethod
    def from_text(text: str) -> RoyalMarriage: ...
    @staticmethod
    def parse_move(text: str) -> RoyalMarriageMove: ...
    @classmethod
    def from_pysol(cls, number: Union[SupportsIndex, str]) -> RoyalMarriage:
        """PySolFC's opening layout for game number ``number`` (attached by ``patience_engine``)."""
    def to_svg(self, highlight: Union[RoyalMarriageMove, str, SupportsIndex, None] = None, *, hidden: bool = False) -> str:
        """This position drawn as an SVG document (attached by ``patience_engine``; see ``draw.to_svg``)."""
    def to_text(self, hidden: bool = False) -> str: ...
    def legal_moves(self) -> List[RoyalMarriageMove]: ...
    def is_legal(self, move: Union[RoyalMarriageMove, _reference.RoyalMarriageMove, str, SupportsIndex]) -> bool: ...
    def play(self, move: Union[RoyalMarriageMove, _reference.RoyalMarriageMove, str, SupportsIndex]) -> None: ...
    def undo(self) -> RoyalMarriageMove: ...
    @property
    def move_stack(self) -> List[RoyalMarriageMove]: ...
    def copy(self) -> RoyalMarriage: ...
    def __copy__(self) -> RoyalMarriage: ...
    def __deepcopy__(self, memo: Any) -> RoyalMarriage: ...
    def __eq__(self, other: object) -> bool: ...
    @property
    def hash(self) -> int: ...
    @property
    def canonical_hash(self) -> int: ...
    @property
    def is_won(self) -> bool: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def score(self) -> int: ...

@final
class GermaineMove:
    """A Germaine 2-Move move; ``str()`` is its notation."""

    def __init__(self, text: str) -> None: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    @property
    def action(self) -> int:
        """The move's action, an int in 0 .. NUM_ACTIONS - 1 (docs/rl.md "Actions")."""
    @property
    def is_combine(self) -> bool:
        """True for a combine, False for a slide."""
    @property
    def src(self) -> str:
        """Name of the cell the card leaves, e.g. ``'g3'``."""
    @property
    def dst(self) -> str:
        """Name of the cell the card goes to, e.g. ``'h3'``."""

@final
class Germaine:
    """A Germaine 2-Move position with the moves that led to it."""

    Move: ClassVar[type[GermaineMove]]
    __hash__: ClassVar[None]  # type: ignore[assignment]
    NUM_ACTIONS: ClassVar[int]
    OBSERVATION_SHAPE: ClassVar[Tuple[int, ...]]
    OBSERVATION_DTYPE: ClassVar[str]
    DEFAULT_MAX_MOVES: ClassVar[int]
    @staticmethod
    def move_of(action: SupportsIndex) -> GermaineMove: ...
    def legal_actions(self) -> List[int]: ...
    def legal_action_mask(self) -> NDArray[np.bool_]: ...
    def observation(self, hidden: bool = False) -> NDArray[np.uint8]: ...
    def determinize(self, seed: SupportsIndex) -> Germaine: ...
    @staticmethod
    def deal(n: SupportsIndex) -> Germaine: ...
    @staticmethod
    def from_text(text: str) -> Germaine: ...
    @staticmethod
    def parse_move(text: str) -> GermaineMove: ...
    @classmethod
    def from_pysol(cls, number: Union[SupportsIndex, str]) -> Germaine:
        """PySolFC's opening layout for game number ``number`` (attached by ``patience_engine``)."""
    def to_svg(self, highlight: Union[GermaineMove, str, SupportsIndex, None] = None, *, hidden: bool = False) -> str:
        """This position drawn as an SVG document (attached by ``patience_engine``; see ``draw.to_svg``)."""
    def to_text(self, hidden: bool = False) -> str: ...
    def legal_moves(self) -> List[GermaineMove]: ...
    def is_legal(self, move: Union[GermaineMove, _reference.GermaineMove, str, SupportsIndex]) -> bool: ...
    def play(self, move: Union[GermaineMove, _reference.GermaineMove, str, SupportsIndex]) -> None: ...
    def undo(self) -> GermaineMove: ...
    @property
    def move_stack(self) -> List[GermaineMove]: ...
    def copy(self) -> Germaine: ...
    def __copy__(self) -> Germaine: ...
    def __deepcopy__(self, memo: Any) -> Germaine: ...
    def __eq__(self, other: object) -> bool: ...
    @property
    def hash(self) -> int: ...
    @property
    def canonical_hash(self) -> int: ...
    @property
    def is_won(self) -> bool: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def score(self) -> int: ...

@final
class GeoffreyMove:
    """A Geoffrey move; ``str()`` is its notation."""

    def __init__(self, text: str) -> None: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    @property
    def action(self) -> int:
        """The move's action, an int in 0 .. NUM_ACTIONS - 1 (docs/rl.md "Actions")."""
    @property
    def src(self) -> int:
        """Source column, 1..8."""
    @property
    def card(self) -> str:
        """The card that heads the moving group (the only card of a foundation move)."""
    @property
    def dst(self) -> Union[int, str]:
        """Destination column 1..8, or ``'F'`` for the foundation."""
    @property
    def to_foundation(self) -> bool:
        """True for a foundation move."""

@final
class Geoffrey:
    """A Geoffrey position with the moves that led to it."""

    Move: ClassVar[type[GeoffreyMove]]
    __hash__: ClassVar[None]  # type: ignore[assignment]
    NUM_ACTIONS: ClassVar[int]
    OBSERVATION_SHAPE: ClassVar[Tuple[int, ...]]
    OBSERVATION_DTYPE: ClassVar[str]
    DEFAULT_MAX_MOVES: ClassVar[int]
    @staticmethod
    def move_of(action: SupportsIndex) -> GeoffreyMove: ...
    def legal_actions(self) -> List[int]: ...
    def legal_action_mask(self) -> NDArray[np.bool_]: ...
    def observation(self, hidden: bool = False) -> NDArray[np.uint8]: ...
    def determinize(self, seed: SupportsIndex) -> Geoffrey: ...
    @staticmethod
    def deal(n: SupportsIndex) -> Geoffrey: ...
    @staticmethod
    def from_text(text: str) -> Geoffrey: ...
    @staticmethod
    def parse_move(text: str) -> GeoffreyMove: ...
    @classmethod
    def from_pysol(cls, number: Union[SupportsIndex, str]) -> Geoffrey:
        """PySolFC's opening layout for game number ``number`` (attached by ``patience_engine``)."""
    def to_svg(self, highlight: Union[GeoffreyMove, str, SupportsIndex, None] = None, *, hidden: bool = False) -> str:
        """This position drawn as an SVG document (attached by ``patience_engine``; see ``draw.to_svg``)."""
    def to_text(self, hidden: bool = False) -> str: ...
    def legal_moves(self) -> List[GeoffreyMove]: ...
    def is_legal(self, move: Union[GeoffreyMove, _reference.GeoffreyMove, str, SupportsIndex]) -> bool: ...
    def play(self, move: Union[GeoffreyMove, _reference.GeoffreyMove, str, SupportsIndex]) -> None: ...
    def undo(self) -> GeoffreyMove: ...
    @property
    def move_stack(self) -> List[GeoffreyMove]: ...
    def copy(self) -> Geoffrey: ...
    def __copy__(self) -> Geoffrey: ...
    def __deepcopy__(self, memo: Any) -> Geoffrey: ...
    def __eq__(self, other: object) -> bool: ...
    @property
    def hash(self) -> int: ...
    @property
    def canonical_hash(self) -> int: ...
    @property
    def is_won(self) -> bool: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def score(self) -> int: ...

# Any position and any move of the engine's games (the stub's own names: stubtest leaves private
# names alone); the package and the reference type their arguments with these.
_Game = Union[RoyalMarriage, Germaine, Geoffrey]
_Move = Union[RoyalMarriageMove, GermaineMove, GeoffreyMove]

@final
class VectorGame:
    """num_envs positions of one game stepped together in C++ (Gymnasium's vector API).

    Observations and masks are read-only views of the batch's buffers; a lock keeps threads
    sharing one VectorGame from running its methods at once.
    """

    def __init__(
        self,
        game: Union[str, type[_Game]],
        num_envs: SupportsIndex,
        *,
        max_moves: Optional[SupportsIndex] = None,
        hidden: bool = False,
        num_threads: SupportsIndex = 1,
    ) -> None: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def num_threads(self) -> int:
        """The threads the batch is stepped on: at most one per 64 slots."""
    @property
    def max_moves(self) -> int: ...
    @property
    def hidden(self) -> bool: ...
    @property
    def game(self) -> type[_Game]: ...
    @property
    def NUM_ACTIONS(self) -> int: ...
    @property
    def OBSERVATION_SHAPE(self) -> Tuple[int, ...]: ...
    @property
    def bytes_per_position(self) -> int: ...
    def reset(
        self, seed: Optional[SupportsIndex] = None, options: Optional[Mapping[str, Any]] = None
    ) -> Tuple[NDArray[np.uint8], Dict[str, Any]]: ...
    def step(
        self, actions: Union[ActionsLike, NDArray[np.integer[Any]]]
    ) -> Tuple[NDArray[np.uint8], NDArray[np.float32], NDArray[np.bool_], NDArray[np.bool_], Dict[str, Any]]: ...
    @property
    def action_masks(self) -> NDArray[np.bool_]: ...
    def sample_legal_actions(self) -> NDArray[np.int64]: ...
    def state(self, i: SupportsIndex) -> Any:
        """A copy of slot i's position, its move stack empty: a batch keeps positions, not their games."""

def playouts(
    state: _Game,
    n: SupportsIndex,
    *,
    seed: SupportsIndex,
    max_moves: Optional[SupportsIndex] = None,
    num_threads: SupportsIndex = 1,
) -> NDArray[np.int32]:
    """n random games from state played in C++ on num_threads threads; their final scores, the same at
    any thread count. Releases the GIL."""

def perft(state: _Game, depth: SupportsIndex, bulk: bool = True, *, num_threads: SupportsIndex = 1) -> int:
    """The number of legal move sequences of ``depth`` moves from ``state`` (nodes; docs/rules.md "Perft").

    ``state`` is not changed; ``bulk`` counts the last ply's moves without making them (the same
    count, faster); ``num_threads`` (0 .. MAX_THREADS, 0: ``usable_cores()``) splits the tree below
    the root over threads (the same count). Releases the GIL; Ctrl-C raises KeyboardInterrupt.
    Raises TypeError for a ``state`` that is not a position of the engine's games, a non-int
    ``depth`` or ``num_threads`` or a non-bool ``bulk``, and ValueError for a ``depth`` outside
    0 .. MAX_PERFT_DEPTH or ``num_threads`` outside 0 .. MAX_THREADS.
    """

def solve(
    state: _Game,
    node_limit: Optional[int],
    time_limit: Optional[float],
    table_bytes: int,
    pruning: bool,
    progress: Optional[Callable[[int, int], None]] = None,
    num_threads: SupportsIndex = 1,
) -> Tuple[str, List[Any], int, int, bool]:
    """Searches ``state``: (status, moves, score, nodes, proven); see ``patience_engine.solve``.

    Private: it takes the limits as ``patience_engine.solve`` checked them (``node_limit`` an int
    >= 1 or None, ``time_limit`` a positive finite float or None, ``table_bytes`` in
    0 .. 2**64-1) and does not check them again. ``progress(nodes, best_score)`` (best_score -1:
    no line yet) is called about every 50 ms with the GIL held; an error it raises stops the
    search and is raised again. ``num_threads`` (0 .. MAX_THREADS, 0: ``usable_cores()``) other
    than 1 solves on that many threads together (docs/solver.md "Threads").

    Releases the GIL; raises KeyboardInterrupt on Ctrl-C (with the same tuple so far as
    ``_so_far``).
    """
