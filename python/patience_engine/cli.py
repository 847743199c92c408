"""The ``patience`` command: deals, perft, pictures, solving and surveys from the shell.

Exit codes: 0 success (``solve``: the deal is won), 1 ``perft``: the
implementations disagree, ``solve``: proven lost, ``play``: the player did
not win, ``report``: two files hold different rows for one deal and
settings, or a player won a deal the solver proved lost, 2 bad usage or input
(including a file that is not a survey or perft database, an unreachable Dask
scheduler, a table too big for memory, or a missing optional extra), 3
``solve``: unknown (a node or time limit was reached first), 130 interrupted
(Ctrl-C), 141 the reader of the output went away (``patience ... | head``),
as for a program killed by SIGPIPE; nothing is printed then, 143 terminated
by SIGTERM (what ``timeout``, systemd and Kubernetes send), which every
command takes as it takes Ctrl-C: a survey keeps its rows, removes a file it
created with no row yet, and its worker processes end with it.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence

from tqdm import tqdm

from . import draw, limits, players, reference, signature, survey
from ._core import usable_cores
from ._errors import MissingExtraError
from ._files import write_whole
from .games import PERFT, REGISTRY, TITLES, joined
from .reference import pysol
from .solver import DEFAULT_TABLE_BYTES, Solution, solve
from .viewer import solution_html


def _int_in(low: int, high: Optional[int], what: str) -> Callable[[str], int]:
    """An argparse type: an integer in low .. high (no upper bound when high is None), in digits 0-9."""

    def parse(text: str) -> int:
        try:
            return limits.parse_decimal(text, what, low, high)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return parse


_deal_number = _int_in(0, limits.MAX_DEAL, "deal number")
_depth = _int_in(1, reference.MAX_PERFT_DEPTH, "depth")
_jobs = _int_in(1, None, "jobs")
_call_jobs = _int_in(1, limits.MAX_THREADS, "jobs")  # perft's and solve's --jobs: threads of one call
_threads = _int_in(1, limits.MAX_THREADS, "threads")
# Both limits are stored in a survey's SQLite rows (signed 64-bit) and fit the solver's (unsigned 64-bit).
_node_limit = _int_in(1, limits.MAX_SQLITE_INTEGER, "node limit")
_table_bytes = _int_in(0, limits.MAX_SQLITE_INTEGER, "table bytes")


def _time_limit(text: str) -> float:
    try:
        return limits.parse_seconds(text, "time limit")
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _pysol_number(text: str) -> str:
    try:
        pysol.parse_number(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def _png_path(text: str) -> str:
    """An argparse type: a file name ending in .png."""
    if not text.lower().endswith(".png"):
        raise argparse.ArgumentTypeError(f"the plot file must end in .png, got {text!r}")
    return text


# A position's text is under 2 KB; a file much longer is not one (and /dev/zero never ends).
MAX_POSITION_FILE_BYTES = 1 << 20


def _file_name(path: str) -> str:
    """How messages name the position file ``path`` ('-': stdin)."""
    return "standard input" if path == "-" else path


def _read_text(path: str) -> str:
    """The text of a position file ('-': stdin), at most MAX_POSITION_FILE_BYTES (a byte-order mark
    stays: ``from_text`` drops it); ValueError naming the file when it is longer or not UTF-8, or stdin
    is closed."""
    name = _file_name(path)
    if path == "-":
        if sys.stdin is None:  # started with stdin closed (`patience ... --file - <&-`)
            raise ValueError("--file -: standard input is closed")
        data = sys.stdin.buffer.read(MAX_POSITION_FILE_BYTES + 1)
    else:
        with open(path, "rb") as handle:
            data = handle.read(MAX_POSITION_FILE_BYTES + 1)
    if len(data) > MAX_POSITION_FILE_BYTES:
        raise ValueError(f"{name}: longer than {MAX_POSITION_FILE_BYTES:,} bytes, which no position's text is")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"{name}: not UTF-8 text ({error.reason} at byte {error.start})") from None


def _position(impl: str, game: str, args: argparse.Namespace) -> Any:
    """The start position of one game for one implementation: ``--file``, ``--pysol`` or deal ``N``."""
    cls = REGISTRY[game].implementation(impl)
    if getattr(args, "file", None) is not None:
        if getattr(args, "file_text", None) is None:
            args.file_text = _read_text(args.file)  # read once: stdin cannot be read twice
        try:
            return cls.from_text(args.file_text)
        except ValueError as error:
            raise ValueError(f"{_file_name(args.file)}: {error}") from None
    if getattr(args, "pysol", None) is not None:
        return cls.from_pysol(args.pysol)
    return cls.deal(args.deal)


def _source(args: argparse.Namespace) -> str:
    """Where the start position comes from, for headings."""
    if getattr(args, "file", None) is not None:
        return f"file {args.file}"
    if getattr(args, "pysol", None) is not None:
        return f"PySolFC game {args.pysol}"
    return f"deal {args.deal}"


def _games(args: argparse.Namespace) -> List[str]:
    """The games named by GAME; with ``--pysol``, 'all' means the games PySolFC has."""
    if args.game != "all":
        return [args.game]
    if getattr(args, "pysol", None) is not None:
        return _pysol_games()
    return list(REGISTRY)


def _for_terminal(text: str) -> str:
    """A position's text with suit symbols and colour when stdout is a terminal whose encoding has
    the symbols, else unchanged."""
    if not sys.stdout.isatty():
        return text
    shown = draw.terminal_text(text, colour=True)
    try:
        shown.encode(sys.stdout.encoding or "ascii")
    except UnicodeEncodeError:
        return text
    return shown


# A depth whose previous depth took less than this (seconds) runs as one call: it ends within a
# second or two, and the overhead of one call per root move would be timed with it.
_ONE_CALL_BELOW = 0.05
# A call quicker than this (seconds) is repeated, as timeit does, until the repeats have taken
# _REPEAT_FOR in all, and the fastest is shown: a single call of a millisecond or less mostly
# times cold caches.
_REPEAT_BELOW = 0.01
_REPEAT_FOR = 0.05


def _timed_perft(impl: str, state: Any, depth: int, label: str, split: bool,
                 threads: int = 1) -> "tuple[int, float]":
    """perft(state, depth) by one implementation on threads threads and its seconds; split: one call
    per root move, for a progress bar. Only the perft calls are timed, not the bar or the copies."""
    perft_fn: Callable[..., int] = PERFT[impl]

    def count_fn(position: Any, d: int) -> int:
        return perft_fn(position, d, num_threads=threads)

    if depth <= 1 or not split:
        start = time.perf_counter()
        count = count_fn(state, depth)
        best = spent = time.perf_counter() - start
        while best < _REPEAT_BELOW and spent < _REPEAT_FOR:
            start = time.perf_counter()
            count_fn(state, depth)
            seconds = time.perf_counter() - start
            best, spent = min(best, seconds), spent + seconds
        return count, best
    total, seconds = 0, 0.0
    moves = state.legal_moves()
    with tqdm(moves, desc=label, unit="move", leave=False, delay=_PROGRESS_DELAY, file=sys.stderr,
              disable=not _show_progress()) as bar:
        for move in bar:
            child = state.copy()
            child.play(move)
            start = time.perf_counter()
            total += count_fn(child, depth - 1)
            seconds += time.perf_counter() - start
    return total, seconds


def _ratio(ratio: float) -> str:
    return f"{ratio:,.0f}x" if ratio >= 10 else f"{ratio:.2g}x"


def _rate(nodes: int, seconds: float) -> str:
    return f"{nodes / seconds:,.0f}" if seconds > 0 else "-"


def format_seconds(seconds: float, micro: str = "µs") -> str:
    """A duration with three significant digits in the unit that keeps them whole or with decimals:
    ``213 µs``, ``4.21 ms``, ``1.05 s``, ``1234 s``; ``micro`` spells the microsecond unit.

    >>> [format_seconds(s) for s in (0.000213, 0.0042149, 1.0504, 0.00099996, 2e-9)]
    ['213 µs', '4.21 ms', '1.05 s', '1.00 ms', '2.00 ns']
    """
    for scale, unit in ((1.0, "s"), (1e-3, "ms"), (1e-6, micro), (1e-9, "ns")):
        value = seconds / scale
        rounded = float(f"{value:.3g}")  # rounded first: 999.96 µs shows as 1.00 ms, not 1000 µs
        if rounded >= 1 or unit == "ns":
            break
    return f"{value:.{max(0, 3 - len(str(int(rounded))))}f} {unit}"


def _micro_unit() -> str:
    """'µs', or 'us' when standard output cannot encode 'µ' (an ASCII terminal or pipe)."""
    try:
        "µ".encode(sys.stdout.encoding or "ascii")
    except UnicodeEncodeError:
        return "us"
    return "µs"


def _run_perft(game: str, args: argparse.Namespace, depth: int, threads: int) -> bool:
    """Print perft for depths 1..depth of one game, the C++ engine's on threads threads; False when
    the implementations disagree."""
    impls = ["cpp", "reference"] if args.impl == "both" else [args.impl]
    states = {impl: _position(impl, game, args) for impl in impls}
    source = _source(args)
    print(f"{TITLES[game]}, {source}")
    on = "" if impls == ["reference"] else f"; the C++ engine on {threads} thread{'s' * (threads > 1)}"
    if threads > 1 and impls != ["reference"]:
        on += " where the depth before took 0.05 s or more"
    print("the last ply is counted in bulk (its moves are counted, not made): "
          f"nodes/s is leaves per second, not moves made{on}")
    micro = _micro_unit()
    header = ["depth", "nodes"]
    for impl in impls:
        header += [f"{impl} time", f"{impl} nodes/s"]
    if len(impls) == 2:
        header.append("cpp/reference")
    # Right-aligned columns, each as wide as its heading and at least 16 (5 for the depth).
    widths = [5] + [max(16, len(h)) for h in header[1:]]

    def line(cells: List[str]) -> str:
        return "  ".join(f"{cell:>{width}}" for cell, width in zip(cells, widths))

    print(line(header))
    agree = True
    seconds_before = dict.fromkeys(impls, 0.0)
    for d in range(1, depth + 1):
        results = {impl: _timed_perft(impl, states[impl], d, f"{impl} depth {d}",
                                      split=seconds_before[impl] >= _ONE_CALL_BELOW,
                                      # Starting threads costs some 0.1-0.5 ms: a quick depth runs on one.
                                      threads=threads if impl == "cpp" and seconds_before[impl] >= _ONE_CALL_BELOW
                                      else 1)
                   for impl in impls}
        seconds_before = {impl: results[impl][1] for impl in impls}
        counts = {results[impl][0] for impl in impls}
        row = [str(d), f"{results[impls[0]][0]:,}"]
        for impl in impls:
            nodes, seconds = results[impl]
            row += [format_seconds(seconds, micro), _rate(nodes, seconds)]
        if len(impls) == 2:
            cpp_s, ref_s = results["cpp"][1], results["reference"][1]
            row.append(_ratio(ref_s / cpp_s) if cpp_s > 0 else "-")
        print(line(row), flush=True)
        if len(counts) > 1:
            agree = False
            detail = ", ".join(f"{impl} {results[impl][0]}" for impl in impls)
            print(f"MISMATCH at depth {d}: {detail}", file=sys.stderr)
            break
    return agree


def cmd_deal(args: argparse.Namespace) -> int:
    """``patience deal GAME N`` (or ``--pysol P``): print the deal in the game's text format."""
    games = _games(args)
    for game in games:
        if len(games) > 1:
            print(f"# {TITLES[game]}, {_source(args)}")
        print(_for_terminal(_position("cpp", game, args).to_text()))
    return 0


