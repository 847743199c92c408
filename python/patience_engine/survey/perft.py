"""Perft split into subtrees, counted on a Dask cluster (or in this process) and kept in SQLite as it goes.

A perft too deep for one machine is counted by subtrees. This process enumerates
the move sequences of the first ``split`` plies (``split_plies``); each
sequence's position goes, as its text, to a worker, which counts the remaining
``depth - split`` plies with the C++ ``perft`` (``count_subtrees``). Each
subtree's count is committed to a perft database (``PERFT_FILE``, default
``DEFAULT_PERFT_DB``) as it comes back, so a stopped run (Ctrl-C, ``kill -9``,
a lost cluster) resumes where it stopped when run again. A run is known in the
file by its game, the text of its root position (whatever it came from: a deal
number, a PySolFC game or a file), its depth and the engine version
(``signature.engine_version``): any other is another run, kept apart. Its
subtrees are known by their move paths from the root in the game's notation,
not by their positions: perft counts sequences, so a position two paths reach
is counted once for each. The split is stored with the run, so that a run
resumed on a cluster of another size splits as it did at first.

The file is kept as a survey's is (``store``): made whole or not at all, a
file of another kind refused and left untouched, a WAL journal with a commit
per finished task (a subtree, or several quick ones), a shared lock so that two runs on one file each write their rows
(the first count of a subtree stays; both are the same), and a new file
removed when its run fails before counting any subtree.
"""

from __future__ import annotations

import contextlib
import functools
import sqlite3
import sys
import time
from typing import Any, Generator, Iterator, List, NamedTuple, Optional, Set, Tuple

from tqdm import tqdm

from .._core import perft
from ..games import REGISTRY, info_of
from ..limits import MAX_THREADS, check_int
from ..reference import MAX_PERFT_DEPTH
from ..signature import engine_version
from .execution import (
    Tasks,
    check_engine_version,
    check_scheduler_address,
    cluster_threads,
    connect,
    held_database,
    on_dask,
)
from .store import PERFT_APPLICATION_ID, FileKind, SurveyFileError, insert_into, upgrade_with, upgraded_engine_version

DEFAULT_PERFT_DB = "perft.sqlite"
"""The perft database file used when none is given."""
MIN_SPLIT_PLIES = 3
"""The fewest plies a run on a cluster splits at: a ply or two give too few subtrees, and too uneven ones
(Germaine's and Geoffrey's counts differ by orders of magnitude from one move to the next), to spread the
work. A run in this process counts one subtree at a time on all its threads, so any split will do there."""
SUBTREES_PER_THREAD = 64
"""A run splits at the first ply with at least this many subtrees per thread that counts them at once
(each Dask worker thread; this process counts one at a time), so that uneven subtrees still end together,
and a stopped run loses little."""

_SCHEMA = """
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    position TEXT NOT NULL,
    depth INTEGER NOT NULL,
    engine_version TEXT NOT NULL,
    split INTEGER NOT NULL,
    subtrees INTEGER NOT NULL,
    UNIQUE (game, position, depth, engine_version)
);
CREATE TABLE subtrees (
    run INTEGER NOT NULL REFERENCES runs (id),
    path TEXT NOT NULL,
    nodes INTEGER NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (run, path)
);
"""
_COLUMNS = {
    "runs": ["id", "game", "position", "depth", "engine_version", "split", "subtrees"],
    "subtrees": ["run", "path", "nodes", "seconds"],
}



def _upgrade(connection: sqlite3.Connection) -> None:
    """Rewrite the engine versions of a schema-1 file's runs in today's form (``store.upgraded_engine_version``)."""
    upgrade_with(connection, PERFT_FILE, lambda version: [
        f"UPDATE runs SET engine_version = {upgraded_engine_version('engine_version')}"])


PERFT_FILE = FileKind("perft", PERFT_APPLICATION_ID, 2, (1, 2), _SCHEMA, lambda version: _COLUMNS, "subtrees",
                      _upgrade)
"""A perft database: table ``runs``, one row per (game, root position text, depth, engine version) with the
plies it is split at and its number of subtrees; table ``subtrees``, one row per counted subtree of a run:
its move path (the moves' texts joined by spaces, ``""`` for the root itself), nodes and seconds. Schema
version 1 held engine versions of the old form (``store.upgraded_engine_version``)."""


