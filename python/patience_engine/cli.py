"""The ``patience`` command: deals and perft from the shell.

Exit codes: 0 success, 1 the implementations disagree, 2 bad usage or input,
130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Sequence

from tqdm import tqdm

from . import GAMES, perft
from . import reference

GAME_TITLES = {"royal-marriage": "Royal Marriage", "germaine": "Germaine 2-Move", "geoffrey": "Geoffrey"}
# Depths at which the reference needs a few seconds a game on deal 1 (used by `perft all`).
DEFAULT_DEPTHS = {"royal-marriage": 4, "germaine": 3, "geoffrey": 7}
IMPLEMENTATIONS = {"cpp": (GAMES, perft), "reference": (reference.GAMES, reference.perft)}


def _deal_number(text: str) -> int:
    try:
        n = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"deal number must be an integer, got {text!r}") from None
    if not 0 <= n < 1 << 64:
        raise argparse.ArgumentTypeError(f"deal number must be in 0 .. 2**64-1, got {n}")
    return n


def _depth(text: str) -> int:
    try:
        depth = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"depth must be an integer, got {text!r}") from None
    if depth < 0:
        raise argparse.ArgumentTypeError(f"depth must be >= 0, got {depth}")
    return depth


def _read_text(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _position(impl: str, game: str, args: argparse.Namespace) -> Any:
    """The start position of one game for one implementation: ``--file`` or deal ``N``."""
    cls = IMPLEMENTATIONS[impl][0][game]
    if args.file is not None:
        return cls.from_text(_read_text(args.file))
    return cls.deal(args.deal)


def _timed_perft(impl: str, state: Any, depth: int, label: str) -> "tuple[int, float]":
    """perft(state, depth) by one implementation, split over the root moves for a progress bar."""
    count_fn: Callable[[Any, int], int] = IMPLEMENTATIONS[impl][1]
    start = time.perf_counter()
    if depth <= 1:
        return count_fn(state, depth), time.perf_counter() - start
    total = 0
    moves = state.legal_moves()
    with tqdm(moves, desc=label, unit="move", leave=False, delay=1.0, file=sys.stderr) as bar:
        for move in bar:
            child = state.copy()
            child.play(move)
            total += count_fn(child, depth - 1)
    return total, time.perf_counter() - start


def _rate(nodes: int, seconds: float) -> str:
    return f"{nodes / seconds:,.0f}" if seconds > 0 else "-"


def _run_perft(game: str, args: argparse.Namespace, depth: int) -> bool:
    """Print perft for depths 1..depth of one game; False when the implementations disagree."""
    impls = ["cpp", "reference"] if args.impl == "both" else [args.impl]
    states = {impl: _position(impl, game, args) for impl in impls}
    source = f"file {args.file}" if args.file is not None else f"deal {args.deal}"
    print(f"{GAME_TITLES[game]}, {source}")
    header = ["depth", "nodes"]
    for impl in impls:
        header += [f"{impl} s", f"{impl} nodes/s"]
    if len(impls) == 2:
        header.append("cpp/reference")
    print("  ".join(f"{h:>16}" if i else f"{h:>5}" for i, h in enumerate(header)))
    agree = True
    for d in range(1, depth + 1):
        results = {impl: _timed_perft(impl, states[impl], d, f"{impl} depth {d}") for impl in impls}
        counts = {results[impl][0] for impl in impls}
        row = [f"{d:>5}", f"{results[impls[0]][0]:>16,}"]
        for impl in impls:
            nodes, seconds = results[impl]
            row += [f"{seconds:>16.4f}", f"{_rate(nodes, seconds):>16}"]
        if len(impls) == 2:
            cpp_s, ref_s = results["cpp"][1], results["reference"][1]
            row.append(f"{ref_s / cpp_s:>15,.0f}x" if cpp_s > 0 else f"{'-':>16}")
        print("  ".join(row), flush=True)
        if len(counts) > 1:
            agree = False
            detail = ", ".join(f"{impl} {results[impl][0]}" for impl in impls)
            print(f"MISMATCH at depth {d}: {detail}", file=sys.stderr)
            break
    return agree


def cmd_deal(args: argparse.Namespace) -> int:
    """``patience deal GAME N``: print the numbered deal in the game's text format."""
    games = list(GAMES) if args.game == "all" else [args.game]
    for game in games:
        if len(games) > 1:
            print(f"# {GAME_TITLES[game]}, deal {args.deal}")
        print(GAMES[game].deal(args.deal).to_text())
    return 0


def cmd_perft(args: argparse.Namespace) -> int:
    """``patience perft GAME N --depth D``: perft counts, seconds and nodes per second."""
    games = list(GAMES) if args.game == "all" else [args.game]
    agree = True
    for i, game in enumerate(games):
        if i:
            print()
        depth = args.depth if args.depth is not None else DEFAULT_DEPTHS[game]
        agree = _run_perft(game, args, depth) and agree
    return 0 if agree else 1


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``patience`` command."""
    parser = argparse.ArgumentParser(
        prog="patience",
        description="Move generation, hashing and perft for Germaine 2-Move, Royal Marriage and Geoffrey.",
    )
    parser.add_argument("--version", action="version", version=f"patience-engine {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    game_choices = [*GAMES, "all"]

    deal = sub.add_parser("deal", help="print a numbered deal")
    deal.add_argument("game", choices=game_choices)
    deal.add_argument("deal", type=_deal_number, metavar="N", help="deal number, 0 .. 2**64-1")
    deal.set_defaults(func=cmd_deal)

    p = sub.add_parser("perft", help="count move sequences to each depth (C++ and/or the reference)")
    p.add_argument("game", choices=game_choices)
    p.add_argument("deal", type=_deal_number, metavar="N", nargs="?", default=1,
                   help="deal number, 0 .. 2**64-1 (default 1)")
    p.add_argument("--depth", type=_depth, default=None,
                   help="deepest depth (default per game: " +
                   ", ".join(f"{g} {d}" for g, d in DEFAULT_DEPTHS.items()) + ")")
    p.add_argument("--impl", choices=["cpp", "reference", "both"], default="cpp",
                   help="which implementation to run; both checks that they agree")
    p.add_argument("--file", metavar="F", help="read the position from file F ('-' for stdin)")
    p.set_defaults(func=cmd_perft)
    return parser


def _version() -> str:
    from . import __version__

    return __version__


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the ``patience`` command with ``argv`` (default: ``sys.argv[1:]``); returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "file", None) is not None and args.game == "all":
        parser.error("--file needs a single game, not 'all'")
    try:
        result: int = args.func(args)
        return result
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except (OSError, ValueError) as error:
        print(f"patience: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