def _run_split_perft(game: str, args: argparse.Namespace, depth: int, threads: int) -> None:
    """Print perft at ``depth`` of one game counted by subtrees (``survey.run_perft``): on the Dask cluster
    at ``--scheduler`` or here, each subtree on ``threads`` threads, kept in ``--db``."""
    db = args.db if args.db is not None else survey.DEFAULT_PERFT_DB
    print(f"{TITLES[game]}, {_source(args)}", flush=True)
    run = survey.run_perft(_position("cpp", game, args), depth, db=db, scheduler=args.scheduler, threads=threads,
                           progress=_show_progress())
    where = "in this process" if args.scheduler is None or not run.split else f"on the Dask cluster at {args.scheduler}"
    head = f"split after {run.split} plies into {run.subtrees:,} subtrees, each" if run.split else \
        "not split (too small to be worth it),"
    print(f"{head} counted by the C++ engine on {threads} thread{'s' * (threads > 1)} {where}; counts kept in {db}")
    widths = [5, 24, 16, 16]
    cells = [str(depth), f"{run.nodes:,}", format_seconds(run.seconds, _micro_unit()),
             _rate(run.counted_nodes, run.seconds) if run.counted else "-"]
    for line in (["depth", "nodes", "time", "nodes/s"], cells):
        print("  ".join(f"{cell:>{width}}" for cell, width in zip(line, widths)))
    print(f"subtrees: {run.counted:,} counted now (the time and nodes/s are theirs), "
          f"{run.subtrees - run.counted:,} already in {db}")


