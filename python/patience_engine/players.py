"""Geoffrey as people play it: players that see only what a player sees (docs/players.md).

A player here never reads a face-down card. What it may use of a position is
its hidden view, ``to_text(hidden=True)``; its legal moves, which depend on
face-up cards alone (a move takes a face-up card onto a face-up top card or a
foundation); and ``determinize(seed)``, which depends only on the hidden view
and the seed (docs/rl.md "Determinization"). So for a fixed seed, two deals
that differ only in their face-down cards get the same moves until a
face-down card turns up (tests/test_players.py swaps them to check).

- ``HindsightPlayer`` (hindsight optimisation): draws determinizations,
  positions consistent with the view, solves each with the thoughtful solver
  under a node limit, and plays the move that begins the winning lines of the
  most of them.
- ``BaselinePlayer``: sends a card home when it can, else turns a face-down
  card up, else makes the first other move; no search.

``play_game(state, player)`` plays one game to its end and returns a
``PlayedGame``. For Royal Marriage and Germaine nothing is hidden, and the
hindsight player is the solver's line with extra steps.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple, Union

from . import _core
from ._shown import qualified_name, type_text
from .games import REGISTRY, joined, names_where
from .limits import MAX_SQLITE_INTEGER, check_int
from .reference.geoffrey import HIDDEN_CARD
from .solver import line_text, solve

DEFAULT_DETERMINIZATIONS = 16
"""Determinizations a ``HindsightPlayer`` draws per decision unless told otherwise."""
MAX_DETERMINIZATIONS = 1 << 20
"""The most determinizations a ``HindsightPlayer`` draws per decision (each is a solve)."""
DEFAULT_PLAYER_NODE_LIMIT = 100_000
"""Node limit of each of a ``HindsightPlayer``'s solves unless told otherwise."""
DEFAULT_PLAYER_TABLE_BYTES = 4 * 1024 * 1024
"""Transposition-table bytes of each of a ``HindsightPlayer``'s solves unless told otherwise (4 MiB)."""
MAX_GAME_MOVES = 1000
"""Moves after which ``play_game`` stops a game as lost. Neither player repeats a position (both
leave out the idle King moves, ``View.idle``), so a Geoffrey game of theirs ends well before."""

_MASK64 = (1 << 64) - 1


def _mix(*words: int) -> int:
    """A 64-bit seed from ``words``, by SplitMix64's finalizer (docs/rules.md "Numbered deals")."""
    z = 0
    for word in words:
        z = (z + 0x9E3779B97F4A7C15 + word) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        z ^= z >> 31
    return z


def blind_games() -> List[str]:
    """The games these players play (``registry.GameInfo.blind_players``), by command-line name."""
    return names_where(lambda info: info.blind_players)


def not_played(game: str, shown: str) -> Optional[Tuple[str, str]]:
    """None when these players play ``game`` (a registry name); else the titles of the games they
    play, as a sentence lists them, and why not ``game``, named as ``shown``.

    >>> not_played("royal-marriage", "Royal Marriage")
    ('Geoffrey', 'nothing is hidden in Royal Marriage')
    """
    info = REGISTRY[game]
    if info.blind_players:
        return None
    why = f"no blind player is written for {shown}" if info.hidden_cards else f"nothing is hidden in {shown}"
    return joined((REGISTRY[name].title for name in blind_games()), "or"), why


def _check_engine_geoffrey(state: object, who: str) -> None:
    """TypeError unless ``state`` is a C++ Geoffrey position; the reference's is named with its module."""
    if not isinstance(state, _core.Geoffrey):
        kind = type(state)
        shown = qualified_name(kind) if kind.__name__ == "Geoffrey" else type_text(state)
        raise TypeError(f"{who} needs a patience_engine.Geoffrey position, got {shown}")


class View:
    """What a Geoffrey player sees of a position: its hidden text, read into columns.

    ``columns[k]`` lists column ``k``'s cards bottom to top as their texts, a face-down card as
    ``HIDDEN_CARD``. Built from ``to_text(hidden=True)`` alone.
    """

    def __init__(self, state: _core.Geoffrey) -> None:
        _check_engine_geoffrey(state, "a view")
        lines = state.to_text(hidden=True).splitlines()[1:]
        self.columns: List[List[str]] = [[] if line == "-" else line.split() for line in lines]
        self.face_down = sum(column.count(HIDDEN_CARD) for column in self.columns)
        """Face-down cards in the tableau (int)."""

    def _height(self, move: _core.GeoffreyMove) -> int:
        """Where in its column (0 = bottom) the moved card lies."""
        return self.columns[move.src - 1].index(str(move.card))

    def turns_up(self, move: _core.GeoffreyMove) -> bool:
        """``move`` leaves a face-down card on top of its column, which then turns up."""
        height = self._height(move)
        return height > 0 and self.columns[move.src - 1][height - 1] == HIDDEN_CARD

    def _to_empty(self, move: _core.GeoffreyMove) -> bool:
        return isinstance(move.dst, int) and not self.columns[move.dst - 1]

    def kind(self, move: _core.GeoffreyMove) -> str:
        """A key equal for moves that give the same position up to the order of the columns: a
        card's moves into different empty columns share one; any other move has its own."""
        if self._to_empty(move):
            return f"{move.src}:{move.card}>empty"
        return str(move)

    def idle(self, move: _core.GeoffreyMove) -> bool:
        """``move`` takes a King from the bottom of a column to an empty one: the same position
        with its columns in another order (docs/rules.md "Geoffrey"); no line needs it."""
        return self._to_empty(move) and self._height(move) == 0


