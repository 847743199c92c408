"""Solving the deals of a survey: in this process, in local worker processes, or on a Dask cluster.

Every deal is solved with a node limit and no time limit, because the solver
is deterministic under a node limit on one thread: a local run and a Dask run
give the same rows except for ``seconds`` (with ``threads`` above 1 the
threads race, and only the verdicts of searches that ran to the end repeat).
Local worker processes ignore Ctrl-C and exit as soon as the survey process
stops them or dies (``kill -9`` included), even in the middle of a deal; they
ignore SIGTERM too, which the ``patience`` command takes as it takes Ctrl-C
(systemd sends it to the whole process group), and leave nothing for
multiprocessing's resource tracker to clean up (no "leaked semaphore" warning). A scheduler address that
cannot be one is refused before any connection is tried. A file
``run_survey`` created is removed again if the run fails before its first row
(an unreachable scheduler, no memory for the table, Ctrl-C or SIGTERM).
"""

from __future__ import annotations

import contextlib
import functools
import ipaddress
import multiprocessing
import multiprocessing.connection
import multiprocessing.process
import os
import re
import signal
import sys
import threading
from dataclasses import dataclass
from multiprocessing.context import ForkServerContext, SpawnContext
from typing import (
    Any,
    Callable,
    Dict,
    Generator,
    Generic,
    Iterable,
    Iterator,
    List,
    Optional,
    Protocol,
    Set,
    Tuple,
    TypeVar,
    Union,
)

from tqdm import tqdm

from .._core import usable_cores
from .._errors import MissingExtraError
from .._shown import repr_text, type_text
from ..games import REGISTRY, check_game_name
from ..limits import MAX_SQLITE_INTEGER, MAX_THREADS, check_deal_range, check_int
from ..players import BaselinePlayer, HindsightPlayer, Player, check_on_reference, not_played, play_game
from ..signature import engine_version
from ..solver import DEFAULT_TABLE_BYTES, solve
from .store import (
    DEFAULT_DB,
    SURVEY_FILE,
    THOUGHTFUL,
    FileKind,
    Row,
    Settings,
    SurveyFile,
    claim_database,
    done_deals,
    insert_rows,
    other_settings,
    release_database,
    unsettled_deals,
)

DEFAULT_NODE_LIMIT = 10_000_000
"""Node limit per deal used when none is given."""


@dataclass(frozen=True)
class SurveyRun:
    """What ``run_survey`` did."""

    solved: int
    """Deals solved by this run."""
    skipped: int
    """Deals of the range not solved: already in the database with the same settings (with
    ``only_unknown``: also those no row leaves unknown)."""
    other_settings: Tuple[Settings, ...]
    """Other (game, engine version, node limit, table bytes, player, threads) of the same game in the file, kept
    apart."""
    written_meanwhile: int = 0
    """Deals this run solved that another survey on the same file wrote first (its rows kept)."""


def solve_deal(game: str, deal: int, node_limit: int, table_bytes: int, threads: int = 1) -> Row:
    """Solve deal number ``deal`` of ``game`` (a key of ``games.REGISTRY``) on ``threads`` threads and
    return its row.

    Runs in worker processes and on Dask workers, which rebuild the position from the number.
    """
    solution = solve(REGISTRY[game].cpp.deal(deal), node_limit=node_limit, table_bytes=table_bytes,
                     num_threads=threads)
    return Row(game, deal, solution.status, solution.score, solution.nodes, solution.seconds,
               solution.text, solution.proven, engine_version(game), node_limit, table_bytes, THOUGHTFUL, threads)


def play_deal(game: str, deal: int, player: Player) -> Row:
    """Play deal number ``deal`` of ``game`` with the blind ``player`` and return its row (status
    ``"won"`` or ``"lost"``, the moves played as its solution, ``proven`` False).

    A won game is replayed through the pure-Python reference (``players.check_on_reference``),
    which must agree; ``RuntimeError`` if it does not (an engine fault).
    """
    state = REGISTRY[game].cpp.deal(deal)
    played = play_game(state, player)
    if played.won:
        check_on_reference(state, played)
    return Row(game, deal, "won" if played.won else "lost", played.score, played.nodes, played.seconds,
               played.text, False, engine_version(game), player.node_limit, player.table_bytes, player.name)


