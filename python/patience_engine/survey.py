"""Winnability surveys: solve a range of numbered deals into an SQLite file, and report on it.

``run_survey`` solves deals ``A..B`` of one game and writes one ``Row`` per
deal to a table ``deals`` of an SQLite database, committing each row as soon as
its deal finishes (WAL journal, ``synchronous=FULL``), so a survey killed at
any moment, ``kill -9`` included, loses at most the deals being solved.

Rows are keyed by game, engine version, node limit, table size and deal. The
engine version is the package version plus a digest of the game's lines of the
bench signature (``signature.engine_version``), so it changes whenever what
the engine computes for that game changes.
Running again with the same settings skips the deals already stored; running
with another node limit, table size or engine version adds rows under their
own key beside the old ones, never mixing them: ``summarize`` and the
``patience report`` command treat each (game, engine version, node limit,
table bytes) as a separate survey.

Every deal is solved with a node limit and no time limit, because the solver
is deterministic under a node limit: a local run and a Dask run give the same
rows except for ``seconds``.

A file is written only if it does not exist yet (it is then created whole,
under a temporary name first, with the mode any new file gets: 0666 less the
umask) or is already a survey database (SQLite application id
``APPLICATION_ID``, schema version ``SCHEMA_VERSION``); anything else raises
``SurveyFileError`` before a byte is written. A file ``run_survey`` created is
removed again if the run fails before its first row (an unreachable scheduler,
no memory for the table, Ctrl-C).

Local worker processes ignore Ctrl-C and exit as soon as the survey process
stops them or dies (``kill -9`` included), even in the middle of a deal.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import math
import multiprocessing
import multiprocessing.connection
import os
import secrets
import signal
import sqlite3
import statistics
import sys
import threading
from dataclasses import dataclass
from typing import (Any, Callable, Dict, Generator, Iterable, Iterator, List, NamedTuple, Optional, Sequence, Set,
                    Tuple)
from urllib.parse import quote

from tqdm import tqdm

from . import GAMES
from .signature import engine_version
from .solver import DEFAULT_TABLE_BYTES, solve

DEFAULT_DB = "patience-survey.sqlite"
"""The database file used when none is given."""
DEFAULT_NODE_LIMIT = 10_000_000
"""Node limit per deal used when none is given."""
APPLICATION_ID = 0x50415453  # "PATS" in ASCII
"""SQLite ``PRAGMA application_id`` that marks a survey database."""
SCHEMA_VERSION = 1
"""SQLite ``PRAGMA user_version`` of the schema this module writes."""
MAX_SQLITE_INTEGER = (1 << 63) - 1
"""Largest deal number, node limit and table size a survey can store (SQLite integers are signed 64-bit)."""
MAX_SURVEY_DEAL = MAX_SQLITE_INTEGER
"""Largest deal number a survey can store."""

_SQLITE_MAGIC = b"SQLite format 3\x00"
_SCHEMA = """
CREATE TABLE deals (
    game TEXT NOT NULL,
    deal INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('won', 'lost', 'unknown')),
    score INTEGER NOT NULL,
    nodes INTEGER NOT NULL,
    seconds REAL NOT NULL,
    solution TEXT NOT NULL,
    proven INTEGER NOT NULL CHECK (proven IN (0, 1)),
    engine_version TEXT NOT NULL,
    node_limit INTEGER NOT NULL,
    table_bytes INTEGER NOT NULL,
    PRIMARY KEY (game, engine_version, node_limit, table_bytes, deal)
);
"""


class SurveyFileError(ValueError):
    """A file that is not a usable survey database (foreign, corrupt, newer schema, missing)."""


class MissingExtraError(ImportError):
    """An optional dependency (the ``dask`` or ``plot`` extra) is not installed."""


class Row(NamedTuple):
    """One solved deal, as stored in the ``deals`` table."""

    game: str
    deal: int
    status: str
    """``"won"``, ``"lost"`` or ``"unknown"`` (the node limit was reached)."""
    score: int
    nodes: int
    """Positions the solver expanded."""
    seconds: float
    """Wall-clock seconds of the solve."""
    solution: str
    """The solution's move texts joined by spaces."""
    proven: bool
    """The search finished: the status, and for Germaine the score, are the best there is."""
    engine_version: str
    node_limit: int
    table_bytes: int

    @property
    def settings(self) -> Tuple[str, str, int, int]:
        """(game, engine version, node limit, table bytes): the rows of one survey share these."""
        return (self.game, self.engine_version, self.node_limit, self.table_bytes)