def _baseline_order(view: View, moves: List[_core.GeoffreyMove]) -> List[_core.GeoffreyMove]:
    """``moves`` less the idle ones and less all but the first of each ``View.kind``: foundation
    moves first, then moves that turn a card up, then the rest; ascending action within each group."""
    useful: Dict[str, _core.GeoffreyMove] = {}
    for move in sorted(moves, key=lambda m: m.action):
        if not view.idle(move):
            useful.setdefault(view.kind(move), move)
    return sorted(useful.values(), key=lambda m: (not m.to_foundation, not view.turns_up(m), m.action))


class BaselinePlayer:
    """Sends a card home when it can, else turns a face-down card up, else makes any other move
    (the lowest action of each kind); never an idle King move. No search: ``nodes`` stays 0."""

    name = "baseline"
    """The text survey rows store for this player."""
    node_limit = 0
    """It solves nothing: no node limit ..."""
    table_bytes = 0
    """... and no table."""
    nodes = 0
    """Positions its solves expanded: none."""

    def new_game(self, state: _core.Geoffrey) -> None:
        """Start a game from ``state`` (nothing to remember)."""

    def choose(self, state: _core.Geoffrey) -> Optional[_core.GeoffreyMove]:
        """The move to play, or None when no useful move is left."""
        order = _baseline_order(View(state), state.legal_moves())
        return order[0] if order else None

    def played(self, state: _core.Geoffrey, move: _core.GeoffreyMove) -> None:
        """``move`` was played; ``state`` is the position after it."""


@dataclass
class _Sample:
    """One determinization: its position, and the rest of a winning line from it if one is known."""

    position: _core.Geoffrey
    weight: int
    """How many of the draws gave this same position."""
    line: Optional[List[int]] = None
    """Actions of a winning line from ``position``; None when not solved yet since the last move."""
    lost: bool = False
    """Proven lost: every position after it is lost too."""
    unknown: bool = False
    """The node limit stopped its solve; not solved again until the next draw."""


