"""Long C++ calls release the GIL and answer Ctrl-C."""

from __future__ import annotations

import sys
import threading
import time

import pytest

import patience_engine
from conftest import game_data, interrupt_after_first_line

DEAD_GEOFFREY_DEAL = game_data("geoffrey").DEAD_DEAL

LONG_PERFT = """
import sys, patience_engine
state = patience_engine.Germaine.deal(1)
print("ready", flush=True)
try:
    patience_engine.perft(state, 12)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(3)
"""


LONG_PLAYOUTS = """
import sys, patience_engine
state = patience_engine.{position}
print("ready", flush=True)
try:
    patience_engine.playouts(state, 10**8, seed=1)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(3)
"""


@pytest.mark.timing
@pytest.mark.parametrize("script", [LONG_PERFT, LONG_PLAYOUTS.format(position="Germaine.deal(1)"),
                                    LONG_PLAYOUTS.format(position=f"Geoffrey.deal({DEAD_GEOFFREY_DEAL})")],
                         ids=["perft", "playouts", "playouts-of-no-move"])
def test_ctrl_c_stops_a_long_call_within_a_second(script: str) -> None:
    """A playout of no move (a start with none) must poll too: it used to run to the end."""
    result = interrupt_after_first_line([sys.executable, "-c", script])
    assert (result.code, result.stdout.strip()) == (3, "interrupted")
    assert result.seconds < 1.0


def test_perft_releases_the_gil() -> None:
    ticks = 0
    done = threading.Event()

    def count() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    start = time.perf_counter()
    patience_engine.perft(patience_engine.RoyalMarriage.deal(1), 7)
    elapsed = time.perf_counter() - start
    done.set()
    counter.join()
    assert elapsed > 0.05, "the walk must be long enough to tell"
    assert ticks >= 10, f"the main thread ran {ticks} times in {elapsed:.2f} s of perft"