@dataclass(frozen=True)
class SurveyRun:
    """What ``run_survey`` did."""

    solved: int
    """Deals solved and written by this run."""
    skipped: int
    """Deals of the range already in the database with the same settings."""
    other_settings: Tuple[Tuple[str, str, int, int], ...]
    """Other (game, engine version, node limit, table bytes) of the same game in the file, kept apart."""


def _span(low: int, high: Optional[int]) -> str:
    """The bounds low .. high as error messages give them."""
    if high is None:
        return f">= {low}"
    # 2**64-1 reads better than its 20 digits.
    top = f"2**{high.bit_length()}-1" if high > 1 << 32 and high & (high + 1) == 0 else str(high)
    return f"in {low} .. {top}"


def parse_decimal(text: str, what: str, low: int, high: Optional[int] = None) -> int:
    """``text`` as an integer in ``low .. high`` (no upper bound when ``high`` is None).

    Only the ASCII digits 0-9 are taken (leading zeros too): no sign, space, underscore, base prefix or
    digits of other scripts, all of which ``int()`` would read. Raises ``ValueError`` naming ``what``.
    """
    if not (text.isascii() and text.isdigit()):
        raise ValueError(f"{what} must be written with the digits 0-9 alone, got {text!r}")
    value = int(text)
    if value < low or (high is not None and value > high):
        raise ValueError(f"{what} must be {_span(low, high)}, got {value}")
    return value


def parse_deal_range(text: str) -> range:
    """The deals of ``"A-B"`` (inclusive) or ``"N"``; raises ``ValueError`` for anything else.

    Deal numbers are 0 .. ``MAX_SURVEY_DEAL``, written with the digits 0-9 alone (see ``parse_decimal``).
    """
    first, sep, last = text.partition("-")
    try:
        a = parse_decimal(first, "deal number", 0, MAX_SURVEY_DEAL)
        b = parse_decimal(last, "deal number", 0, MAX_SURVEY_DEAL) if sep else a
    except ValueError as error:
        raise ValueError(f"deal range must be A-B or N, got {text!r}: {error}") from None
    if a > b:
        raise ValueError(f"deal range A-B must have A <= B, got {text!r}")
    return range(a, b + 1)


def solve_deal(game: str, deal: int, node_limit: int, table_bytes: int) -> Row:
    """Solve deal number ``deal`` of ``game`` (a key of ``GAMES``) and return its row.

    Runs in worker processes and on Dask workers, which rebuild the position from the number.
    """
    cls: Any = GAMES[game]
    solution = solve(cls.deal(deal), node_limit=node_limit, table_bytes=table_bytes)
    return Row(game, deal, solution.status, solution.score, solution.nodes, solution.seconds,
               solution.text, solution.proven, engine_version(game), node_limit, table_bytes)


def _check_header(path: str) -> None:
    """Raise ``SurveyFileError`` unless the file at ``path`` starts like a survey database."""
    with open(path, "rb") as handle:
        header = handle.read(100)
    if len(header) < 100 or not header.startswith(_SQLITE_MAGIC):
        raise SurveyFileError(f"{path} is not an SQLite database (foreign or corrupt file); left untouched")
    # The header stores user_version at byte 60 and application_id at byte 68, big-endian.
    application_id = int.from_bytes(header[68:72], "big")
    user_version = int.from_bytes(header[60:64], "big")
    if application_id != APPLICATION_ID:
        raise SurveyFileError(f"{path} is an SQLite database of another application "
                              f"(application_id {application_id:#x}, expected {APPLICATION_ID:#x}); left untouched")
    if user_version != SCHEMA_VERSION:
        raise SurveyFileError(f"{path} has survey schema version {user_version}, this engine reads "
                              f"{SCHEMA_VERSION}; left untouched")


def _check_contents(connection: sqlite3.Connection, path: str) -> None:
    """Raise ``SurveyFileError`` if the open database fails SQLite's check or lacks the ``deals`` table."""
    try:
        problems = [r[0] for r in connection.execute("PRAGMA quick_check")]
        columns = [r[1] for r in connection.execute("PRAGMA table_info(deals)")]
    except sqlite3.DatabaseError as error:
        raise SurveyFileError(f"{path} is corrupt ({error}); left untouched") from None
    if problems != ["ok"]:
        raise SurveyFileError(f"{path} is corrupt ({'; '.join(problems[:3])}); left untouched")
    if columns != list(Row._fields):
        raise SurveyFileError(f"{path} has no deals table of the expected columns; left untouched")


