"""Instruction counts of one build repeat: two callgrind runs agree within 0.05% or 5,000 instructions,
whichever is more, on every kind of workload (runs seen differ by under 0.02%, but for one run of the small
Python loop, 2.85 M instructions, 1,968 below the next: a hand-over between threads can move a few thousand
instructions, a fixed cost that is a larger share of a small count; CI's compare fails past 1%).

Some tens of seconds of valgrind, so it lives in bench/ (CI runs it with
``--benchmark-disable``) and is skipped where the suite is timed.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import instructions


def test_a_filter_no_workload_matches_is_named() -> None:
    result = subprocess.run([sys.executable, str(Path(instructions.__file__)), "-k", "no such workload"],
                            capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stderr) == (2, "instructions.py: no workload matches -k 'no such workload'\n")

# One small workload per kind of code: C++ make/unmake, the C++ solver, a loop in Python over the C++ API.
REPEATED = ["cpp_make_unmake[germaine-deal1-depth4]", "solver[geoffrey-deals2-43-limit20000]",
            "python_loop_over_cpp[royal-marriage-deal1-depth2]"]


def test_counts_of_one_build_repeat(request: pytest.FixtureRequest) -> None:
    if not request.config.getoption("benchmark_disable"):
        pytest.skip("runs with --benchmark-disable (as CI does); in timed runs it would only add a minute")
    if shutil.which("valgrind") is None:
        pytest.skip(instructions.VALGRIND_MISSING)
    first, second = (instructions.count_all(Path(sys.executable), REPEATED) for _ in range(2))
    for name in REPEATED:
        a, b = first[name], second[name]
        assert isinstance(a, instructions.Count) and isinstance(b, instructions.Count), (a, b)
        assert a.nodes == b.nodes
        assert abs(a.instructions - b.instructions) <= max(a.instructions * 5 / 10_000, 5_000), (name, a, b)
