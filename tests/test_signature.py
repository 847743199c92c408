"""The bench signature is pinned: a change to what the engine computes changes a count or the digest.

If a change to the rules, move generation or the solver's search is
intended, recompute the counts (``patience bench --signature``), check them against the reference
where it reaches, and update ``PINNED``, ``PINNED_SOLVES`` and ``PINNED_DIGEST`` together.
"""

from __future__ import annotations

from typing import List

import pytest

from patience_engine import GAMES, perft, reference
from patience_engine.cli import main
from patience_engine.games import REGISTRY
from patience_engine.signature import digest, perft_positions, signature

# (game, deal, depth) -> leaves. Every count agreed with and without bulk
# counting when pinned; the shallow ones are docs/rules.md "Check values".
PINNED = {
    ("royal-marriage", 1, 3): 22464,
    ("royal-marriage", 1, 5): 13300292,
    ("royal-marriage", 2, 3): 32469,
    ("royal-marriage", 2, 5): 23940273,
    ("royal-marriage", 3, 3): 19208,
    ("royal-marriage", 3, 5): 10985558,
    ("germaine", 1, 3): 21265,
    ("germaine", 1, 5): 20514590,
    ("germaine", 2, 3): 64421,
    ("germaine", 2, 5): 104679137,
    ("germaine", 3, 3): 15478,
    ("germaine", 3, 5): 11307700,
    ("geoffrey", 1, 5): 6986,
    ("geoffrey", 1, 10): 7547283,
    ("geoffrey", 2, 5): 1998,
    ("geoffrey", 2, 10): 5481863,
    ("geoffrey", 3, 5): 5448,
    ("geoffrey", 3, 10): 892693,
}
# The solver under a node limit and a fixed table size (signature.SOLVE_*).
PINNED_SOLVES = [
    "solve royal-marriage deal 1: won score 50 nodes 27 moves 27",
    "solve royal-marriage deal 3: won score 50 nodes 27 moves 27",
    "solve germaine deal 1: won score 63 nodes 100000 moves 150",
    "solve germaine deal 15: won score 64 nodes 10411 moves 144",
    "solve geoffrey deal 1: lost score 0 nodes 947 moves 0",
    "solve geoffrey deal 2: won score 52 nodes 88 moves 88",
    "solve geoffrey deal 16: lost score 0 nodes 62248 moves 0",
]
PINNED_DIGEST = "7e7b02ec7e345b6a5578120c12fd1c7a40e3676b75a128c8893373673b336428"
EXPECTED_LINES = [
    *(f"perft {game} deal {deal} depth {depth}: {count}" for (game, deal, depth), count in PINNED.items()),
    *PINNED_SOLVES,
]
SHALLOW = [(game, deal, depth) for game, deal, depth in PINNED if depth == REGISTRY[game].bench.signature_depths[0]]


def test_signature_is_pinned() -> None:
    sig = signature()
    assert sig.lines == EXPECTED_LINES
    assert sig.digest == digest(EXPECTED_LINES) == PINNED_DIGEST


def test_positions_are_the_pinned_ones() -> None:
    assert perft_positions() == list(PINNED)


@pytest.mark.parametrize("game, deal, depth", SHALLOW)
def test_shallow_counts_match_reference_and_make_unmake(game: str, deal: int, depth: int) -> None:
    assert reference.perft(reference.GAMES[game].deal(deal), depth) == PINNED[game, deal, depth]
    assert perft(GAMES[game].deal(deal), depth, bulk=False) == PINNED[game, deal, depth]


@pytest.mark.parametrize("argv", [["bench", "--signature"], ["bench"]])
def test_cli_prints_signature(capsys: pytest.CaptureFixture[str], argv: List[str]) -> None:
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == f"sha256 {PINNED_DIGEST}"
    assert out[:-1] == EXPECTED_LINES


def test_engine_version_is_per_game() -> None:
    from patience_engine import __version__
    from patience_engine.signature import engine_version

    versions = {game: engine_version(game) for game in ("royal-marriage", "germaine", "geoffrey")}
    assert all(v.startswith(__version__ + "+") and len(v) == len(__version__) + 13 for v in versions.values())
    assert len(set(versions.values())) == 3
    with pytest.raises(KeyError):
        engine_version("chess")