def _create(path: str) -> None:
    """Create an empty survey database at ``path``, all at once, so no half-made file is ever seen."""
    # A random name beside path (64 bits: a clash is not worth a retry), made with mode 0666 less the
    # umask like any new file (mkstemp would make it private), which SQLite keeps and gives its WAL too.
    temporary = f"{path}.{secrets.token_hex(8)}.new"
    try:
        os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    except OSError as error:
        raise OSError(error.errno, error.strerror, path) from None  # path, not the temporary name
    try:
        connection = sqlite3.connect(temporary)
        try:
            connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            connection.executescript(_SCHEMA)
            connection.commit()
            # WAL is a property of the file: set once here, every later connection uses it.
            connection.execute("PRAGMA journal_mode = WAL")
        finally:
            connection.close()
        # Replacing (not linking) may clobber a file made by another process since the caller
        # looked; two surveys creating the same file at the same instant is not worth more.
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def open_database(path: str, *, create: bool) -> sqlite3.Connection:
    """Open the survey database at ``path`` after checking it.

    With ``create`` the connection is writable and a missing file is created; without it the
    connection is read-only. Raises ``SurveyFileError`` for a missing
    file (without ``create``) or a file that is not a survey database, which is then left
    as it was; ``OSError`` if the file cannot be read or created.
    """
    if not path:
        raise SurveyFileError("the survey database path is empty")
    if not os.path.exists(path):
        if not create:
            raise SurveyFileError(f"{path}: no such survey database")
        _create(path)
    _check_header(path)
    # Check through a read-only connection: closing a writable one may checkpoint a WAL
    # left by a killed run into the file, which must stay as it is if it fails the check.
    reader = sqlite3.connect(f"file:{quote(os.path.abspath(path))}?mode=ro", uri=True)
    try:
        _check_contents(reader, path)
    except BaseException:
        reader.close()
        raise
    if not create:
        return reader
    reader.close()
    connection = sqlite3.connect(path)
    # FULL syncs the WAL on every commit: a finished deal survives a power cut too.
    connection.execute("PRAGMA synchronous = FULL")
    return connection


def _insert(connection: sqlite3.Connection, row: Row) -> None:
    placeholders = ", ".join("?" * len(Row._fields))
    with connection:  # commits at once: this deal is now durable
        connection.execute(f"INSERT OR IGNORE INTO deals VALUES ({placeholders})", row)


def _done_deals(connection: sqlite3.Connection, settings: Tuple[str, str, int, int], deals: range) -> Set[int]:
    query = ("SELECT deal FROM deals WHERE game = ? AND engine_version = ? AND node_limit = ? "
             "AND table_bytes = ? AND deal BETWEEN ? AND ?")
    return {r[0] for r in connection.execute(query, (*settings, deals.start, deals.stop - 1))}


def _other_settings(connection: sqlite3.Connection, settings: Tuple[str, str, int, int]
                    ) -> Tuple[Tuple[str, str, int, int], ...]:
    query = ("SELECT DISTINCT game, engine_version, node_limit, table_bytes FROM deals WHERE game = ? "
             "ORDER BY engine_version, node_limit, table_bytes")
    found = [(str(g), str(v), int(n), int(t)) for g, v, n, t in connection.execute(query, settings[:1])]
    return tuple(other for other in found if other != settings)


def default_jobs() -> int:
    """The number of CPUs this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _windowed(submit: Callable[[int], Any], first_completed: Callable[[Set[Any]], Tuple[Set[Any], Set[Any]]],
              deals: Iterable[int], window: int) -> Iterator[Row]:
    """Results of ``submit(deal)`` as they finish, with at most ``window`` deals in flight.

    Bounding what is in flight keeps memory flat on huge ranges and limits what a kill loses.
    """
    todo = iter(deals)
    pending: Set[Any] = set()
    while True:
        for deal in todo:
            pending.add(submit(deal))
            if len(pending) >= window:
                break
        if not pending:
            return
        done, pending = first_completed(pending)
        for future in done:
            yield future.result()


def _worker_start(stop: multiprocessing.connection.Connection) -> None:
    """Initializer of a local worker process: leave Ctrl-C to the parent, exit when the parent says or dies.

    A terminal sends Ctrl-C to the whole process group; the parent stops the workers itself, so a
    worker ignores it rather than print a traceback. Nothing is ever sent on ``stop``: it reaches
    end-of-file when the parent closes the other end or dies (``kill -9`` too), and the worker then
    exits at once, even in the middle of a deal (the solver runs without the GIL).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        stop.poll(None)
        os._exit(1)

    threading.Thread(target=watch, name="stop-with-parent", daemon=True).start()


