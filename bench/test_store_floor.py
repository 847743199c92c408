"""bench/store_floor.py on a small batch: its table, its recording and its check of the timed steps."""

from __future__ import annotations

from typing import List

import numpy as np
import pytest

from patience_engine import VectorGame
from patience_engine.games import REGISTRY, TITLES
from store_floor import LINE, main, real_seconds, record


def test_prints_a_row_of_figures_per_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--slots", "16", "--warm", "3", "--steps", "4", "--rounds", "1"]) == 0
    rows = [line.split(" | ") for line in capsys.readouterr().out.splitlines() if line.startswith("| ")]
    assert [row[0].lstrip("| ") for row in rows[1:]] == [TITLES[game] for game in REGISTRY]
    for row in rows[1:]:
        assert float(row[1]) > 0 and float(row[4]) > 0


@pytest.mark.parametrize("channels_last", [False, True])
@pytest.mark.parametrize("game", list(REGISTRY))
def test_records_the_line_of_every_changed_byte_once_per_slot(game: str, channels_last: bool) -> None:
    slots, warm, steps = 6, 2, 5
    rec = record(game, slots, warm, steps, channels_last)
    # The same steps again, the changed bytes found one slot at a time.
    vec = VectorGame(game, slots)
    view = vec.reset(seed=1)[0]
    obs = view.reshape(slots, -1)
    # Entry k of a row is plane k // size, index k % size; channels last puts it at index x planes + plane.
    planes, size = view.shape[1], obs.shape[1] // view.shape[1]
    where = [k % size * planes + k // size if channels_last else k for k in range(obs.shape[1])]
    for _ in range(warm):
        vec.step(vec.sample_legal_actions())
    masks = vec.action_masks.view(np.uint8)
    for offsets in rec.steps:
        old_obs, old_masks = obs.copy(), masks.copy()
        vec.step(vec.sample_legal_actions())
        expected: List[int] = []
        for i in range(slots):
            changed = [i * obs.shape[1] + where[k] for k in np.flatnonzero(obs[i] != old_obs[i])]
            changed += [obs.size + i * masks.shape[1] + int(k) for k in np.flatnonzero(masks[i] != old_masks[i])]
            expected += sorted({byte // LINE * LINE for byte in changed})
        assert offsets.tolist() == expected
    assert rec.buffer_bytes == obs.size + masks.size and rec.rewards > 0


def test_refuses_timed_steps_that_are_not_the_recorded_ones() -> None:
    rec = record("germaine", 8, 2, 3)
    real_seconds("germaine", 8, 2, 3, rec.rewards)
    with pytest.raises(AssertionError, match="rewards sum to"):
        real_seconds("germaine", 8, 2, 3, rec.rewards + 1)


@pytest.mark.parametrize("argv, message", [(["--slots", "0"], "--slots must be at least 1"),
                                           (["--slots", str(2**31)], "--slots must be at most 2147483647"),
                                           (["--warm", "-1"], "--warm must be at least 0"),
                                           (["-k", "nosuch"], "invalid choice: 'nosuch'")])
def test_refuses_bad_arguments_in_one_line(argv: List[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit:
        main(argv)
    assert exit.value.code == 2 and message in capsys.readouterr().err


def test_a_game_named_twice_is_measured_once(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--slots", "4", "--warm", "1", "--steps", "2", "--rounds", "1", "-k", "germaine", "-k", "germaine"]) == 0
    assert capsys.readouterr().out.count("| Germaine 2-Move |") == 1
