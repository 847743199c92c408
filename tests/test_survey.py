"""Surveys: resumable, durable rows in SQLite, local and Dask runs alike, and the report."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import random
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, Iterator, List, Set, Tuple

import pytest

from conftest import child_defaults, stored_engine_versions, to_old_form
from patience_engine import survey
from patience_engine.cli import main
from patience_engine.signature import engine_version
from patience_engine.survey import Row, SurveyFileError

# Small limits keep every deal quick; the rows still mix won, lost and unknown.
NODE_LIMIT = 3000
TABLE_BYTES = 1 << 16
SETTINGS: Dict[str, Any] = dict(node_limit=NODE_LIMIT, table_bytes=TABLE_BYTES, progress=False)


def without_seconds(rows: List[Row]) -> List[Row]:
    """Rows with the one field that differs between runs blanked, in deal order."""
    return sorted((row._replace(seconds=0.0) for row in rows), key=lambda row: (row.settings, row.deal))


def survey_cli(*args: str) -> List[str]:
    return [sys.executable, "-m", "patience_engine.cli", "survey", *args, "--table-bytes", str(TABLE_BYTES)]


def row_count(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            return int(connection.execute("SELECT count(*) FROM deals").fetchone()[0])
        finally:
            connection.close()
    except sqlite3.Error:  # the file is being created under us
        return 0


def test_parse_deal_range() -> None:
    assert survey.parse_deal_range("3-7") == range(3, 8)
    assert survey.parse_deal_range("5") == range(5, 6)
    assert survey.parse_deal_range("007-010") == range(7, 11)
    assert survey.parse_deal_range(f"0-{(1 << 63) - 1}") == range(0, 1 << 63)
    for bad in ["7-3", "a-b", "-1", "1-", "", str(1 << 63), "1-2-3"]:
        with pytest.raises(ValueError):
            survey.parse_deal_range(bad)


@pytest.mark.parametrize("deals", ["0x10-0x11", "5_0", "\u0663-\u0664", " 1-2", "1 - 2", "+1-2", "1-+2", "1e3"])
def test_deal_ranges_are_plain_decimal_digits(deals: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match="deal number must be written with the digits 0-9 alone"):
        survey.parse_deal_range(deals)
    with pytest.raises(SystemExit) as exit_info:
        main(["survey", "royal-marriage", f"--deals={deals}"])
    assert exit_info.value.code == 2
    assert f"--deals: deal range must be A-B or N, got {deals!r}: deal number must be written" in capsys.readouterr().err


@pytest.mark.parametrize("option, value, message", [
    ("--node-limit", str(10**30), "node limit must be in 1 .. 2**63-1"),
    ("--node-limit", str(1 << 63), "node limit must be in 1 .. 2**63-1"),
    ("--node-limit", "0", "node limit must be in 1 .. 2**63-1"),
    ("--table-bytes", str(10**30), "table bytes must be in 0 .. 2**63-1"),
    ("--table-bytes", str(1 << 63), "table bytes must be in 0 .. 2**63-1"),
    ("--table-bytes", "-1", "table bytes must be written with the digits 0-9 alone"),
    ("--jobs", "0", "jobs must be >= 1"),
])
def test_limits_out_of_range_are_refused_before_the_file_is_made(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str, message: str) -> None:
    db = tmp_path / "s.sqlite"
    with pytest.raises(SystemExit) as exit_info:
        main(["survey", "royal-marriage", "--deals", "1-2", "--db", str(db), f"{option}={value}"])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("limits", [dict(node_limit=1 << 63), dict(table_bytes=1 << 63)])
def test_run_survey_refuses_limits_sqlite_cannot_store(tmp_path: Path, limits: Dict[str, int]) -> None:
    with pytest.raises(ValueError, match="must be in"):
        survey.run_survey("royal-marriage", range(1, 3), db=str(tmp_path / "s.sqlite"),
                          **dict(SETTINGS, **limits))
    assert list(tmp_path.iterdir()) == []


def test_run_survey_refuses_an_empty_range(tmp_path: Path) -> None:
    # It reported solved=-4 for range(5, 1) and made the file; the command line refuses 5-1 alike.
    with pytest.raises(ValueError, match=r"^deals must be a contiguous range of at least one deal .*, got range\(5, 1\)$"):
        survey.run_survey("royal-marriage", range(5, 1), db=str(tmp_path / "s.sqlite"), **SETTINGS)
    assert list(tmp_path.iterdir()) == []


def test_more_jobs_than_deals_start_one_process_a_deal(tmp_path: Path) -> None:
    # 100,000 jobs for 2 deals started processes one by one for minutes.
    start = time.perf_counter()
    most = survey.JOBS_PER_CPU * survey.default_jobs()
    run = survey.run_survey("royal-marriage", range(1, 3), db=str(tmp_path / "s.sqlite"), **dict(SETTINGS, jobs=most))
    assert run.solved == 2 and time.perf_counter() - start < 60


def test_more_jobs_than_the_cpus_can_run_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # --jobs 100000 --deals 1-100000 started 100,000 processes, each with a table of its own.
    most = survey.JOBS_PER_CPU * survey.default_jobs()
    with pytest.raises(ValueError, match=rf"^jobs must be at most {most}, 4 solving threads for each of the "
                                         rf"{survey.default_jobs()} CPUs .* on one thread\), got {most + 1}$"):
        survey.run_survey("royal-marriage", range(1, 3), db=str(tmp_path / "s.sqlite"), **dict(SETTINGS, jobs=most + 1))
    # Each deal on 2 threads: half the processes.
    with pytest.raises(ValueError, match=rf"^jobs must be at most {most // 2}, .* on 2 threads\), got {most // 2 + 1}$"):
        survey.run_survey("royal-marriage", range(1, 3), db=str(tmp_path / "s.sqlite"),
                          **dict(SETTINGS, jobs=most // 2 + 1, threads=2))
    assert main(["survey", "royal-marriage", "--deals", "1-2", "--jobs", "1", "--scheduler", "tcp://127.0.0.1:1",
                 "--db", str(tmp_path / "s.sqlite")]) == 2
    assert capsys.readouterr().err == ("patience: error: give jobs (local processes) or scheduler (a Dask cluster), "
                                       "not both\n")
    assert list(tmp_path.iterdir()) == []


def test_a_survey_failing_early_keeps_a_new_file_another_survey_has_opened(tmp_path: Path) -> None:
    # The first survey of a new file, failing before its first row, removed the file a second
    # survey had opened meanwhile: the second's rows went to a file no longer there.
    db = str(tmp_path / "s.sqlite")
    first = survey.claim_database(db)
    second = survey.claim_database(db)
    assert first.created and not second.created
    survey.release_database(first, failed=True)
    assert os.path.exists(db)
    survey.insert_rows(second.connection, [Row("germaine", 1, "won", 64, 1, 0.1, "a1xa2", True, "v", 1, 1)])
    survey.release_database(second, failed=False)
    assert [row.deal for row in survey.read_rows(db)] == [1]
    alone = survey.claim_database(str(tmp_path / "t.sqlite"))
    survey.release_database(alone, failed=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.sqlite"], "alone, it leaves nothing"


def test_a_database_named_by_a_link_to_a_missing_file_makes_that_file(tmp_path: Path) -> None:
    # The lock's check went round for ever (the link exists, its file does not), a core busy.
    link = tmp_path / "link.sqlite"
    link.symlink_to("target.sqlite")
    run = survey.run_survey("royal-marriage", range(1, 3), db=str(link), jobs=1, **SETTINGS)
    assert run.solved == 2 and link.is_symlink()
    assert [row.deal for row in survey.read_rows(str(tmp_path / "target.sqlite"))] == [1, 2]
    dangling = tmp_path / "dangling.sqlite"
    dangling.symlink_to("missing-directory/x.sqlite")
    with pytest.raises(FileNotFoundError):
        survey.run_survey("royal-marriage", range(1, 3), db=str(dangling), jobs=1, **SETTINGS)
    assert dangling.is_symlink() and sorted(p.name for p in tmp_path.iterdir()) == [
        "dangling.sqlite", "link.sqlite", "target.sqlite"]


def test_a_signal_without_a_name_is_given_by_number() -> None:
    # A worker killed by a real-time signal gave "40 is not a valid Signals".
    from patience_engine.survey import execution
    assert (execution._signal_name(9), execution._signal_name(40)) == ("SIGKILL", "signal 40")


def test_a_database_name_that_sqlite_could_read_as_a_uri_names_that_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # --db file:b.sqlite was checked as ./file:b.sqlite and written as ./b.sqlite; :memory: crashed.
    monkeypatch.chdir(tmp_path)
    for name in ["file:b.sqlite", ":memory:"]:
        survey.run_survey("royal-marriage", range(1, 3), db=name, jobs=1, **SETTINGS)
        assert [row.deal for row in survey.read_rows(name)] == [1, 2]
    assert sorted(p.name for p in tmp_path.iterdir()) == [":memory:", "file:b.sqlite"]


def test_survey_progress_is_shown_only_when_asked_or_on_a_terminal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from patience_engine import cli
    for forced, deals in [(None, "1-2"), ("0", "3-4"), ("1", "5-6")]:
        if forced is None:
            monkeypatch.delenv(cli.PROGRESS_ENV, raising=False)  # stderr is no terminal here
        else:
            monkeypatch.setenv(cli.PROGRESS_ENV, forced)
        assert main(["survey", "royal-marriage", "--deals", deals, "--jobs", "1", "--db", str(tmp_path / "s.sqlite")]) == 0
        assert ("royal-marriage" in capsys.readouterr().err) == (forced == "1")


def test_a_table_too_big_for_memory_is_a_clear_error_and_leaves_no_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.sqlite"
    assert main(["survey", "royal-marriage", "--deals", "1-2", "--jobs", "1", "--db", str(db),
                 "--table-bytes", str(10**18)]) == 2
    assert "out of memory (transposition table of 1,000,000,000,000,000,000 bytes)" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_an_unreachable_scheduler_is_a_clear_error_and_leaves_no_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dask = pytest.importorskip("dask")
    pytest.importorskip("dask.distributed")
    db = tmp_path / "s.sqlite"
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        assert main(["survey", "royal-marriage", "--deals", "1-2", "--db", str(db),
                     "--scheduler", "tcp://127.0.0.1:1"]) == 2
    assert "patience: error: Timed out trying to connect to tcp://127.0.0.1:1" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_a_failed_run_keeps_a_file_it_did_not_make(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    survey.open_database(str(db), create=True).close()
    with pytest.raises(MemoryError):
        survey.run_survey("royal-marriage", range(1, 3), db=str(db), jobs=1, **dict(SETTINGS, table_bytes=10**18))
    assert survey.read_rows(str(db)) == []


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_a_new_database_gets_the_mode_of_any_new_file(tmp_path: Path, umask: int, mode: int) -> None:
    db = tmp_path / "s.sqlite"
    old = os.umask(umask)
    try:
        survey.run_survey("royal-marriage", range(1, 2), db=str(db), jobs=1, **SETTINGS)
    finally:
        os.umask(old)
    assert db.stat().st_mode & 0o777 == mode


def test_rows_of_the_old_engine_version_form_are_read_as_the_same_engine_and_upgraded(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.sqlite"
    survey.run_survey("royal-marriage", range(1, 4), db=str(db), jobs=1, **SETTINGS)
    rows = survey.read_rows(str(db))
    version = engine_version("royal-marriage")
    to_old_form(db, "deals", 3)
    assert stored_engine_versions(db, "deals") == (3, {"0.1.0+" + version[3:]})
    assert survey.read_rows(str(db)) == rows
    assert main(["report", str(db)]) == 0
    assert f"engine {version}," in capsys.readouterr().out
    assert stored_engine_versions(db, "deals")[0] == 3, "reading leaves the file as it was"
    run = survey.run_survey("royal-marriage", range(1, 5), db=str(db), jobs=1, **SETTINGS)
    assert (run.solved, run.skipped, run.other_settings) == (1, 3, ()), "the old rows are this engine's"
    assert survey.read_rows(str(db))[:3] == rows
    assert stored_engine_versions(db, "deals") == (survey.SCHEMA_VERSION, {version})


def test_a_database_in_a_missing_directory_is_named_as_given(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "missing" / "s.sqlite"
    assert main(["survey", "royal-marriage", "--deals", "1-2", "--jobs", "1", "--db", str(db)]) == 2
    assert capsys.readouterr().err == f"patience: error: [Errno 2] No such file or directory: '{db}'\n"


def test_rows_are_the_solver_results_and_a_rerun_skips_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "s.sqlite"
    first = survey.run_survey("royal-marriage", range(1, 7), db=str(db), jobs=1, **SETTINGS)
    assert (first.solved, first.skipped) == (6, 0)
    rows = survey.read_rows(str(db))
    assert [row.deal for row in rows] == [1, 2, 3, 4, 5, 6]
    for row in rows:
        assert row == survey.solve_deal("royal-marriage", row.deal, NODE_LIMIT, TABLE_BYTES)._replace(
            seconds=row.seconds)
        assert (row.engine_version, row.node_limit, row.table_bytes) == (engine_version(row.game), NODE_LIMIT, TABLE_BYTES)

    solved: List[int] = []
    real = survey.solve_deal

    def recording(game: str, deal: int, node_limit: int, table_bytes: int, threads: int) -> Row:
        solved.append(deal)
        return real(game, deal, node_limit, table_bytes, threads)

    monkeypatch.setattr(survey.execution, "solve_deal", recording)
    second = survey.run_survey("royal-marriage", range(4, 9), db=str(db), jobs=1, **SETTINGS)
    assert (second.solved, second.skipped, solved) == (2, 3, [7, 8])
    assert survey.read_rows(str(db))[:6] == rows, "done rows are left as they were"


def test_a_survey_killed_part_way_resumes_to_the_same_rows(tmp_path: Path) -> None:
    # Germaine deals all take about the same time at one node limit: ~10 ms each here, long
    # enough for the kill to land part way, short enough for a quick test.
    deals, limit = "1-60", 100_000
    whole = tmp_path / "whole.sqlite"
    survey.run_survey("germaine", survey.parse_deal_range(deals), db=str(whole), jobs=1,
                      **dict(SETTINGS, node_limit=limit))
    expected = without_seconds(survey.read_rows(str(whole)))
    command = survey_cli("germaine", "--deals", deals, "--node-limit", str(limit), "--jobs", "2")

    killed = tmp_path / "killed.sqlite"
    # Its own session, so that kill -9 of the group takes the worker processes too.
    child = subprocess.Popen([*command, "--db", str(killed)], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while row_count(killed) < 3 and child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
    finally:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
    partial = row_count(killed)
    assert 3 <= partial < 60, f"the kill must land part way ({partial} of 60 rows)"

    resumed = subprocess.run([*command, "--db", str(killed)], capture_output=True, text=True, check=True)
    assert f"already in {killed} {partial}" in resumed.stdout
    assert without_seconds(survey.read_rows(str(killed))) == expected
    assert sorted(p.name for p in tmp_path.iterdir()) == ["killed.sqlite", "whole.sqlite"]


def _descendants(pid: int, depth: int = 1 << 30) -> Set[int]:
    """The processes below ``pid``: its children, theirs and so on to ``depth`` levels (from /proc)."""
    parents: Dict[int, int] = {}
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as stat:
                parents[int(entry)] = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (ValueError, OSError):  # not a process, or one that ended meanwhile
            continue
    found: Set[int] = set()
    level = {pid}
    for _ in range(depth):
        level = {child for child, parent in parents.items() if parent in level}
        if not level:
            break
        found |= level
    return found


def _running(pids: Set[int]) -> Set[int]:
    """Those of ``pids`` that have not exited (a zombie has: it only waits to be reaped)."""
    running = set()
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] != "Z":
                    running.add(pid)
        except OSError:
            continue
    return running


@contextlib.contextmanager
def _slow_survey(tmp_path: Path) -> Iterator[Tuple["subprocess.Popen[bytes]", Set[int]]]:
    """A three-worker Germaine survey of deals 712-714, once deal 713 is in its database, and its processes.

    Deal 713 is won in about 2,000 nodes; 712 and 714 would run for minutes at this node limit: two
    workers are in the middle of a deal, one waits for work. The survey has its own process group,
    which is killed after.
    """
    with open(tmp_path / "stderr.txt", "wb") as stderr:
        child = subprocess.Popen(survey_cli("germaine", "--deals", "712-714", "--jobs", "3", "--node-limit",
                                            str(10**9), "--db", str(tmp_path / "s.sqlite")),
                                 stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True,
                                 preexec_fn=child_defaults)
    try:
        deadline = time.monotonic() + 30
        while row_count(tmp_path / "s.sqlite") < 1:
            assert child.poll() is None and time.monotonic() < deadline, "deal 713 must be solved first"
            time.sleep(0.01)
        processes = _descendants(child.pid)
        assert len(processes) >= 3, "three workers (and a fork server, a resource tracker)"
        yield child, processes
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)
        child.wait()


def _wait_until_gone(processes: Set[int]) -> None:
    deadline = time.monotonic() + 5
    while _running(processes) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not _running(processes), "the workers (and the fork server) end with the survey"


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="finds the worker processes in /proc")
@pytest.mark.parametrize("group", [True, False], ids=["ctrl-c-to-group", "sigint-to-parent"])
@pytest.mark.timing
def test_ctrl_c_ends_a_multi_worker_survey_at_once(tmp_path: Path, group: bool) -> None:
    with _slow_survey(tmp_path) as (child, processes):
        sent = time.monotonic()
        if group:  # as a terminal sends Ctrl-C
            os.killpg(child.pid, signal.SIGINT)
        else:
            child.send_signal(signal.SIGINT)
        code = child.wait(timeout=10)
        seconds = time.monotonic() - sent
        _wait_until_gone(processes)
    stderr = (tmp_path / "stderr.txt").read_text()
    assert (code, seconds < 1) == (130, True), f"exit {code} after {seconds:.2f} s"
    assert stderr.endswith("interrupted\n") and "Traceback" not in stderr
    assert [row.deal for row in survey.read_rows(str(tmp_path / "s.sqlite"))] == [713]


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="finds the worker processes in /proc")
@pytest.mark.parametrize("group", [True, False], ids=["sigterm-to-group", "sigterm-to-parent"])
@pytest.mark.timing
def test_sigterm_ends_a_multi_worker_survey_as_ctrl_c_does(tmp_path: Path, group: bool) -> None:
    """What timeout, systemd (to the whole group) and Kubernetes send: the rows stay, the workers end
    without a word, exit 143."""
    with _slow_survey(tmp_path) as (child, processes):
        sent = time.monotonic()
        if group:
            os.killpg(child.pid, signal.SIGTERM)
        else:
            child.send_signal(signal.SIGTERM)
        code = child.wait(timeout=10)
        seconds = time.monotonic() - sent
        _wait_until_gone(processes)
    assert (code, seconds < 1) == (143, True), f"exit {code} after {seconds:.2f} s"
    assert (tmp_path / "stderr.txt").read_text() == "terminated\n"
    assert [row.deal for row in survey.read_rows(str(tmp_path / "s.sqlite"))] == [713]


def test_sigterm_while_a_silent_scheduler_is_awaited_leaves_no_file(tmp_path: Path) -> None:
    """The scheduler takes the connection and never answers; SIGTERM removes the empty file (and its
    -wal and -shm) as Ctrl-C does."""
    pytest.importorskip("dask.distributed")
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        db = tmp_path / "s.sqlite"
        with open(tmp_path / "stderr.txt", "wb") as stderr:
            child = subprocess.Popen(survey_cli("royal-marriage", "--deals", "1-2", "--db", str(db), "--scheduler",
                                                f"tcp://127.0.0.1:{silent.getsockname()[1]}"),
                                     stdout=subprocess.DEVNULL, stderr=stderr, preexec_fn=child_defaults)
        try:
            silent.settimeout(30)
            connection, _ = silent.accept()  # the survey has made its file and waits for an answer
            with connection:
                time.sleep(0.2)
                child.send_signal(signal.SIGTERM)
                code = child.wait(timeout=10)
        finally:
            child.kill()
            child.wait()
    assert (code, (tmp_path / "stderr.txt").read_text()) == (143, "terminated\n")
    assert [path.name for path in tmp_path.iterdir()] == ["stderr.txt"]


def test_the_command_leaves_sigterm_as_it_found_it(capsys: pytest.CaptureFixture[str]) -> None:
    before = signal.getsignal(signal.SIGTERM)
    assert main(["deal", "royal-marriage", "1"]) == 0
    assert signal.getsignal(signal.SIGTERM) is before


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="finds the worker processes in /proc")
def test_a_second_ctrl_c_does_not_cut_the_removal_of_a_new_empty_file_short(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first Ctrl-C (here raised by the first deal) fails the survey before its first row; a second,
    sent while the survey closes its file, must not leave that empty file behind."""
    from patience_engine.survey import store

    def interrupted(*args: Any) -> Row:
        raise KeyboardInterrupt

    real_close = store.close_database

    def close_then_ctrl_c(connection: sqlite3.Connection) -> None:
        os.kill(os.getpid(), signal.SIGINT)
        real_close(connection)

    monkeypatch.setattr(survey.execution, "solve_deal", interrupted)
    monkeypatch.setattr(store, "close_database", close_then_ctrl_c)
    db = tmp_path / "s.sqlite"
    with pytest.raises(KeyboardInterrupt):
        survey.run_survey("royal-marriage", range(1, 3), db=str(db), jobs=1, **SETTINGS)
    assert list(tmp_path.iterdir()) == []


