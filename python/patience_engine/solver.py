"""Solving a position: ``solve(state) -> Solution``, the C++ search of ``_core.solve``.

A game is won or lost; one played for its score (``registry.GameInfo.played_for_score``:
Germaine 2-Move, docs/rules.md "Germaine 2-Move") is searched for the highest score, and counts as
won when the line leaves one card.
How the search works is in docs/solver.md.

>>> from patience_engine import RoyalMarriage, solve
>>> solution = solve(RoyalMarriage.from_text("QH 3C 9D 2S 3S KH"))
>>> solution.status, solution.text, solution.score
('won', '9D+2S 3C+3S', 50)
>>> solve(RoyalMarriage.from_text("QH 2C 3D 4S KH")).status
'lost'
>>> solve(RoyalMarriage.from_text("QH 3H 4H KH")).text
'3H+4H'
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, List, Literal, Optional, Sequence, Tuple, cast

from . import _core
from ._shown import type_text
from .limits import MAX_TABLE_BYTES, check_int, check_seconds, check_threads

if TYPE_CHECKING:
    from ._core import _Game as State  # a position of any of the engine's games

DEFAULT_TABLE_BYTES = 64 * 1024 * 1024
"""Default transposition-table size in bytes (64 MiB)."""

Status = Literal["won", "lost", "unknown"]


@dataclass(frozen=True)
class Solution:
    """What ``solve`` found.

    - ``status``: ``"won"`` (``moves`` reach a won position), ``"lost"`` (proven:
      no line wins) or ``"unknown"`` (a limit stopped the search first). For
      Germaine a one-card finish is a win, even one found before a limit.
    - ``moves``: the game's move objects: a winning line; for Germaine the line
      to the best score found (empty when nothing was won in the other games).
    - ``score``: the game's ``score`` after ``moves``.
    - ``nodes``: positions expanded (int).
    - ``seconds``: wall-clock time of the search (float, seconds).
    - ``proven``: True when the search finished: the status, and for Germaine
      the score, are the best there is. (A Germaine ``"lost"`` may come with
      ``proven`` False: no line wins, but a better score may exist.)
    """

    status: Status
    moves: Tuple[Any, ...]
    score: int
    nodes: int
    seconds: float
    proven: bool

    @property
    def text(self) -> str:
        """The moves' notations joined by single spaces (``""`` for no move)."""
        return line_text(self.moves)


def line_text(moves: Sequence[Any]) -> str:
    """A line of moves as text: their notations joined by single spaces (docs/rules.md "Move notation")."""
    return " ".join(str(move) for move in moves)