class Subtree(NamedTuple):
    """One subtree's count, as a worker returns it."""

    path: str
    """The moves from the root, in the game's notation, joined by spaces (``""``: the root itself)."""
    nodes: int
    """perft of the subtree's position to the run's remaining depth."""
    seconds: float
    """Wall-clock seconds of that count on the worker."""
    engine_version: str
    """``signature.engine_version`` of the worker's engine."""


class PerftRun(NamedTuple):
    """What ``run_perft`` did."""

    nodes: int
    """perft of the root to the depth asked: the sum of every subtree's count."""
    split: int
    """Plies enumerated in this process (0: the run counts the root in one piece)."""
    subtrees: int
    """Subtrees of the run: perft of the root to ``split`` plies."""
    counted: int
    """Subtrees counted by this call; the others were in the file."""
    counted_nodes: int
    """Nodes of the subtrees counted by this call."""
    seconds: float
    """Wall-clock seconds this call spent counting its subtrees."""


def count_subtrees(game: str, subtrees: List[Tuple[str, str]], remaining: int, threads: int) -> List[Subtree]:
    """perft of each of ``subtrees`` ((path, position text) pairs of ``game``) to ``remaining`` plies, by the C++
    engine on ``threads`` threads: the work of one task, on a Dask worker or in this process."""
    from_text = REGISTRY[game].cpp.from_text
    version = engine_version(game)
    counts = []
    for path, text in subtrees:
        start = time.perf_counter()
        nodes = perft(from_text(text), remaining, num_threads=threads)
        counts.append(Subtree(path, nodes, time.perf_counter() - start, version))
    return counts


def split_plies(root: Any, depth: int, threads: int, fewest: int) -> int:
    """The plies a run of perft(``root``, ``depth``) counting ``threads`` subtrees at once splits at: the first
    of ``fewest`` .. ``depth - 1`` with at least ``SUBTREES_PER_THREAD * threads`` subtrees, or 0 (count the
    root whole, here) when there is none: a tree that narrow is small. A cluster's run takes ``fewest``
    ``MIN_SPLIT_PLIES``, one in this process 1."""
    for plies in range(fewest, depth):
        if perft(root, plies) >= SUBTREES_PER_THREAD * threads:
            return plies
    return 0


def subtree_positions(root: Any, plies: int) -> Iterator[Tuple[str, str]]:
    """(path, position text) of every sequence of ``plies`` moves from ``root``, depth first in the order of
    ``legal_moves()``; ``root`` is left as it was."""
    state = root.copy()
    path: List[str] = []

    def walk() -> Iterator[Tuple[str, str]]:
        if len(path) == plies:
            yield " ".join(path), state.to_text()
            return
        for move in state.legal_moves():
            state.play(move)
            path.append(str(move))
            yield from walk()
            path.pop()
            state.undo()

    return walk()


def _run_of(connection: sqlite3.Connection, key: Tuple[str, str, int, str]) -> Optional[Tuple[int, int, int]]:
    """(id, split, subtrees) of the run of ``key`` (game, position text, depth, engine version), if the file has it."""
    row = connection.execute("SELECT id, split, subtrees FROM runs WHERE game = ? AND position = ? AND depth = ? "
                             "AND engine_version = ?", key).fetchone()
    return None if row is None else (int(row[0]), int(row[1]), int(row[2]))


def _add_run(connection: sqlite3.Connection, key: Tuple[str, str, int, str], split: int,
             subtrees: int) -> Tuple[int, int, int]:
    """The run of ``key``, made with ``split`` and ``subtrees`` unless another run on the file made it first
    (whose split then stands)."""
    insert_into(connection, "runs", [(None, *key, split, subtrees)], PERFT_FILE)
    made = _run_of(connection, key)
    assert made is not None
    return made


def _done_paths(connection: sqlite3.Connection, run: int) -> Set[str]:
    return {str(row[0]) for row in connection.execute("SELECT path FROM subtrees WHERE run = ?", (run,))}


def _count_here(game: str, todo: Iterator[Tuple[str, str]], remaining: int,
                threads: int) -> Generator[List[Subtree], None, None]:
    """The counts of ``count_subtrees`` in this process, a list per task of ``Tasks``: a commit each."""
    tasks: Tasks[Tuple[str, str], Subtree] = Tasks(todo)
    for task in tasks:
        yield tasks.done(count_subtrees(game, task, remaining, threads))