FORK_SERVER_IGNORES_CTRL_C = """
import os, signal
from multiprocessing import forkserver
from patience_engine.survey.execution import _start_fork_server
_start_fork_server()
with open(f"/proc/{forkserver._forkserver._forkserver_pid}/status") as status:
    ignored = int(next(line for line in status if line.startswith("SigIgn:")).split()[1], 16)
print(bool(ignored >> (signal.SIGINT - 1) & 1), signal.getsignal(signal.SIGINT) is signal.default_int_handler,
      signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, []))
"""

CTRL_C_AFTER_THE_RESOURCE_TRACKER_STARTS = """
import os, signal
from multiprocessing import resource_tracker
from patience_engine.survey.execution import _start_fork_server
start = resource_tracker.ensure_running
def start_then_ctrl_c():
    start()
    os.kill(os.getpid(), signal.SIGINT)
resource_tracker.ensure_running = start_then_ctrl_c
try:
    _start_fork_server()
except KeyboardInterrupt:
    print("interrupted")
"""

CTRL_C_WHILE_THE_FORK_SERVER_STARTS = """
import os, signal
from multiprocessing import forkserver
from patience_engine.survey.execution import _start_fork_server
forkserver.ensure_running = lambda: os.kill(os.getpid(), signal.SIGINT)
try:
    _start_fork_server()
except KeyboardInterrupt:
    print("interrupted")
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists() or "forkserver" not in multiprocessing.get_all_start_methods(),
                    reason="needs Linux's /proc and a fork server")
def test_the_fork_server_ignores_ctrl_c_and_the_survey_keeps_it() -> None:
    """Workers fork from a server started while Ctrl-C is ignored, so a Ctrl-C while they import cannot
    print their tracebacks; one that comes meanwhile still reaches the survey."""
    def run(code: str) -> str:
        # Ctrl-C as a terminal's process has it: a shell's background job (CI started with `&`) would
        # hand down SIGINT ignored, and Python then installs no handler of its own.
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True,
                              preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)).stdout

    assert run(FORK_SERVER_IGNORES_CTRL_C) == "True True False\n"
    assert run(CTRL_C_WHILE_THE_FORK_SERVER_STARTS) == "interrupted\n"
    # The resource tracker's start unblocks SIGINT; a Ctrl-C after it must not be dropped either.
    assert run(CTRL_C_AFTER_THE_RESOURCE_TRACKER_STARTS) == "interrupted\n"


def test_a_dead_worker_is_a_one_line_error(tmp_path: Path) -> None:
    # A worker killed (by the kernel, out of memory) gave a RuntimeError traceback.
    with _slow_survey(tmp_path) as (child, processes):
        # The workers are the fork server's children; the fork server and resource tracker are the survey's.
        for worker in processes - _descendants(child.pid, depth=1):
            os.kill(worker, signal.SIGKILL)
        code = child.wait(timeout=30)
    assert code == 2
    assert (tmp_path / "stderr.txt").read_text() == (
        "patience: error: a survey worker process was killed by SIGKILL (out of memory? 3 workers hold a table "
        f"of {TABLE_BYTES:,} bytes each); the rows written so far are kept\n")
    assert [row.deal for row in survey.read_rows(str(tmp_path / "s.sqlite"))] == [713]


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="finds the worker processes in /proc")
def test_kill_9_of_a_survey_ends_its_workers(tmp_path: Path) -> None:
    with _slow_survey(tmp_path) as (child, processes):
        child.kill()
        child.wait()
        _wait_until_gone(processes)
    assert [row.deal for row in survey.read_rows(str(tmp_path / "s.sqlite"))] == [713]


def test_mismatched_limits_are_kept_apart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.sqlite"
    survey.run_survey("royal-marriage", range(1, 4), db=str(db), jobs=1, **SETTINGS)
    other = dict(SETTINGS, node_limit=NODE_LIMIT // 2)
    run = survey.run_survey("royal-marriage", range(1, 4), db=str(db), jobs=1, **other)
    assert (run.solved, run.skipped) == (3, 0), "rows of another node limit are not taken as done"
    assert run.other_settings == (("royal-marriage", engine_version("royal-marriage"), NODE_LIMIT, TABLE_BYTES,
                                   survey.THOUGHTFUL, 1),)
    summaries = survey.summarize(survey.read_rows(str(db)))
    assert [(s.node_limit, s.deals) for s in summaries] == [(NODE_LIMIT // 2, 3), (NODE_LIMIT, 3)]

    assert main(["survey", "royal-marriage", "--deals", "1-3", "--jobs", "1", "--db", str(db),
                 "--node-limit", "1000", "--table-bytes", str(TABLE_BYTES)]) == 0
    err = capsys.readouterr().err
    assert f"node limit {NODE_LIMIT:,}" in err and f"node limit {NODE_LIMIT // 2:,}" in err and "kept apart" in err
    assert main(["report", str(db)]) == 0
    assert capsys.readouterr().out.count("Royal Marriage: engine") == 3


def _foreign_sqlite(path: Path) -> None:
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE deals (game TEXT, deal INTEGER)")
    connection.execute("INSERT INTO deals VALUES ('x', 1)")
    connection.commit()
    connection.close()


def _corrupt_survey(path: Path) -> None:
    survey.open_database(str(path), create=True).close()
    data = bytearray(path.read_bytes())
    data[100:] = b"\xa5" * (len(data) - 100)  # keep the header, wreck every page's contents
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("make, message", [
    (lambda p: p.write_text("game,deal\ngermaine,1\n"), "not an SQLite database"),
    (lambda p: p.write_bytes(b""), "is an empty file, not a survey database; left untouched"),
    (_foreign_sqlite, "another application"),
    (_corrupt_survey, "corrupt"),
])
def test_foreign_or_corrupt_file_is_a_clear_error_and_left_untouched(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], make: Any, message: str) -> None:
    db = tmp_path / "s.sqlite"
    make(db)
    before = db.read_bytes()
    with pytest.raises(SurveyFileError, match=message):
        survey.run_survey("germaine", range(1, 3), db=str(db), jobs=1, **SETTINGS)
    assert main(["survey", "germaine", "--deals", "1-2", "--jobs", "1", "--db", str(db)]) == 2
    assert message in capsys.readouterr().err
    assert main(["report", str(db)]) == 2
    assert message in capsys.readouterr().err
    assert db.read_bytes() == before


def test_a_corrupt_file_is_named_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """SQLite reports a damaged page a line: the error gives the first and counts the rest."""
    db = tmp_path / "s.sqlite"
    connection = survey.open_database(str(db), create=True)
    survey.insert_rows(connection, [Row("germaine", deal, "won", 64, 1, 0.1, "a1xa2 " * 20, True, "v", 1, 1)
                                    for deal in range(3000)])
    survey.close_database(connection)
    data = bytearray(db.read_bytes())
    data[8192:8192 + 4096] = random.Random(1).randbytes(4096)  # page 3: some 30 lines of report
    db.write_bytes(bytes(data))
    assert main(["report", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert re.search(r" is corrupt \(.+, and \d+ more problems\); left untouched$", err.strip()), err


def test_a_corrupt_cell_is_named_in_one_printable_line() -> None:
    """SQLite quotes a cell it cannot decode, damaged bytes and all."""
    from patience_engine.survey.store import _first_line

    error = sqlite3.OperationalError("Could not decode to UTF-8 column 'solution' with text '6D \x07\x1b[2J\nmore'")
    assert _first_line(error) == "Could not decode to UTF-8 column 'solution' with text '6D ??[2J"
    assert len(_first_line(sqlite3.DatabaseError("x" * 500))) == 120


def test_a_fifo_is_refused_at_once_not_waited_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.sqlite"
    os.mkfifo(db)
    for argv in (["survey", "royal-marriage", "--deals", "1-2", "--jobs", "1", "--db", str(db)], ["report", str(db)]):
        assert main(argv) == 2
        assert f"{db} is not a regular file, so not a survey database; left untouched" in capsys.readouterr().err


def test_report_of_a_missing_file_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(tmp_path / "none.sqlite")]) == 2
    assert "no such survey database" in capsys.readouterr().err
    assert not (tmp_path / "none.sqlite").exists()


def test_dask_run_gives_the_rows_of_a_local_run(tmp_path: Path) -> None:
    distributed = pytest.importorskip("dask.distributed")
    local, on_dask, threaded = tmp_path / "local.sqlite", tmp_path / "dask.sqlite", tmp_path / "threads.sqlite"
    survey.run_survey("geoffrey", range(1, 13), db=str(local), jobs=2, **SETTINGS)
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=2,
                                  dashboard_address=":0") as cluster:
        survey.run_survey("geoffrey", range(1, 13), db=str(on_dask), scheduler=cluster.scheduler_address,
                          **SETTINGS)
        survey.run_survey("geoffrey", range(1, 13), db=str(threaded), scheduler=cluster.scheduler_address,
                          threads=2, **SETTINGS)
    assert without_seconds(survey.read_rows(str(on_dask))) == without_seconds(survey.read_rows(str(local)))
    # The workers solve each deal on the threads asked for; the threads race, so only verdicts compare.
    pairs = list(zip(survey.read_rows(str(local)), survey.read_rows(str(threaded))))
    assert [(one.deal, many.threads) for one, many in pairs] == [(deal, 2) for deal in range(1, 13)]
    assert not any(survey.contradict(one, many) for one, many in pairs)


def test_scheduler_without_dask_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "dask", None)  # makes `import dask` fail as if not installed
    assert main(["survey", "germaine", "--deals", "1", "--db", str(tmp_path / "s.sqlite"),
                 "--scheduler", "tcp://127.0.0.1:1"]) == 2
    assert "patience-engine[dask]" in capsys.readouterr().err


def _hand_made(path: Path) -> None:
    """12 Germaine deals: 8 won, 2 lost, 2 unknown; nodes 10, 20, ..., 120."""
    statuses = ["won"] * 8 + ["lost"] * 2 + ["unknown"] * 2
    scores = [60, 61, 62, 60, 64, 63, 60, 61, 40, 45, 50, 50]
    connection = survey.open_database(str(path), create=True)
    with connection:
        connection.executemany("INSERT INTO deals VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", [
            ("germaine", deal, status, score, 10 * deal, deal / 100, "a1xa2", status != "unknown",
             "9.9", 1000, 4096, survey.THOUGHTFUL, 1)
            for deal, (status, score) in enumerate(zip(statuses, scores), 1)])
    connection.close()


def test_report_numbers_on_a_hand_made_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "hand.sqlite"
    _hand_made(db)
    [summary] = survey.summarize(survey.read_rows(str(db)))
    assert (summary.deals, summary.won, summary.lost, summary.unknown) == (12, 8, 2, 2)
    assert summary.winnability == pytest.approx(0.8)
    # By hand, p = 0.8, n = 10, z = 1.96: (0.8 + 0.19208 ± 1.96 * sqrt(0.016 + 0.009604)) / 1.38416
    # = (0.99208 ± 0.313624) / 1.38416 = 0.49016 .. 0.94332.
    assert summary.interval == pytest.approx((0.49016, 0.94332), abs=5e-5)
    assert summary.nodes_median == 65  # between 60 and 70
    assert summary.nodes_p99 == pytest.approx(118.9)  # 110 + 0.89 * 10: rank 0.99 * 11 = 10.89
    assert summary.seconds_median == pytest.approx(0.065)
    assert summary.scores == ((40, 1), (45, 1), (50, 2), (60, 3), (61, 2), (62, 1), (63, 1), (64, 1))

    assert main(["report", str(db)]) == 0
    out = capsys.readouterr().out
    assert "Germaine 2-Move: engine 9.9, node limit 1,000, table 4,096 bytes" in out
    assert "deals 12  won 8  lost 2  unknown 2" in out
    assert "winnability 80.00% (95% Wilson interval 49.02% - 94.33%) over 10 resolved deals" in out
    assert "won over all 12 deals: 66.67% (unknown as lost) - 83.33% (unknown as won)" in out  # 8/12, 10/12
    assert "median 65  99th percentile 119" in out
    assert "10 of 12 proven best): 40: 1, 45: 1, 50: 2, 60: 3, 61: 2, 62: 1, 63: 1, 64: 1" in out


def test_report_into_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    db = tmp_path / "hand.sqlite"
    _hand_made(db)
    script = Path(sys.executable).with_name("patience")
    env = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    with subprocess.Popen([str(script), "report", str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=env) as child:
        assert child.stdout is not None and child.stderr is not None
        child.stdout.close()  # as `| head -1` does, before the report is written
        err = child.stderr.read()
        code = child.wait(timeout=30)
    assert (code, err) == (141, b"")


def test_wilson_interval_edges() -> None:
    low, high = survey.wilson_interval(0, 5)
    assert low == pytest.approx(0, abs=1e-12) and high == pytest.approx(0.43448, abs=5e-5)  # z²/(n + z²) = 3.8415/8.8415
    assert survey.wilson_interval(5, 5)[1] == 1
    with pytest.raises(ValueError):
        survey.wilson_interval(1, 0)


def test_report_plot_writes_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    db, png = tmp_path / "hand.sqlite", tmp_path / "survey.png"
    _hand_made(db)
    assert main(["report", str(db), "--plot", str(png)]) == 0
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


@pytest.mark.parametrize("path", ["survey", "survey.svg", "."])
def test_report_plot_path_must_end_in_png(tmp_path: Path, capsys: pytest.CaptureFixture[str], path: str) -> None:
    # matplotlib wrote survey.png for "survey" (over any such file), SVG for .svg, and ..png for ".".
    db = tmp_path / "hand.sqlite"
    _hand_made(db)
    with pytest.raises(SystemExit) as exit:
        main(["report", str(db), "--plot", str(tmp_path / path)])
    assert exit.value.code == 2
    assert f"the plot file must end in .png, got '{tmp_path / path}'" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hand.sqlite"]
    with pytest.raises(ValueError, match=r"^the plot file must end in \.png, got "):
        survey.plot(survey.read_rows(str(db)), str(tmp_path / path), {})


def test_a_survey_of_the_widest_range_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 2**63 deals: more than len() can count. Stopped (as by Ctrl-C) after three rows.
    real = survey.solve_deal

    def three_then_stop(game: str, deal: int, node_limit: int, table_bytes: int, threads: int) -> Row:
        if deal == 3:
            raise KeyboardInterrupt
        return real(game, deal, node_limit, table_bytes, threads)

    monkeypatch.setattr(survey.execution, "solve_deal", three_then_stop)
    db = tmp_path / "s.sqlite"
    with pytest.raises(KeyboardInterrupt):
        survey.run_survey("royal-marriage", range(0, 1 << 63), db=str(db), jobs=1, **SETTINGS)
    assert [row.deal for row in survey.read_rows(str(db))] == [0, 1, 2]


def test_an_empty_database_path_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["survey", "royal-marriage", "--deals", "1-2", "--db", ""]) == 2
    assert capsys.readouterr().err == "patience: error: the survey database path is empty\n"


# A finished survey's file, the scheduler address, read-only places, kill -9.

def _journal_mode(db: Path) -> str:
    """'wal' or 'delete', from the file header (bytes 18 and 19 are 2 in WAL mode, 1 otherwise)."""
    return "wal" if db.read_bytes()[18:20] == b"\x02\x02" else "delete"


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_finished_survey_leaves_only_the_database_file(tmp_path: Path, jobs: int) -> None:
    db = tmp_path / "s.sqlite"
    survey.run_survey("royal-marriage", range(1, 7), db=str(db), jobs=jobs, **SETTINGS)
    assert [p.name for p in tmp_path.iterdir()] == ["s.sqlite"]
    assert _journal_mode(db) == "delete"
    # A second run on the file, and a report of it, leave nothing beside it either.
    survey.run_survey("royal-marriage", range(1, 9), db=str(db), jobs=jobs, **SETTINGS)
    assert main(["report", str(db)]) == 0
    assert [p.name for p in tmp_path.iterdir()] == ["s.sqlite"]
    assert len(survey.read_rows(str(db))) == 8


def test_a_survey_writes_through_a_write_ahead_log_while_it_runs(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    connection = survey.open_database(str(db), create=True)
    try:
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert connection.execute("PRAGMA synchronous").fetchone() == (1,)  # NORMAL: survives kill -9
    finally:
        survey.close_database(connection)
    assert [p.name for p in tmp_path.iterdir()] == ["s.sqlite"]


def test_a_survey_sharing_its_file_leaves_the_log_to_the_last_one(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    first = survey.open_database(str(db), create=True)
    second = survey.open_database(str(db), create=True)
    with first:
        first.execute("INSERT INTO deals VALUES ('germaine', 1, 'won', 64, 1, 0.1, 'a1xa2', 1, 'v', 1, 1, 'thoughtful', 1)")
    start = time.monotonic()
    survey.close_database(first)  # the other still has the file open: stays in WAL, at once
    assert time.monotonic() - start < 1
    assert (tmp_path / "s.sqlite-wal").exists()
    assert second.execute("SELECT count(*) FROM deals").fetchone() == (1,)
    survey.close_database(second)
    assert [p.name for p in tmp_path.iterdir()] == ["s.sqlite"] and _journal_mode(db) == "delete"


def test_a_busy_file_is_tried_again_for_a_while(monkeypatch: pytest.MonkeyPatch) -> None:
    """A change of journal mode fails at once, whatever the busy timeout, while another survey changes it:
    it is tried again, and other errors are not."""
    from patience_engine.survey import store

    def failing(errors: List[str]) -> Tuple[List[int], Any]:
        calls: List[int] = []

        def statement() -> None:
            calls.append(1)
            if len(calls) <= len(errors):
                raise sqlite3.OperationalError(errors[len(calls) - 1])

        return calls, statement

    calls, statement = failing(["database is locked", "database is locked"])
    store._wait_while_busy(statement)
    assert len(calls) == 3
    calls, statement = failing(["disk I/O error"])
    with pytest.raises(sqlite3.OperationalError, match="disk I/O error"):
        store._wait_while_busy(statement)
    assert len(calls) == 1
    monkeypatch.setattr(store, "BUSY_SECONDS", 0.05)
    calls, statement = failing(["database is locked"] * 10**6)
    start = time.monotonic()
    with pytest.raises(sqlite3.OperationalError, match="database is locked"):
        store._wait_while_busy(statement)
    assert 0.05 <= time.monotonic() - start < 2 and len(calls) > 1


@pytest.mark.parametrize("address, message", [
    ("tcp://127.0.0.1:99999", "port must be in 1 .. 65535, got 99999"),
    ("tcp://127.0.0.1:0", "port must be in 1 .. 65535, got 0"),
    ("http://127.0.0.1:8786", "unknown scheme 'http'"),
    ("tcp://:8786", "has no host"),
    ("tcp://127.0.0.1", "is not [SCHEME://]HOST:PORT"),
    ("tcp://127.0.0.1:port", "is not [SCHEME://]HOST:PORT"),
    ("tcp://::1:8786", "is not [SCHEME://]HOST:PORT"),
    ("tcp://bad host:8786", "'bad host' is neither an IP address nor a host name"),
    ("tcp://[not-ipv6]:8786", "'not-ipv6' is neither an IP address nor a host name"),
    ("", "is not [SCHEME://]HOST:PORT"),
])
def test_a_scheduler_address_that_cannot_be_one_is_refused_at_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], address: str, message: str) -> None:
    pytest.importorskip("dask.distributed")
    start = time.monotonic()
    assert main(["survey", "royal-marriage", "--deals", "1-2", "--db", str(tmp_path / "s.sqlite"),
                 "--scheduler", address]) == 2
    assert time.monotonic() - start < 1
    err = capsys.readouterr().err
    assert err == f"patience: error: scheduler address {address!r}" + err.split(repr(address), 1)[1]
    assert message in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:8786", "127.0.0.1:1", "tls://scheduler.example.org:65535",
                                     "tcp://[::1]:8786", "ws://my_host:80", "inproc://10.0.0.1/1234/1"])
def test_scheduler_addresses_that_can_be_one_pass_the_check(address: str) -> None:
    pytest.importorskip("dask.distributed")
    survey.check_scheduler_address(address)


def test_a_scheduler_address_must_be_a_str() -> None:
    with pytest.raises(TypeError, match="scheduler address must be a str, got int"):
        survey.check_scheduler_address(8786)  # type: ignore[arg-type]


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="finds the worker processes in /proc")
def test_kill_9_of_a_survey_leaves_no_leaked_semaphores(tmp_path: Path) -> None:
    with _slow_survey(tmp_path) as (child, processes):
        child.kill()
        child.wait()
        _wait_until_gone(processes)  # the resource tracker too: it would have warned by now
    killed_stderr = (tmp_path / "stderr.txt").read_text()
    again = subprocess.run(survey_cli("germaine", "--deals", "713-716", "--jobs", "2", "--node-limit", "3000",
                                      "--db", str(tmp_path / "s.sqlite")),
                           capture_output=True, text=True, timeout=120, preexec_fn=child_defaults)
    assert again.returncode == 0, again.stderr
    for stderr in (killed_stderr, again.stderr):
        assert "leaked" not in stderr and "resource_tracker" not in stderr and "Warning" not in stderr, stderr
    rows = survey.read_rows(str(tmp_path / "s.sqlite"))
    assert [(row.node_limit, row.deal) for row in rows] == [(3000, 713), (3000, 714), (3000, 715), (3000, 716),
                                                            (10**9, 713)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.sqlite", "stderr.txt"]


class _CannotMakeShm:
    """What SQLite gives for a WAL-mode file where it cannot make the ``-shm`` file: a connection whose
    first read fails with SQLITE_CANTOPEN."""

    def execute(self, *args: Any) -> Any:
        raise sqlite3.OperationalError("unable to open database file")

    def close(self) -> None:
        pass


@pytest.mark.parametrize("wal", [b"", b"rows of a killed run"])
def test_a_wal_file_whose_shm_cannot_be_made_is_read_as_immutable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], wal: bytes) -> None:
    db = tmp_path / "hand.sqlite"
    _hand_made(db)  # closed without close_database: a WAL-mode file, as earlier versions left it
    assert _journal_mode(db) == "wal"
    if wal:
        (tmp_path / "hand.sqlite-wal").write_bytes(wal)
    real_connect = sqlite3.connect
    opened: List[str] = []

    def connect(database: Any, *args: Any, **kwargs: Any) -> Any:
        opened.append(str(database))
        return _CannotMakeShm() if "mode=ro" in str(database) else real_connect(database, *args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", connect)
    code = main(["report", str(db)])
    captured = capsys.readouterr()
    if wal:
        assert code == 2 and "corrupt" not in captured.err
        assert f"its write-ahead log {db}-wal holds rows" in captured.err
    else:
        assert (code, captured.err) == (0, "")
        assert "deals 12  won 8  lost 2  unknown 2" in captured.out
        assert [uri.rsplit("?", 1)[1] for uri in opened] == ["mode=ro", "immutable=1"]


@contextlib.contextmanager
def _tmpfs(directory: Path, size: str = "16m") -> Iterator[Path]:
    """A fresh tmpfs of ``size`` mounted at ``directory``; skips the test where mounting is not permitted."""
    directory.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(directory)],
                      capture_output=True).returncode != 0:
        pytest.skip("mounting a tmpfs is not permitted here (needs root and CAP_SYS_ADMIN)")
    try:
        yield directory
    finally:
        # Lazy: a connection a failed assertion left open must not keep the mount.
        subprocess.run(["umount", "--lazy", str(directory)], check=True)


@pytest.mark.skipif(shutil.which("mount") is None, reason="needs mount(8)")
def test_a_full_disk_is_a_one_line_error_and_keeps_the_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # sqlite3.OperationalError "database or disk is full" came out as a traceback.
    with _tmpfs(tmp_path / "tiny", "64k") as tiny:
        db = tiny / "s.sqlite"
        assert main(["survey", "royal-marriage", "--deals", "1-100000", "--jobs", "1", "--node-limit", "1",
                     "--table-bytes", "0", "--db", str(db)]) == 2
        assert capsys.readouterr().err == (f"patience: error: {db}: cannot write the survey database "
                                           "(database or disk is full)\n")
        rows = survey.read_rows(str(db))
        assert 0 < len(rows) < 100_000 and [row.deal for row in rows] == list(range(1, len(rows) + 1))


@pytest.mark.skipif(shutil.which("mount") is None, reason="needs mount(8)")
def test_report_works_on_a_read_only_file_system(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with _tmpfs(tmp_path / "media") as media:
        finished, legacy, killed = media / "finished.sqlite", media / "legacy.sqlite", media / "killed.sqlite"
        survey.run_survey("royal-marriage", range(1, 6), db=str(finished), jobs=1, **SETTINGS)
        _hand_made(legacy)
        # As kill -9 leaves a run: rows committed to the write-ahead log, not yet moved into the file.
        running = survey.open_database(str(killed), create=True)
        try:
            survey.store.insert_rows(running, survey.read_rows(str(finished)))
            for name in ("killed.sqlite", "killed.sqlite-wal", "killed.sqlite-shm"):
                shutil.copyfile(media / name, tmp_path / name)
        finally:
            survey.close_database(running)
        for name in ("killed.sqlite", "killed.sqlite-wal", "killed.sqlite-shm"):
            shutil.copyfile(tmp_path / name, media / name)
        assert (media / "killed.sqlite-wal").stat().st_size > 0
        subprocess.run(["mount", "-o", "remount,ro", str(media)], check=True)
        before = {p.name: p.read_bytes() for p in media.iterdir()}

        for db, deals in ((finished, "deals 5 "), (legacy, "deals 12 "), (killed, "deals 5 ")):
            assert main(["report", str(db)]) == 0, capsys.readouterr().err
            captured = capsys.readouterr()
            assert captured.err == "" and deals in captured.out
        assert survey.read_rows(str(killed)) == survey.read_rows(str(finished))
        # A survey cannot add rows there: a clear error before any deal is solved.
        for db in (finished, legacy):
            assert main(["survey", "royal-marriage", "--deals", "1-6", "--jobs", "1", "--db", str(db)]) == 2
            err = capsys.readouterr().err
            assert err.startswith(f"patience: error: {db}: cannot write the survey database (") and err.count("\n") == 1
        assert {p.name: p.read_bytes() for p in media.iterdir()} == before


def _as_nobody() -> None:
    """In a child of a test run as root: become the user nobody, whom file permissions bind."""
    os.setgid(65534)
    os.setuid(65534)


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="needs POSIX users")
def test_report_works_on_a_file_and_directory_it_cannot_write(tmp_path: Path) -> None:
    # Root ignores permission bits: as root, the report runs as nobody, in a directory nobody may enter.
    root = os.geteuid() == 0
    preexec = _as_nobody if root else None
    try:
        runs = subprocess.run([sys.executable, "-c", "import patience_engine"], capture_output=True,
                              preexec_fn=preexec).returncode == 0
    except PermissionError:  # this Python is in a directory nobody may enter
        runs = False
    if not runs:
        pytest.skip("the user nobody cannot run this Python and package")
    place = Path(tempfile.mkdtemp(prefix="patience-read-only-")) if root else tmp_path / "place"
    try:
        place.mkdir(exist_ok=True)
        finished, legacy = place / "finished.sqlite", place / "legacy.sqlite"
        survey.run_survey("royal-marriage", range(1, 6), db=str(finished), jobs=1, **SETTINGS)
        _hand_made(legacy)  # WAL mode, whose -shm cannot be made in a directory that cannot be written
        for db in (finished, legacy):
            db.chmod(0o444)
        place.chmod(0o555)
        for db, deals in ((finished, "deals 5 "), (legacy, "deals 12 ")):
            report = subprocess.run([sys.executable, "-m", "patience_engine.cli", "report", str(db)],
                                    capture_output=True, text=True, timeout=60, preexec_fn=preexec)
            assert (report.returncode, report.stderr) == (0, ""), report.stderr
            assert deals in report.stdout
        assert sorted(p.name for p in place.iterdir()) == ["finished.sqlite", "legacy.sqlite"]
    finally:
        place.chmod(0o755)
        if root:
            shutil.rmtree(place)


def test_only_unknown_solves_just_the_deals_left_unknown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "g.sqlite")
    survey.run_survey("germaine", range(1, 9), db=db, jobs=1, node_limit=200, table_bytes=TABLE_BYTES,
                      progress=False)
    survey.run_survey("germaine", range(5, 9), db=db, jobs=1, node_limit=20_000, table_bytes=TABLE_BYTES,
                      progress=False)
    first = {r.deal: r.status for r in survey.read_rows(db) if r.node_limit == 200}
    settled_later = {r.deal for r in survey.read_rows(db) if r.node_limit == 20_000 and r.status != "unknown"}
    unknown = {d for d, status in first.items() if status == "unknown"} - settled_later
    assert 0 < len(unknown) < 8, "the test needs both kinds of deal"
    assert main(["survey", "germaine", "--deals", "1-9", "--only-unknown", "--node-limit", "2000000", "--jobs", "1",
                 "--table-bytes", str(TABLE_BYTES), "--db", db]) == 0
    again = {r.deal for r in survey.read_rows(db) if r.node_limit == 2_000_000}
    assert again == unknown, "only the deals no row settles, deal 9 (no row at all) not"
    assert (f"solved {len(unknown):,}, skipped {9 - len(unknown):,} already in {db} at these limits or not left "
            "unknown under others") in capsys.readouterr().out
    run = survey.run_survey("germaine", range(1, 10), db=db, jobs=1, node_limit=2_000_000, table_bytes=TABLE_BYTES,
                            progress=False, only_unknown=True)
    assert (run.solved, run.skipped) == (0, 9), "a rerun finds them done"
    missing = str(tmp_path / "missing.sqlite")
    assert main(["survey", "germaine", "--deals", "1-9", "--only-unknown", "--db", missing]) == 2
    assert "there is no such file" in capsys.readouterr().err and not os.path.exists(missing)


def test_report_of_files_repeating_a_survey_checks_that_they_agree(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = str(tmp_path / "a.sqlite"), str(tmp_path / "b.sqlite")
    survey.run_survey("geoffrey", range(1, 9), db=first, jobs=1, **SETTINGS)
    survey.run_survey("geoffrey", range(5, 13), db=second, jobs=2, **SETTINGS)
    assert main(["report", first, second]) == 0
    out = capsys.readouterr().out
    assert "deals 12  won" in out, "each deal counted once"
    assert "repeated rows: 4 deals appear in more than one file with the same settings; 4 repeated rows agree" in out
    third = str(tmp_path / "c.sqlite")
    shutil.copy(second, third)
    assert main(["report", first, second, third]) == 0
    assert ("repeated rows: 8 deals appear in more than one file with the same settings; 12 repeated rows agree"
            in capsys.readouterr().out), "deals 5-8 are in all three files: each deal counted once"
    # A hard link, a symbolic link and another name of the same file are that file, read once.
    os.link(second, tmp_path / "hard.sqlite")
    os.symlink(second, tmp_path / "soft.sqlite")
    assert main(["report", first, second, str(tmp_path / "hard.sqlite"), str(tmp_path / "soft.sqlite"),
                 str(tmp_path / "." / "b.sqlite")]) == 0
    assert "repeated rows: 4 deals appear in more than one file with the same settings; 4 repeated rows agree" in \
        capsys.readouterr().out
    connection = sqlite3.connect(second)
    with connection:
        connection.execute("UPDATE deals SET nodes = nodes + 1 WHERE deal = 6")
    connection.close()
    assert main(["report", first, second]) == 1
    out = capsys.readouterr().out
    assert "3 repeated rows agree in every field but seconds, 1 do not" in out and "Geoffrey deal 6: nodes differ" in out


def test_threads_are_recorded_and_kept_apart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "t.sqlite")
    assert main(["survey", "geoffrey", "--deals", "1-4", "--jobs", "1", "--threads", "2", "--node-limit", "200000",
                 "--table-bytes", str(TABLE_BYTES), "--db", db]) == 0
    threaded = survey.read_rows(db)
    assert [(r.deal, r.threads) for r in threaded] == [(d, 2) for d in range(1, 5)]
    run = survey.run_survey("geoffrey", range(1, 5), db=db, jobs=1, node_limit=200_000, table_bytes=TABLE_BYTES,
                            progress=False)
    assert (run.solved, run.skipped) == (4, 0), "rows of another thread count are not taken as done"
    assert run.other_settings == (("geoffrey", engine_version("geoffrey"), 200_000, TABLE_BYTES, survey.THOUGHTFUL, 2),)
    one = [r for r in survey.read_rows(db) if r.threads == 1]
    # Both ran to the end: the same verdicts, whatever the lines and nodes.
    assert [(r.status, r.proven) for r in one] == [(r.status, r.proven) for r in threaded]
    summaries = survey.summarize(survey.read_rows(db))
    assert [(s.threads, s.deals) for s in summaries] == [(1, 4), (2, 4)]
    capsys.readouterr()
    assert main(["report", db]) == 0
    out = capsys.readouterr().out
    assert "2 threads per solve" in out
    assert "thread counts: 4 deals were solved at more than one thread count" in out and "; 0 contradictions" in out


def test_thread_counts_contradict_only_in_verdicts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = str(tmp_path / "a.sqlite"), str(tmp_path / "b.sqlite")
    survey.run_survey("geoffrey", range(1, 7), db=first, jobs=1, **SETTINGS)
    survey.run_survey("geoffrey", range(1, 7), db=second, jobs=1, threads=3, **SETTINGS)
    rows = {(r.threads, r.deal): r for r in survey.read_rows(first) + survey.read_rows(second)}
    won = min(d for (t, d), r in rows.items() if t == 1 and r.status == "won")
    lost = min(d for (t, d), r in rows.items() if t == 1 and r.status == "lost")
    connection = sqlite3.connect(second)
    with connection:
        # A limit reached on three threads where one thread settled the deal is no contradiction;
        # nor are other nodes and lines, which threads that race give.
        connection.execute("UPDATE deals SET status = 'unknown', proven = 0, solution = '' WHERE deal = ?", (lost,))
        connection.execute("UPDATE deals SET nodes = nodes + 7")
    connection.close()
    assert main(["report", first, second]) == 0
    assert "0 contradictions" in capsys.readouterr().out
    connection = sqlite3.connect(second)
    with connection:
        connection.execute("UPDATE deals SET status = 'lost', solution = '' WHERE deal = ?", (won,))
    connection.close()
    assert main(["report", first, second]) == 1
    out = capsys.readouterr().out
    assert "1 contradictions" in out
    assert f"CONTRADICTION: Geoffrey deal {won}: won 52 (proven) on 1 thread, lost 52 (proven) on 3" in out
    # Repeats of a survey on several threads agree as long as their verdicts do.
    shutil.copy(second, tmp_path / "c.sqlite")
    connection = sqlite3.connect(tmp_path / "c.sqlite")
    with connection:
        connection.execute("UPDATE deals SET nodes = nodes + 1")
    connection.close()
    assert main(["report", second, str(tmp_path / "c.sqlite")]) == 0
    assert "6 repeated rows agree" in capsys.readouterr().out


def test_a_schema_2_file_is_read_as_one_thread_and_upgraded_when_written(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    connection = sqlite3.connect(db)
    connection.executescript(f"""
        PRAGMA application_id = {survey.APPLICATION_ID};
        PRAGMA user_version = 2;
        CREATE TABLE deals (game TEXT NOT NULL, deal INTEGER NOT NULL, status TEXT NOT NULL, score INTEGER NOT NULL,
            nodes INTEGER NOT NULL, seconds REAL NOT NULL, solution TEXT NOT NULL, proven INTEGER NOT NULL,
            engine_version TEXT NOT NULL, node_limit INTEGER NOT NULL, table_bytes INTEGER NOT NULL,
            player TEXT NOT NULL, PRIMARY KEY (game, engine_version, node_limit, table_bytes, player, deal));
        INSERT INTO deals VALUES ('geoffrey', 1, 'lost', 0, 5, 0.1, '', 1, 'v', 100, 0, 'thoughtful');
    """)
    connection.commit()
    connection.close()
    old = survey.read_rows(str(db))
    assert [(r.deal, r.player, r.threads) for r in old] == [(1, survey.THOUGHTFUL, 1)]
    survey.run_survey("geoffrey", range(1, 3), db=str(db), jobs=1, threads=2, **SETTINGS)
    rows = survey.read_rows(str(db))
    assert [r for r in rows if r.engine_version == "v"] == old
    assert sorted((r.deal, r.threads) for r in rows if r.engine_version != "v") == [(1, 2), (2, 2)]
    connection = sqlite3.connect(db)
    assert connection.execute("PRAGMA user_version").fetchone()[0] == survey.SCHEMA_VERSION == 4
    connection.close()


@pytest.mark.parametrize("argv, message", [
    (["--threads", "0"], "threads must be in 1 .. 1024, got 0"),
    (["--threads", "2", "--player", "baseline"], "--threads is for the thoughtful solver"),
])
def test_survey_threads_are_checked(argv: List[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["survey", "geoffrey", "--deals", "1-2", *argv])
    assert exited.value.code == 2 and message in capsys.readouterr().err
    with pytest.raises(ValueError, match="^threads must be in 1 .. 1024, got 1025$"):
        survey.run_survey("geoffrey", range(1, 2), threads=1025)


WORKER_LEFT_BEHIND = """
import multiprocessing
from patience_engine.survey.execution import _worker
survey_end, worker_end = multiprocessing.Pipe()
stop_reader, stop_writer = multiprocessing.Pipe(duplex=False)
survey_end.send([1])
survey_end.close()
_worker(worker_end, stop_reader, "royal-marriage", 1000, 1 << 16, None)
print("returned")
"""


def test_a_worker_whose_survey_has_gone_returns_quietly() -> None:
    """A survey that stops on one worker's error (a table too big) closes every pipe at once; a worker
    still sending its result must return, not print a BrokenPipeError traceback under the one-line error."""
    done = subprocess.run([sys.executable, "-c", WORKER_LEFT_BEHIND], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "returned\n", "")
