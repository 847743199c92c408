"""bench/threads.py runs and checks its results (small sizes, one round): the figures need a quiet machine."""

from __future__ import annotations

import pytest

import threads
from patience_engine.games import REGISTRY


def test_threads_script_times_every_workload_of_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert threads.main(["--quick", "--threads", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "usable cores" in lines[0]
    assert lines[1].split("|")[4].strip() == "3 threads (s)"
    rows = [line.split("|")[1:3] for line in lines[3:]]
    assert [game.strip() for game, _ in rows] == [REGISTRY[g].title for g in REGISTRY for _ in range(4)]
    assert all(workload.strip().endswith(", 3 processes") for _, workload in rows[3::4])


def test_a_wrong_threaded_result_is_caught() -> None:
    with pytest.raises(AssertionError, match="perft on 2 threads: 5, expected 4"):
        threads.check_same({1: [4], 2: [5]}, "perft")
