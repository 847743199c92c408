"""The games as the engine sees them: ``registry.GAMES`` with each game's C++ class.

A game's facts are written once, in ``registry.py`` (pure Python, which the
reference reads too); this module adds the C++ position class of each, which
the command line, the viewer, the survey, the signature, the tests and the
benchmarks use beside the reference class.

>>> [info.title for info in REGISTRY.values()][:3]
['Royal Marriage', 'Germaine 2-Move', 'Geoffrey']
>>> REGISTRY["geoffrey"].cpp is _core.Geoffrey, REGISTRY["geoffrey"].reference.__module__
(True, 'patience_engine.reference.geoffrey')
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Dict, Iterable, List

from . import _core, reference
from ._shown import repr_text, type_text
from .registry import GAMES as _ENTRIES
from .registry import IMPLEMENTATIONS, GameInfo

__all__ = ["PERFT", "REGISTRY", "TITLES", "GameInfo", "check_game_name", "info_of", "joined", "names_where"]

PERFT: Dict[str, Callable[..., int]] = {"cpp": _core.perft, "reference": reference.perft}
"""Each implementation's perft by the implementation's name (``GameInfo.implementation`` gives its classes)."""
assert tuple(PERFT) == IMPLEMENTATIONS

REGISTRY: Dict[str, GameInfo] = {
    name: dataclasses.replace(info, cpp=getattr(_core, info.class_name)) for name, info in _ENTRIES.items()
}
"""Every game of this build by its command-line name, in the order the command line and reports list them."""

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


def names_where(test: Callable[[GameInfo], bool]) -> List[str]:
    """The names of the games whose entry passes ``test``, in registry order (e.g. those with hidden cards)."""
    return [name for name, info in REGISTRY.items() if test(info)]


def joined(words: Iterable[str], last: str = "and") -> str:
    """Words as a sentence lists them: ``"A"``, ``"A and B"``, ``"A, B and C"``.

    >>> joined(["Royal Marriage", "Germaine 2-Move", "Geoffrey"]), joined(["Geoffrey"], "or")
    ('Royal Marriage, Germaine 2-Move and Geoffrey', 'Geoffrey')
    """
    items = list(words)
    return ", ".join(items[:-1]) + f" {last} " + items[-1] if len(items) > 1 else "".join(items)
