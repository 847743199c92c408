"""bench/compare.py --instructions and bench/instructions.py: checked workloads, the verdict, clear failures.

Fast: nothing here runs valgrind (bench/test_instructions.py shows counts repeat).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, Optional, Sequence

import pytest

from conftest import GAME_NAMES

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import compare  # noqa: E402
import instructions  # noqa: E402
from instructions import Count  # noqa: E402


@pytest.mark.parametrize("workload", instructions.workloads(), ids=[w.name for w in instructions.workloads()])
def test_workload_gives_its_expected_result(workload: instructions.Workload) -> None:
    """Run natively, each counted workload returns what it asserts under callgrind, over a positive node count."""
    job, nodes = instructions.prepare(workload)
    instructions.check(workload, job())
    assert nodes > 0


def test_workload_names_are_unique_and_fit_a_slower_line() -> None:
    names = [w.name for w in instructions.workloads()]
    assert len(set(names)) == len(names)
    for name in names:
        assert compare.declared_slower(f"Slower: {name}: why") == {name: "why"}


def test_python_loop_nodes_are_the_moves_played() -> None:
    """Royal Marriage deal 1 at depth 2: perft 846 leaves below its first-level moves, one play() each."""
    (w,) = [w for w in instructions.workloads() if w.name == "python_loop_over_cpp[royal-marriage-deal1-depth2]"]
    import patience_engine

    first = len(patience_engine.RoyalMarriage.deal(1).legal_moves())
    assert instructions.prepare(w)[1] == first + 846


def test_playouts_nodes_are_the_moves_the_reference_makes() -> None:
    """The same playouts replayed over the reference make as many moves as the workload counts, to the same scores."""
    (w,) = [w for w in instructions.workloads() if w.name == "playouts[royal-marriage-deal1-n400-seed7]"]
    from patience_engine import reference

    scores, moves = instructions.replayed_playouts(reference.RoyalMarriage.deal(1), w.size, instructions.PLAYOUT_SEED)
    assert sum(scores) == w.expected
    assert instructions.prepare(w)[1] == moves


def test_int_loop_nodes_are_the_moves_played() -> None:
    """The int loop's nodes are its moves (its draws less those that start a new deal), as its result says."""
    for w in instructions.workloads():
        if w.path == "python_int_loop":
            last_deal, moves, _ = w.expected
            assert instructions.prepare(w)[1] == moves == w.size - last_deal


def test_check_rejects_a_changed_result() -> None:
    w = instructions.workloads()[0]
    with pytest.raises(AssertionError, match=r"cpp_perft_bulk\[royal-marriage-deal1-depth5\]: got 1"):
        instructions.check(w, 1)
    solver = next(w for w in instructions.workloads() if w.path == "solver")
    instructions.check(solver, [list(r) for r in solver.expected])  # lists or tuples alike
    with pytest.raises(AssertionError):
        instructions.check(solver, [("lost", 0, 1)] * len(solver.expected))


def test_select() -> None:
    quick = instructions.select(quick=True)
    # CI's set: every game's perft, make/unmake walk, solver, Python loops, batched step and playouts.
    for path in ("cpp_perft_bulk", "cpp_make_unmake", "solver", "python_loop_over_cpp", "python_int_loop", "vector_step",
                 "playouts"):
        assert {w.game for w in quick if w.path == path} == set(GAME_NAMES)
    assert [w.name for w in instructions.select(names=["solver[germaine"])] == ["solver[germaine-deals230-limit20000]"]
    assert len(instructions.select()) == len(instructions.workloads())


def test_declared_slower_reads_only_slower_lines() -> None:
    message = ("Solver: try all moves\n\nBody. Slower: not at line start: no\n"
               "Slower: solver[germaine-deals230-limit20000]: every move is now tried\n"
               "Slower:cpp_perft_bulk[geoffrey-deal1-depth10]:  tighter check\nSlower: no-reason:\n")
    assert compare.declared_slower(message) == {
        "solver[germaine-deals230-limit20000]": "every move is now tried",
        "cpp_perft_bulk[geoffrey-deal1-depth10]": "tighter check",
    }
    # A line with no reason took the next line as its reason, and that line's workload was lost.
    assert compare.declared_slower(f"x\n\nSlower: {PERFT}:\nSlower: {SOLVER}: why\nSignature: 7e7b02ec") == {
        SOLVER: "why"}