def solve(
    state: State,
    *,
    node_limit: Optional[int] = None,
    time_limit: Optional[float] = None,
    table_bytes: int = DEFAULT_TABLE_BYTES,
    pruning: bool = True,
    progress: Optional[Callable[[int, int], None]] = None,
    num_threads: int = 1,
) -> Solution:
    """Searches ``state`` (not changed) for a winning line, or Germaine's best score.

    ``state`` is a position of the C++ engine. The result is a ``Solution``: status ``"won"``
    (``moves`` reach a won position), ``"lost"`` (proven: no line wins) or ``"unknown"`` (a limit
    came first); ``proven`` is True when the search finished. Germaine 2-Move is played for the
    highest score: ``moves`` is the line to the best score found, a one-card finish is a win even
    when found before a limit, and ``"lost"`` proves that no line leaves one card (``proven`` then
    says whether the score is the best too). On full Germaine deals expect ``"won"`` or
    ``"unknown"``, never a ``"lost"`` short of an exhaustive search (the survey figures are in
    docs/results.md). How each game is searched, why its pruning rules are safe and how its moves
    are ordered: docs/solver.md.

    - ``node_limit``: positions expanded at most (int >= 1, or None for no limit; 2**64-1 and
      past it count as no limit).
    - ``time_limit``: seconds of wall time (a real number > 0, or None; past 10**9, about 31
      years, it is 10**9), checked about every 50 ms, so the search may run that much past it (a
      Germaine search about twice that). Either limit gives status ``"unknown"`` (or a Germaine
      win not proven best). With neither, the search runs until it finishes, which can take hours
      on a Germaine deal (docs/solver.md "Germaine 2-Move" says what it has found meanwhile).
    - ``table_bytes``: the size of the transposition table in bytes (int; 0: none).
    - ``pruning``: False turns the games' pruning rules off, to check them.
    - ``progress``: when given, called about every 50 ms (not at all in a shorter search) as
      ``progress(nodes, best_score)``: positions expanded so far by every thread (int) and the
      score at the end of the best line found so far (int, -1 while there is none: in Royal
      Marriage and Geoffrey, no win yet), on the calling thread. An error it raises stops the
      search and comes out of ``solve`` (a ``KeyboardInterrupt`` with its ``solution`` attribute,
      as for Ctrl-C).
    - ``num_threads``: threads searching the one position together (int, 0 .. ``MAX_THREADS``; 0:
      every core the process may use, ``usable_cores()``), sharing one transposition table of
      ``table_bytes`` and the best line found (docs/solver.md "Threads"). A node limit counts the
      nodes of every thread. Each thread's search is the one-thread search, so a solve that runs
      to the end gives the same status and Germaine score at any number of threads, with a
      winning line of its own; a solve stopped by a limit finds what its threads found by then.

    Deterministic on one thread: the same position, ``node_limit`` and ``table_bytes`` give the
    same result on every run and machine; the verdict does not depend on ``table_bytes`` or
    ``pruning``, only the effort does. On several threads the verdict and Germaine's score of a
    search that runs to the end are the same, but the line, the nodes and what a limit leaves
    unknown vary from run to run (the threads race). Runs with the GIL released; Ctrl-C raises
    ``KeyboardInterrupt`` within about a second, its ``solution`` attribute holding what the search
    had found (a ``Solution``, status ``"unknown"`` unless already settled).

    Raises ``TypeError`` for a state that is not a C++ game position, a limit of the wrong type
    (``node_limit`` and ``table_bytes`` not an int, ``time_limit`` not a real number: an int, a
    float or a numpy float), a ``pruning`` that is not a bool or a ``progress`` that is not
    callable, or a ``num_threads`` that is not an int (checked before the search), and
    ``ValueError`` for a ``node_limit`` < 1, a ``time_limit`` that is not positive and finite, a
    ``table_bytes`` outside 0 .. 2**64-1 or a ``num_threads`` outside 0 .. ``MAX_THREADS`` (the
    rules of ``patience_engine.limits``); ``MemoryError`` when the table cannot be allocated. The
    table is nearly all the memory a solve takes, one table whatever the number of threads; each
    calling thread keeps the memory of its last table (up to 1 GiB) for its next solve with the
    same ``table_bytes``, cleared.
    """
    # The one check of the limits: _core.solve takes them as they come.
    if node_limit is not None:
        check_int(node_limit, "node_limit", 1)
    if time_limit is not None:
        time_limit = check_seconds(time_limit, "time_limit")
    check_int(table_bytes, "table_bytes", 0, MAX_TABLE_BYTES)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be a callable progress(nodes, best_score) or None, got {type_text(progress)}")
    threads = check_threads(num_threads)
    node_limit = min(node_limit, 2**64 - 1) if node_limit is not None else None
    start = time.perf_counter()

    def solution(found: Tuple[str, List[Any], int, int, bool]) -> Solution:
        status, moves, score, nodes, proven = found
        return Solution(cast(Status, status), tuple(moves), score, nodes, time.perf_counter() - start, proven)

    try:
        return solution(_core.solve(
            state, node_limit, time_limit, table_bytes, pruning, progress, threads
        ))
    except MemoryError:
        # The table is nearly all the memory a search takes; the C++ error says only "std::bad_alloc".
        raise MemoryError(f"out of memory (transposition table of {table_bytes:,} bytes)") from None
    except KeyboardInterrupt as interrupt:
        if hasattr(interrupt, "_so_far"):
            interrupt.solution = solution(interrupt._so_far)  # type: ignore[attr-defined]
        raise
