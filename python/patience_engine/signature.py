"""The bench signature: fixed node counts of the C++ engine and a SHA-256 digest of them.

Timings are too noisy to show that a change left what the engine computes
alone; these counts are not. ``signature()`` walks a fixed set of perft
positions (three numbered deals per game, a shallow and a deep depth each,
``registry.Bench.signature_depths``, bulk counting) and solves a few deals
per game (``signature_solve_deals``) under a node limit (the solver is
deterministic then), and prints one line per count; the digest is
the SHA-256 of those lines. ``tests/test_signature.py`` pins both, so a change to move
generation, or to the solver's search as these solves run it, shows up there as a changed
count. Paths these do not run (a solve with ``pruning=False``, ``playouts``, ``VectorGame``,
``determinize``) are not covered; their tests and ``bench/instructions.py``'s checked results
are. ``patience bench --signature`` prints it; it takes well under a second on an optimised build.

>>> perft_positions()[:2]
[('royal-marriage', 1, 3), ('royal-marriage', 1, 5)]
"""

from __future__ import annotations

import functools
import hashlib
from typing import List, NamedTuple, Tuple

from . import perft, solve
from .games import REGISTRY

PERFT_DEALS = (1, 2, 3)
"""The numbered deals walked for every game."""
SOLVE_NODE_LIMIT = 100_000
"""Node limit of every solve."""
SOLVE_TABLE_BYTES = 1 << 20
"""Transposition-table bytes of every solve (node counts depend on it)."""
ENGINE_REVISION = 1
"""Part of every ``engine_version``: bumped by a change to what the engine computes that the signature
does not see (module docstring), so that survey rows and perft runs of the engine before it are kept apart.
Not the package version, whose bump alone leaves the engine as it was."""


class Signature(NamedTuple):
    """The signature's lines (``str`` each, no newline) and their SHA-256 (lower-case hex)."""

    lines: List[str]
    digest: str


def perft_positions() -> List[Tuple[str, int, int]]:
    """The (game, deal, depth) triples of the signature, in the order their lines appear."""
    return [(game, deal, depth) for game, info in REGISTRY.items() for deal in PERFT_DEALS
            for depth in info.bench.signature_depths]


def perft_lines() -> List[str]:
    """One line ``perft GAME deal N depth D: COUNT`` per position, counted by the C++ engine."""
    return [
        f"perft {game} deal {deal} depth {depth}: {perft(REGISTRY[game].cpp.deal(deal), depth)}"
        for game, deal, depth in perft_positions()
    ]


def solve_lines() -> List[str]:
    """One line ``solve GAME deal N: STATUS score S nodes K moves M`` per solved deal."""
    lines = []
    for game, info in REGISTRY.items():
        for deal in info.bench.signature_solve_deals:
            sol = solve(info.cpp.deal(deal), node_limit=SOLVE_NODE_LIMIT, table_bytes=SOLVE_TABLE_BYTES)
            lines.append(f"solve {game} deal {deal}: {sol.status} score {sol.score} nodes {sol.nodes} "
                         f"moves {len(sol.moves)}")
    return lines


def digest(lines: List[str]) -> str:
    """SHA-256 (lower-case hex) of ``lines`` joined by newlines, UTF-8."""
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


def signature() -> Signature:
    """Compute the signature: every count line, then their digest."""
    lines = perft_lines() + solve_lines()
    return Signature(lines, digest(lines))


def format_signature(sig: Signature) -> str:
    """The text ``patience bench --signature`` prints: the lines, then ``sha256 DIGEST``."""
    return "\n".join([*sig.lines, f"sha256 {sig.digest}"])


@functools.lru_cache(maxsize=None)
def engine_version(game: str) -> str:
    """``r``, ``ENGINE_REVISION``, ``-`` and 12 hex digits of a digest of ``game``'s signature lines, e.g.
    ``r1-454dce7b511c``: what the engine computes for ``game``, whatever the package version.

    Survey rows and perft runs carry it, so rows from an engine whose signature lines for ``game``
    differ (another move generator or solver search) are never mixed, while a change to another
    game's solver, or a new package version of the same engine, leaves it alone. A change the
    signature does not see keeps it: bump ``ENGINE_REVISION`` then. (Older files, of survey schema 1
    or 2 or perft schema 1, hold ``0.1.0+`` and the digest instead of ``r1-``: ``survey.store`` reads
    them in this form.) Computed once per process and game (well under a second).
    Raises KeyError for an unknown game.
    """
    lines = [line for line in signature().lines if line.split()[1] == game]
    if not lines:
        raise KeyError(game)
    return f"r{ENGINE_REVISION}-{digest(lines)[:12]}"