def test_a_base_whose_counting_run_fails_as_a_whole_is_no_baseline(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every workload then passed as "new" under --allow-new (as CI runs it): no check at all.
    def count_all(python: Path, names: Sequence[str], script: Optional[Path] = None) -> Dict[str, Count]:
        if python.name == "base":
            raise instructions.CountError("the workloads failed under callgrind (exit -11)")
        return {name: Count(10**9, 1) for name in names}

    monkeypatch.setattr(instructions, "count_all", count_all)
    with pytest.raises(compare.CompareError, match=r"^the base's counting run failed as a whole, so nothing can be "
                                                   r"compared: the workloads failed under callgrind \(exit -11\)$"):
        compare.count_sides({"base": Path("base"), "work": Path("work")}, [PERFT], Path("script"))


@pytest.mark.parametrize("args, message", [
    (["--threshold", "nan"], "--threshold must be a finite number >= 0, got nan"),
    (["--threshold", "inf"], "--threshold must be a finite number >= 0, got inf"),
    (["--quick"], "--quick and --accept-slower-from go with --instructions"),
    (["--accept-slower-from", "HEAD"], "--quick and --accept-slower-from go with --instructions"),
])
def test_arguments_that_would_disable_the_check_are_refused(
        args: Sequence[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit:
        compare.main(list(args))
    assert exit.value.code == 2 and message in capsys.readouterr().err


def test_a_bad_workload_filter_or_revision_is_refused_before_building(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compare.shutil, "which", lambda name: "/usr/bin/valgrind")
    monkeypatch.setattr(compare, "export_base", lambda *args: pytest.fail("must not build"))
    assert compare.main(["--instructions", "-k", "no such workload"]) == compare.EXIT_NO_BASELINE
    assert capsys.readouterr().err == "compare.py: no workload matches -k 'no such workload'\n"
    assert compare.main(["--instructions", "--accept-slower-from", "no-such-revision"]) == compare.EXIT_NO_BASELINE
    err = capsys.readouterr().err
    assert err.startswith("compare.py: git log -1 --format=%B no-such-revision failed: ") and err.count("\n") == 1


SOLVER = "solver[germaine-deals230-limit20000]"
PERFT = "cpp_perft_bulk[royal-marriage-deal1-depth5]"


def verdict(work: int, failed: Sequence[str] = (), accepted: Optional[Dict[str, str]] = None) -> int:
    """compare.py's exit code when the Germaine solver workload went from 100,000 instructions to ``work``."""
    base = {SOLVER: Count(100_000, 10), PERFT: Count(1_000, 1_000)}
    now = {SOLVER: Count(work, 10), PERFT: Count(1_000, 1_000)}
    return compare.report_instructions(base, now, list(failed), 1.0, False, accepted or {})


def test_report_fails_past_the_threshold(capsys: pytest.CaptureFixture[str]) -> None:
    assert verdict(101_000) == compare.EXIT_OK  # exactly 1% more is still within
    assert verdict(99_000) == compare.EXIT_OK
    assert verdict(101_001) == compare.EXIT_SLOWER
    out = capsys.readouterr()
    assert "MORE by 1.00%" in out.out and "10,100.1" in out.out  # instructions per node of the working tree
    assert "Slower: <workload>: <reason>" in out.err


def test_report_accepts_a_declared_rise_and_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    assert verdict(120_000, accepted={SOLVER: "moves tried in a new order"}) == compare.EXIT_OK
    assert "(accepted: moves tried in a new order)" in capsys.readouterr().out
    assert verdict(120_000, accepted={PERFT: "another workload"}) == compare.EXIT_SLOWER


def test_report_fails_on_a_failed_or_new_workload() -> None:
    assert verdict(100_000, failed=["solver[geoffrey-deals2-43-limit20000]"]) == compare.EXIT_SLOWER
    base = {PERFT: Count(1_000, 1_000)}
    now = {PERFT: Count(1_000, 1_000), SOLVER: Count(5, 1)}
    assert compare.report_instructions(base, now, [], 1.0, False, {}) == compare.EXIT_NO_BASELINE
    assert compare.report_instructions(base, now, [], 1.0, True, {}) == compare.EXIT_OK


@pytest.mark.parametrize("script, args", [("compare.py", ["--instructions", "--base", "HEAD"]),
                                          ("instructions.py", ["--quick"])])
def test_without_valgrind_one_clear_line_and_a_failure(tmp_path: Path, script: str, args: Sequence[str]) -> None:
    """PATH without valgrind: one line naming valgrind on stderr, a non-zero exit, before any build."""
    env = {"PATH": str(tmp_path)}  # an empty directory: no valgrind, no git, no compiler
    result = subprocess.run([sys.executable, str(BENCH / script), *args], capture_output=True, text=True,
                            env=env, timeout=60)
    assert result.returncode == compare.EXIT_NO_BASELINE
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert "valgrind is not on PATH" in line and "apt-get install valgrind" in line


def test_markdown_table_puts_each_figure_in_its_game_row_and_path_column() -> None:
    titles = {"royal-marriage": "Royal Marriage", "germaine": "Germaine 2-Move"}
    text = instructions.markdown_table({"solver": {"germaine": 4106.14}, "cpp_perft_bulk": {"germaine": 2.94}},
                                       titles)
    header, rule, royal, germaine = text.splitlines()[:4]
    columns = [c.strip() for c in header.strip("|").split("|")]
    cells = [c.strip() for c in germaine.strip("|").split("|")]
    assert cells[0] == "Germaine 2-Move" and len(cells) == len(columns) == len(instructions.PER) + 1
    assert cells[columns.index("solver")] == "4,106" and cells[columns.index("C++ bulk perft")] == "2.9"
    assert set(royal.strip("|").split("|")[1:]) == {" - "}


def test_a_benchmark_filter_that_matches_none_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    # It gave an internal-error traceback (pytest-benchmark's warning under filterwarnings=error),
    # then "FAIL: the suite failed on the working tree", as if something had got slower.
    assert compare.main(["--save", "unused", "-k", "nosuchbenchmark"]) == compare.EXIT_NO_BASELINE
    assert capsys.readouterr().err == "compare.py: no benchmark matches -k 'nosuchbenchmark'\n"
    assert compare.main(["--save", "unused", "-k", "no such benchmark"]) == compare.EXIT_NO_BASELINE
    assert capsys.readouterr().err.endswith(
        "compare.py: pytest refused the arguments (-k 'no such benchmark'?): see its message above\n")


def _processes_mentioning(text: str) -> list:
    """Pids of the processes whose command line contains ``text`` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                if text.encode() in handle.read():
                    found.append(int(entry))
        except (ValueError, OSError):
            continue
    return found


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="finds the build's processes in /proc")
def test_sigterm_during_a_build_stops_it_and_removes_the_builds(tmp_path: Path) -> None:
    # SIGTERM (timeout, a cancelled CI job) left the 500 MB work directory, and Ctrl-C to compare.py
    # alone left pip's compilers building into it.
    with subprocess.Popen([sys.executable, str(BENCH / "compare.py"), "--instructions", "--base", "HEAD",
                           "-k", "playouts[germaine"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True) as child:
        assert child.stdout is not None
        workdir = None
        deadline = time.monotonic() + 120
        for line in child.stdout:
            found = re.search(r"snapshot in (\S+)/work$", line.strip())
            workdir = workdir or (found and found.group(1))
            if workdir and " pip install " in line:
                break
            assert time.monotonic() < deadline, "the build must start"
        assert workdir is not None
        time.sleep(3)  # pip is building
        child.send_signal(signal.SIGTERM)
        assert child.wait(timeout=30) == 128 + signal.SIGTERM
    assert not os.path.exists(workdir)
    deadline = time.monotonic() + 5
    while _processes_mentioning(workdir) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _processes_mentioning(workdir) == []