def _solve_locally(game: str, deals: Iterable[int], node_limit: int, table_bytes: int, jobs: int
                   ) -> Generator[Row, None, None]:
    if jobs == 1:
        for deal in deals:
            yield solve_deal(game, deal, node_limit, table_bytes)
        return
    # forkserver/spawn rather than fork: this process has threads (tqdm's monitor), and
    # forking a threaded process can deadlock.
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    stop_reader, stop_writer = context.Pipe(duplex=False)
    executor = concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=context,
                                                      initializer=_worker_start, initargs=(stop_reader,))
    try:
        yield from _windowed(
            lambda deal: executor.submit(solve_deal, game, deal, node_limit, table_bytes),
            lambda pending: concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED),
            deals, 2 * jobs)
    except BaseException:
        # Interrupted or failed: end the workers now rather than wait for the deals in flight.
        stop_writer.close()
        raise
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
        stop_writer.close()
        stop_reader.close()


def _solve_on_dask(game: str, deals: Iterable[int], node_limit: int, table_bytes: int, scheduler: str
                   ) -> Generator[Row, None, None]:
    try:
        from dask import distributed
    except ImportError:
        raise MissingExtraError("--scheduler needs Dask: pip install 'patience-engine[dask]'") from None
    # The connect timeout is Dask's setting distributed.comm.timeouts.connect (30 s unless configured).
    with distributed.Client(scheduler) as client:
        threads = sum(client.nthreads().values())
        for row in _windowed(
                lambda deal: client.submit(solve_deal, game, deal, node_limit, table_bytes, pure=False),
                lambda pending: distributed.wait(pending, return_when="FIRST_COMPLETED"),
                deals, max(2 * threads, 4)):
            if row.engine_version != engine_version(game):
                raise ValueError(f"the Dask workers run patience-engine {row.engine_version}, this process "
                                 f"{engine_version(game)}: install the same engine on both")
            yield row


def run_survey(game: str, deals: range, *, db: str = DEFAULT_DB, jobs: Optional[int] = None,
               node_limit: int = DEFAULT_NODE_LIMIT, table_bytes: int = DEFAULT_TABLE_BYTES,
               scheduler: Optional[str] = None, progress: bool = True) -> SurveyRun:
    """Solve the deals of ``deals`` not yet in ``db`` and write one row each, committing as each finishes.

    ``game`` is a key of ``GAMES``; ``node_limit`` (nodes, 1 .. 2**63-1) and ``table_bytes`` (bytes,
    0 .. 2**63-1) go to the solver. Deals run in ``jobs`` local processes (default: every CPU; 1 solves in
    this process), or on the Dask cluster whose scheduler address (``tcp://HOST:PORT``) is ``scheduler``.
    ``progress`` shows a progress bar on stderr. Raises ``ValueError`` for a bad argument,
    ``SurveyFileError`` if ``db`` is not a survey database, ``MissingExtraError`` if ``scheduler`` is
    given without Dask installed, ``OSError`` if the file or the scheduler cannot be reached,
    ``MemoryError`` if the table cannot be allocated, and ``KeyboardInterrupt`` on Ctrl-C (the rows
    already written stay). A ``db`` this call created is removed if it fails before the first row.
    """
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; choose from {', '.join(GAMES)}")
    if deals.step != 1 or deals.start < 0 or deals.stop - 1 > MAX_SURVEY_DEAL:
        raise ValueError(f"deals must be a contiguous range within 0 .. 2**63-1, got {deals}")
    if not 1 <= node_limit <= MAX_SQLITE_INTEGER:
        raise ValueError(f"node limit must be in 1 .. 2**63-1, got {node_limit}")
    if not 0 <= table_bytes <= MAX_SQLITE_INTEGER:
        raise ValueError(f"table bytes must be in 0 .. 2**63-1, got {table_bytes}")
    if jobs is not None and jobs < 1:
        raise ValueError(f"jobs must be >= 1, got {jobs}")
    created = not os.path.exists(db)
    connection = open_database(db, create=True)
    try:
        settings = (game, engine_version(game), node_limit, table_bytes)
        done = _done_deals(connection, settings, deals)
        todo = (deal for deal in deals if deal not in done)
        if scheduler is not None:
            rows = _solve_on_dask(game, todo, node_limit, table_bytes, scheduler)
        else:
            rows = _solve_locally(game, todo, node_limit, table_bytes, jobs or default_jobs())
        count = deals.stop - deals.start  # len(deals) overflows past 2**63 - 1 deals
        # closing: an error here (Ctrl-C while a row is written) stops the workers at once too.
        with contextlib.closing(rows), tqdm(total=count, initial=len(done), desc=game, unit="deal",
                                            disable=not progress, file=sys.stderr) as bar:
            for row in rows:
                _insert(connection, row)
                bar.update()
        return SurveyRun(count - len(done), len(done), _other_settings(connection, settings))
    except BaseException:
        # Leave no empty file behind: the scheduler was unreachable, the table too big, Ctrl-C came early.
        if created and connection.execute("SELECT 1 FROM deals LIMIT 1").fetchone() is None:
            connection.close()
            os.unlink(db)
        raise
    finally:
        connection.close()