@dataclass
class HindsightPlayer:
    """Hindsight optimisation over determinizations, seeing only what a player sees.

    At each decision with more than one useful move it needs, for each of ``determinizations``
    positions drawn with ``determinize`` (duplicates merged, weighted), a winning line found by
    ``solve(..., node_limit=node_limit, table_bytes=table_bytes)``; it plays the move that begins
    the winning lines of the greatest weight, breaking ties and deciding when none wins as
    ``BaselinePlayer`` orders moves. The draws stay until a face-down card turns up: a line whose
    first move is played keeps its rest; a won determinization whose line the move leaves is
    solved again at the next decision that needs it; a lost one stays lost, and one the node limit
    stopped stays without a vote until the next draw. Draw ``j`` after ``t`` cards have turned up
    uses seed ``_mix(seed, t, j)``, a function of what has been seen.

    ``determinizations`` (1 .. ``MAX_DETERMINIZATIONS``), ``node_limit`` (nodes per solve,
    1 .. 2**63-1) and ``table_bytes`` (bytes per solve, 0 .. 2**63-1: what a survey row holds) and
    ``seed`` (0 .. 2**64-1) are ints checked when made: a TypeError for a non-int, a ValueError out
    of range. ``nodes`` counts the positions its solves
    expanded in the current game.
    """

    determinizations: int = DEFAULT_DETERMINIZATIONS
    node_limit: int = DEFAULT_PLAYER_NODE_LIMIT
    table_bytes: int = DEFAULT_PLAYER_TABLE_BYTES
    seed: int = 0
    nodes: int = field(default=0, init=False)
    _samples: Optional[List[_Sample]] = field(default=None, init=False, repr=False)
    _turned_up: int = field(default=0, init=False, repr=False)
    _face_down: int = field(default=0, init=False, repr=False)

    def __post_init__(self) -> None:
        check_int(self.determinizations, "determinizations", 1, MAX_DETERMINIZATIONS)
        check_int(self.node_limit, "node limit", 1, MAX_SQLITE_INTEGER)
        check_int(self.table_bytes, "table bytes", 0, MAX_SQLITE_INTEGER)
        check_int(self.seed, "seed", 0, _MASK64)

    def __getstate__(self) -> Dict[str, int]:
        # A game in progress holds C++ positions, which do not pickle: a pickled player starts afresh.
        return {name: getattr(self, name) for name in ("determinizations", "node_limit", "table_bytes", "seed")}

    def __setstate__(self, state: Dict[str, int]) -> None:
        self.__init__(**state)  # type: ignore[misc]

    @property
    def name(self) -> str:
        """The text survey rows store for this player (beside its node limit and table bytes)."""
        return f"hindsight determinizations={self.determinizations} seed={self.seed}"

    def new_game(self, state: _core.Geoffrey) -> None:
        """Start a game from ``state``: forget the draws and the node count."""
        self.nodes = 0
        self._samples = None
        self._turned_up = 0
        self._face_down = View(state).face_down

    def _draw(self, state: _core.Geoffrey) -> List[_Sample]:
        by_hash: Dict[int, _Sample] = {}
        for j in range(self.determinizations):
            position = state.determinize(_mix(self.seed, self._turned_up, j))
            sample = by_hash.get(position.hash)
            if sample is None:
                by_hash[position.hash] = _Sample(position, 1)
            else:
                sample.weight += 1
        return list(by_hash.values())

    def _solve(self, sample: _Sample) -> None:
        solution = solve(sample.position, node_limit=self.node_limit, table_bytes=self.table_bytes)
        self.nodes += solution.nodes
        sample.lost = solution.status == "lost"
        sample.unknown = solution.status == "unknown"
        sample.line = [m.action for m in solution.moves] if solution.status == "won" else None

    def choose(self, state: _core.Geoffrey) -> Optional[_core.GeoffreyMove]:
        """The move to play, or None when no useful move is left."""
        view = View(state)
        order = _baseline_order(view, state.legal_moves())
        if len(order) <= 1:
            return order[0] if order else None
        if self._samples is None:
            self._samples = self._draw(state)
        votes: Dict[str, int] = {}
        for sample in self._samples:
            if sample.line is None and not (sample.lost or sample.unknown):
                self._solve(sample)
            if sample.line:
                kind = view.kind(state.move_of(sample.line[0]))
                votes[kind] = votes.get(kind, 0) + sample.weight
        # Stable: among equal votes (or none at all) the baseline order decides.
        return max(order, key=lambda m: votes.get(view.kind(m), 0))

    def played(self, state: _core.Geoffrey, move: _core.GeoffreyMove) -> None:
        """``move`` was played; ``state`` is the position after it."""
        face_down = View(state).face_down
        if face_down != self._face_down:
            self._turned_up += self._face_down - face_down
            self._face_down = face_down
            self._samples = None
            return
        for sample in self._samples or ():
            sample.position.play(move.action)
            if sample.line and sample.line[0] == move.action:
                sample.line.pop(0)
            elif not sample.lost:
                sample.line = None


@dataclass(frozen=True)
class PlayedGame:
    """One game a player played: ``moves`` (move objects, in order), ``won``, ``score`` (the
    game's ``score`` at the end), ``nodes`` (positions its solves expanded) and ``seconds``
    (wall-clock)."""

    moves: Tuple[_core.GeoffreyMove, ...]
    won: bool
    score: int
    nodes: int
    seconds: float

    @property
    def text(self) -> str:
        """The moves' notations joined by single spaces."""
        return line_text(self.moves)


Player = Union[HindsightPlayer, BaselinePlayer]
"""A blind player of this module."""


def play_game(state: _core.Geoffrey, player: Player, *,
              max_moves: int = MAX_GAME_MOVES,
              on_move: Optional[Callable[[_core.GeoffreyMove], None]] = None) -> PlayedGame:
    """Play a copy of ``state`` with ``player`` until it is won, no useful move is left, or
    ``max_moves`` moves are made; ``on_move(move)`` is called after each move. ``state`` is not
    changed. Raises ``TypeError`` for a state that is not a C++ Geoffrey position."""
    _check_engine_geoffrey(state, "play_game")
    if not isinstance(player, (HindsightPlayer, BaselinePlayer)):
        raise TypeError(f"play_game needs a HindsightPlayer or BaselinePlayer, got {type_text(player)}")
    check_int(max_moves, "max moves", 0)
    start = time.perf_counter()
    position = state.copy()
    player.new_game(position)
    moves: List[_core.GeoffreyMove] = []
    while len(moves) < max_moves and not position.is_won:
        move = player.choose(position)
        if move is None:
            break
        position.play(move)
        moves.append(move)
        player.played(position, move)
        if on_move is not None:
            on_move(move)
    return PlayedGame(tuple(moves), position.is_won, position.score, player.nodes,
                      time.perf_counter() - start)


def check_on_reference(state: _core.Geoffrey, played: PlayedGame) -> None:
    """Replay ``played`` from ``state`` through the pure-Python reference (read from
    ``state.to_text()``); raise ``RuntimeError`` (an engine fault) unless it ends where the engine
    says: won or not, with the same score."""
    replay = REGISTRY["geoffrey"].reference.from_text(state.to_text())
    for move in played.moves:
        replay.play(str(move))
    if replay.is_won != played.won or replay.score != played.score:
        raise RuntimeError(f"the reference ends the line {played.text!r} with won={replay.is_won} and score "
                           f"{replay.score}, the engine with won={played.won} and score {played.score}")
