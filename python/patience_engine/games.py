"""The registry of the games: everything the package knows per game, in one entry each.

``REGISTRY`` maps each command-line name to a ``GameInfo``: the title, the
C++ class, the reference class, the picture drawer, the PySolFC game id and
the fixed workloads of the bench signature. The command line, the solution
viewer, the pictures, the signature, the survey, the tests and the
benchmarks all read it, so a new game is added here once (beside its C++
class, its reference class and its drawer).

>>> [info.title for info in REGISTRY.values()]
['Royal Marriage', 'Germaine 2-Move', 'Geoffrey']
>>> REGISTRY["geoffrey"].pysol_id, REGISTRY["germaine"].pysol_id
(492, None)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional, Tuple, Type

from . import _core, draw, reference
from ._shown import repr_text, type_text
from .reference import pysol


@dataclass(frozen=True)
class GameInfo:
    """One game as every layer of the package sees it."""

    name: str
    """Command-line name, e.g. ``"royal-marriage"``; the key of ``REGISTRY`` and of ``reference.GAMES``."""
    title: str
    """The game's name as headings print it, e.g. ``"Royal Marriage"``."""
    cpp: Type[Any]
    """The C++ position class (``patience_engine._core``)."""
    picture: Callable[[Any, Optional[Any], bool], str]
    """Draws a reference position as SVG: an optional move (of the reference) highlighted, and hidden:
    as the player sees it."""
    perft_depth: int
    """Default depth of ``patience perft``: the reference needs a few seconds on deal 1."""
    signature_depths: Tuple[int, int]
    """Bench signature: a depth the reference walks quickly, and a deeper one for the C++ engine."""
    signature_solve_deals: Tuple[int, ...]
    """Bench signature: the numbered deals solved under its node limit."""
    played_for_score: bool = False
    """True when the game is played for the best score, not only won or lost (Germaine 2-Move)."""

    @property
    def reference(self) -> Type[Any]:
        """The pure-Python reference class (``patience_engine.reference.GAMES[name]``)."""
        return reference.GAMES[self.name]

    @property
    def pysol_id(self) -> Optional[int]:
        """PySolFC's own game id, or None when PySolFC lacks the game.

        The reference's ``pysol`` module keeps the ids: its ``from_pysol`` needs them.
        """
        return pysol.PYSOL_GAME_IDS.get(self.name)

    def implementation(self, name: str) -> Type[Any]:
        """The position class of implementation ``name`` (a key of ``PERFT``); raises KeyError for another name."""
        if name not in PERFT:
            raise KeyError(name)
        cls: Type[Any] = getattr(self, name)
        return cls


PERFT: Dict[str, Callable[..., int]] = {"cpp": _core.perft, "reference": reference.perft}
"""Each implementation's perft by the implementation's name (``GameInfo.implementation`` gives its classes)."""


REGISTRY: Dict[str, GameInfo] = {
    info.name: info
    for info in (
        GameInfo("royal-marriage", "Royal Marriage", _core.RoyalMarriage, draw.royal_marriage_svg,
                 perft_depth=5, signature_depths=(3, 5), signature_solve_deals=(1, 3)),
        GameInfo("germaine", "Germaine 2-Move", _core.Germaine, draw.germaine_svg,
                 perft_depth=4, signature_depths=(3, 5), signature_solve_deals=(1, 15), played_for_score=True),
        GameInfo("geoffrey", "Geoffrey", _core.Geoffrey, draw.geoffrey_svg,
                 perft_depth=8, signature_depths=(5, 10), signature_solve_deals=(1, 2, 16)),
    )
}
"""Every game by its command-line name, in the order the command line and reports list them."""

TITLES: Dict[str, str] = {name: info.title for name, info in REGISTRY.items()}
"""The games' titles by command-line name."""


def check_game_name(game: object) -> str:
    """``game`` when it is a name of ``REGISTRY``; TypeError for anything but a str, ValueError
    naming the names for an unknown one."""
    if not isinstance(game, str):
        raise TypeError(f"game must be a str, got {type_text(game)}")
    if game not in REGISTRY:
        raise ValueError(f"unknown game {repr_text(game)}: expected one of {', '.join(map(repr, REGISTRY))}")
    return game


def info_of(state: Any) -> GameInfo:
    """The registry entry of a position of either implementation; raises KeyError for another object."""
    for info in REGISTRY.values():
        if isinstance(state, (info.cpp, info.reference)):
            return info
    raise KeyError(type(state).__name__)
