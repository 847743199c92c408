"""The registry of the games: one entry per game, the one place a game's facts are written.

Every layer that treats the games alike reads this module: the reference
(``reference.GAMES``), the engine's view of it (``games.REGISTRY``, which adds
the C++ classes), the command line, the pictures, the Gymnasium
environments, the survey, the bench signature, the benchmarks and the
tests. A game's rules live in its own files (``cpp/games/<module>/`` and
``reference/<module>.py``), its test fixtures in ``tests/game_data/<module>.py``;
docs/adding-a-game.md lists every file a new game touches.

This module imports the standard library alone, so that the reference (which
imports nothing compiled) and ``bench/instructions.py`` (which loads it from
the source tree, whatever build is installed) can read it.

>>> [info.title for info in GAMES.values()][:3]
['Royal Marriage', 'Germaine 2-Move', 'Geoffrey']
>>> GAMES["geoffrey"].pysol_id, GAMES["germaine"].pysol_id, GAMES["geoffrey"].hidden_cards
(492, None, True)
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Dict, Optional, Tuple

Walk = Tuple[int, int, int]
"""(deal, depth, leaves): perft of numbered deal ``deal`` to ``depth`` counts ``leaves``."""


@dataclass(frozen=True)
class Timed:
    """A game's workloads of ``bench/test_bench.py`` and ``bench/test_rl_bench.py``, each with the
    result it must give. Depths are chosen so that one round takes about 0.1-1 s on an optimised build."""

    perft_bulk: Tuple[Walk, ...]
    """C++ perft with bulk counting."""
    make_unmake: Tuple[Walk, ...]
    """C++ perft making and unmaking every move."""
    reference: Walk
    """The pure-Python reference's perft (and C++ on the same position)."""
    python_loop: Walk
    """A perft loop written in Python over each implementation."""
    solver: Tuple[Tuple[int, ...], int, bool, Tuple[Tuple[str, int], ...]]
    """(deals, node limit, pruning, ((status, nodes) per deal)) of the C++ solver."""
    vector_rewards: int
    """The rewards of 100 steps of a 1024-slot ``VectorGame`` from ``reset(seed=1)``, summed."""
    playouts: Tuple[int, int]
    """(deal, n) of ``playouts``: a deal whose playouts score differently, so a wrong draw shows."""
    threaded_perft: Walk
    """C++ bulk perft of 2 s or more on one thread (where the game's tree is that large), timed at one
    thread and at two (``bench/threads.py``)."""
    survey: Optional[Tuple[int, Tuple[int, int]]] = None
    """(deals, (won, lost)): deals 1..deals solved as a survey solves them, when that is quick
    enough to time (deals per second)."""


Counted = Tuple[str, Tuple[int, ...], int, Any, bool, bool]
"""One workload of ``bench/instructions.py``: (path, deals, size, expected result, quick, pruning);
its docstring says what each path counts."""


@dataclass(frozen=True)
class Bench:
    """A game's bench positions: the timed workloads, the instruction-counted ones (smaller, as
    callgrind runs code some 50 times slower) and the bench signature's."""

    timed: Timed
    counted: Tuple[Counted, ...]
    signature_depths: Tuple[int, int]
    """Perft depths of the bench signature: one the reference walks quickly, a deeper one for C++."""
    signature_solve_deals: Tuple[int, ...]
    """Numbered deals the bench signature solves under its node limit."""


@dataclass(frozen=True)
class GameInfo:
    """One game as every layer of the package sees it."""

    name: str
    """Command-line name, e.g. ``"royal-marriage"``; the key of ``GAMES``."""
    title: str
    """The game's name as headings print it, e.g. ``"Royal Marriage"``."""
    class_name: str
    """The position class's name in both implementations, e.g. ``"RoyalMarriage"``; its move class
    is this name and ``Move``, its Gymnasium id ``patience_engine/<class_name>-v0``."""
    module: str
    """The game's folder ``cpp/games/<module>/``, reference module ``reference/<module>.py`` and
    test data ``tests/game_data/<module>.py``, e.g. ``"royal_marriage"``."""
    perft_depth: int
    """Default depth of ``patience perft``: the reference needs a few seconds on deal 1."""
    bench: Bench
    hidden_cards: bool = False
    """True when some cards lie face down: the game has a hidden view (docs/rl.md "Hidden view"),
    and its Gymnasium environment is hidden by default."""
    blind_players: bool = False
    """True when the players of ``patience_engine.players`` play it, seeing only what a player sees
    (``patience play``, ``survey --player``; docs/players.md)."""
    played_for_score: bool = False
    """True when the game is played for the best score, not only won or lost (Germaine 2-Move)."""
    lost_words: str = "no line wins"
    """What a proven loss means, as ``patience solve`` says it: ``lost: <lost_words> (proven)``."""
    pysol_id: Optional[int] = None
    """PySolFC's own game id, or None when PySolFC lacks the game; ``reference.pysol`` deals its
    layouts with ``<module>_text``."""
    optional: bool = False
    """True for a game compiled only when the build asks for it (CMake ``PATIENCE_EXAMPLE_GAME``):
    it is in ``GAMES`` only when the installed engine has it."""
    cpp: Any = field(default=None, compare=False, repr=False)
    """The C++ position class: None here, set in ``games.REGISTRY`` (the reference imports nothing
    compiled)."""

    @property
    def reference(self) -> Any:
        """The pure-Python reference class (``patience_engine.reference.GAMES[name]``)."""
        return getattr(importlib.import_module(f"patience_engine.reference.{self.module}"), self.class_name)

    @property
    def move_class_name(self) -> str:
        """The move class's name in both implementations, e.g. ``"RoyalMarriageMove"``."""
        return self.class_name + "Move"

    def implementation(self, name: str) -> Any:
        """The position class of implementation ``name`` (``"cpp"`` or ``"reference"``); KeyError for another."""
        if name not in IMPLEMENTATIONS:
            raise KeyError(name)
        return getattr(self, name)