def read_rows(path: str) -> List[Row]:
    """Every row of the survey database at ``path``, by settings then deal.

    Raises ``SurveyFileError`` if ``path`` is missing or not a survey database.
    """
    connection = open_database(path, create=False)
    try:
        query = f"SELECT {', '.join(Row._fields)} FROM deals ORDER BY game, engine_version, node_limit, table_bytes, deal"
        return [Row._make(r[:7] + (bool(r[7]),) + r[8:]) for r in connection.execute(query)]
    except sqlite3.DatabaseError as error:
        raise SurveyFileError(f"{path} is corrupt ({error})") from None
    finally:
        connection.close()


Z_95 = statistics.NormalDist().inv_cdf(0.975)
"""The standard normal quantile of a two-sided 95% interval (1.95996...)."""


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> Tuple[float, float]:
    """The Wilson score interval of a binomial proportion, as (low, high) fractions in [0, 1].

    With p = successes / trials and n = trials, the bounds are
    (p + z²/2n ± z·sqrt(p(1 − p)/n + z²/4n²)) / (1 + z²/n).
    Source: E. B. Wilson, "Probable inference, the law of succession, and statistical inference",
    Journal of the American Statistical Association 22 (1927), 209-212; also R. G. Newcombe,
    "Two-sided confidence intervals for the single proportion: comparison of seven methods",
    Statistics in Medicine 17 (1998), 857-872, method 3. Raises ``ValueError`` if trials < 1 or
    successes is not in 0 .. trials.
    """
    if trials < 1 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials and trials >= 1, got {successes}/{trials}")
    p = successes / trials
    z2 = z * z
    centre = p + z2 / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    scale = 1 + z2 / trials
    return (max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0 <= q <= 100) of ``values``, interpolating linearly between ranks.

    Raises ``ValueError`` for no values or q out of range.
    """
    if not values or not 0 <= q <= 100:
        raise ValueError(f"need values and 0 <= q <= 100, got {len(values)} values, q={q}")
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


@dataclass(frozen=True)
class Summary:
    """The figures of one survey: the rows of one (game, engine version, node limit, table bytes)."""

    game: str
    engine_version: str
    node_limit: int
    table_bytes: int
    deals: int
    won: int
    lost: int
    unknown: int
    winnability: Optional[float]
    """won / (won + lost), or None when no deal is resolved."""
    interval: Optional[Tuple[float, float]]
    """95% Wilson score interval of the winnability, or None."""
    nodes_median: float
    nodes_p99: float
    seconds_median: float
    seconds_p99: float
    scores: Tuple[Tuple[int, int], ...]
    """(score, deals) pairs by score."""
    proven_scores: int
    """Deals whose score is proven the best there is."""


def summarize(rows: Sequence[Row]) -> List[Summary]:
    """One ``Summary`` per settings (game, engine version, node limit, table bytes) present in ``rows``."""
    groups: Dict[Tuple[str, str, int, int], List[Row]] = {}
    for row in rows:
        groups.setdefault(row.settings, []).append(row)
    summaries = []
    for settings, group in sorted(groups.items()):
        counts = {status: sum(1 for r in group if r.status == status) for status in ("won", "lost", "unknown")}
        resolved = counts["won"] + counts["lost"]
        nodes = [r.nodes for r in group]
        seconds = [r.seconds for r in group]
        scores: Dict[int, int] = {}
        for r in group:
            scores[r.score] = scores.get(r.score, 0) + 1
        summaries.append(Summary(
            *settings, deals=len(group), won=counts["won"], lost=counts["lost"], unknown=counts["unknown"],
            winnability=counts["won"] / resolved if resolved else None,
            interval=wilson_interval(counts["won"], resolved) if resolved else None,
            nodes_median=statistics.median(nodes), nodes_p99=percentile(nodes, 99),
            seconds_median=statistics.median(seconds), seconds_p99=percentile(seconds, 99),
            scores=tuple(sorted(scores.items())), proven_scores=sum(1 for r in group if r.proven)))
    return summaries


def format_report(summaries: Sequence[Summary], titles: Dict[str, str]) -> str:
    """The text of ``patience report``: one block per summary; ``titles`` names the games."""
    blocks = []
    for s in summaries:
        lines = [f"{titles.get(s.game, s.game)}: engine {s.engine_version}, node limit {s.node_limit:,}, "
                 f"table {s.table_bytes:,} bytes",
                 f"  deals {s.deals:,}  won {s.won:,}  lost {s.lost:,}  unknown {s.unknown:,}"]
        if s.winnability is not None and s.interval is not None:
            lines.append(f"  winnability {100 * s.winnability:.2f}% (95% Wilson interval "
                         f"{100 * s.interval[0]:.2f}% - {100 * s.interval[1]:.2f}%) over {s.won + s.lost:,} resolved deals")
        else:
            lines.append("  winnability - (no resolved deal)")
        if s.unknown:
            # The unknown deals are the hard ones, not a random sample: the rate over resolved deals
            # can be far off, while these bounds over the deals surveyed are certain.
            lines.append(f"  won over all {s.deals:,} deals: {100 * s.won / s.deals:.2f}% (unknown as lost) - "
                         f"{100 * (s.won + s.unknown) / s.deals:.2f}% (unknown as won)")
        lines.append(f"  nodes    median {s.nodes_median:,.0f}  99th percentile {s.nodes_p99:,.0f}")
        lines.append(f"  seconds  median {s.seconds_median:.4f}  99th percentile {s.seconds_p99:.4f}")
        if s.game == "germaine":
            lines.append(f"  score distribution (score: deals; {s.proven_scores:,} of {s.deals:,} proven best): "
                         + ", ".join(f"{score}: {n}" for score, n in s.scores))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def plot(rows: Sequence[Row], path: str, titles: Dict[str, str]) -> None:
    """Draw to the PNG file ``path`` the nodes per deal and the winnability as deals accumulate.

    One curve per survey settings; ``titles`` names the games. Raises ``MissingExtraError`` without
    matplotlib (the ``plot`` extra), ``OSError`` if the file cannot be written.
    """
    try:
        import numpy
        from matplotlib.figure import Figure
    except ImportError:
        raise MissingExtraError("--plot needs matplotlib: pip install 'patience-engine[plot]'") from None
    groups: Dict[Tuple[str, str, int, int], List[Row]] = {}
    for row in rows:
        groups.setdefault(row.settings, []).append(row)
    figure = Figure(figsize=(12, 4.5), layout="constrained")
    nodes_axes, rate_axes = figure.subplots(1, 2)
    highest = max((r.nodes for r in rows), default=1)
    bins = numpy.geomspace(1, max(highest, 2), 50)
    for (game, version, limit, _), group in sorted(groups.items()):
        label = f"{titles.get(game, game)} (limit {limit:,}, engine {version})"
        nodes_axes.hist([max(r.nodes, 1) for r in group], bins=bins, histtype="step", label=label)
        resolved = [r for r in sorted(group, key=lambda r: r.deal) if r.status != "unknown"]
        if not resolved:
            continue
        won = numpy.cumsum([r.status == "won" for r in resolved])
        count = numpy.arange(1, len(resolved) + 1)
        bounds = numpy.array([wilson_interval(int(w), int(n)) for w, n in zip(won, count)])
        line, = rate_axes.plot(count, won / count, label=label)
        rate_axes.fill_between(count, bounds[:, 0], bounds[:, 1], color=line.get_color(), alpha=0.2)
    nodes_axes.set(xscale="log", xlabel="nodes per deal", ylabel="deals", title="Solver nodes per deal")
    rate_axes.set(xlabel="resolved deals, in deal order", ylabel="won / resolved", ylim=(0, 1),
                  title="Winnability as deals accumulate (band: 95% Wilson)")
    for axes in (nodes_axes, rate_axes):
        if axes.has_data():
            axes.legend(fontsize="small")
    figure.savefig(path, dpi=120)