def cmd_perft(args: argparse.Namespace) -> int:
    """``patience perft GAME N --depth D``: perft counts, seconds and nodes per second; with ``--scheduler`` or
    ``--db``, the count at depth D alone, by subtrees kept in an SQLite file (resumable)."""
    games = _games(args)
    split = args.scheduler is not None or args.db is not None
    if split and args.impl != "cpp":
        args.parser.error("--scheduler and --db count with the C++ engine only: leave out --impl or give --impl cpp")
    threads = args.jobs if args.jobs is not None else 1 if args.scheduler is not None else usable_cores()
    agree = True
    for i, game in enumerate(games):
        if i:
            print()
        depth = args.depth if args.depth is not None else REGISTRY[game].perft_depth
        if split:
            _run_split_perft(game, args, depth, threads)
        else:
            agree = _run_perft(game, args, depth, threads) and agree
    return 0 if agree else 1


def cmd_show(args: argparse.Namespace) -> int:
    """``patience show GAME N --out FILE``: draw the position as SVG or PNG (by FILE's ending).

    Without ``--out`` prints the position as text.
    """
    state = _position("cpp", args.game, args)
    if args.out is None:
        print(_for_terminal(state.to_text()))
        return 0
    try:
        draw.write_picture(state.to_svg(), args.out)
    except RuntimeError as error:
        print(f"patience: error: {error}", file=sys.stderr)
        return 2
    return 0


