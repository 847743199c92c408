"""patience-engine: move generation, Zobrist hashing and perft for patience games.

``RoyalMarriage``, ``Germaine`` and ``Geoffrey`` are the C++ engine (the
compiled extension ``patience_engine._core``); ``patience_engine.reference``
holds pure-Python classes of the same names and behaviour. The rules, numbered
deals, text formats and move notation are stated in docs/rules.md.

>>> from patience_engine import RoyalMarriage, perft
>>> row = RoyalMarriage.from_text("QH 3C 9D 2S 3S KH")
>>> row.legal_moves()
[RoyalMarriageMove('9D+2S')]
>>> row.play("9D+2S")
>>> print(row)
QH 3C 3S KH
>>> perft(row, 1), row.is_won
(1, False)
"""

import typing as _typing

# Before anything loads the compiled module: on a CPU without the instruction set it was built for,
# a one-line ImportError rather than a crash on an illegal instruction.
from . import _cpu

_cpu.check()

from . import draw as _draw  # noqa: E402
from ._core import (  # noqa: E402
    BUILD_TYPE,
    MAX_PERFT_DEPTH,
    MAX_THREADS,
    OPTIMIZED,
    SANITIZERS,
    Geoffrey,
    GeoffreyMove,
    Germaine,
    GermaineMove,
    RoyalMarriage,
    RoyalMarriageMove,
    VectorGame,
    __version__,
    perft,
    playouts,
    usable_cores,
)
from ._errors import IllegalMoveError  # noqa: E402
from .games import REGISTRY as _REGISTRY  # noqa: E402
from .reference import pysol as _pysol  # noqa: E402
from .solver import DEFAULT_TABLE_BYTES, Solution, solve  # noqa: E402

GAMES: _typing.Dict[str, _typing.Any] = {name: info.cpp for name, info in _REGISTRY.items()}
"""The C++ game classes by their command-line names (``games.REGISTRY`` has the rest)."""

# PySolFC game numbers and pictures are pure Python, shared with the reference
# (whose package gives its own classes from_pysol; to_svg is attached here, as
# the pictures are drawn by patience_engine.draw, which reads the reference).
for _info in _REGISTRY.values():
    _pysol.install(_info.cpp, _info.name)
    _draw.install(_info.cpp)
    _draw.install(_info.reference)

__all__ = [
    "BUILD_TYPE",
    "DEFAULT_TABLE_BYTES",
    "GAMES",
    "MAX_PERFT_DEPTH",
    "MAX_THREADS",
    "OPTIMIZED",
    "Geoffrey",
    "GeoffreyMove",
    "Germaine",
    "GermaineMove",
    "IllegalMoveError",
    "RoyalMarriage",
    "RoyalMarriageMove",
    "SANITIZERS",
    "VectorGame",
    "Solution",
    "__version__",
    "perft",
    "playouts",
    "solve",
    "usable_cores",
]
