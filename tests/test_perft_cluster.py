"""perft split into subtrees: on a Dask cluster or here, the counts kept in SQLite, a stopped run resumed."""

from __future__ import annotations

import re
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Iterator, List

import pytest

from conftest import GAME_NAMES, game_data, stored_engine_versions, to_old_form
from patience_engine import perft, survey
from patience_engine.cli import main
from patience_engine.games import REGISTRY
from patience_engine.signature import engine_version
from patience_engine.survey import perft as split_perft

distributed = pytest.importorskip("dask.distributed")


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a one-worker, two-thread Dask cluster in this process."""
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=2,
                                  dashboard_address=":0") as cluster:
        yield str(cluster.scheduler_address)


def printed_count(out: str, depth: int) -> int:
    """The nodes of the row of ``depth`` that ``patience perft --db`` printed."""
    found = re.search(rf"^\s+{depth}\s+([\d,]+)\s", out, re.MULTILINE)
    assert found, out
    return int(found.group(1).replace(",", ""))


def stored_subtrees(db: Path) -> int:
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return int(connection.execute("SELECT count(*) FROM subtrees").fetchone()[0])
    finally:
        connection.close()


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_distributed_perft_gives_the_local_and_pinned_counts(
        game: str, scheduler: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # The pinned depths are shallow: a split from the first ply lets the cluster count them.
    monkeypatch.setattr(split_perft, "MIN_SPLIT_PLIES", 1)
    db = tmp_path / "perft.sqlite"
    for deal, counts in game_data(game).RULES_PERFT.items():
        depth = len(counts)
        assert main(["perft", game, str(deal), "--depth", str(depth), "--scheduler", scheduler,
                     "--db", str(db)]) == 0
        out = capsys.readouterr().out
        assert "subtrees, each counted by the C++ engine on 1 thread on the Dask cluster at" in out
        assert printed_count(out, depth) == counts[-1] == perft(REGISTRY[game].cpp.deal(deal), depth)


def test_a_deeper_perft_splits_at_three_plies_and_agrees(scheduler: str, tmp_path: Path) -> None:
    root = REGISTRY["geoffrey"].cpp.deal(1)
    run = survey.run_perft(root, 7, db=str(tmp_path / "p.sqlite"), scheduler=scheduler)
    assert (run.nodes, run.split, run.subtrees, run.counted) == (perft(root, 7), 3, perft(root, 3), perft(root, 3))


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_split_is_the_first_ply_with_enough_subtrees(game: str) -> None:
    root = REGISTRY[game].cpp.deal(1)
    threads = 3
    plies = survey.split_plies(root, 20, threads, survey.MIN_SPLIT_PLIES)
    wanted = survey.SUBTREES_PER_THREAD * threads
    assert plies >= survey.MIN_SPLIT_PLIES and perft(root, plies) >= wanted
    assert plies == survey.MIN_SPLIT_PLIES or perft(root, plies - 1) < wanted
    assert survey.split_plies(root, survey.MIN_SPLIT_PLIES, threads, survey.MIN_SPLIT_PLIES) == 0, \
        "too shallow: counted whole"
    paths = [path for path, _ in survey.subtree_positions(root, 2)]
    assert len(paths) == len(set(paths)) == perft(root, 2)


@pytest.mark.parametrize("where", ["dask", "here"])
def test_a_stopped_run_resumes_counting_only_the_rest(
        where: str, scheduler: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "perft.sqlite"
    command = ["perft", "geoffrey", "1", "--depth", "6", "--db", str(db),
               *(["--scheduler", scheduler] if where == "dask" else [])]
    real = split_perft.insert_into
    written: List[int] = []

    def insert_then_stop(connection: sqlite3.Connection, table: str, rows: Any, kind: Any) -> int:
        count = real(connection, table, rows, kind)
        if table == "subtrees":
            written.append(count)
            if stop and len(written) == 3:
                raise KeyboardInterrupt  # as Ctrl-C after the third commit
        return count

    monkeypatch.setattr(split_perft, "insert_into", insert_then_stop)
    stop = True
    assert main(command) == 130
    assert capsys.readouterr().err == "interrupted\n"
    first = stored_subtrees(db)
    subtrees = perft(REGISTRY["geoffrey"].cpp.deal(1), 3)
    assert 3 <= first == sum(written) < subtrees

    stop, written[:] = False, []
    assert main(command) == 0
    out = capsys.readouterr().out
    assert sum(written) == subtrees - first, "the second run counts only the rest"
    assert f"subtrees: {subtrees - first:,} counted now (the time and nodes/s are theirs), {first:,} already in" in out
    assert printed_count(out, 6) == perft(REGISTRY["geoffrey"].cpp.deal(1), 6)
    assert stored_subtrees(db) == subtrees


def test_another_depth_position_or_engine_is_another_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "perft.sqlite")
    root = REGISTRY["germaine"].cpp.deal(1)
    first = survey.run_perft(root, 4, db=db)
    assert first.counted == first.subtrees and first.nodes == perft(root, 4)
    assert survey.run_perft(root, 3, db=db).counted == perft(root, 2), "another depth"
    assert survey.run_perft(REGISTRY["germaine"].cpp.deal(2), 4, db=db).counted > 0, "another position"
    # The same position from a file is the same run.
    (tmp_path / "deal1.txt").write_text(root.to_text())
    assert main(["perft", "germaine", "--file", str(tmp_path / "deal1.txt"), "--depth", "4", "--db", db]) == 0
    assert f"0 counted now (the time and nodes/s are theirs), {first.subtrees:,} already in" in capsys.readouterr().out
    for module in (split_perft, survey.execution):
        monkeypatch.setattr(module, "engine_version", lambda game: "r0-another")
    assert survey.run_perft(root, 4, db=db).counted == first.subtrees, "another engine"


def test_a_run_of_the_old_engine_version_form_is_this_engines(tmp_path: Path) -> None:
    db = tmp_path / "p.sqlite"
    root = REGISTRY["germaine"].cpp.deal(1)
    first = survey.run_perft(root, 4, db=str(db))
    to_old_form(db, "runs", 1)
    assert stored_engine_versions(db, "runs") == (1, {"0.1.0+" + engine_version("germaine")[3:]})
    again = survey.run_perft(root, 4, db=str(db))
    assert (again.counted, again.nodes) == (0, first.nodes)
    assert stored_engine_versions(db, "runs") == (survey.PERFT_FILE.schema_version, {engine_version("germaine")})


def test_workers_of_another_engine_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(split_perft, "engine_version", lambda game: "r0-another")
    with pytest.raises(ValueError, match=r"the Dask workers run engine r0-another, this process r1-"):
        survey.run_perft(REGISTRY["germaine"].cpp.deal(1), 4, db=str(tmp_path / "p.sqlite"))


def test_an_unreachable_scheduler_is_a_one_line_error_and_leaves_no_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import dask

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        assert main(["perft", "germaine", "--depth", "5", "--db", str(tmp_path / "p.sqlite"),
                     "--scheduler", "tcp://127.0.0.1:1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("patience: error: Timed out trying to connect to tcp://127.0.0.1:1") and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("make, message", [
    (lambda p: p.write_text("game,deal\ngermaine,1\n"),
     "is not an SQLite database (foreign or corrupt file); left untouched"),
    (lambda p: survey.open_database(str(p), create=True).close(),
     "is a survey database, not a perft database; left untouched"),
])
def test_a_file_of_another_kind_is_a_one_line_error_and_left_untouched(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], make: Any, message: str) -> None:
    db = tmp_path / "not-perft.sqlite"
    make(db)
    before = db.read_bytes()
    assert main(["perft", "germaine", "--depth", "4", "--db", str(db)]) == 2
    assert capsys.readouterr().err == f"patience: error: {db} {message}\n"
    assert db.read_bytes() == before


def test_a_perft_file_is_not_a_survey_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "p.sqlite"
    survey.run_perft(REGISTRY["geoffrey"].cpp.deal(1), 2, db=str(db))
    assert main(["report", str(db)]) == 2
    assert capsys.readouterr().err == f"patience: error: {db} is a perft database, not a survey database; left untouched\n"


@pytest.mark.parametrize("argv, message", [
    (["--scheduler", "tcp://127.0.0.1:1", "--impl", "both"], "--scheduler and --db count with the C++ engine only"),
    (["--db", "p.sqlite", "--impl", "reference"], "--scheduler and --db count with the C++ engine only"),
    (["--scheduler", "tcp://127.0.0.1:0"], "scheduler address 'tcp://127.0.0.1:0': port must be in 1 .. 65535, got 0"),
])
def test_bad_options_are_one_line_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str], argv: List[str], message: str) -> None:
    monkeypatch.chdir(tmp_path)
    try:
        code = main(["perft", "germaine", "--depth", "4", *argv])
    except SystemExit as exit_info:  # a usage error
        code = int(str(exit_info.code))
    assert code == 2
    assert message in capsys.readouterr().err.splitlines()[-1]
    assert list(tmp_path.iterdir()) == []


def test_two_runs_on_one_file_both_finish_and_keep_each_subtree_once(tmp_path: Path) -> None:
    db = str(tmp_path / "perft.sqlite")
    root = REGISTRY["germaine"].cpp.deal(1)
    with ThreadPoolExecutor(2) as pool:
        runs = list(pool.map(lambda _: survey.run_perft(root.copy(), 5, db=db), range(2)))
    assert [run.nodes for run in runs] == [perft(root, 5)] * 2
    assert stored_subtrees(tmp_path / "perft.sqlite") == runs[0].subtrees
    # Two runs that close at the same moment may each see the other still open and both leave the
    # write-ahead log (store.close_database); the next run that closes alone folds it in.
    assert survey.run_perft(root.copy(), 5, db=db).nodes == perft(root, 5)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["perft.sqlite"], "the last to close leaves no -wal"
