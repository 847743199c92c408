"""What a type checker says of the public API: ``.ci/run`` checks this file with ``mypy --strict``.

Each call here runs (pytest imports nothing from it; ``python tests/typing_api.py`` does). A line
marked ``type: ignore[...]`` must be refused: with ``--strict`` an ignore that is not needed is an
error, so the stubs cannot go back to accepting it unnoticed.
"""

from __future__ import annotations

import numpy as np

import patience_engine as pe
from patience_engine import reference

# numpy integers are ints wherever the engine takes one (deal numbers, seeds, depths).
grid = pe.Germaine.deal(np.int64(1))
seen = grid.determinize(np.uint64(3))
count: int = pe.perft(grid, np.int32(2))
scores = pe.playouts(grid, 3, seed=np.uint64(1))
solution: pe.Solution = pe.solve(pe.Geoffrey.deal(2), node_limit=1000, num_threads=2)
batch = pe.VectorGame("germaine", 2)
batch.reset(seed=np.int64(1))
reference.Germaine.deal(np.int64(1)).determinize(np.uint8(2))
reference.perft(reference.Germaine.deal(1), np.int32(1))
reference.playouts(reference.Germaine.deal(1), 2, seed=np.uint64(1))
reference_batch = reference.VectorGame("germaine", 2)
reference_batch.reset(seed=np.int64(1))
# A list of numpy integers (np.argmax of each mask row: a legal action) is a batch's actions.
batch.step([np.argmax(row) for row in batch.action_masks])
reference_batch.step([np.argmax(row) for row in reference_batch.action_masks])
try:
    reference_batch.step({0, 1})  # type: ignore[arg-type]  # a set has no order to match slots
except TypeError:
    pass
else:
    raise AssertionError("a set of actions is refused")
# A move of the other implementation is played by its text (docs/rl.md "Actions").
pe.Geoffrey.deal(2).play(reference.Geoffrey.deal(2).legal_moves()[0])
reference.Geoffrey.deal(2).play(pe.Geoffrey.deal(2).legal_moves()[0])
assert pe.Germaine.deal(1).is_legal(reference.Germaine.deal(1).legal_moves()[0])
# The reference's classes get from_pysol and to_svg at import, as the engine's do.
layout: reference.Geoffrey = reference.Geoffrey.from_pysol("ms1")
picture: str = reference.Geoffrey.deal(1).to_svg()
engine_picture: str = pe.Geoffrey.from_pysol(1).to_svg(hidden=True)

try:
    class Subclass(pe.RoyalMarriage):  # type: ignore[misc]  # final: pybind11 refuses it as a base
        pass
except TypeError:
    pass
else:
    raise AssertionError("the engine's classes cannot be subclassed")
