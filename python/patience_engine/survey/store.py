"""The survey's SQLite store: one row per solved deal, durable as soon as it is written.

What this docstring says of a survey database holds for every kind of file the package keeps in
SQLite (``FileKind``: the survey's ``SURVEY_FILE``, and ``perft.PERFT_FILE`` of a perft split into
subtrees); only the tables differ.

Rows are keyed by game, engine version, node limit, table size, player,
threads and deal (the player is ``"thoughtful"`` for the solver, which sees
every card, else the text of a blind player of ``patience_engine.players``;
threads is the number of threads each solve of the deal ran on). A
file is written only if it does not exist yet (it is then created whole,
under a temporary name first, with the mode any new file gets: 0666 less the
umask) or is already a survey database (SQLite application id
``APPLICATION_ID``, schema version ``SCHEMA_VERSION``); anything else raises
``SurveyFileError`` before a byte is written. A file of an older schema is
read as its rows were written, and is upgraded in one transaction when opened
for writing: version 1 (before the player column) holds thoughtful rows,
versions 1 and 2 (before the threads column) rows of one thread, and
versions 1 to 3 the engine version in its old form, ``0.1.0+`` and the
digest, read as ``r1-`` and the digest (``upgraded_engine_version``). Each row is committed on its
own (WAL journal, ``synchronous=NORMAL``), so a survey killed at any moment,
``kill -9`` included, loses at most the deals being solved; only a power cut
or an operating-system crash can also lose the last commits (their deals are
solved again when the survey is resumed). ``close_database``
ends a run by moving the journal back into the file (rollback-journal mode):
a finished run leaves the database file alone, with no ``-wal`` or ``-shm``
beside it, and the file can be read where nothing can be written.

A file is read through a read-only connection, so a file or directory that
cannot be written, or a read-only file system, is read all the same. Where
SQLite cannot even make the ``-shm`` file a WAL-mode database needs, the file
is read as immutable, which is sound only when it has no write-ahead log: one
with rows in its ``-wal`` raises ``SurveyFileError`` instead.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import sqlite3
import stat
import sys
import time
from typing import Any, Callable, Dict, Iterable, List, NamedTuple, Optional, Set, Tuple
from urllib.parse import quote

if sys.platform != "win32":
    import fcntl

DEFAULT_DB = "patience-survey.sqlite"
"""The database file used when none is given."""
APPLICATION_ID = 0x50415453  # "PATS" in ASCII
"""SQLite ``PRAGMA application_id`` that marks a survey database."""
PERFT_APPLICATION_ID = 0x50415450  # "PATP" in ASCII
"""SQLite ``PRAGMA application_id`` that marks a perft database (``perft.PERFT_FILE``)."""
# What each of the package's application ids marks, for the message that refuses a file of one kind as another.
_KIND_NAMES = {APPLICATION_ID: "survey", PERFT_APPLICATION_ID: "perft"}
SCHEMA_VERSION = 4
"""SQLite ``PRAGMA user_version`` of the schema this module writes (1: no player column, 2: no threads column;
1 to 3: engine versions of the old form)."""
THOUGHTFUL = "thoughtful"
"""The player of a solver's rows: it sees the face-down cards (docs/rules.md "Geoffrey")."""

Settings = Tuple[str, str, int, int, str, int]
"""The game, engine version, node limit, table bytes, player and threads that the rows of one survey share."""

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
    player TEXT NOT NULL,
    threads INTEGER NOT NULL CHECK (threads >= 1),
    PRIMARY KEY (game, engine_version, node_limit, table_bytes, player, threads, deal)
);
"""
_COLUMNS_OF_VERSION = {1: 11, 2: 12, 3: 13, 4: 13}
"""How many of ``Row``'s fields, in order, a file of each schema version has (1: before ``player``, 2: before
``threads``; 3 and 4 differ in the engine version's form)."""


def upgraded_engine_version(column: str) -> str:
    """An SQL expression of the engine version in ``column`` in the form ``signature.engine_version`` gives.

    The engine version was the package version, ``+`` and the digest of the game's signature lines, until it
    became ``r``, ``signature.ENGINE_REVISION``, ``-`` and the digest: that engine's was revision 1, and its
    package version never was other than 0.1.0, so ``0.1.0+<digest>`` is ``r1-<digest>``. Other text stays.
    """
    return f"CASE WHEN {column} GLOB '0.1.0+*' THEN 'r1-' || substr({column}, 7) ELSE {column} END"


