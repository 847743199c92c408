"""Pure-Python reference implementation of the games (stdlib only).

The readable statement of the rules in ``docs/rules.md``, and the baseline the
C++ engine is checked and timed against: same moves, texts, Zobrist keys,
scores and perft counts, bit for bit.

- ``RoyalMarriage`` / ``RoyalMarriageMove``: docs/rules.md "Royal Marriage".
- ``Germaine`` / ``GermaineMove``: docs/rules.md "Germaine 2-Move".
- ``Geoffrey`` / ``GeoffreyMove``: docs/rules.md "Geoffrey".
- ``perft(state, depth)``: docs/rules.md "Perft".
- Integer actions, legal-action masks, observations, Geoffrey's hidden view and
  ``determinize(seed)`` on every game class: docs/rl.md.
- ``VectorGame(game, num_envs)``: a batch of positions stepped together, and
  ``playouts(state, n, seed=...)``: the final scores of n random games (docs/rl.md
  "Episodes"); the C++ engine has both under the same names.
- ``GAMES``: game name (``'royal-marriage'``, ``'germaine'``, ...) -> class, for every game of
  the registry.
- ``pysol``: PySolFC game numbers, behind each class's ``from_pysol(number)``
  (``Germaine.from_pysol`` raises ValueError: PySolFC has no such game).

>>> g = Germaine.deal(1)
>>> perft(g, 2)
724
>>> f = Geoffrey.deal(2)
>>> f.legal_actions(), [str(Geoffrey.move_of(a)) for a in f.legal_actions()]
([27, 258, 332, 1518], ['1:4C>5', '1:7H>4', '1:3S>6', '4:8H>8'])
>>> f.to_text(hidden=True).splitlines()[5]
'(??) (??) (??) (??) AS 5C'
"""

from typing import Any, Dict, Type

from .._errors import IllegalMoveError
from ..registry import GAMES as _ENTRIES
from . import pysol
from ._base import MAX_PERFT_DEPTH, Game, perft
from .geoffrey import Geoffrey, GeoffreyMove
from .germaine import Germaine, GermaineMove
from .royal_marriage import RoyalMarriage, RoyalMarriageMove
from .vector import VectorGame, playouts

GAMES: Dict[str, Type[Game[Any]]] = {name: info.reference for name, info in _ENTRIES.items()}
"""The reference game classes by command-line name (``registry.GAMES`` has the rest of each game's facts)."""

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
    "VectorGame",
    "perft",
    "playouts",
]
