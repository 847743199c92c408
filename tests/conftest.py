"""Shared fixtures: the two implementations of each game side by side, each game's test data, and
the card helpers the data files share.

A test that covers every game takes the games from the registry (``GAME_NAMES``, the ``game``
fixture, ``games.names_where``) and what it knows of each from that game's data file,
``tests/game_data/<module>.py`` (``game_data``, ``game_cases``), so that a game is tested by every
generic test the moment it is registered and has its data file.
"""

from __future__ import annotations

import functools
import importlib.util
import random
import signal
import sqlite3
import subprocess
import time
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, List, NamedTuple, Set, Tuple

import pytest

from patience_engine.games import PERFT, REGISTRY

GAME_NAMES = list(REGISTRY)
CLASS_CHOICES = " or ".join(", ".join(info.class_name for info in REGISTRY.values()).rsplit(", ", 1))
"""The games' position classes as a message offers them: 'RoyalMarriage, Germaine or Geoffrey'."""
NAME_CHOICES = ", ".join(map(repr, REGISTRY))
"""The games' names as an unknown name's message lists them: "'royal-marriage', 'germaine', 'geoffrey'"."""
GAME_DATA = Path(__file__).with_name("game_data")
"""The folder of the games' test data files, one ``<module>.py`` per game."""


@functools.lru_cache(maxsize=None)
def game_data(game: str) -> ModuleType:
    """The test data module of a registered game: ``tests/game_data/<module>.py``, ``module`` its registry entry's.

    Raises FileNotFoundError, naming the file, when the game has none.
    """
    module = REGISTRY[game].module
    path = GAME_DATA / f"{module}.py"
    if not path.is_file():
        raise FileNotFoundError(f"{game} is registered but has no test data file {path}: write one "
                                "defining what tests/test_games.py's DATA lists, as the other games' files do")
    spec = importlib.util.spec_from_file_location(f"game_data_{module}", path)
    assert spec is not None and spec.loader is not None
    data = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(data)
    return data


def game_cases(constant: str) -> List[Tuple[Any, ...]]:
    """(game, case...) for every case in the data constant ``constant`` of each game.

    A dict's cases are its keys, a sequence's its items; a case that is a tuple is spread, so that
    ``pytest.mark.parametrize("game, text, message", game_cases("BAD_MOVE_MESSAGES"))`` reads
    ``(text, message)`` pairs.
    """
    return [(game, *(case if isinstance(case, tuple) else (case,)))
            for game in GAME_NAMES for case in getattr(game_data(game), constant)]


# --- cards, as the data files and tests read them without engine code ---------------------------

U64 = 1 << 64
RANKS = "A23456789TJQK"
SUITS = "CDHS"


def card_index(text: str) -> int:
    """A card's index in card order (docs/rules.md "Cards"): suit C, D, H, S, then rank A..K."""
    return SUITS.index(text[-1]) * 13 + RANKS.index(text[0])


def card_token(rank: int, suit: int) -> str:
    """The text of a card of rank 1..13 and suit 0..3."""
    return RANKS[rank - 1] + SUITS[suit]


def splitmix_table(seed: int, count: int) -> List[int]:
    """docs/architecture.md "Zobrist keys": SplitMix64 from ``seed``, restated independently of both implementations."""
    keys, state, mask = [], seed, U64 - 1
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        keys.append(z ^ (z >> 31))
    return keys


def small_germaine(seed: int) -> str:
    """A Germaine position of 4 to 7 cards of neighbouring ranks in the top-left 2 x 5 cells, in the text of
    ``from_text``: small enough for an exhaustive search (tests/test_solver.py)."""
    rng = random.Random(seed)
    cells = ["--"] * 52
    spots = [13 * r + c for r in range(2) for c in range(5)]
    low = rng.randrange(13)
    cards = list(dict.fromkeys(RANKS[(low + k) % 13] + rng.choice(SUITS) for k in range(rng.randint(4, 7))))
    for spot, card in zip(rng.sample(spots, len(cards)), cards):
        cells[spot] = card
    rows = [" ".join(cells[13 * r : 13 * r + 13]) for r in range(4)]
    return "\n".join(rows) + f"\nslides: {rng.randint(0, 2)}"


