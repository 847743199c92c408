"""The ``patience`` command line."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Dict, List

import pytest

from conftest import game_data, interrupt_after_first_line
from patience_engine import cli, reference
from patience_engine.cli import main
from patience_engine.games import names_where

GERMAINE_DEAL_1 = game_data("germaine").DEAL_TEXTS[1]
HARD_GERMAINE_DEAL = game_data("germaine").HARD_DEAL


def test_deal_prints_the_text_format(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "germaine", "1"]) == 0
    assert capsys.readouterr().out == GERMAINE_DEAL_1 + "\n"


def test_perft_both_prints_counts_and_rates(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "geoffrey", "2", "--depth", "4", "--impl", "both"]) == 0
    out = capsys.readouterr().out
    lines = out.strip().split("\n")
    assert lines[0] == "Geoffrey, deal 2"
    assert "counted in bulk" in lines[1] and "leaves per second" in lines[1]
    header, rows = lines[2], lines[3:]
    assert [line.split()[1] for line in rows] == ["4", "18", "85", "407"]
    assert header.split() == ["depth", "nodes", "cpp", "time", "cpp", "nodes/s", "reference", "time",
                              "reference", "nodes/s", "cpp/reference"]
    # Aligned: every column (words joined by single spaces) ends where its heading ends.
    ends = [m.end() for m in re.finditer(r"\S+(?: \S+)*", header)]
    assert len(ends) == 7
    for row in rows:
        assert [m.end() for m in re.finditer(r"\S+(?: \S+)*", row)] == ends, row
        times = re.findall(r"(\d+(?:\.\d+)?) (s|ms|µs|ns)\b", row)
        assert len(times) == 2 and all(len(number.replace(".", "")) == 3 for number, _ in times), row


@pytest.mark.parametrize("jobs", [["--jobs", "1"], ["--jobs", "3"], []])
def test_perft_jobs_splits_the_tree_over_threads_with_the_same_counts(
        jobs: List[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """--jobs J runs the C++ perft on J threads (default: usable_cores()) and says so; the counts are
    the pinned ones at every J."""
    from patience_engine import cli

    monkeypatch.setattr(cli, "usable_cores", lambda: 2)
    counts = game_data("germaine").RULES_PERFT[1]
    assert main(["perft", "germaine", "1", "--depth", str(len(counts)), *jobs]) == 0
    lines = capsys.readouterr().out.strip().split("\n")
    threads = int(jobs[1]) if jobs else 2
    assert lines[1].endswith(f"; the C++ engine on {threads} thread"
                             + ("s where the depth before took 0.05 s or more" if threads > 1 else ""))
    assert [int(line.split()[1].replace(",", "")) for line in lines[3:]] == list(counts)


@pytest.mark.parametrize("jobs", ["0", "1025"])
def test_perft_jobs_is_refused_outside_one_to_max_threads(jobs: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["perft", "germaine", "1", "--jobs", jobs])
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "argument --jobs: jobs must be in 1 .. 1024" in captured.err


def test_perft_reads_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    position = tmp_path / "row.txt"
    position.write_text("QH 3C 9D 2S 3S KH\n", encoding="utf-8")
    assert main(["perft", "royal-marriage", "--file", str(position), "--depth", "2", "--impl", "reference"]) == 0
    assert [line.split()[1] for line in capsys.readouterr().out.strip().split("\n")[3:]] == ["1", "1"]


def test_bad_file_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    position = tmp_path / "bad.txt"
    position.write_text("QH 3C ZZ KH\n", encoding="utf-8")
    assert main(["perft", "royal-marriage", "--file", str(position), "--depth", "1"]) == 2
    assert "line 1, token 3 'ZZ'" in capsys.readouterr().err
    assert main(["perft", "royal-marriage", "--file", str(tmp_path / "missing.txt")]) == 2


@pytest.mark.parametrize("argv", [["deal", "chess", "1"], ["deal", "germaine", "-1"],
                                  ["deal", "germaine", str(1 << 64)], ["perft", "germaine", "1", "--depth", "-2"],
                                  ["perft", "germaine", "1", "--depth", "0"]])
def test_bad_arguments_exit_2(argv: list, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2


def test_console_script_runs() -> None:
    script = Path(sys.executable).with_name("patience")
    assert script.is_file(), "the package installs a 'patience' console script beside the interpreter"
    result = subprocess.run([str(script), "deal", "royal-marriage", "3"], capture_output=True, text=True, check=True)
    assert result.stdout.startswith("QH 8S 7S 6S")
    as_module = subprocess.run([sys.executable, "-m", "patience_engine", "deal", "royal-marriage", "3"],
                               capture_output=True, text=True, check=True)
    assert as_module.stdout == result.stdout


def _solve_output(out: str) -> Dict[str, str]:
    """The ``name value`` lines that close ``patience solve`` output."""
    return dict(line.split(None, 1) for line in out.strip().split("\n")[-7:])


@pytest.mark.parametrize("row, code, status", [("QH 3H 4H KH", 0, "won"), ("QH 2C 5D 7S KH", 1, "lost")])
def test_solve_exit_code_is_the_status(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       row: str, code: int, status: str) -> None:
    position = tmp_path / "row.txt"
    position.write_text(row + "\n", encoding="utf-8")
    assert main(["solve", "royal-marriage", "--file", str(position)]) == code
    fields = _solve_output(capsys.readouterr().out)
    assert fields["status"].split(":")[0] == status and fields["proven"] == "yes"


def test_solve_at_the_node_limit_is_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "germaine", "1", "--node-limit", "10"]) == 3
    fields = _solve_output(capsys.readouterr().out)
    assert fields["status"] == "unknown: the search stopped before it ended" and fields["proven"] == "no"
    assert int(fields["nodes"].replace(",", "")) <= 10
    assert set(fields) == {"status", "proven", "moves", "score", "nodes", "seconds", "nodes/s"}


def test_solve_jobs_searches_on_threads_to_the_same_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    # Germaine deal 96 ends at a perfect 64 within some thousand nodes; Geoffrey deal 3 is lost.
    assert main(["solve", "germaine", "96", "--jobs", "2"]) == 0
    fields = _solve_output(capsys.readouterr().out)
    assert (fields["status"], fields["proven"], fields["score"]) == ("won", "yes", "64")
    assert main(["solve", "geoffrey", "3", "--jobs", "3"]) == 1
    assert _solve_output(capsys.readouterr().out)["status"] == "lost: no line wins (proven)"
    assert main(["solve", "germaine", "1", "--node-limit", "1001", "--jobs", "2"]) == 3
    assert _solve_output(capsys.readouterr().out)["nodes"] == "1,001"


def test_solve_says_lost_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    # Geoffrey deal 3 is lost (tests/test_solver.py checks it against the reference's search).
    assert main(["solve", "geoffrey", "3"]) == 1
    fields = _solve_output(capsys.readouterr().out)
    assert fields["status"] == "lost: no line wins (proven)" and fields["proven"] == "yes"
    assert fields["moves"] == "0" and fields["score"] == "0"


def test_perft_progress_is_shown_only_when_asked_or_on_a_terminal(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(cli, "_PROGRESS_DELAY", 0.0)
    monkeypatch.setattr(cli, "_ONE_CALL_BELOW", 0.0)  # every depth after the first one root move at a time
    argv = ["perft", "geoffrey", "2", "--depth", "3", "--impl", "reference"]
    monkeypatch.delenv(cli.PROGRESS_ENV, raising=False)
    assert main(argv) == 0
    assert capsys.readouterr().err == ""  # stderr is no terminal here
    monkeypatch.setenv(cli.PROGRESS_ENV, "1")
    assert main(argv) == 0
    assert "reference depth 3:" in capsys.readouterr().err


def test_solve_progress_is_shown_only_when_asked_or_on_a_terminal(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(cli, "_PROGRESS_DELAY", 0.0)
    argv = ["solve", "germaine", "3", "--node-limit", "1000000"]
    monkeypatch.delenv(cli.PROGRESS_ENV, raising=False)
    assert main(argv) == 0
    assert capsys.readouterr().err == ""  # stderr is no terminal here
    monkeypatch.setenv(cli.PROGRESS_ENV, "1")
    assert main(argv) == 0
    captured = capsys.readouterr()
    nodes = int(_solve_output(captured.out)["nodes"].replace(",", ""))
    shown = re.findall(r"([0-9.]+)([kM]?) nodes \[[0-9:]+, *[0-9.]+[kM]? nodes/s, best score (-|\d+)\]",
                       captured.err)
    assert shown, captured.err
    counts = [float(n) * {"": 1, "k": 1e3, "M": 1e6}[unit] for n, unit, _ in shown]
    assert counts == sorted(counts) and counts[-1] <= nodes
    assert {best for _, _, best in shown} <= {"-", *map(str, range(65))}


def test_solve_prints_a_line_that_wins(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "geoffrey", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Geoffrey, deal 2\n")
    count, moves = _solve_output(out)["moves"].split(": ")
    game = reference.Geoffrey.deal(2)
    for move in moves.split():
        game.play(move)
    assert game.is_won and int(count) == len(moves.split())


def test_solve_show_prints_the_position_after_each_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    position = tmp_path / "row.txt"
    position.write_text("QH 3C 9D 2S 3S KH\n", encoding="utf-8")
    assert main(["solve", "royal-marriage", "--file", str(position), "--show"]) == 0
    out = capsys.readouterr().out
    assert "QH 3C 9D 2S 3S KH\n\n1. 9D+2S\nQH 3C 3S KH\n\n2. 3C+3S\nQH KH\n" in out


@pytest.mark.parametrize("argv", [["solve", "germaine"], ["solve", "germaine", "1", "--file", "x.txt"],
                                  ["solve", "germaine", "1", "--node-limit", "0"],
                                  ["solve", "germaine", "1", "--time-limit", "-1"],
                                  ["solve", "germaine", "1", "--jobs", "0"],
                                  ["solve", "germaine", "1", "--jobs", "1025"]])
def test_solve_bad_arguments_exit_2(argv: List[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2


def test_solve_ctrl_c_exits_130_and_shows_what_it_found() -> None:
    result = interrupt_after_first_line(
        [sys.executable, "-m", "patience_engine.cli", "solve", "germaine", str(HARD_GERMAINE_DEAL)], 0.3)
    assert result.code == 130 and result.stderr == "interrupted\n"
    assert "status   unknown: the search stopped before it ended\nproven   no\nmoves    " in result.stdout
    assert "\nnodes/s  " in result.stdout


def test_perft_reads_stdin_once_for_both_implementations() -> None:
    script = Path(sys.executable).with_name("patience")
    result = subprocess.run([str(script), "perft", "germaine", "--file", "-", "--impl", "both", "--depth", "2"],
                            input=GERMAINE_DEAL_1, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert [line.split()[1] for line in result.stdout.strip().split("\n")[3:]] == ["26", "724"]


def test_deal_numbers_with_leading_zeros(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "germaine", "001"]) == 0
    assert capsys.readouterr().out == GERMAINE_DEAL_1 + "\n"


def test_file_that_is_not_utf8_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    position = tmp_path / "latin1.txt"
    position.write_bytes("QH 7S\xe9 KH".encode("latin-1"))
    assert main(["perft", "royal-marriage", "--file", str(position)]) == 2
    assert f"{position}: not UTF-8" in capsys.readouterr().err


def test_a_file_too_long_to_be_a_position_is_refused_unread(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # perft geoffrey --file /dev/zero read until the kernel killed it for memory.
    assert main(["perft", "geoffrey", "--file", "/dev/zero"]) == 2
    assert capsys.readouterr().err == ("patience: error: /dev/zero: longer than 1,048,576 bytes, which no "
                                       "position's text is\n")


def test_a_file_error_names_the_file_and_a_byte_order_mark_is_dropped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    position = tmp_path / "row.txt"
    position.write_bytes("\ufeffQH 3C 9D 2S 3S KH\n".encode("utf-8"))
    assert main(["perft", "royal-marriage", "--file", str(position), "--depth", "1", "--impl", "both"]) == 0
    position.write_text("QH 3C ZZ KH\n", encoding="utf-8")
    assert main(["perft", "royal-marriage", "--file", str(position), "--depth", "1"]) == 2
    assert capsys.readouterr().err == f"patience: error: {position}: line 1, token 3 'ZZ': unknown card\n"


def test_file_from_a_closed_stdin_is_a_clear_error() -> None:
    child = subprocess.run([sys.executable, "-m", "patience_engine.cli", "perft", "geoffrey", "--file", "-"],
                           capture_output=True, text=True, preexec_fn=lambda: os.close(0), timeout=60)
    assert (child.returncode, child.stderr) == (2, "patience: error: --file -: standard input is closed\n")


def test_a_memory_error_without_a_message_says_out_of_memory(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def no_memory(args: object) -> int:
        raise MemoryError

    monkeypatch.setattr(cli, "cmd_deal", no_memory)
    assert main(["deal", "germaine", "1"]) == 2
    assert capsys.readouterr().err == "patience: error: out of memory\n"

    def no_message(args: object) -> int:
        raise ValueError

    monkeypatch.setattr(cli, "cmd_deal", no_message)
    assert main(["deal", "germaine", "1"]) == 2
    assert capsys.readouterr().err == "patience: error: ValueError\n"


def test_play_refuses_a_table_too_big_before_any_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "geoffrey", "1", "--table-bytes", str(2**63 - 1)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"patience: error: out of memory (transposition table of {2**63 - 1:,} bytes)\n"


def test_perft_takes_one_position_source(tmp_path: Path) -> None:
    position = tmp_path / "row.txt"
    position.write_text("QH 3C 9D 2S 3S KH", encoding="utf-8")
    with pytest.raises(SystemExit):
        main(["perft", "royal-marriage", "3", "--file", str(position)])


def _usage_error(argv: List[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The stderr of a command line that argparse refuses (exit 2, nothing on stdout)."""
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    out, err = capsys.readouterr()
    assert out == "", "refused before anything is printed"
    return err


