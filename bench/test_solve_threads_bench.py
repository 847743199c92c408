"""bench/solve_threads.py runs and checks its results (two short deals, one round): the figures need a
quiet machine and some minutes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import solve_threads
from patience_engine import Germaine, solve


def test_solve_threads_script_times_and_checks_its_deals(capsys: pytest.CaptureFixture[str]) -> None:
    assert solve_threads.main(["--quick", "--threads", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "usable cores" in lines[0]
    assert lines[1].split("|")[5].strip() == "3 threads (s)"
    assert [line.split("|")[2].strip() for line in lines[3:5]] == ["96", "2"]
    assert lines[5].startswith("median speed-up ")


def test_a_wrong_verdict_is_caught() -> None:
    solution = solve(Germaine.deal(96))
    with pytest.raises(AssertionError, match=r"\('won', 64\) on several threads, \('won', 63\) on one"):
        solve_threads.checked("germaine", 96, solution, ("won", 63))
    with pytest.raises(AssertionError, match="did not run to the end"):
        solve_threads.checked("germaine", 96, solve(Germaine.deal(890), node_limit=1000), None)


def test_the_scan_lists_the_deals_that_last(capsys: pytest.CaptureFixture[str]) -> None:
    # Deal 96 ends within some thousand nodes and a second; deal 890 is stopped at its first poll.
    assert solve_threads.main(["--scan", "germaine", "96-96", "--scan-nodes", "1000"]) == 0
    assert capsys.readouterr().out == ""
    assert solve_threads.main(["--scan", "germaine", "890-890", "--scan-nodes", "1000"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(row["deal"], row["stopped"]) for row in rows] == [(890, True)]


def test_the_docs_list_the_hard_deals_of_the_script() -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "solver.md").read_text(encoding="utf-8")
    listed = text[text.index("### The hard deals"):text.index("### Why a verdict cannot be wrong")]
    paragraph = listed[listed.index("`bench/solve_threads.py`:"):]
    first = paragraph.split("\n\n")[1]
    deals = tuple(int(n) for n in re.findall(r"\b\d+\b", first.split(" (")[0]))
    assert deals == solve_threads.HARD_DEALS["germaine"]
    assert f"The {len(deals)}, `HARD_DEALS`" in listed