SMALL_GERMAINE_SEEDS = [1, 2, 6, 7, 10, 12, 14, 15, 18, 19, 20, 25, 32, 36, 37, 47, 52, 53, 59]
"""Seeds of small_germaine() whose exhaustive search takes well under a second: wins and losses."""


def flat(value: Any) -> List[int]:
    """The numbers of nested lists (an observation), in order."""
    return [x for item in value for x in flat(item)] if isinstance(value, list) else [value]


def cards_at(planes: List[Any], *at: int) -> Tuple[int, int]:
    """(rank 1..13 or 0, suit 0..3 or -1) that an observation's rank and suit planes (docs/rl.md) show at ``at``."""

    def bit(plane: int) -> int:
        row = planes[plane]
        for i in at:
            row = row[i]
        return int(row)

    ranks = [r + 1 for r in range(13) if bit(r)]
    suits = [s for s in range(4) if bit(13 + s)]
    assert len(ranks) <= 1 and len(suits) <= 1 and len(ranks) == len(suits)
    return (ranks[0], suits[0]) if ranks else (0, -1)


# --- the two implementations --------------------------------------------------------------------


@pytest.fixture(params=GAME_NAMES)
def game(request: pytest.FixtureRequest) -> str:
    """Each game's command-line name."""
    return str(request.param)


@pytest.fixture(params=list(PERFT))
def impl(request: pytest.FixtureRequest) -> str:
    """Each implementation's name: 'cpp' or 'reference'."""
    return str(request.param)


def game_class(impl: str, game: str) -> Any:
    """The position class of a game in one implementation."""
    return REGISTRY[game].implementation(impl)


def perft_of(impl: str) -> Callable[[Any, int], int]:
    """The perft function of one implementation."""
    return PERFT[impl]


def position_of(impl: str, game: str, spec: Any) -> Any:
    """A position of a game in one implementation: a numbered deal (an int) or a text."""
    cls = game_class(impl, game)
    return cls.deal(spec) if isinstance(spec, int) else cls.from_text(spec)


def sorted_moves(state: Any) -> list:
    """The legal moves of a position as sorted texts."""
    return sorted(str(move) for move in state.legal_moves())


class Interrupted(NamedTuple):
    """What a child process did after Ctrl-C: exit code, output after the first line, seconds to exit."""

    code: int
    stdout: str
    stderr: str
    seconds: float


def child_defaults() -> None:
    """``preexec_fn`` of test children: default SIGINT and SIGTERM handling and a 60 s alarm (see below)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.alarm(60)


def interrupt_after_first_line(command: List[str], delay: float = 0.5) -> Interrupted:
    """Run ``command``, wait for its first line of output and ``delay`` seconds more, send SIGINT.

    The child gets the default SIGINT disposition (a shell may have started this run with SIGINT
    ignored, which Python would inherit and keep), is killed if it has not exited 10 s later, and
    carries a 60 s alarm so that nothing, not even a stray child, can outlive a failed test for long.
    """
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          preexec_fn=child_defaults) as child:
        assert child.stdout is not None and child.stderr is not None
        try:
            child.stdout.readline()
            time.sleep(delay)
            sent = time.perf_counter()
            child.send_signal(signal.SIGINT)
            code = child.wait(timeout=10)
            return Interrupted(code, child.stdout.read(), child.stderr.read(), time.perf_counter() - sent)
        finally:
            child.kill()


# --- survey and perft files of an older schema -------------------------------------------------


def to_old_form(db: Path, table: str, schema_version: int) -> None:
    """Make the file at ``db`` one of an older schema ``schema_version``, whose tables were today's but whose
    engine versions were ``0.1.0+<digest>`` (signature.engine_version), as the published surveys are."""
    connection = sqlite3.connect(db)
    with connection:
        connection.execute(f"UPDATE {table} SET engine_version = '0.1.0+' || substr(engine_version, 4)")
    connection.execute(f"PRAGMA user_version = {schema_version}")
    connection.close()


def stored_engine_versions(db: Path, table: str) -> Tuple[int, Set[str]]:
    """The file's schema version and the engine versions its ``table`` holds, as stored."""
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        version = int(connection.execute("PRAGMA user_version").fetchone()[0])
        return version, {str(r[0]) for r in connection.execute(f"SELECT engine_version FROM {table}")}
    finally:
        connection.close()
