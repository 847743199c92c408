"""The RL libraries people use, on the environments (docs/rl.md): each test skips, saying why, where its
library is not installed; .ci/run installs them all in a venv of their own and runs this file there."""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any, Dict

import gymnasium
import pytest

from conftest import GAME_NAMES
from patience_engine.envs import ENV_IDS


@pytest.mark.parametrize("game", GAME_NAMES)
def test_sb3_check_env_is_silent_on_the_flat_observation(game: str) -> None:
    checker = pytest.importorskip("stable_baselines3.common.env_checker",
                                  reason="stable-baselines3 is not installed (CI's recipe venv has it)")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        checker.check_env(gymnasium.make(ENV_IDS[game], flat=True))
    with pytest.warns(UserWarning):  # the planes: an "unconventional shape", or an image it cannot take
        checker.check_env(gymnasium.make(ENV_IDS[game]))


def test_arrays_reach_torch_as_docs_rl_md_says() -> None:
    """docs/rl.md "Arrays of other libraries": from_dlpack shares the read-only buffers without a warning,
    np.copyto fills torch-owned storage, and the environments' default copies are writable."""
    torch = pytest.importorskip("torch", reason="torch is not installed (CI's recipe venv has it)")
    import numpy as np

    import patience_engine as pe

    vec = pe.VectorGame("germaine", 4)
    obs, _ = vec.reset(seed=0)
    assert not obs.flags.writeable and not vec.action_masks.flags.writeable
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        shared, masks = torch.from_dlpack(obs), torch.from_dlpack(vec.action_masks)
        assert shared.data_ptr() == obs.ctypes.data and masks.dtype == torch.bool
        storage = torch.zeros((2, 4, int(np.prod(vec.OBSERVATION_SHAPE))))
        np.copyto(storage.numpy()[0], obs.reshape(4, -1))
        assert torch.equal(storage[0], shared.reshape(4, -1).float())
        envs = gymnasium.make_vec(ENV_IDS["germaine"], num_envs=4, vectorization_mode="vector_entry_point")
        copied, info = envs.reset(seed=0)
        assert copied.flags.writeable and torch.equal(torch.from_numpy(copied), shared)
        assert torch.equal(torch.from_numpy(info["action_mask"]), masks)
    vec.step(torch.from_dlpack(vec.sample_legal_actions()))
    assert not torch.equal(storage[0], shared.reshape(4, -1).float()), "the shared tensor is the live buffer"


RL_MD = Path(__file__).resolve().parents[1] / "docs" / "rl.md"


def recipe(name: str) -> str:
    """The Python block of docs/rl.md "Recipes" whose first line is ``# recipe: <name>``."""
    blocks = re.findall(r"^```python\n(# recipe: (\S+)\n.*?)^```$", RL_MD.read_text(encoding="utf-8"), re.M | re.S)
    found = [code for code, title in blocks if title == name]
    assert len(found) == 1, f"docs/rl.md has {len(found)} recipes named {name!r}"
    return found[0]


def run(name: str) -> Dict[str, Any]:
    """Run a recipe as a reader would paste it, warnings as errors (pyproject.toml); its globals after."""
    namespace: Dict[str, Any] = {"__name__": f"recipe_{name}"}
    exec(compile(recipe(name), f"docs/rl.md recipe {name}", "exec"), namespace)
    return namespace


def test_sb3_contrib_maskable_ppo_trains_with_no_wrapper() -> None:
    pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed (CI's recipe venv has it)")
    done = run("sb3-contrib")
    assert done["model"].num_timesteps == 256
    assert done["info"]["action_mask"].dtype == bool and done["reward"] in (1.0, 2.0)


def test_torchrl_rollout_draws_legal_actions_across_episodes() -> None:
    pytest.importorskip("torchrl", reason="torchrl is not installed (CI's recipe venv has it)")
    rollout = run("torchrl")["rollout"]
    assert rollout.batch_size[0] == 300
    chosen = rollout["action_mask"].gather(-1, rollout["action"].unsqueeze(-1))
    assert chosen.all(), "every action drawn was legal"
    assert int(rollout["next", "done"].sum()) >= 2, "Royal Marriage episodes end within 50 moves: several ended"
    assert set(rollout["next", "reward"].unique().tolist()) <= {1.0, 2.0}


def test_a_masked_ppo_loop_over_vector_game_in_plain_torch() -> None:
    torch = pytest.importorskip("torch", reason="torch is not installed (CI's recipe venv has it)")
    done = run("torch")
    assert torch.isfinite(done["loss"]) and done["b_mask"].any(dim=1).all()
    legal = done["mask_t"].gather(-1, done["actions_t"].unsqueeze(-1)).squeeze(-1)
    assert bool(legal[done["decides_t"].bool()].all()), "every action that counted was legal"
    assert (done["decides_t"] == 0).any(), "autoreset steps came up, and were left out"