def solve_deals(game: str, deals: List[int], node_limit: int, table_bytes: int,
                player: Optional[Player] = None, threads: int = 1) -> List[Row]:
    """``solve_deal`` on ``threads`` threads (with ``player``: ``play_deal``) for each of ``deals`` in
    turn: one task of a worker, so that short deals do not each pay for a round trip to it."""
    if player is not None:
        return [play_deal(game, deal, player) for deal in deals]
    return [solve_deal(game, deal, node_limit, table_bytes, threads) for deal in deals]


# A task holds about this many seconds of work (and never more than _MOST_PER_TASK items): long
# beside a round trip to a worker, short beside a survey.
_SECONDS_PER_TASK = 0.1
_MOST_PER_TASK = 64


class _Timed(Protocol):
    """The result of one item of a task (a survey's ``Row``, a perft subtree's count): it took ``seconds``."""

    @property
    def seconds(self) -> float: ...


Item = TypeVar("Item")
Result = TypeVar("Result", bound=_Timed)


class Tasks(Generic[Item, Result]):
    """Cuts items (deals, perft subtrees) into tasks of about _SECONDS_PER_TASK each, by the mean seconds of
    the results so far."""

    def __init__(self, items: Iterable[Item]) -> None:
        self._items = iter(items)
        self._seconds = 0.0
        self._results = 0

    def __iter__(self) -> Iterator[List[Item]]:
        while True:
            size = 1
            if self._results and self._seconds > 0:
                size = max(1, min(_MOST_PER_TASK, int(_SECONDS_PER_TASK * self._results / self._seconds)))
            elif self._results:
                size = _MOST_PER_TASK
            task = [item for _, item in zip(range(size), self._items)]
            if not task:
                return
            yield task

    def done(self, results: List[Result]) -> List[Result]:
        """Notes the seconds of a finished task's results, and returns them."""
        self._seconds += sum(result.seconds for result in results)
        self._results += len(results)
        return results


JOBS_PER_CPU = 4
"""``run_survey`` refuses more solving threads than this many per CPU (local processes times the threads
of each deal): more only share the CPUs (and each process holds a table of its own)."""


def default_jobs() -> int:
    """The number of CPUs this process may run on: its CPU affinity, capped by a cgroup CPU quota
    (``patience_engine.usable_cores``)."""
    return usable_cores()


def _windowed(submit: Callable[[List[Item]], Any], first_completed: Callable[[Set[Any]], Tuple[Set[Any], Set[Any]]],
              items: Iterable[Item], window: int) -> Generator[List[Result], None, None]:
    """The results of each ``submit(task)`` (a future of a list of results, one per item of ``task``) as
    tasks finish, with at most ``window`` tasks in flight.

    Bounding what is in flight keeps memory flat on huge ranges and limits what a kill loses.
    """
    tasks: Tasks[Item, Result] = Tasks(items)
    todo = iter(tasks)
    pending: Set[Any] = set()
    while True:
        for task in todo:
            pending.add(submit(task))
            if len(pending) >= window:
                break
        if not pending:
            return
        done, pending = first_completed(pending)
        for future in done:
            yield tasks.done(future.result())


# The signals that end a survey as Ctrl-C does: the ``patience`` command raises on SIGTERM.
_STOPS = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def _stops_ignored() -> Iterator[None]:
    """Ignore Ctrl-C and SIGTERM within, when called in the main thread (elsewhere Python cannot set
    handlers): a clean-up that a second signal must not cut short."""
    try:
        previous = [signal.signal(number, signal.SIG_IGN) for number in _STOPS]
    except ValueError:  # not the main thread, which alone receives KeyboardInterrupt
        yield
        return
    try:
        yield
    finally:
        for number, handler in zip(_STOPS, previous):
            signal.signal(number, signal.SIG_DFL if handler is None else handler)