def run_perft(root: Any, depth: int, *, db: str = DEFAULT_PERFT_DB, scheduler: Optional[str] = None,
              threads: int = 1, progress: bool = False) -> PerftRun:
    """perft(``root``, ``depth``) counted by subtrees, each subtree's count committed to ``db`` as it comes.

    ``root`` is a position of the C++ engine, ``depth`` 1 .. ``MAX_PERFT_DEPTH`` plies. With ``scheduler``
    (a Dask scheduler's address, ``tcp://HOST:PORT``) the subtrees are counted on that cluster, one task per
    worker thread at a time, each on ``threads`` threads (1 .. ``MAX_THREADS``); without it, here, one at a
    time on ``threads`` threads. A run that ``db`` already holds (same game, root text, depth and engine
    version) counts only the subtrees it lacks, at the split it was made with; one that it holds whole
    connects to no scheduler. A new run splits at ``split_plies`` for the cluster's threads, or here at the
    first ply with ``SUBTREES_PER_THREAD`` subtrees; a run of no split (0) counts the root here. ``progress``
    shows a bar of subtrees on stderr.

    Raises ``TypeError`` for a ``root`` that is not a C++ position or a ``depth`` or ``threads`` that is not
    an int, ``ValueError`` for one out of range or a scheduler address that cannot be one (before any
    connection), ``SurveyFileError`` (a ``ValueError``) if ``db`` is not a perft database or its run does
    not add up, ``MissingExtraError`` for ``scheduler`` without Dask, ``OSError`` if the file cannot be
    written or the scheduler reached, and ``KeyboardInterrupt`` on Ctrl-C (the subtrees committed stay).
    """
    try:
        info = info_of(root)
    except KeyError:
        info = None
    if info is None or not isinstance(root, info.cpp):
        raise TypeError(f"run_perft counts with the C++ engine: root must be a position of one of its games, "
                        f"got {type(root).__name__}")
    check_int(depth, "depth", 1, MAX_PERFT_DEPTH)
    check_int(threads, "threads", 1, MAX_THREADS)
    if scheduler is not None:
        check_scheduler_address(scheduler)
    game = info.name
    key = (game, root.to_text(), depth, engine_version(game))
    with held_database(db, PERFT_FILE) as claim, contextlib.ExitStack() as stack:
        connection = claim.connection

        def cluster(address: str) -> Any:
            return stack.enter_context(connect(address))

        client = None
        run = _run_of(connection, key)
        if run is None:
            client = cluster(scheduler) if scheduler is not None else None
            split = split_plies(root, depth, 1, 1) if client is None else \
                split_plies(root, depth, cluster_threads(client), MIN_SPLIT_PLIES)
            run = _add_run(connection, key, split, perft(root, split))
        number, split, subtrees = run
        done = _done_paths(connection, number)
        enumerated = 0

        def todo() -> Iterator[Tuple[str, str]]:
            nonlocal enumerated
            for subtree in subtree_positions(root, split):
                enumerated += 1
                if subtree[0] not in done:
                    yield subtree

        remaining = depth - split
        if split == 0 or scheduler is None or len(done) == subtrees:
            results = _count_here(game, todo(), remaining, threads)
        else:
            work = functools.partial(count_subtrees, game, remaining=remaining, threads=threads)
            results = on_dask(client or cluster(scheduler), work, todo())
        counted = counted_nodes = 0
        start = time.perf_counter()
        with contextlib.closing(results), tqdm(total=subtrees, initial=len(done), desc=f"{game} depth {depth}",
                                               unit="subtree", disable=not progress, file=sys.stderr) as bar:
            for batch in results:  # a task's counts, committed together: one commit a subtree costs more than many
                for subtree in batch:
                    check_engine_version(game, subtree.engine_version)
                try:
                    insert_into(connection, "subtrees", [(number, *subtree[:3]) for subtree in batch], PERFT_FILE)
                except OSError as error:
                    raise OSError(f"{db}: {error}") from None
                counted += len(batch)
                counted_nodes += sum(subtree.nodes for subtree in batch)
                bar.update(len(batch))
        seconds = time.perf_counter() - start
        stored, nodes = connection.execute("SELECT count(*), sum(nodes) FROM subtrees WHERE run = ?",
                                           (number,)).fetchone()
        if enumerated != subtrees or stored != subtrees:
            raise SurveyFileError(f"{db}: the run of {game} to depth {depth} has {stored:,} subtrees of the "
                                  f"{subtrees:,} it was split into, and {enumerated:,} were enumerated now")
        return PerftRun(int(nodes), split, subtrees, counted, counted_nodes, seconds)