IMPLEMENTATIONS = ("cpp", "reference")
"""The implementations' names, as ``GameInfo.implementation`` and the command line's ``--impl`` take them."""


ENTRIES: Tuple[GameInfo, ...] = (
    GameInfo(
        "royal-marriage", "Royal Marriage", "RoyalMarriage", "royal_marriage", perft_depth=5, pysol_id=288,
        bench=Bench(
            # Royal Marriage's solver runs without its pruning rule when timed or counted: with it the row
            # analysis settles a deal in a few dozen nodes, so only the plain search shows the search's speed.
            timed=Timed(
                perft_bulk=((1, 6, 297321615), (3, 6, 245025199)),
                make_unmake=((1, 5, 13300292), (3, 5, 10985558)),
                reference=(1, 4, 562500),
                python_loop=(1, 3, 22464),
                solver=((1, 96, 97), 1_000_000, False, (("won", 395), ("won", 218934), ("won", 209182))),
                vector_rewards=147_181,
                playouts=(1, 4000),
                threaded_perft=(1, 8, 126_050_402_773),
                survey=(500, (495, 5)),
            ),
            counted=(
                ("cpp_perft_bulk", (1,), 5, 13300292, True, True),
                ("cpp_perft_bulk", (3,), 5, 10985558, False, True),
                ("cpp_make_unmake", (1,), 4, 562500, True, True),
                ("cpp_make_unmake", (3,), 4, 470064, False, True),
                ("reference_perft", (1,), 3, 22464, False, True),
                ("python_loop_over_cpp", (1,), 2, 846, True, True),
                ("python_loop_over_reference", (1,), 2, 846, False, True),
                ("solver", (1, 96), 20000, [("won", 50, 395), ("unknown", 0, 20000)], True, False),
                ("vector_step", (1,), 50, 4651, True, True),
                ("playouts", (1,), 400, 17056, True, True),
                ("python_int_loop", (0,), 3000, (102, 2898, 32), True, True),
                ("survey", (), 20, (18, 2), False, True),
            ),
            signature_depths=(3, 5),
            signature_solve_deals=(1, 3),
        ),
    ),
    GameInfo(
        "germaine", "Germaine 2-Move", "Germaine", "germaine", perft_depth=4, played_for_score=True,
        lost_words="no line leaves one card",
        bench=Bench(
            timed=Timed(
                perft_bulk=((1, 6, 658221497), (3, 6, 312498652)),
                make_unmake=((1, 5, 20514590), (3, 5, 11307700)),
                reference=(1, 4, 651248),
                python_loop=(1, 3, 21265),
                solver=((230, 262), 500_000, True, (("unknown", 500000), ("unknown", 500000))),
                vector_rewards=47_996,
                playouts=(1, 1000),
                threaded_perft=(1, 7, 21_391_381_716),
            ),
            counted=(
                ("cpp_perft_bulk", (1,), 5, 20514590, True, True),
                ("cpp_perft_bulk", (3,), 5, 11307700, False, True),
                ("cpp_make_unmake", (1,), 4, 651248, True, True),
                ("cpp_make_unmake", (3,), 4, 414024, False, True),
                ("reference_perft", (1,), 3, 21265, False, True),
                ("python_loop_over_cpp", (1,), 2, 724, True, True),
                ("python_loop_over_reference", (1,), 2, 724, False, True),
                ("solver", (230,), 20000, [("unknown", 43, 20000)], True, True),
                ("vector_step", (1,), 50, 1556, True, True),
                ("playouts", (1,), 400, 6735, True, True),
                ("python_int_loop", (0,), 3000, (92, 2908, 3), True, True),
            ),
            signature_depths=(3, 5),
            signature_solve_deals=(1, 15),
        ),
    ),
    GameInfo(
        "geoffrey", "Geoffrey", "Geoffrey", "geoffrey", perft_depth=8, pysol_id=492, hidden_cards=True,
        blind_players=True,
        bench=Bench(
            # Geoffrey deal 2 for playouts: every playout from deal 1 scores 5 whatever is drawn, so a
            # wrong draw would pass; deal 2's score 33 or 52.
            timed=Timed(
                perft_bulk=((1, 11, 27201807), (3, 14, 2754747)),
                make_unmake=((1, 10, 7547283), (3, 13, 2436543)),
                reference=(1, 7, 135171),
                python_loop=(1, 6, 31802),
                solver=((2, 43, 92, 98), 1_000_000, True,
                        (("won", 88), ("lost", 134717), ("lost", 102112), ("lost", 96735))),
                vector_rewards=14_621,
                playouts=(2, 1000),
                threaded_perft=(1, 14, 1_043_798_726),
            ),
            counted=(
                ("cpp_perft_bulk", (1,), 10, 7547283, True, True),
                ("cpp_perft_bulk", (3,), 11, 1338808, False, True),
                ("cpp_make_unmake", (1,), 8, 539766, True, True),
                ("cpp_make_unmake", (3,), 9, 480250, False, True),
                ("reference_perft", (1,), 5, 6986, False, True),
                ("python_loop_over_cpp", (1,), 5, 6986, True, True),
                ("python_loop_over_reference", (1,), 4, 1428, False, True),
                ("solver", (2, 43), 20000, [("won", 52, 88), ("unknown", 0, 20000)], True, True),
                ("vector_step", (1,), 50, 432, True, True),
                ("playouts", (2,), 400, 20667, True, True),
                ("python_int_loop", (0,), 3000, (16, 2984, 17), True, True),
            ),
            signature_depths=(5, 10),
            signature_solve_deals=(1, 2, 16),
        ),
    ),
    # The example game of docs/adding-a-game.md, compiled only with CMake PATIENCE_EXAMPLE_GAME. PySolFC has
    # it (game 328), but its layouts are not dealt here: pysol_id stays None.
    GameInfo(
        "the-wish", "The Wish", "TheWish", "the_wish", perft_depth=12, hidden_cards=True, optional=True,
        bench=Bench(
            # A game is at most 16 moves, so the timed walks go to its end: deal 154 has the second most winning
            # lines of deals 0-299, deal 3 the fourth. Bulk counting saves nothing on trees this narrow, so both
            # perft paths walk the same trees. The solver runs without its pruning rule, as Royal Marriage's does:
            # with it a deal takes 0-277 nodes; these four take the most without it (deals 0-299). Deal 2 for
            # playouts: its scores run from 12 to a win, deal 1's never win.
            timed=Timed(
                perft_bulk=((3, 16, 3140194), (154, 16, 5748674)),
                make_unmake=((3, 16, 3140194), (154, 16, 5748674)),
                reference=(3, 9, 87205),
                python_loop=(3, 8, 37204),
                solver=((1, 136, 57, 160), 1_000_000, False,
                        (("lost", 842), ("won", 737), ("lost", 704), ("lost", 679))),
                vector_rewards=189_286,
                playouts=(2, 4000),
                threaded_perft=(154, 16, 5_748_674),
                survey=(500, (328, 172)),
            ),
            counted=(
                ("cpp_perft_bulk", (3,), 12, 934705, True, True),
                ("cpp_perft_bulk", (154,), 12, 1418518, False, True),
                ("cpp_make_unmake", (3,), 11, 378268, True, True),
                ("cpp_make_unmake", (154,), 11, 619966, False, True),
                ("reference_perft", (3,), 7, 12119, False, True),
                ("python_loop_over_cpp", (3,), 7, 12119, True, True),
                ("python_loop_over_reference", (3,), 6, 3152, False, True),
                ("solver", (1, 136), 20000, [("lost", 0, 842), ("won", 32, 737)], True, False),
                ("vector_step", (1,), 50, 5942, True, True),
                ("playouts", (2,), 400, 9410, True, True),
                ("python_int_loop", (0,), 3000, (238, 2762, 4), True, True),
                ("survey", (), 20, (10, 10), False, True),
            ),
            signature_depths=(8, 12),
            signature_solve_deals=(1, 2, 3),
        ),
    ),
)
"""Every game the package knows, in the order the command line and reports list them."""


def _built_optional_games() -> Tuple[str, ...]:
    """The optional games the installed engine was built with (the build writes ``_built_games``)."""
    try:
        built = importlib.import_module("patience_engine._built_games")
    except ImportError:  # read from a source tree without a build: no optional game
        return ()
    return tuple(built.OPTIONAL_GAMES)


GAMES: Dict[str, GameInfo] = {info.name: info for info in ENTRIES
                              if not info.optional or info.name in _built_optional_games()}
"""The games of this build by command-line name, in the order of ``ENTRIES``."""