class SurveyFileError(ValueError):
    """A file that is not a usable database of the kind asked for (foreign, corrupt, newer schema, missing)."""


class Row(NamedTuple):
    """One solved or played deal, as stored in the ``deals`` table."""

    game: str
    deal: int
    status: str
    """``"won"``, ``"lost"`` or ``"unknown"`` (the node limit was reached). A player's game is won or lost."""
    score: int
    nodes: int
    """Positions the solver (a player: all its solves) expanded."""
    seconds: float
    """Wall-clock seconds of the solve or game."""
    solution: str
    """The solution's move texts joined by spaces; a player's: the moves it played."""
    proven: bool
    """The search finished: the status, and for Germaine the score, are the best there is (never for a player)."""
    engine_version: str
    node_limit: int
    """Node limit of the solve (a player: of each of its solves)."""
    table_bytes: int
    player: str = THOUGHTFUL
    """``THOUGHTFUL`` for the solver, else a blind player's ``name`` (``patience_engine.players``)."""
    threads: int = 1
    """Threads each solve of the deal ran on (``solve``'s ``num_threads``; 1 for a player's)."""

    @property
    def settings(self) -> Settings:
        """(game, engine version, node limit, table bytes, player, threads): the rows of one survey share these."""
        return (self.game, self.engine_version, self.node_limit, self.table_bytes, self.player, self.threads)


class FileKind(NamedTuple):
    """A kind of SQLite file the package keeps: how it is marked, made and checked. Every function of
    this module that opens a file takes the kind it must be (default ``SURVEY_FILE``)."""

    name: str
    """What messages call it: ``"survey"`` (a "survey database", "survey schema version 2")."""
    application_id: int
    """``PRAGMA application_id`` of every such file."""
    schema_version: int
    """``PRAGMA user_version`` of the schema written now."""
    versions: Tuple[int, ...]
    """The schema versions read; an older one is brought up to date by ``upgrade`` when opened for writing."""
    schema: str
    """The statements that make the tables of a new file."""
    columns: Callable[[int], Dict[str, List[str]]]
    """The tables, each with its columns in order, that a file of a schema version must have."""
    rows_table: str
    """The table whose rows are the file's worth: a new file left with none is removed (``release_database``)."""
    upgrade: Optional[Callable[[sqlite3.Connection], None]] = None
    """``upgrade(connection)`` rewrites a file of an older version of ``versions`` to ``schema_version``, in one
    transaction (``upgrade_with``)."""

    @property
    def noun(self) -> str:
        """``"survey database"``."""
        return f"{self.name} database"


_ROW_DEFAULTS = {"player": f"'{THOUGHTFUL}'", "threads": "1"}
"""What the rows of an older schema hold in a column added since: they were thoughtful and on one thread."""
_OLD_ENGINE_VERSIONS = 3
"""The last schema version whose engine versions have the old form (``upgraded_engine_version``)."""


def _missing_columns(version: int) -> List[str]:
    """The values, as SQL, of the columns a file of schema ``version`` lacks (``_ROW_DEFAULTS``)."""
    return [_ROW_DEFAULTS[name] for name in Row._fields[_COLUMNS_OF_VERSION[version]:]]


def _columns(version: int) -> str:
    """SQL of the ``deals`` columns of a file of schema ``version``, in ``Row`` order and in the form of
    ``SCHEMA_VERSION``: an old file's missing columns are their defaults and its engine version an expression."""
    present = Row._fields[:_COLUMNS_OF_VERSION[version]]
    columns = [upgraded_engine_version(f) if f == "engine_version" and version <= _OLD_ENGINE_VERSIONS else f
               for f in present]
    return ", ".join([*columns, *_missing_columns(version)])


def upgrade_with(connection: sqlite3.Connection, kind: FileKind, statements: Callable[[int], List[str]]) -> None:
    """Run ``statements(version)`` on a file of ``kind`` of an older schema version, then mark it
    ``kind.schema_version``, in one transaction: the version is read inside it, so of two runs upgrading
    the same file at once, the second finds it done."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        version = _schema_version(connection)
        if version != kind.schema_version:
            for statement in statements(version):
                connection.execute(statement)
            connection.execute(f"PRAGMA user_version = {kind.schema_version}")
        connection.commit()
    except BaseException:
        connection.rollback()
        raise


def _upgrade(connection: sqlite3.Connection) -> None:
    """Rewrite the ``deals`` table of a file of an older schema as ``_SCHEMA``'s, in one transaction."""
    upgrade_with(connection, SURVEY_FILE, lambda version: [
        "ALTER TABLE deals RENAME TO deals_old",
        _SCHEMA,
        f"INSERT INTO deals SELECT {_columns(version)} FROM deals_old",
        "DROP TABLE deals_old",
    ])