@contextlib.contextmanager
def held_database(path: str, kind: FileKind = SURVEY_FILE) -> Iterator[SurveyFile]:
    """The hold ``claim_database(path, kind)`` gives, for the time of a run, released when it ends (Ctrl-C
    and SIGTERM ignored meanwhile); a file the run made is removed if the run fails before its first row, unless
    another run has opened it since."""
    claim = claim_database(path, kind)
    try:
        yield claim
    except BaseException:
        # Leave no empty file behind: the scheduler was unreachable, the table too big, Ctrl-C or SIGTERM
        # came early (and a second one does not stop the removal half-way).
        with _stops_ignored():
            release_database(claim, failed=True)
        raise
    with _stops_ignored():
        release_database(claim, failed=False)


def _worker_start(stop: multiprocessing.connection.Connection) -> None:
    """Initializer of a local worker process: leave Ctrl-C and SIGTERM to the parent, exit when the parent
    says or dies.

    A terminal sends Ctrl-C to the whole process group, and systemd SIGTERM; the parent stops the
    workers itself, so a worker ignores both rather than print a traceback or die before the parent
    has seen the signal (it would take the worker's death for a crash). Nothing is ever sent on ``stop``: it reaches
    end-of-file when the parent closes the other end or dies (``kill -9`` too), and the worker then
    exits at once, even in the middle of a deal (the solver runs without the GIL).
    """
    for number in _STOPS:
        signal.signal(number, signal.SIG_IGN)

    def watch() -> None:
        stop.poll(None)
        os._exit(1)

    threading.Thread(target=watch, name="stop-with-parent", daemon=True).start()


def _worker(link: multiprocessing.connection.Connection, stop: multiprocessing.connection.Connection,
            game: str, node_limit: int, table_bytes: int, player: Optional[Player], threads: int = 1) -> None:
    """A local worker process: solve each task (deal numbers) received on ``link``, send back its rows or error.

    Returns when the survey process closes ``link``, even in the middle of a receive or a send (it
    stops on another worker's error without waiting for this one).
    """
    _worker_start(stop)
    while True:
        try:
            task = link.recv()
        except (EOFError, OSError):
            return
        try:
            result: Any = solve_deals(game, task, node_limit, table_bytes, player, threads)
        except Exception as error:  # MemoryError for the table too: the survey process raises it
            result = error
        try:
            link.send(result)
        except OSError:  # BrokenPipeError, ConnectionResetError
            return


