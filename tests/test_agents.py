"""The example agents (examples/agents.py, docs/rl.md "Agents") on the reference."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, List

import pytest

from patience_engine import reference

SCRIPT = Path(__file__).resolve().parent.parent / "examples" / "agents.py"


@pytest.fixture(scope="module")
def agents() -> ModuleType:
    spec = importlib.util.spec_from_file_location("agents", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["agents"] = module
    spec.loader.exec_module(module)
    return module


def test_monte_carlo_with_one_move_left_takes_the_most_cards(agents: ModuleType) -> None:
    # Deal 4 of Royal Marriage allows removals of one card (actions 0..49, score +1) and of two (50.., +2).
    state = reference.RoyalMarriage.deal(4)
    legal = state.legal_actions()
    assert min(legal) < 50 <= max(legal)
    choose = agents.flat_monte_carlo(reference, playouts=3, determinizations=1)
    assert choose(state, 1, 0) == min(a for a in legal if a >= 50)  # ties go to the lowest action
    assert state == reference.RoyalMarriage.deal(4)


@pytest.mark.parametrize("playouts, determinizations, shares", [(5, 10, [1] * 5), (7, 3, [3, 2, 2]), (6, 3, [2, 2, 2])])
def test_monte_carlo_shares_out_exactly_the_playouts_asked(
        agents: ModuleType, playouts: int, determinizations: int, shares: List[int]) -> None:
    asked: List[int] = []

    class Counting:
        @staticmethod
        def playouts(state: Any, n: int, *, seed: int, max_moves: int) -> List[int]:
            asked.append(n)
            return reference.playouts(state, n, seed=seed, max_moves=max_moves)

    state = reference.Geoffrey.deal(2)
    agents.flat_monte_carlo(Counting, playouts, determinizations)(state, 5, 0)
    assert asked == shares * len(state.legal_actions())


def test_random_agent_plays_a_legal_action(agents: ModuleType) -> None:
    state = reference.Geoffrey.deal(2)
    assert {agents.random_agent(state, 10, seed) for seed in range(40)} == set(state.legal_actions())


def test_script_prints_the_table(agents: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    agents.main(["--game", "royal-marriage", "--deals", "1", "--playouts", "2", "--determinizations", "1",
                 "--impl", "reference"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "| game | agent | deals | won | win rate | mean score | seconds |"
    assert [line.split(" | ")[:3] for line in lines[2:]] == [["| royal-marriage", "random", "1"],
                                                              ["| royal-marriage", "flat Monte-Carlo", "1"]]


def test_script_refuses_bad_counts(agents: ModuleType) -> None:
    with pytest.raises(SystemExit):
        agents.main(["--deals", "0", "--impl", "reference"])