SURVEY_FILE = FileKind(
    "survey", APPLICATION_ID, SCHEMA_VERSION, tuple(_COLUMNS_OF_VERSION), _SCHEMA,
    lambda version: {"deals": list(Row._fields[:_COLUMNS_OF_VERSION[version]])}, "deals", _upgrade)
"""A survey database: the ``deals`` table of ``Row``."""


def _check_kind(path: str, mode: int, kind: FileKind) -> None:
    """Raise ``SurveyFileError`` unless ``mode`` (of the file at ``path``) is a regular file's or a directory's
    (which open() refuses in its own words): a FIFO would block a read until a writer came."""
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        raise SurveyFileError(f"{path} is not a regular file, so not a {kind.noun}; left untouched")


def _check_header(path: str, kind: FileKind) -> None:
    """Raise ``SurveyFileError`` unless the file at ``path`` starts like a database of ``kind``."""
    _check_kind(path, os.stat(path).st_mode, kind)
    with open(path, "rb") as handle:
        header = handle.read(100)
    if not header and os.path.isfile(path):
        raise SurveyFileError(f"{path} is an empty file, not a {kind.noun}; left untouched "
                              "(remove it, and the next run makes one)")
    if len(header) < 100 or not header.startswith(_SQLITE_MAGIC):
        raise SurveyFileError(f"{path} is not an SQLite database (foreign or corrupt file); left untouched")
    # The header stores user_version at byte 60 and application_id at byte 68, big-endian.
    application_id = int.from_bytes(header[68:72], "big")
    user_version = int.from_bytes(header[60:64], "big")
    if application_id in _KIND_NAMES and application_id != kind.application_id:
        raise SurveyFileError(f"{path} is a {_KIND_NAMES[application_id]} database, not a {kind.noun}; "
                              "left untouched")
    if application_id != kind.application_id:
        raise SurveyFileError(f"{path} is an SQLite database of another application (application_id "
                              f"{application_id:#x}, expected {kind.application_id:#x}); left untouched")
    if user_version not in kind.versions:
        raise SurveyFileError(f"{path} has {kind.name} schema version {user_version}, this engine reads "
                              f"{kind.schema_version}; left untouched")


def _schema_version(connection: sqlite3.Connection) -> int:
    return int(connection.execute("PRAGMA user_version").fetchone()[0])


def _first_line(error: Exception) -> str:
    """SQLite's message, one line of printable text: a damaged cell's bytes may follow it, newlines and
    terminal escapes among them."""
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    shown = "".join(c if c.isprintable() else "?" for c in text)
    return shown if len(shown) <= 120 else shown[:117] + "..."


def _check_contents(connection: sqlite3.Connection, path: str, kind: FileKind) -> None:
    """Raise ``SurveyFileError`` if the open database fails SQLite's check or lacks a table of ``kind``."""
    try:
        problems = [r[0] for r in connection.execute("PRAGMA quick_check")]
        expected = kind.columns(_schema_version(connection))
        columns = {table: [r[1] for r in connection.execute(f"PRAGMA table_info({table})")] for table in expected}
    except sqlite3.DatabaseError as error:
        raise SurveyFileError(f"{path} is corrupt ({_first_line(error)}); left untouched") from None
    if problems != ["ok"]:
        # SQLite's check gives a line per problem (a damaged page), under a "*** in database main ***" heading.
        lines = [line for problem in problems for line in problem.splitlines() if line and not line.startswith("***")]
        more = f", and {len(lines) - 1} more problems" if len(lines) > 1 else ""
        raise SurveyFileError(f"{path} is corrupt ({(lines or problems)[0]}{more}); left untouched")
    for table, names in expected.items():
        if columns[table] != names:
            raise SurveyFileError(f"{path} has no {table} table of the expected columns; left untouched")


def _uri(path: str) -> str:
    """The SQLite URI of the file at ``path``: a name such as ``file:a`` or ``:memory:`` names that file."""
    return f"file:{quote(os.path.abspath(path))}"