def _signal_name(number: int) -> str:
    """``SIGKILL`` for 9; ``signal 40`` for a number with no name (a real-time signal)."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _worker_died(worker: multiprocessing.process.BaseProcess, jobs: int, table_bytes: int) -> ChildProcessError:
    """The error for a local worker process that ended in the middle of its work."""
    worker.join(1)
    code = worker.exitcode
    how = "ended unexpectedly" if code is None or code >= 0 else f"was killed by {_signal_name(-code)}"
    return ChildProcessError(f"a survey worker process {how} (out of memory? {jobs} workers hold a table of "
                             f"{table_bytes:,} bytes each); the rows written so far are kept")


def _worker_context() -> Union[ForkServerContext, SpawnContext]:
    """How local workers start: forkserver or spawn rather than fork, as this process has threads
    (tqdm's monitor) and forking a threaded process can deadlock."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("forkserver")
    return multiprocessing.get_context("spawn")


def _start_fork_server() -> None:
    """Start multiprocessing's fork server, if workers come from one and it is not running, ignoring
    Ctrl-C and SIGTERM.

    A process started while this one ignores SIGINT ignores it from its first instruction (exec keeps
    the disposition, and Python then sets no handler), and the fork server hands that on to every
    worker it forks: a Ctrl-C while they import, before ``_worker_start``, cannot print their
    tracebacks; likewise SIGTERM. Both are blocked meanwhile, so one that comes stays pending for this
    process, which takes it when the handler is back (Linux queues a blocked signal even while it is
    ignored). Call it before other threads start: one of them could take the signal and drop it.
    """
    if not isinstance(_worker_context(), ForkServerContext) or not hasattr(signal, "pthread_sigmask"):
        return
    from multiprocessing import forkserver, resource_tracker

    # The fork server starts the resource tracker, whose start unblocks SIGINT: started first, and
    # outside the window, it leaves the mask alone.
    resource_tracker.ensure_running()
    before = signal.pthread_sigmask(signal.SIG_BLOCK, set(_STOPS))
    try:
        with _stops_ignored():
            forkserver.ensure_running()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _solve_locally(game: str, deals: Iterable[int], node_limit: int, table_bytes: int, jobs: int,
                   player: Optional[Player], threads: int) -> Generator[Row, None, None]:
    if jobs == 1:
        for deal in deals:
            yield from solve_deals(game, [deal], node_limit, table_bytes, player, threads)
        return
    # Each worker has a pipe of its own rather than a ProcessPoolExecutor's queues: under
    # forkserver/spawn their locks are named semaphores, which a survey killed with kill -9 leaves
    # for the resource tracker to remove, with a warning.
    context = _worker_context()
    stop_reader, stop_writer = context.Pipe(duplex=False)
    in_flight: Dict[multiprocessing.connection.Connection, int] = {}
    workers = []
    tasks: Tasks[int, Row] = Tasks(deals)
    todo = iter(tasks)

    def give(link: multiprocessing.connection.Connection) -> None:
        """Send ``link``'s worker the next task, if any is left."""
        for task in todo:
            link.send(task)
            in_flight[link] += 1
            return

    worker_of: Dict[multiprocessing.connection.Connection, multiprocessing.process.BaseProcess] = {}
    try:
        for _ in range(jobs):
            link, theirs = context.Pipe()
            in_flight[link] = 0
            worker = context.Process(target=_worker,
                                     args=(theirs, stop_reader, game, node_limit, table_bytes, player, threads),
                                     name="patience-survey-worker", daemon=True)
            worker.start()
            workers.append(worker)
            worker_of[link] = worker
            theirs.close()
        # Two tasks per worker: the next is there as soon as one ends.
        for link in [*in_flight] * 2:
            give(link)
        while busy := [link for link, count in in_flight.items() if count]:
            ready = multiprocessing.connection.wait(busy)
            for link in busy:
                if link not in ready:
                    continue
                try:
                    result = link.recv()
                except (EOFError, ConnectionResetError):
                    raise _worker_died(worker_of[link], jobs, table_bytes) from None
                in_flight[link] -= 1
                if isinstance(result, BaseException):
                    raise result
                yield from tasks.done(result)
                give(link)
    finally:
        # Done, failed or interrupted: end the workers now rather than wait for the deals in flight.
        stop_writer.close()
        for link in in_flight:
            link.close()
        for worker in workers:
            worker.join()
        stop_reader.close()


def _distributed() -> Any:
    """The module ``dask.distributed``; ``MissingExtraError`` without the ``dask`` extra."""
    try:
        from dask import distributed
    except ImportError:
        raise MissingExtraError("--scheduler needs Dask: pip install 'patience-engine[dask]'") from None
    return distributed


# A host name's labels (letters, digits, inner hyphens; underscores, which some container names have).
_HOST_NAME = re.compile(r"(?!-)[A-Za-z0-9_-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9_-]{1,63}(?<!-))*\.?")


def check_scheduler_address(address: str) -> None:
    """Raise unless ``address`` can be a Dask scheduler's address, without trying to connect.

    ``address`` is ``[SCHEME://]HOST:PORT`` (scheme ``tcp`` when omitted; any of Dask's
    communication backends), HOST an IP address or a host name, PORT in 1 .. 65535; or an ``inproc://``
    address of a scheduler in this process. Raises ``TypeError`` if ``address`` is not a str,
    ``ValueError`` naming what is wrong, ``MissingExtraError`` without the ``dask`` extra.
    """
    if not isinstance(address, str):
        raise TypeError(f"scheduler address must be a str, got {type_text(address)}")
    _distributed()
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import backends

    scheme, location = parse_address(address)
    if scheme not in backends:
        raise ValueError(f"scheduler address {repr_text(address)}: unknown scheme {repr_text(scheme)} "
                         f"(expected one of {', '.join(sorted(backends))})")
    if scheme == "inproc":
        return
    try:
        host, port = parse_host_port(location)
    except ValueError:  # no port, a port that is not a number, an IPv6 address without brackets
        raise ValueError(f"scheduler address {repr_text(address)} is not [SCHEME://]HOST:PORT "
                         "(an IPv6 HOST in brackets, PORT a number)") from None
    if not host:
        raise ValueError(f"scheduler address {repr_text(address)} has no host")
    bracketed = location.startswith("[")  # only an IPv6 address
    try:
        (ipaddress.IPv6Address if bracketed else ipaddress.ip_address)(host)
    except ValueError:
        if bracketed or len(host) > 253 or not _HOST_NAME.fullmatch(host):
            raise ValueError(f"scheduler address {repr_text(address)}: {repr_text(host)} is neither an IP address "
                             "nor a host name") from None
    if not 1 <= port <= 65535:
        raise ValueError(f"scheduler address {repr_text(address)}: port must be in 1 .. 65535, got {port}")


def connect(scheduler: str) -> Any:
    """A ``dask.distributed.Client`` of the scheduler at ``scheduler`` (checked by ``check_scheduler_address``),
    to use as a context manager. Raises ``OSError`` if it cannot be reached within Dask's setting
    ``distributed.comm.timeouts.connect`` (30 s unless configured)."""
    return _distributed().Client(scheduler)


def cluster_threads(client: Any) -> int:
    """The worker threads of the cluster of ``client``: how many tasks it runs at once."""
    return sum(client.nthreads().values())


def on_dask(client: Any, work: Callable[[List[Item]], List[Result]],
            items: Iterable[Item]) -> Generator[List[Result], None, None]:
    """The results of ``work(task)`` on the Dask cluster of ``client``, a list per task, for tasks cut from
    ``items`` (``Tasks``) as tasks finish; two tasks per thread of the cluster are in flight, so that the next
    is there as one ends."""
    distributed = _distributed()
    return _windowed(lambda task: client.submit(work, task, pure=False),
                     lambda pending: distributed.wait(pending, return_when="FIRST_COMPLETED"),
                     items, max(2 * cluster_threads(client), 4))


def check_engine_version(game: str, version: str) -> None:
    """Raise ``ValueError`` unless ``version``, what a Dask worker computed with, is this process's engine version."""
    if version != engine_version(game):
        raise ValueError(f"the Dask workers run engine {version}, this process {engine_version(game)}: "
                         "install the same engine on both")


def _solve_on_dask(game: str, deals: Iterable[int], node_limit: int, table_bytes: int, scheduler: str,
                   player: Optional[Player], threads: int) -> Generator[Row, None, None]:
    work = functools.partial(solve_deals, game, node_limit=node_limit, table_bytes=table_bytes, player=player,
                             threads=threads)
    with connect(scheduler) as client:
        for rows in on_dask(client, work, deals):
            for row in rows:
                check_engine_version(game, row.engine_version)
                yield row


def run_survey(game: str, deals: range, *, db: str = DEFAULT_DB, jobs: Optional[int] = None,
               node_limit: int = DEFAULT_NODE_LIMIT, table_bytes: int = DEFAULT_TABLE_BYTES,
               scheduler: Optional[str] = None, progress: bool = True, player: Optional[Player] = None,
               only_unknown: bool = False, threads: int = 1) -> SurveyRun:
    """Solve the deals of ``deals`` not yet in ``db`` and write one row each, committing as each finishes.

    With ``player`` (a blind player of ``patience_engine.players``, for a game whose registry entry has
    ``blind_players``), play each deal with it
    instead (``play_deal``): its rows are kept apart by its name, and ``node_limit`` and
    ``table_bytes`` are ignored for the player's own.

    With ``only_unknown``, only the deals of ``deals`` that the file's rows of the same game, engine
    version and player leave unknown under other limits are solved (``store.unsettled_deals``): the
    way to settle them with a larger ``node_limit``. ``skipped`` then counts the rest of the range.

    ``threads`` (1 .. ``MAX_THREADS``) solves each deal on that many threads together (``solve``'s
    ``num_threads``; the node limit counts the nodes of them all); each row records it, and rows of
    another thread count are kept apart as another node limit's are. The default ``jobs`` is then
    every CPU divided among the threads.

    ``game`` is a key of ``games.REGISTRY``; ``node_limit`` (nodes, 1 .. 2**63-1) and ``table_bytes`` (bytes,
    0 .. 2**63-1) go to the solver. Deals run in ``jobs`` local processes (default: every CPU; 1 solves in
    this process; at most ``JOBS_PER_CPU`` threads per CPU, counting each process's ``threads``), or
    on the Dask cluster whose scheduler address (``tcp://HOST:PORT``) is ``scheduler`` (then not ``jobs``:
    the cluster has its own workers).
    ``progress`` shows a progress bar on stderr. Raises ``TypeError`` for an argument of the wrong type
    and ``ValueError`` for one out of range (``patience_engine.limits``) or a scheduler address that
    cannot be one (``check_scheduler_address``, before any connection is tried),
    ``SurveyFileError`` if ``db`` is not a survey database, ``MissingExtraError`` if ``scheduler`` is
    given without Dask installed, ``OSError`` if the file or the scheduler cannot be reached or the file cannot
    be written (a full disk; ``ChildProcessError`` if a local worker process dies),
    ``MemoryError`` if the table cannot be allocated, and ``KeyboardInterrupt`` on Ctrl-C (the rows
    already written stay; the ``patience`` command raises a subclass of it on SIGTERM). A ``db`` this
    call created is removed if it fails before the first row, unless another survey has opened it since
    (``store.claim_database``).
    """
    check_game_name(game)
    check_deal_range(deals)
    check_int(node_limit, "node limit", 1, MAX_SQLITE_INTEGER)
    check_int(table_bytes, "table bytes", 0, MAX_SQLITE_INTEGER)
    check_int(threads, "threads", 1, MAX_THREADS)
    if jobs is not None:
        check_int(jobs, "jobs", 1)
        most = max(1, JOBS_PER_CPU * default_jobs() // threads)
        if jobs > most:
            each = "one thread" if threads == 1 else f"{threads} threads"
            raise ValueError(f"jobs must be at most {most}, {JOBS_PER_CPU} solving threads for each of the "
                             f"{default_jobs()} CPUs this survey may use (a deal is solved on {each}), got {jobs}")
    if scheduler is not None:
        check_scheduler_address(scheduler)
        if jobs is not None:
            raise ValueError("give jobs (local processes) or scheduler (a Dask cluster), not both")
    if only_unknown and not os.path.exists(db):
        raise ValueError(f"--only-unknown solves the deals {db} leaves unknown, but there is no such file")
    if player is not None:
        if only_unknown:
            raise ValueError("--only-unknown has nothing to do for a blind player: its games are never unknown")
        if threads != 1:
            raise ValueError("threads are for the thoughtful solver: a blind player's solves run on one thread")
        if not isinstance(player, (HindsightPlayer, BaselinePlayer)):
            raise TypeError(f"player must be a HindsightPlayer or BaselinePlayer, got {type_text(player)}")
        refused = not_played(game, game)
        if refused:
            raise ValueError(f"a blind player plays {refused[0]} only ({refused[1]})")
        node_limit, table_bytes = player.node_limit, player.table_bytes
    with held_database(db) as claim:
        connection = claim.connection
        settings = (game, engine_version(game), node_limit, table_bytes, THOUGHTFUL if player is None else player.name,
                    threads)
        done = done_deals(connection, settings, deals)
        count = deals.stop - deals.start  # len(deals) overflows past 2**63 - 1 deals
        skipped = len(done)
        todo: Iterable[int] = (deal for deal in deals if deal not in done)
        if only_unknown:
            todo = sorted(unsettled_deals(connection, settings, deals) - done)
            skipped = count - len(todo)
        if scheduler is not None:
            rows = _solve_on_dask(game, todo, node_limit, table_bytes, scheduler, player, threads)
        else:
            # No more processes than deals to solve: each one starts at some cost.
            workers = max(1, min(jobs or max(1, default_jobs() // threads), count - skipped))
            if workers > 1:
                _start_fork_server()  # before tqdm starts its monitor thread
            rows = _solve_locally(game, todo, node_limit, table_bytes, workers, player, threads)
        # closing: an error here (Ctrl-C while a row is written) stops the workers at once too.
        written = 0
        with contextlib.closing(rows), tqdm(total=count, initial=skipped, desc=game, unit="deal",
                                            disable=not progress, file=sys.stderr) as bar:
            for row in rows:
                try:
                    written += insert_rows(connection, [row])
                except OSError as error:
                    raise OSError(f"{db}: {error}") from None
                bar.update()
        return SurveyRun(count - skipped, skipped, other_settings(connection, settings), count - skipped - written)
