"""Pure-Python reference implementation of the three games (stdlib only).

The readable statement of the rules in ``docs/rules.md``, and the baseline the
C++ engine is checked and timed against: same moves, texts, Zobrist keys,
scores and perft counts, bit for bit.

- ``RoyalMarriage`` / ``RoyalMarriageMove``: docs/rules.md "Royal Marriage".
- ``Germaine`` / ``GermaineMove``: docs/rules.md "Germaine 2-Move".
- ``Geoffrey`` / ``GeoffreyMove``: docs/rules.md "Geoffrey".
- ``perft(state, depth)``: docs/rules.md "Perft".
- ``GAMES``: game name (``'royal-marriage'``, ``'germaine'``, ``'geoffrey'``) -> class.
- ``pysol``: PySolFC game numbers, behind each class's ``from_pysol(number)``
  (``Germaine.from_pysol`` raises ValueError: PySolFC has no such game).

>>> g = Germaine.deal(1)
>>> perft(g, 2)
724
"""

from typing import Any, Dict, Type

from .._errors import IllegalMoveError
from . import pysol
from ._base import MAX_PERFT_DEPTH, Game, perft
from .geoffrey import Geoffrey, GeoffreyMove
from .germaine import Germaine, GermaineMove
from .royal_marriage import RoyalMarriage, RoyalMarriageMove

GAMES: Dict[str, Type[Game[Any]]] = {
    "royal-marriage": RoyalMarriage,
    "germaine": Germaine,
    "geoffrey": Geoffrey,
}
"""The reference game classes by name."""

for _game, _cls in GAMES.items():
    pysol.install(_cls, _game)

__all__ = [
    "GAMES",
    "Geoffrey",
    "GeoffreyMove",
    "Germaine",
    "GermaineMove",
    "IllegalMoveError",
    "MAX_PERFT_DEPTH",
    "RoyalMarriage",
    "RoyalMarriageMove",
    "perft",
]