@pytest.mark.parametrize("limit", ["inf", "nan", "Infinity", "-1e400", "-inf", "-1", "-1e-400", "0", "x", "1_0", "\u0661"])
def test_time_limit_must_be_a_finite_positive_number(limit: str, capsys: pytest.CaptureFixture[str]) -> None:
    err = _usage_error(["solve", "germaine", "1", f"--time-limit={limit}"], capsys)
    assert "time limit must be" in err and repr(limit) in err


@pytest.mark.parametrize("limit", ["1e12", "1e400"])  # 1e400 is finite, past the floats, as the API's 10**400
def test_huge_time_limit_does_not_stop_the_search_at_once(limit: str, capsys: pytest.CaptureFixture[str]) -> None:
    # 1e12 s used to overflow the deadline's 64-bit nanoseconds and end the search at the first poll.
    assert main(["solve", "germaine", str(HARD_GERMAINE_DEAL), "--node-limit", "1000000", "--time-limit", limit]) == 3
    assert _solve_output(capsys.readouterr().out)["nodes"] == "1,000,000"


@pytest.mark.parametrize("limit", [str(10**30), str(1 << 63)])
def test_solve_node_limit_must_fit_64_bits(limit: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert f"node limit must be in 1 .. 2**63-1, got {limit}" in _usage_error(
        ["solve", "royal-marriage", "1", "--node-limit", limit], capsys)


def test_numbers_too_long_to_read_are_refused_by_length(capsys: pytest.CaptureFixture[str]) -> None:
    # int() refuses more than 4300 digits; the message must still be ours, and leading zeros are no length.
    huge = "9" * 5000
    assert "deal number must be in 0 .. 2**64-1, got a number of 5000 digits" in _usage_error(
        ["deal", "royal-marriage", huge], capsys)
    assert "jobs must be >= 1, got a number of 5000 digits, too many to read" in _usage_error(
        ["survey", "germaine", "1-2", "--jobs", huge, "unused.db"], capsys)
    assert f"depth must be in 1 .. 500, got {10**38}" in _usage_error(
        ["perft", "germaine", "1", "--depth", str(10**38)], capsys)
    assert main(["deal", "germaine", "0" * 5000 + "1"]) == 0
    assert capsys.readouterr().out == GERMAINE_DEAL_1 + "\n"


def test_perft_depth_is_at_least_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert "depth must be in 1 .. 500, got 0" in _usage_error(["perft", "germaine", "1", "--depth", "0"], capsys)


@pytest.mark.parametrize("number", ["0x10", "5_0", "\u0663", "\uff17", " 7", "+7", "1e3", "-1", "7.0", ""])
@pytest.mark.parametrize("command", ["deal", "perft", "show", "solve"])
def test_deal_numbers_are_plain_decimal_digits(command: str, number: str, capsys: pytest.CaptureFixture[str]) -> None:
    err = _usage_error([command, "royal-marriage", number], capsys)
    assert f"deal number must be written with the digits 0-9 alone, got {number!r}" in err


def test_usage_errors_name_the_sources_each_command_has(capsys: pytest.CaptureFixture[str]) -> None:
    err = _usage_error(["deal", "germaine"], capsys)
    assert err.startswith("usage: patience deal ") and "--file" not in err
    assert "deal needs exactly one of a deal number N and --pysol P" in err
    err = _usage_error(["solve", "germaine"], capsys)
    assert err.startswith("usage: patience solve ")
    assert "solve needs exactly one of a deal number N, --pysol P and --file F" in err


@pytest.mark.parametrize("buffered", [True, False])
@pytest.mark.parametrize("argv", [["deal", "germaine", "1"], ["perft", "royal-marriage", "1", "--depth", "2"],
                                  ["solve", "royal-marriage", "1", "--show"], ["--help"]])
def test_a_closed_pipe_ends_the_command_quietly(argv: List[str], buffered: bool) -> None:
    script = Path(sys.executable).with_name("patience")
    env = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"
    with subprocess.Popen([str(script), *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) as child:
        assert child.stdout is not None and child.stderr is not None
        child.stdout.close()  # as `| head -1` does, here before the command has written anything
        err = child.stderr.read()
        code = child.wait(timeout=30)
    # Unbuffered, argparse's help meets the closed pipe at once and ignores the error itself: exit 0
    # (from Python 3.11 on; 3.10's argparse lets the error through, which ends the command as any other).
    ignored = argv == ["--help"] and not buffered and sys.version_info >= (3, 11)
    assert (code, err) == (0 if ignored else 141, b"")


def test_a_closed_stdout_is_a_clear_error() -> None:
    # os.close(1) before exec: Python starts with sys.stdout None, as after `patience deal ... >&-`.
    child = subprocess.run([sys.executable, "-m", "patience_engine.cli", "deal", "germaine", "1"],
                           stderr=subprocess.PIPE, text=True, preexec_fn=lambda: os.close(1), timeout=60)
    assert (child.returncode, child.stderr) == (2, "patience: error: standard output is closed\n")


def test_perft_times_a_quick_call_by_the_fastest_of_its_repeats(monkeypatch: pytest.MonkeyPatch) -> None:
    """A call under 0.01 s is repeated for 0.05 s and the fastest shown; a slower one runs once."""
    from patience_engine import cli

    calls: List[int] = []
    durations = iter([0.004, 0.002, 0.003] + [0.004] * 20)
    clock = [0.0]

    def fake_perft(state: object, depth: int, num_threads: int = 1) -> int:
        calls.append(depth)
        clock[0] += next(durations)
        return 7

    monkeypatch.setitem(cli.PERFT, "cpp", fake_perft)
    monkeypatch.setattr(cli, "time", SimpleNamespace(perf_counter=lambda: clock[0]))
    count, seconds = cli._timed_perft("cpp", None, 2, "cpp depth 2", split=False)
    # 0.004 + 0.002 + 0.003 + 0.004 * 11 passes 0.05 s at the 14th call.
    assert (count, len(calls), seconds) == (7, 14, pytest.approx(0.002))

    calls.clear()
    durations = iter([0.02])
    count, seconds = cli._timed_perft("cpp", None, 2, "cpp depth 2", split=False)
    assert (count, len(calls), seconds) == (7, 1, pytest.approx(0.02))


@pytest.mark.parametrize("seconds, shown", [
    (0.0002134, "213 µs"), (0.0042149, "4.21 ms"), (1.0504, "1.05 s"), (12.345, "12.3 s"), (0.0999, "99.9 ms"),
    (0.00099996, "1.00 ms"), (0.99996, "1.00 s"), (3.2e-8, "32.0 ns"), (4321.0, "4321 s"),
])
def test_perft_times_keep_three_significant_digits(seconds: float, shown: str) -> None:
    from patience_engine.cli import format_seconds

    assert format_seconds(seconds) == shown


def test_perft_on_an_ascii_output_spells_microseconds_us() -> None:
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    result = subprocess.run([sys.executable, "-m", "patience_engine.cli", "perft", "royal-marriage", "--depth", "1"],
                            capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    row = result.stdout.strip().split("\n")[3]
    assert re.search(r" (ns|us|ms|s) ", row) and "µ" not in row, row


@pytest.mark.parametrize("command", ["deal", "perft", "show", "solve", "play"])
def test_pysol_help_names_the_games_the_command_takes(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    # play takes the games the blind players play (GameInfo.blind_players).
    expected = ", ".join(names_where(lambda info: info.pysol_id is not None and (info.blind_players or command != "play")))
    assert f"PySolFC game number P instead of N ({expected}; 'ms' prefix allowed)" in help_text