def _connect(path: str) -> sqlite3.Connection:
    """A writable connection to the file at ``path`` (through its URI: SQLite may read a plain
    ``file:a.sqlite`` as a URI naming ``a.sqlite``)."""
    return sqlite3.connect(_uri(path), uri=True)


def _create(path: str, kind: FileKind) -> bool:
    """Create an empty database of ``kind`` at ``path``, all at once, so no half-made file is ever seen.

    Returns False, leaving it alone, when another process made a file at ``path`` first.
    """
    # A random name beside path (64 bits: a clash is not worth a retry), made with mode 0666 less the
    # umask like any new file (mkstemp would make it private), which SQLite keeps and gives its WAL too.
    temporary = f"{path}.{secrets.token_hex(8)}.new"
    try:
        os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    except OSError as error:
        raise OSError(error.errno, error.strerror, path) from None  # path, not the temporary name
    try:
        connection = _connect(temporary)
        try:
            connection.execute(f"PRAGMA application_id = {kind.application_id}")
            connection.execute(f"PRAGMA user_version = {kind.schema_version}")
            connection.executescript(kind.schema)
            connection.commit()
        except sqlite3.Error as error:  # the disk is full
            raise OSError(f"{path}: cannot write the {kind.noun} ({error})") from None
        finally:
            connection.close()
        # A link, unlike a rename, never replaces a file another survey made since the caller
        # looked, with rows of its own; a file system without links gets the rename.
        try:
            os.link(temporary, path)
        except FileExistsError:
            return False
        except OSError:
            if os.path.exists(path):
                return False
            os.replace(temporary, path)
        return True
    finally:
        _remove(temporary)


