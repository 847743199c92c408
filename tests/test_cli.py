"""The ``patience`` command line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from patience_engine.cli import main
from test_rules import GERMAINE_DEAL_1


def test_deal_prints_the_text_format(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "germaine", "1"]) == 0
    assert capsys.readouterr().out == GERMAINE_DEAL_1 + "\n"


def test_perft_both_prints_counts_and_rates(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "geoffrey", "2", "--depth", "4", "--impl", "both"]) == 0
    out = capsys.readouterr().out
    lines = out.strip().split("\n")
    assert lines[0] == "Geoffrey, deal 2"
    assert [line.split()[1] for line in lines[2:]] == ["4", "18", "85", "407"]
    assert "nodes/s" in lines[1] and "cpp/reference" in lines[1]


def test_perft_reads_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    position = tmp_path / "row.txt"
    position.write_text("QH 3C 9D 2S 3S KH\n", encoding="utf-8")
    assert main(["perft", "royal-marriage", "--file", str(position), "--depth", "2", "--impl", "reference"]) == 0
    assert [line.split()[1] for line in capsys.readouterr().out.strip().split("\n")[2:]] == ["1", "1"]


def test_bad_file_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    position = tmp_path / "bad.txt"
    position.write_text("QH 3C ZZ KH\n", encoding="utf-8")
    assert main(["perft", "royal-marriage", "--file", str(position), "--depth", "1"]) == 2
    assert "line 1, token 3 'ZZ'" in capsys.readouterr().err
    assert main(["perft", "royal-marriage", "--file", str(tmp_path / "missing.txt")]) == 2


@pytest.mark.parametrize("argv", [["deal", "chess", "1"], ["deal", "germaine", "-1"],
                                  ["deal", "germaine", str(1 << 64)], ["perft", "germaine", "1", "--depth", "-2"]])
def test_bad_arguments_exit_2(argv: list, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2


def test_console_script_runs() -> None:
    script = Path(sys.executable).with_name("patience")
    assert script.is_file(), "the package installs a 'patience' console script beside the interpreter"
    result = subprocess.run([str(script), "deal", "royal-marriage", "3"], capture_output=True, text=True, check=True)
    assert result.stdout.startswith("QH 8S 7S 6S")
