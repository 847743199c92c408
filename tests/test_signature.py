"""The bench signature is pinned: a change to what the engine computes changes a count or the digest.

If a change to the rules, move generation or the solver's search is
intended, recompute the counts (``patience bench --signature``), check them against the reference
where it reaches, and update the games' ``SIGNATURE_PERFT`` and ``SIGNATURE_SOLVES`` (tests/game_data/)
and ``PINNED_DIGEST`` together.
"""

from __future__ import annotations

from typing import List

import pytest

from conftest import GAME_NAMES, game_data
from patience_engine import GAMES, perft, reference
from patience_engine.cli import main
from patience_engine.games import REGISTRY
from patience_engine.signature import digest, perft_positions, signature

PINNED = {(game, deal, depth): leaves for game in GAME_NAMES
          for (deal, depth), leaves in game_data(game).SIGNATURE_PERFT.items()}
"""(game, deal, depth) -> leaves of every game's perft lines, from its data file's ``SIGNATURE_PERFT``."""
PINNED_SOLVES = [f"solve {game} deal {deal}: {result}" for game in GAME_NAMES
                 for deal, result in game_data(game).SIGNATURE_SOLVES.items()]
"""Every game's solve lines, from its data file's ``SIGNATURE_SOLVES`` (the solver under a node limit and a
fixed table size, signature.SOLVE_*)."""
PINNED_DIGEST = "7e7b02ec7e345b6a5578120c12fd1c7a40e3676b75a128c8893373673b336428"
"""The digest of the lines of the games every build has (``GameInfo.optional`` False): the commits' ``Signature:``."""
EXPECTED_LINES = [
    *(f"perft {game} deal {deal} depth {depth}: {count}" for (game, deal, depth), count in PINNED.items()),
    *PINNED_SOLVES,
]
SHALLOW = [(game, deal, depth) for game, deal, depth in PINNED if depth == REGISTRY[game].bench.signature_depths[0]]


def test_signature_is_pinned() -> None:
    sig = signature()
    assert sig.lines == EXPECTED_LINES
    assert sig.digest == digest(EXPECTED_LINES)
    assert digest([line for line in sig.lines if not REGISTRY[line.split()[1]].optional]) == PINNED_DIGEST


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
    assert out[-1] == f"sha256 {digest(EXPECTED_LINES)}"
    assert out[:-1] == EXPECTED_LINES


def test_engine_version_is_the_revision_and_the_games_lines_not_the_package_version() -> None:
    from patience_engine.signature import ENGINE_REVISION, engine_version

    versions = {game: engine_version(game) for game in GAME_NAMES}
    for game, version in versions.items():
        lines = [line for line in EXPECTED_LINES if line.split()[1] == game]
        assert version == f"r{ENGINE_REVISION}-{digest(lines)[:12]}"
    assert len(set(versions.values())) == len(GAME_NAMES)
    with pytest.raises(KeyError):
        engine_version("chess")