def _remove(path: str) -> None:
    """Remove the file at ``path`` and the ``-wal`` and ``-shm`` SQLite may have left beside it."""
    for name in (path, f"{path}-wal", f"{path}-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name)


class SurveyFile(NamedTuple):
    """A survey's hold on its database (``claim_database``)."""

    path: str
    """The database file, symbolic links resolved: the file made, locked and perhaps removed."""
    connection: sqlite3.Connection
    """Writable, in WAL mode."""
    created: bool
    """This survey made the file."""
    lock: Optional[int]
    """A descriptor of the file holding a shared ``flock`` while the survey runs (None where there is none)."""
    kind: FileKind = SURVEY_FILE


def _lock_shared(path: str, kind: FileKind) -> Optional[int]:
    """A descriptor of the file at ``path`` holding a shared ``flock``; None if that file was removed
    before the lock was taken (the caller makes it again)."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO opens at once, to be refused
    try:
        _check_kind(path, os.fstat(descriptor).st_mode, kind)
        fcntl.flock(descriptor, fcntl.LOCK_SH)
        with contextlib.suppress(FileNotFoundError):
            if os.path.samestat(os.fstat(descriptor), os.stat(path)):
                return descriptor
    except BaseException:
        os.close(descriptor)
        raise
    os.close(descriptor)
    return None


def claim_database(path: str, kind: FileKind = SURVEY_FILE) -> SurveyFile:
    """Open the database of ``kind`` at ``path`` for a survey's (or a perft's) writes, making it if it is missing.

    Raises as ``open_database(path, create=True, kind=kind)`` does. Every survey holds a shared ``flock`` on the
    file until ``release_database``, so that one ending before its first row removes a file it made
    only while no other survey has it (a second survey on the same new file writes there).
    """
    if not path:
        raise SurveyFileError(f"the {kind.noun} path is empty")
    # A symbolic link to a missing file makes that file, as writing through the link would; the
    # link itself is never replaced or removed.
    real = os.path.realpath(path)
    while True:
        created = not os.path.exists(real) and _create(real, kind)
        if sys.platform == "win32":
            lock = None
            break
        try:
            lock = _lock_shared(real, kind)
        except FileNotFoundError:
            continue  # removed between the check and the open (by a survey ending): make it again
        if lock is not None:
            break
    try:
        connection = open_database(real, create=True, kind=kind)
    except BaseException:
        _release(real, lock, created)
        raise
    return SurveyFile(real, connection, created, lock, kind)


def release_database(survey: SurveyFile, *, failed: bool) -> None:
    """End a survey's hold on its file (``claim_database``): the connection closed, and the file removed
    if the survey ``failed``, made it, wrote no row, and no other survey holds it."""
    empty = failed and survey.created and \
        survey.connection.execute(f"SELECT 1 FROM {survey.kind.rows_table} LIMIT 1").fetchone() is None
    close_database(survey.connection)
    _release(survey.path, survey.lock, empty)


def _release(path: str, lock: Optional[int], remove: bool) -> None:
    """Drop the lock, first removing the file at ``path`` if ``remove`` and no other survey holds it."""
    if lock is None:
        return  # no flock (Windows): another survey may hold the file, which is kept
    try:
        if remove:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return  # another survey holds it
            _remove(path)
    finally:
        os.close(lock)


def open_database(path: str, *, create: bool, kind: FileKind = SURVEY_FILE) -> sqlite3.Connection:
    """Open the database of ``kind`` (default: a survey database) at ``path`` after checking it.

    With ``create`` the connection is writable and a missing file is created; without it the
    connection is read-only. Raises ``SurveyFileError`` for a missing
    file (without ``create``) or a file that is not a database of ``kind``, which is then left
    as it was; ``OSError`` if the file cannot be read, or (with ``create``) created or written.
    """
    if not path:
        raise SurveyFileError(f"the {kind.noun} path is empty")
    if not os.path.exists(path):
        if not create:
            raise SurveyFileError(f"{path}: no such {kind.noun}")
        _create(path, kind)  # False: another survey made it meanwhile, which is as good
    _check_header(path, kind)
    # Check through a read-only connection: closing a writable one may checkpoint a WAL
    # left by a killed run into the file, which must stay as it is if it fails the check.
    reader = _open_read_only(path)
    try:
        _check_contents(reader, path, kind)
    except BaseException:
        reader.close()
        raise
    if not create:
        return reader
    version = _schema_version(reader)
    reader.close()
    connection = _connect(path)
    try:
        if version != kind.schema_version and kind.upgrade is not None:
            kind.upgrade(connection)
        # WAL: a commit appends to the log rather than rewriting pages. NORMAL leaves the sync to
        # checkpoints: a commit is in the file system at once, so it survives the process's death,
        # without waiting for the disk (a wait longer than many a deal takes).
        _wait_while_busy(lambda: connection.execute("PRAGMA journal_mode = WAL"))
        connection.execute("PRAGMA synchronous = NORMAL")
        # Take the write lock once: a file that cannot be written fails here, not at the first row.
        connection.execute("BEGIN IMMEDIATE")
        connection.rollback()
    except sqlite3.OperationalError as error:
        connection.close()
        raise OSError(f"{path}: cannot write the {kind.noun} ({error})") from None
    return connection


BUSY_SECONDS = 5.0
"""How long a survey waits for another to let go of the file (SQLite's busy timeout, Python's default)."""


def _wait_while_busy(statement: Callable[[], object]) -> None:
    """Run ``statement``, again while SQLite says the file is busy, for at most ``BUSY_SECONDS``.

    A change of journal mode fails at once, whatever the busy timeout, when another connection is
    changing it too: a survey switching to WAL as another ends and switches back.
    """
    deadline = time.monotonic() + BUSY_SECONDS
    while True:
        try:
            statement()
            return
        except sqlite3.OperationalError as error:
            busy = getattr(error, "sqlite_errorname", "SQLITE_BUSY").startswith("SQLITE_BUSY") and \
                str(error) == "database is locked"
            if not busy or time.monotonic() > deadline:
                raise
        time.sleep(0.005)


def _open_read_only(path: str) -> sqlite3.Connection:
    """A read-only connection to the survey database at ``path``, also where nothing can be written.

    Raises ``SurveyFileError`` for a WAL-mode file whose ``-shm`` SQLite cannot make, if its
    ``-wal`` holds rows the immutable reading would miss.
    """
    uri = _uri(path)
    connection = sqlite3.connect(f"{uri}?mode=ro", uri=True)
    try:
        connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as error:
        # A WAL-mode file needs its -shm beside it, made if missing: not in a directory or on a
        # file system that cannot be written (SQLITE_CANTOPEN; Python 3.10 has only the message).
        # Any other error is left for the check to report.
        if getattr(error, "sqlite_errorname", None) != "SQLITE_CANTOPEN" and \
                str(error) != "unable to open database file":
            return connection
        connection.close()
    else:
        return connection
    wal = f"{path}-wal"
    if os.path.exists(wal) and os.path.getsize(wal) > 0:
        raise SurveyFileError(f"{path}: its write-ahead log {wal} holds rows that cannot be read "
                              f"without making {path}-shm, and that cannot be written here; copy "
                              f"{path} and {wal} to a place that can be written")
    # No write-ahead log: the file holds every row, and immutable reads it without the -shm.
    return sqlite3.connect(f"{uri}?immutable=1", uri=True)


def close_database(connection: sqlite3.Connection) -> None:
    """Close a connection of ``open_database(path, create=True)``, leaving only the database file.

    The WAL is moved into the file and deleted, and the file left in rollback-journal mode, unless
    another connection (a second survey) still has the file open: the last to close does it. Two
    that close at the same moment may each find the other open and both leave the WAL (its rows
    are committed all the same); the next run to close alone folds it in.
    """
    try:
        # Leaving WAL needs the file to itself: fail at once rather than wait for another survey.
        connection.execute("PRAGMA busy_timeout = 0")
        connection.execute("PRAGMA journal_mode = DELETE")
    except sqlite3.OperationalError:
        pass  # another connection has the file open; it will switch the mode when it closes
    finally:
        connection.close()


def insert_into(connection: sqlite3.Connection, table: str, rows: Iterable[Tuple[Any, ...]],
                kind: FileKind = SURVEY_FILE) -> int:
    """Write ``rows`` (each the values of ``table``'s columns in order) to ``table`` of a database of
    ``kind`` in one transaction: one commit, durable when this returns.

    Returns how many were new: a row whose key another run wrote first is left as it is. Raises
    ``OSError`` if the file cannot be written (the disk is full), the rows committed before staying.
    """
    placeholders = ", ".join("?" * len(kind.columns(kind.schema_version)[table]))
    try:
        with connection:
            cursor = connection.executemany(f"INSERT OR IGNORE INTO {table} VALUES ({placeholders})", rows)
    except sqlite3.OperationalError as error:
        raise OSError(f"cannot write the {kind.noun} ({error})") from None
    return cursor.rowcount


def insert_rows(connection: sqlite3.Connection, rows: Iterable[Row]) -> int:
    """``insert_into`` the ``deals`` table of a survey database: ``rows`` in one commit; how many were new."""
    return insert_into(connection, "deals", rows)


def done_deals(connection: sqlite3.Connection, settings: Settings, deals: range) -> Set[int]:
    query = ("SELECT deal FROM deals WHERE game = ? AND engine_version = ? AND node_limit = ? "
             "AND table_bytes = ? AND player = ? AND threads = ? AND deal BETWEEN ? AND ?")
    return {r[0] for r in connection.execute(query, (*settings, deals.start, deals.stop - 1))}


def unsettled_deals(connection: sqlite3.Connection, settings: Settings, deals: range) -> Set[int]:
    """The deals of ``deals`` that rows of the same game, engine version and player as ``settings``
    (any node limit, table size or threads) leave unknown, none of them settling it (won or lost)."""
    query = ("SELECT deal FROM deals WHERE game = ? AND engine_version = ? AND player = ? AND deal BETWEEN ? AND ? "
             "GROUP BY deal HAVING max(status != 'unknown') = 0")
    game, version, _, _, player, _ = settings
    return {r[0] for r in connection.execute(query, (game, version, player, deals.start, deals.stop - 1))}


def other_settings(connection: sqlite3.Connection, settings: Settings
                    ) -> Tuple[Settings, ...]:
    query = ("SELECT DISTINCT game, engine_version, node_limit, table_bytes, player, threads FROM deals "
             "WHERE game = ? ORDER BY engine_version, node_limit, table_bytes, player, threads")
    found = [(str(g), str(v), int(n), int(t), str(p), int(j))
             for g, v, n, t, p, j in connection.execute(query, settings[:1])]
    return tuple(other for other in found if other != settings)


def read_rows(path: str) -> List[Row]:
    """Every row of the survey database at ``path``, by settings then deal.

    Raises ``SurveyFileError`` if ``path`` is missing or not a survey database.
    """
    connection = open_database(path, create=False)
    try:
        # Numbered columns, as an old file's are expressions (_columns).
        order = [str(Row._fields.index(f) + 1) for f in ("game", "engine_version", "node_limit", "table_bytes",
                                                         "player", "threads", "deal")]
        query = f"SELECT {_columns(_schema_version(connection))} FROM deals ORDER BY {', '.join(order)}"
        return [Row._make((*r[:7], bool(r[7]), *r[8:])) for r in connection.execute(query)]
    except sqlite3.DatabaseError as error:
        raise SurveyFileError(f"{path} is corrupt ({_first_line(error)}); left untouched") from None
    finally:
        connection.close()