def _pysol_games() -> List[str]:
    """The games PySolFC has, by command-line name."""
    return [name for name, info in REGISTRY.items() if info.pysol_id is not None]


def _add_pysol_option(parser: argparse.ArgumentParser, games: Optional[List[str]] = None) -> None:
    """``--pysol``, its help naming ``games`` (default: every game PySolFC has)."""
    names = ", ".join(_pysol_games() if games is None else games)
    parser.add_argument("--pysol", type=_pysol_number, metavar="P",
                        help=f"PySolFC game number P instead of N ({names}; 'ms' prefix allowed)")


def _add_player_options(parser: argparse.ArgumentParser, choices: List[str], default: str) -> None:
    thoughtful = survey.THOUGHTFUL in choices
    parser.add_argument("--player", choices=choices, default=default,
                        help=f"who plays (default {default}): thoughtful, the solver, sees the face-down "
                        "cards; hindsight and baseline see only what a player sees (docs/players.md)"
                        if thoughtful else
                        f"who plays (default {default}; docs/players.md)")
    parser.add_argument("--node-limit", type=_node_limit, metavar="K",
                        help="node limit per solve (default: " +
                        (f"thoughtful {survey.DEFAULT_NODE_LIMIT:,} per deal, " if thoughtful else "") +
                        f"hindsight {players.DEFAULT_PLAYER_NODE_LIMIT:,} per determinization)")
    parser.add_argument("--table-bytes", type=_table_bytes, metavar="B",
                        help="transposition table bytes per solve, 0 for none (default: " +
                        (f"thoughtful {DEFAULT_TABLE_BYTES:,}, " if thoughtful else "") +
                        f"hindsight {players.DEFAULT_PLAYER_TABLE_BYTES:,})")
    parser.add_argument("--determinizations", type=_int_in(1, players.MAX_DETERMINIZATIONS, "determinizations"),
                        metavar="D",
                        help=f"hindsight: positions drawn per decision (default {players.DEFAULT_DETERMINIZATIONS})")
    parser.add_argument("--seed", type=_int_in(0, limits.MAX_DEAL, "seed"), metavar="S",
                        help="hindsight: seed of its draws, 0 .. 2**64-1 (default 0)")


