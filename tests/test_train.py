"""examples/train.py, the learning baseline (docs/rl.md "A learning baseline"): a run resumes where it
stopped, lives outside the repository, and its evaluation plays the held-out deals. Training needs
sb3-contrib and torch (CI's recipe venv); without them those tests skip and say so."""

from __future__ import annotations

import csv
import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import List

import pytest

from conftest import child_defaults

SCRIPT = Path(__file__).resolve().parent.parent / "examples" / "train.py"


def train(*args: str) -> "subprocess.CompletedProcess[str]":
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=900)


def curve(folder: Path) -> List[List[str]]:
    with open(folder / "curve.csv", newline="") as handle:
        return list(csv.reader(handle))


def test_a_run_folder_inside_the_repository_is_refused() -> None:
    inside = SCRIPT.parent.parent / "runs"
    done = train("train", "--game", "germaine", "--dir", str(inside))
    assert done.returncode == 2 and f"{inside} is inside the repository" in done.stderr
    assert not inside.exists()


def test_a_stopped_run_resumes_from_its_checkpoint(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed (CI's recipe venv has it)")
    run = tmp_path / "germaine"
    common = ["--game", "germaine", "--dir", str(run), "--checkpoint-every", "2048", "--envs", "2"]
    first = train("train", *common, "--steps", "2048")
    assert first.returncode == 0, first.stderr
    assert json.loads((run / "run.json").read_text())["steps"] == 2048
    # SIGTERM part way through a longer budget: a checkpoint, then exit 143 with one line.
    with open(tmp_path / "stderr.txt", "w") as stderr:
        child = subprocess.Popen([sys.executable, str(SCRIPT), "train", *common, "--steps", "1000000"],
                                 stdout=subprocess.DEVNULL, stderr=stderr, text=True, preexec_fn=child_defaults)
    try:
        deadline = time.monotonic() + 540
        while len(curve(run)) < 2:  # a checkpoint of the resumed run: its handler is in place
            assert child.poll() is None and time.monotonic() < deadline, "the resumed run must checkpoint"
            time.sleep(0.2)
        child.send_signal(signal.SIGTERM)
        code = child.wait(timeout=120)
    finally:
        child.kill()
        child.wait()
    assert code == 143 and (tmp_path / "stderr.txt").read_text().endswith(
        "stopped: run again with the same --dir to resume\n")
    steps = json.loads((run / "run.json").read_text())["steps"]
    assert steps > 2048 and int(curve(run)[-1][0]) == steps
    again = train("train", *common, "--steps", str(steps))
    assert again.returncode == 0 and again.stdout == f"{run}: {steps:,} steps done, the budget is {steps:,}\n"
    evaluated = train("evaluate", "--game", "germaine", "--agent", "ppo", "--dir", str(run), "--deals", "3")
    assert evaluated.returncode == 0, evaluated.stderr
    result = json.loads((run / "eval-ppo.json").read_text())
    assert (result["deals"], result["steps"]) == ([1_000_001, 1_000_003], steps)
    # The sampled policy draws from a generator seeded by the deal: the same evaluation twice is the same.
    sampled = [train("evaluate", "--game", "germaine", "--agent", "ppo-sampled", "--dir", str(run), "--deals", "3")
               for _ in range(2)]
    assert [done.returncode for done in sampled] == [0, 0], sampled[0].stderr
    assert sampled[0].stdout.split("|")[:7] == sampled[1].stdout.split("|")[:7]  # all but the seconds
    assert json.loads((run / "eval-ppo-sampled.json").read_text())["steps"] == steps