def _deal_range(text: str) -> range:
    try:
        return limits.parse_deal_range(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


SOLVE_EXIT_CODES = {"won": 0, "lost": 1, "unknown": 3}


# What each status means, in words; a proven loss in the game's own words (registry.GameInfo.lost_words).
_STATUS_WORDS = {
    "won": "won",
    "unknown": "unknown: the search stopped before it ended",
}


def _status_words(game: str, status: str) -> str:
    return f"lost: {REGISTRY[game].lost_words} (proven)" if status == "lost" else _STATUS_WORDS[status]


def _print_solution(game: str, solution: Solution) -> None:
    words = _status_words(game, solution.status)
    print(f"status   {words}")
    print(f"proven   {'yes' if solution.proven else 'no'}")
    print(f"moves    {len(solution.moves)}: {solution.text}" if solution.moves else "moves    0")
    print(f"score    {solution.score}")
    print(f"nodes    {solution.nodes:,}")
    print(f"seconds  {solution.seconds:.4f}")
    print(f"nodes/s  {_rate(solution.nodes, solution.seconds)}", flush=True)


def _check_page_path(path: str) -> None:
    """Raise OSError now, not after a search that may take hours, if the --html page cannot be
    written to ``path`` (empty, a directory, no such directory, no permission, a file system that
    takes no new file): by opening it for writing, without truncating it, and removing a file this
    made (os.access says yes to root everywhere, /proc and /sys too)."""
    directory = os.path.dirname(os.path.abspath(path)) if path else ""
    if not path or not os.path.isdir(directory):
        raise FileNotFoundError(errno.ENOENT, "no such directory for the --html page", path)
    if os.path.isdir(path):
        raise IsADirectoryError(errno.EISDIR, "the --html page would replace a directory", path)
    # Through a symbolic link to the file it names; a FIFO with no reader fails (ENXIO), not waits.
    real = os.path.realpath(path)
    try:
        descriptor = os.open(real, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NONBLOCK, 0o666)
    except FileExistsError:
        descriptor = os.open(real, os.O_WRONLY | os.O_NONBLOCK)  # an existing page, replaced after the search
    else:
        os.unlink(real)
    os.close(descriptor)


# PATIENCE_PROGRESS=1 shows the progress of `patience solve`, `perft` and `survey` even when stderr is no terminal, 0 never.
PROGRESS_ENV = "PATIENCE_PROGRESS"
# Seconds a solve or a perft depth runs before its progress shows: most end sooner and print nothing more.
_PROGRESS_DELAY = 1.0


def _show_progress() -> bool:
    """Whether ``patience solve``, ``perft`` and ``survey`` show progress on stderr: a terminal, unless
    PROGRESS_ENV says."""
    forced = os.environ.get(PROGRESS_ENV)
    if forced in ("0", "1"):
        return forced == "1"
    return sys.stderr.isatty()


def _solve_with_progress(state: Any, args: argparse.Namespace) -> Solution:
    """solve() with one refreshed line on stderr (nodes, nodes/s, best score so far) once it has run
    a second, when _show_progress(); the line is erased at the end."""
    with tqdm(unit=" nodes", unit_scale=True, delay=_PROGRESS_DELAY, leave=False, file=sys.stderr,
              disable=not _show_progress(), bar_format="{n_fmt}{unit} [{elapsed}, {rate_fmt}{postfix}]") as bar:

        def progress(nodes: int, best_score: int) -> None:
            bar.update(nodes - bar.n)
            bar.set_postfix_str("best score " + (str(best_score) if best_score >= 0 else "-"), refresh=False)

        return solve(state, node_limit=args.node_limit, time_limit=args.time_limit,
                     progress=progress if not bar.disable else None, num_threads=args.jobs)


def cmd_solve(args: argparse.Namespace) -> int:
    """``patience solve GAME N``: solve a deal (on ``--jobs`` threads together); print status (in words),
    proven (yes: the status, and Germaine's score, are the best there is), moves, score, nodes, seconds,
    nodes/s.

    Shows its progress on stderr while it runs longer than a second on a terminal (_show_progress()).
    Returns 0 won, 1 lost, 3 unknown (a limit was reached first).
    """
    state = _position("cpp", args.game, args)
    if args.html is not None:
        _check_page_path(args.html)
    print(f"{TITLES[args.game]}, {_source(args)}", flush=True)
    try:
        solution = _solve_with_progress(state, args)
    except KeyboardInterrupt as interrupt:
        # Hours of search may be behind a Ctrl-C: show what it found (main exits 130).
        found = getattr(interrupt, "solution", None)
        if found is not None:
            _print_solution(args.game, found)
        raise
    if args.show:
        shown = state.copy()
        print(_for_terminal(shown.to_text()))
        for i, move in enumerate(solution.moves, 1):
            shown.play(move)
            print(f"\n{i}. {move}")
            print(_for_terminal(shown.to_text()))
        print()
    _print_solution(args.game, solution)
    if args.html is not None:
        title = f"{TITLES[args.game]}, {_source(args)}: {solution.status}"
        page = solution_html(state, solution.moves, title=title)
        write_whole(args.html, lambda name: Path(name).write_text(page, encoding="utf-8"))
    return SOLVE_EXIT_CODES[solution.status]


def _player(args: argparse.Namespace) -> Optional[players.Player]:
    """The blind player ``--player`` names (None: the thoughtful solver), with the options given."""
    if args.player == survey.THOUGHTFUL:
        if args.determinizations is not None or args.seed is not None:
            args.player_parser.error("--determinizations and --seed are options of --player hindsight")
        return None
    refused = players.not_played(args.game, TITLES[args.game])
    if refused:
        args.player_parser.error(f"--player {args.player} plays {refused[0]} only: {refused[1]}")
    if args.player == "baseline":
        if any(getattr(args, name, None) is not None for name in ("determinizations", "seed", "node_limit",
                                                                   "table_bytes")):
            args.player_parser.error("the baseline player searches nothing: it takes no --determinizations, --seed, "
                              "--node-limit or --table-bytes")
        return players.BaselinePlayer()
    return players.HindsightPlayer(
        determinizations=args.determinizations or players.DEFAULT_DETERMINIZATIONS,
        node_limit=args.node_limit or players.DEFAULT_PLAYER_NODE_LIMIT,
        table_bytes=players.DEFAULT_PLAYER_TABLE_BYTES if args.table_bytes is None else args.table_bytes,
        seed=args.seed or 0)


def cmd_play(args: argparse.Namespace) -> int:
    """``patience play geoffrey N``: play one deal seeing only what a player sees, printing each move.

    Returns 0 when the player wins, 1 when it does not.
    """
    state = _position("cpp", args.game, args)
    player = _player(args)
    assert player is not None
    if isinstance(player, players.HindsightPlayer):
        # The thread's table is made at its first solve: one too big for memory fails here, before any output.
        solve(state, node_limit=1, table_bytes=player.table_bytes)
    print(f"{TITLES[args.game]}, {_source(args)}, player {player.name}", flush=True)
    print(_for_terminal(state.to_text(hidden=True)), flush=True)
    count = 0

    def show(move: Any) -> None:
        nonlocal count
        count += 1
        print(f"{count}. {move}", flush=True)

    played = players.play_game(state, player, on_move=show)
    players.check_on_reference(state, played)
    print(f"result   {'won' if played.won else 'lost: no useful move left'}")
    print(f"moves    {len(played.moves)}")
    print(f"score    {played.score} cards home")
    print(f"nodes    {played.nodes:,}")
    print(f"seconds  {played.seconds:.3f}")
    return 0 if played.won else 1


def cmd_survey(args: argparse.Namespace) -> int:
    """``patience survey GAME --deals A-B``: solve (or play, ``--player``) a range of deals into an
    SQLite file, resumably."""
    player = _player(args)
    node_limit = survey.DEFAULT_NODE_LIMIT if args.node_limit is None else args.node_limit
    table_bytes = DEFAULT_TABLE_BYTES if args.table_bytes is None else args.table_bytes
    if player is not None and args.threads != 1:
        args.player_parser.error("--threads is for the thoughtful solver: a blind player's solves run on one thread")
    run = survey.run_survey(args.game, args.deals, db=args.db, jobs=args.jobs, node_limit=node_limit,
                            table_bytes=table_bytes, scheduler=args.scheduler, player=player,
                            only_unknown=args.only_unknown, progress=_show_progress(), threads=args.threads)
    skipped = (f"skipped {run.skipped:,} already in {args.db} at these limits or not left unknown under others"
               if args.only_unknown else f"already in {args.db} {run.skipped:,}")
    meanwhile = (f" ({run.written_meanwhile:,} of them written first by another survey of {args.db})"
                 if run.written_meanwhile else "")
    print(f"{TITLES[args.game]}, deals {args.deals.start}-{args.deals.stop - 1}: "
          f"{'solved' if player is None else 'played'} {run.solved:,}{meanwhile}, {skipped}")
    for game, version, limit, table, who, threads in run.other_settings:
        print(f"note: {args.db} also holds {TITLES[game]} rows of engine {version}, node limit {limit:,}, "
              f"table {table:,} bytes, player {who}, {threads} thread{'s' * (threads > 1)} per solve; they are kept "
              "apart", file=sys.stderr)
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    """``patience report FILE...``: winnability and solver effort per survey in survey databases, and
    each blind player's survey beside the thoughtful solver's on the same deals."""
    # The same file named twice (./a, a, a link, a hard link) is read once: its rows would only agree with
    # themselves. A file that cannot be stat'ed is kept by name, for read_rows to report.
    def identity(db: str) -> object:
        try:
            found = os.stat(db)
        except OSError:
            return os.path.realpath(db)
        return (found.st_dev, found.st_ino)

    named: Dict[object, str] = {}
    for db in args.db:
        named.setdefault(identity(db), db)
    files = list(named.values())
    merged = survey.merge_rows([row for db in files for row in survey.read_rows(db)])
    rows = merged.rows
    comparisons = survey.compare_with_thoughtful(rows)
    print(survey.format_report(survey.summarize(rows), TITLES, comparisons)
          if rows else f"{', '.join(args.db)}: no rows")
    if merged.agreeing or merged.disagreeing:
        print(f"\nrepeated rows: {merged.repeated_deals:,} deals appear in more than one file "
              f"with the same settings; {merged.agreeing:,} repeated rows agree in every field but seconds, "
              f"{len(merged.disagreeing):,} do not")
        for first, repeat in merged.disagreeing[:10]:
            fields = [f for f in survey.Row._fields if f != "seconds" and getattr(first, f) != getattr(repeat, f)]
            print(f"  {TITLES.get(first.game, first.game)} deal {first.deal}: {', '.join(fields)} differ")
    if merged.threads_compared:
        print(f"\nthread counts: {merged.threads_compared:,} deals were solved at more than one thread count with "
              f"otherwise the same settings; {len(merged.contradictions):,} contradictions (won against lost, or "
              "two proven scores)")
        for one, other in merged.contradictions[:10]:
            print(f"  CONTRADICTION: {TITLES.get(one.game, one.game)} deal {one.deal}: {_verdict(one)} on "
                  f"{one.threads} thread{'s' * (one.threads > 1)}, {_verdict(other)} on {other.threads}")
    if args.plot is not None:
        survey.plot(rows, args.plot, TITLES)
    faults = merged.disagreeing or merged.contradictions or any(c.contradictions for c in comparisons)
    return 1 if faults else 0


def _verdict(row: survey.Row) -> str:
    """A row's status and score as a contradiction shows them: ``won 61 (proven)``."""
    return f"{row.status} {row.score}{' (proven)' if row.proven else ''}"


def cmd_bench(args: argparse.Namespace) -> int:
    """``patience bench [--signature]``: fixed node counts of the engine and their SHA-256 digest."""
    print(signature.format_signature(signature.signature()))
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``patience`` command."""
    parser = argparse.ArgumentParser(
        prog="patience",
        description=f"Move generation, hashing, perft, a solver, deal surveys and play for {joined(TITLES.values())} "
                    "(docs/usage.md).",
    )
    parser.add_argument("--version", action="version", version=f"patience-engine {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    game_choices = [*REGISTRY, "all"]

    deal = sub.add_parser("deal", help="print a numbered deal")
    deal.add_argument("game", choices=game_choices)
    deal.add_argument("deal", type=_deal_number, metavar="N", nargs="?", help="deal number, 0 .. 2**64-1")
    _add_pysol_option(deal)
    deal.set_defaults(func=cmd_deal, parser=deal)

    p = sub.add_parser("perft", help="count move sequences to each depth (C++ and/or the reference)")
    p.add_argument("game", choices=game_choices)
    p.add_argument("deal", type=_deal_number, metavar="N", nargs="?",
                   help="deal number, 0 .. 2**64-1 (default 1)")
    p.add_argument("--depth", type=_depth, default=None,
                   help="deepest depth (default per game: " +
                   ", ".join(f"{name} {info.perft_depth}" for name, info in REGISTRY.items()) + ")")
    p.add_argument("--impl", choices=["cpp", "reference", "both"], default="cpp",
                   help="which implementation to run; both checks that they agree")
    p.add_argument("--jobs", type=_call_jobs, metavar="J",
                   help="threads of the C++ perft (default: every CPU the process may use); the tree is "
                   "split below the root, the counts are the same; the reference runs on one. With --scheduler: "
                   "threads per subtree on a worker (default 1, as Dask runs a task on each worker thread)")
    p.add_argument("--file", metavar="F", help="read the position from file F ('-' for stdin)")
    _add_pysol_option(p)
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="count depth D alone, split into subtrees, on the Dask cluster at ADDRESS (tcp://HOST:PORT; "
                   "needs patience-engine[dask]), each subtree's count kept in --db as it comes, so that a stopped "
                   "run resumes when run again; C++ only")
    p.add_argument("--db", metavar="FILE",
                   help=f"SQLite file of the subtrees' counts (default with --scheduler: {survey.DEFAULT_PERFT_DB}); "
                   "without --scheduler, count depth D alone by subtrees in this process, resumably")
    p.set_defaults(func=cmd_perft, parser=p)

    show = sub.add_parser("show", help="draw a position as a picture (SVG or PNG)")
    show.add_argument("game", choices=list(REGISTRY))
    show.add_argument("deal", type=_deal_number, metavar="N", nargs="?", help="deal number, 0 .. 2**64-1")
    show.add_argument("--file", metavar="F", help="read the position from file F ('-' for stdin)")
    _add_pysol_option(show)
    show.add_argument("--out", metavar="FILE",
                      help="write the picture to FILE: .svg, or .png (needs patience-engine[png]); "
                      "without it, print the position as text")
    show.set_defaults(func=cmd_show, parser=show)

    solve_parser = sub.add_parser("solve", help="solve a deal: won, lost or unknown, with the winning line")
    solve_parser.add_argument("game", choices=list(REGISTRY))
    solve_parser.add_argument("deal", type=_deal_number, metavar="N", nargs="?", help="deal number, 0 .. 2**64-1")
    solve_parser.add_argument("--file", metavar="F", help="read the position from file F ('-' for stdin)")
    solve_parser.add_argument("--node-limit", type=_node_limit, metavar="K",
                              help="stop with 'unknown' after expanding K positions (default: none)")
    solve_parser.add_argument("--time-limit", type=_time_limit, metavar="S",
                              help="stop with 'unknown' after S seconds (default: none)")
    solve_parser.add_argument("--jobs", type=_call_jobs, default=1, metavar="J",
                              help="threads searching the deal together (default 1), sharing one table; the "
                              "verdict and score of a search that runs to the end are the same, the line may "
                              "differ (docs/solver.md \"Threads\")")
    solve_parser.add_argument("--show", action="store_true", help="print the position after each move")
    _add_pysol_option(solve_parser)
    solve_parser.add_argument("--html", metavar="FILE",
                              help="also write FILE: one self-contained web page stepping through the solution")
    solve_parser.set_defaults(func=cmd_solve, parser=solve_parser)

    play_games = players.blind_games()
    play = sub.add_parser("play", help=f"play a {joined((TITLES[name] for name in play_games), 'or')} deal seeing "
                          "only what a player sees (docs/players.md)")
    play.add_argument("game", choices=play_games)
    play.add_argument("deal", type=_deal_number, metavar="N", nargs="?", help="deal number, 0 .. 2**64-1")
    play.add_argument("--file", metavar="F", help="read the position from file F ('-' for stdin)")
    _add_pysol_option(play, play_games)
    _add_player_options(play, ["hindsight", "baseline"], "hindsight")
    play.set_defaults(func=cmd_play, parser=play, player_parser=play)

    sv = sub.add_parser("survey", help="solve a range of deals into an SQLite file (resumable)")
    sv.add_argument("game", choices=list(REGISTRY))
    sv.add_argument("--deals", type=_deal_range, required=True, metavar="A-B", help="deal numbers A to B inclusive")
    sv.add_argument("--jobs", type=_jobs, metavar="J",
                    help="local worker processes (default: every CPU, divided by --threads; 1 solves in this process)")
    sv.add_argument("--threads", type=_threads, default=1, metavar="T",
                    help="threads solving each deal together (default 1; the node limit counts them all), e.g. "
                    "with --only-unknown for a few hard deals; each row records T")
    _add_player_options(sv, [survey.THOUGHTFUL, "hindsight", "baseline"], survey.THOUGHTFUL)
    sv.add_argument("--db", default=survey.DEFAULT_DB, metavar="FILE",
                    help=f"SQLite file of results (default {survey.DEFAULT_DB})")
    sv.add_argument("--only-unknown", action="store_true",
                    help="solve only the deals of the range that FILE leaves unknown under other limits "
                    "(same game, engine and player), e.g. again with a larger --node-limit")
    sv.add_argument("--scheduler", metavar="ADDRESS",
                    help="solve on the Dask cluster at ADDRESS (tcp://HOST:PORT; needs patience-engine[dask])")
    sv.set_defaults(func=cmd_survey, player_parser=sv)

    report = sub.add_parser("report", help="winnability and solver effort from a survey file")
    report.add_argument("db", metavar="FILE", nargs="+",
                        help="survey databases written by 'patience survey', read together")
    report.add_argument("--plot", metavar="PNG", type=_png_path,
                        help="also draw nodes per deal and winnability to PNG (needs patience-engine[plot])")
    report.set_defaults(func=cmd_report)

    bench = sub.add_parser("bench", help="the bench signature: fixed node counts and their digest "
                           "(timings: python -m pytest bench)")
    # What `patience bench` prints with or without the flag, as Stockfish's `bench` prints its signature.
    bench.add_argument("--signature", action="store_true",
                       help="print fixed perft and solver node counts and their SHA-256, to catch changes in "
                            "what is computed (the default)")
    bench.set_defaults(func=cmd_bench)
    return parser


def _version() -> str:
    """The package version and how its compiled module was built: ``0.1.0 (Release build)``, or with the
    sanitizers, ``0.1.0 (RelWithDebInfo build, sanitizers address, undefined)``."""
    from . import BUILD_TYPE, SANITIZERS, __version__

    sanitizers = f", sanitizers {', '.join(SANITIZERS)}" if SANITIZERS else ""
    return f"{__version__} ({BUILD_TYPE} build{sanitizers})"


def _check_sources(args: argparse.Namespace) -> None:
    """Exit 2 with the subcommand's usage unless the position comes from exactly one source."""
    if "parser" not in args:  # a command without a position
        return
    if getattr(args, "file", None) is not None and args.game == "all":
        args.parser.error("--file needs a single game, not 'all'")
    sources = [getattr(args, "file", None), getattr(args, "pysol", None)]
    if sum(source is not None for source in sources) > 1:
        args.parser.error("give at most one of --file and --pysol")
    given = (args.deal is not None) + sum(source is not None for source in sources)
    if args.command == "perft" and given == 0:
        args.deal = 1
    elif given != 1:
        names = ["a deal number N", "--pysol P", *(["--file F"] if "file" in args else [])]
        args.parser.error(f"{args.command} needs exactly one of {', '.join(names[:-1])} and {names[-1]}")
    if args.pysol is not None and args.game != "all" and REGISTRY[args.game].pysol_id is None:
        args.parser.error(f"PySolFC has no {TITLES[args.game]}: --pysol works for {' and '.join(_pysol_games())}")


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl-C raises KeyboardInterrupt, so that a command stopped by either cleans up alike."""


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated


@contextlib.contextmanager
def _sigterm_raises() -> Iterator[None]:
    """Take SIGTERM as ``Terminated`` within, unless the process ignores it or handles it already, or
    this is not the main thread (where Python cannot set a handler)."""
    try:
        if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
            yield
            return
        signal.signal(signal.SIGTERM, _raise_terminated)
    except ValueError:
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the ``patience`` command with ``argv`` (default: ``sys.argv[1:]``); returns the exit code."""
    if sys.stdout is None:  # started with stdout closed (`patience ... >&-`)
        print("patience: error: standard output is closed", file=sys.stderr)
        return 2
    try:
        try:
            with _sigterm_raises():
                args = build_parser().parse_args(argv)
                _check_sources(args)
                result: int = args.func(args)
            return result
        finally:
            # Output still buffered would meet a closed pipe at exit, beyond the handler below.
            sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (`patience deal ... | head -1`): stop quietly, as the Python docs advise
        # (signal module, "Note on SIGPIPE"): stdout to /dev/null so the flush at exit cannot fail
        # again, and 141 (128 + SIGPIPE), the status a shell shows for a program killed by SIGPIPE.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except Terminated:
        print("terminated", file=sys.stderr)
        return 143  # 128 + SIGTERM, as a shell shows for a program SIGTERM killed
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except (OSError, ValueError, MemoryError, MissingExtraError) as error:
        # A MemoryError from Python itself has no message.
        message = str(error) or ("out of memory" if isinstance(error, MemoryError) else type(error).__name__)
        print(f"patience: error: {message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
