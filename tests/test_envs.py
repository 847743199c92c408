"""The Gymnasium environments of patience_engine.envs on either implementation (docs/rl.md "Gymnasium")."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode

from conftest import GAME_NAMES, game_data
from patience_engine import reference
from patience_engine.envs import ENV_IDS, PatienceEnv, PatienceVectorEnv
from patience_engine.games import REGISTRY, names_where

IMPLS = ["reference", "cpp"]


@pytest.fixture(params=IMPLS)
def impl(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def make(game: str, impl: str, **kwargs: Any) -> PatienceEnv:
    env = gymnasium.make(ENV_IDS[game], impl=impl, **kwargs).unwrapped
    assert isinstance(env, PatienceEnv)
    return env


def test_ids() -> None:
    assert ENV_IDS == {game: game_data(game).ENV_ID for game in GAME_NAMES}


@pytest.mark.parametrize("game", GAME_NAMES)
def test_check_env(game: str, impl: str) -> None:
    check_env(make(game, impl, render_mode="ansi"))
    check_env(make(game, impl))


@pytest.mark.parametrize("game", GAME_NAMES)
def test_spaces(game: str, impl: str) -> None:
    env = make(game, impl)
    cls = reference.GAMES[game]
    assert env.action_space == gymnasium.spaces.Discrete(cls.NUM_ACTIONS)
    assert env.observation_space == gymnasium.spaces.Box(0, 1, cls.OBSERVATION_SHAPE, np.uint8)
    obs, info = env.reset(options={"deal": 3})
    state = cls.deal(3)
    assert obs.dtype == np.uint8 and obs.tolist() == state.observation(hidden=REGISTRY[game].hidden_cards)
    assert info["action_mask"].dtype == np.bool_ and info["action_mask"].tolist() == state.legal_action_mask()


@pytest.mark.parametrize("game", names_where(lambda info: info.hidden_cards))
def test_a_game_with_hidden_cards_is_hidden_unless_told(game: str, impl: str) -> None:
    hidden, shown = make(game, impl, render_mode="ansi"), make(game, impl, hidden=False, render_mode="ansi")
    assert (hidden.hidden, shown.hidden) == (True, False)
    deal = reference.GAMES[game].deal(2)
    assert hidden.reset(options={"deal": 2})[0].tolist() == deal.observation(hidden=True)
    assert shown.reset(options={"deal": 2})[0].tolist() == deal.observation()
    assert hidden.render() == deal.to_text(hidden=True) and "(??)" in deal.to_text(hidden=True)
    assert shown.render() == deal.to_text()


def test_a_seed_draws_the_deal(impl: str) -> None:
    env, twin = make("germaine", impl, render_mode="ansi"), make("germaine", impl, render_mode="ansi")
    env.reset(seed=5)
    twin.reset(seed=5)
    assert env.render() == twin.render()
    texts = {env.render()}
    for _ in range(3):
        env.reset()
        texts.add(env.render())
    assert len(texts) == 4


def test_bad_options() -> None:
    env = make("germaine", "reference")
    with pytest.raises(ValueError, match="^unknown option 'deals': the only one is 'deal'$"):
        env.reset(options={"deals": [1]})
    with pytest.raises(ValueError, match="deal number must be in 0 .. 2\\*\\*64-1, got -1"):
        env.reset(options={"deal": -1})
    with pytest.raises(ValueError, match="impl must be 'cpp' or 'reference', got 'c'"):
        make("germaine", "c")
    with pytest.raises(ValueError, match="unknown game 'klondike'"):
        PatienceEnv("klondike", impl="reference")
    with pytest.raises(TypeError, match="^options must be a dict or None, got str$"):
        env.reset(options="deal")  # type: ignore[arg-type]
    vector = PatienceVectorEnv("germaine", 2, impl="reference")
    for odd in ("", 0, []):  # false, yet no dict: refused as VectorGame.reset refuses it
        with pytest.raises(TypeError, match=f"^options must be a dict or None, got {type(odd).__name__}$"):
            vector.reset(options=odd)  # type: ignore[arg-type]
    assert len(vector.reset(seed=1, options={})[0]) == 2
    for cls in (PatienceEnv, PatienceVectorEnv):
        with pytest.raises(TypeError, match="^game must be a str, got list$"):
            cls([])  # type: ignore[arg-type]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_an_episode_sums_to_the_score(game: str, impl: str) -> None:
    env = make(game, impl, max_moves=40)
    state = reference.GAMES[game].deal(8)
    obs, info = env.reset(options={"deal": 8})
    rng = np.random.default_rng(0)
    total, moves = 0.0, 0
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(np.int64(action))
        state.play(action)
        moves += 1
        total += float(reward)
        assert obs.tolist() == state.observation(hidden=REGISTRY[game].hidden_cards)
        assert info["action_mask"].tolist() == state.legal_action_mask()
        assert terminated == state.is_over and truncated == (not state.is_over and moves == 40)
        if terminated or truncated:
            break
    assert total == state.score


def test_truncation_at_max_moves(impl: str) -> None:
    env = make("geoffrey", impl, max_moves=3)
    _, info = env.reset(options={"deal": 2})
    flags = []
    for _ in range(3):
        _, _, terminated, truncated, info = env.step(np.flatnonzero(info["action_mask"])[0])
        flags.append((terminated, truncated))
    assert flags == [(False, False), (False, False), (False, True)]


def test_an_illegal_action_ends_the_episode(impl: str) -> None:
    env = make("royal-marriage", impl, render_mode="ansi")
    _, info = env.reset(options={"deal": 1})
    text = env.render()
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (0.0, True, False, True)
    assert env.render() == text and obs.tolist() == reference.RoyalMarriage.deal(1).observation()
    with pytest.raises(ValueError, match="action 2500 is outside 0 .. 2499"):
        env.step(2500)
    with pytest.raises(TypeError, match="action must be an int, got bool"):
        env.step(True)


def test_the_mask_handed_out_is_the_callers(impl: str) -> None:
    """An agent may edit info["action_mask"] in place; the game is judged by the position."""
    env = make("geoffrey", impl)
    _, info = env.reset(options={"deal": 2})
    legal = int(np.flatnonzero(info["action_mask"])[0])
    info["action_mask"][legal] = False
    info["action_mask"][0] = True
    assert env.step(0)[1:4] == (0.0, True, False)  # still illegal: the episode ends
    _, info = env.reset(options={"deal": 2})
    info["action_mask"][legal] = False
    _, reward, terminated, _, info = env.step(legal)  # still legal: played
    assert not terminated and "illegal_action" not in info and env.state.move_stack != []


def test_render_needs_ansi() -> None:
    env = make("royal-marriage", "reference")
    env.reset(options={"deal": 1})
    assert env.render() is None


@pytest.mark.parametrize("game", GAME_NAMES)
def test_make_vec_runs_on_vector_game(game: str, impl: str) -> None:
    env = gymnasium.make_vec(ENV_IDS[game], num_envs=3, vectorization_mode="vector_entry_point", impl=impl)
    assert isinstance(env, PatienceVectorEnv)
    assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    cls = reference.GAMES[game]
    assert env.single_action_space == gymnasium.spaces.Discrete(cls.NUM_ACTIONS)
    assert env.single_observation_space == gymnasium.spaces.Box(0, 1, cls.OBSERVATION_SHAPE, np.uint8)
    assert env.observation_space.shape == (3, *cls.OBSERVATION_SHAPE)
    assert env.action_space == gymnasium.spaces.MultiDiscrete([cls.NUM_ACTIONS] * 3)
    hidden = REGISTRY[game].hidden_cards
    twin = reference.VectorGame(game, 3, max_moves=4, hidden=hidden)
    env = gymnasium.make_vec(ENV_IDS[game], num_envs=3, vectorization_mode="vector_entry_point", impl=impl,
                             max_moves=4)
    assert isinstance(env, PatienceVectorEnv)
    obs, info = env.reset(seed=9)
    expected, _ = twin.reset(seed=9)
    assert obs.dtype == np.uint8 and obs.shape == (3, *cls.OBSERVATION_SHAPE) and obs.tolist() == expected
    truncations = 0
    for _ in range(6):
        assert info["action_mask"].dtype == np.bool_ and info["action_mask"].tolist() == twin.action_masks
        actions = np.asarray(env.vector.sample_legal_actions(), dtype=np.int64)
        assert actions.tolist() == twin.sample_legal_actions()  # the same generator state on both sides
        obs, reward, terminated, truncated, info = env.step(actions)
        want = twin.step(actions)
        assert obs.tolist() == want[0]
        assert reward.dtype == np.float32 and reward.tolist() == want[1]
        assert terminated.dtype == truncated.dtype == np.bool_
        assert (terminated.tolist(), truncated.tolist()) == (want[2], want[3])
        truncations += int(truncated.sum())
    assert truncations > 0  # 4 moves a game in 6 steps: truncation and autoreset were both exercised


@pytest.mark.parametrize("game", GAME_NAMES)
def test_make_vec_passes_num_threads_to_the_vector_game(game: str, impl: str) -> None:
    """vector_entry_point: num_threads reaches the VectorGame (whose batches of 130 slots split in up to
    3 blocks of 64), and the episodes are those of one thread."""
    envs = [gymnasium.make_vec(ENV_IDS[game], num_envs=130, vectorization_mode="vector_entry_point", impl=impl,
                               num_threads=threads) for threads in (1, 3)]
    assert [env.unwrapped.vector.num_threads for env in envs] == [1, 3 if impl == "cpp" else 1]
    first, second = (env.reset(seed=4) for env in envs)
    for _ in range(5):
        assert first[0].tolist() == second[0].tolist()
        assert first[1]["action_mask"].tolist() == second[1]["action_mask"].tolist()
        actions = np.asarray(envs[0].unwrapped.vector.sample_legal_actions(), dtype=np.int64)
        assert actions.tolist() == np.asarray(envs[1].unwrapped.vector.sample_legal_actions()).tolist()
        first, second = (env.step(actions)[::4] for env in envs)


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_make_vec_refuses_num_threads_where_each_slot_is_an_env(mode: str) -> None:
    with pytest.raises(ValueError, match=r"^num_threads steps the slots of a batch on threads: only make_vec\(\.\.\., "
                       r"vectorization_mode='vector_entry_point'\) takes it"):
        gymnasium.make_vec(ENV_IDS["germaine"], num_envs=2, vectorization_mode=mode, num_threads=2)
    with pytest.raises(ValueError, match="^num_threads steps"):
        gymnasium.make(ENV_IDS["germaine"], num_threads=2)


def test_make_vec_max_episode_steps_is_the_move_limit() -> None:
    # Gymnasium's name for the limit: a step is a move, so it truncates where max_moves does.
    env = gymnasium.make_vec(ENV_IDS["germaine"], num_envs=2, vectorization_mode="vector_entry_point",
                             max_episode_steps=3)
    twin = PatienceVectorEnv("germaine", 2, max_moves=3)
    env.reset(seed=1)
    twin.reset(seed=1)
    for step in range(3):
        actions = env.vector.sample_legal_actions()
        assert actions.tolist() == twin.vector.sample_legal_actions().tolist()
        truncated = env.step(actions)[3]
        assert truncated.tolist() == twin.step(actions)[3].tolist() == [step == 2] * 2
    assert PatienceVectorEnv("germaine", 2, max_moves=3, max_episode_steps=3).vector.max_moves == 3
    with pytest.raises(ValueError, match="^max_moves=3 and max_episode_steps=4 name one limit and differ: give one$"):
        PatienceVectorEnv("germaine", 2, max_moves=3, max_episode_steps=4)
    # A bad limit is named as the caller gave it.
    with pytest.raises(ValueError, match=r"^max_episode_steps must be in 1 \.\. 2147483647, got 0$"):
        gymnasium.make_vec("patience_engine/Germaine-v0", 2, vectorization_mode="vector_entry_point",
                           max_episode_steps=0)
    with pytest.raises(TypeError, match="^max_episode_steps must be an int, got float$"):
        PatienceVectorEnv("germaine", 2, max_episode_steps=2.5)


def test_vector_env_takes_deals_and_refuses_illegal_actions() -> None:
    env = PatienceVectorEnv("royal-marriage", 2, impl="reference", copy=False)
    obs, info = env.reset(options={"deals": [1, 2]})
    assert obs.tolist() == [reference.RoyalMarriage.deal(1).observation(), reference.RoyalMarriage.deal(2).observation()]
    illegal = int(np.flatnonzero(~info["action_mask"][1])[0])
    with pytest.raises(reference.IllegalMoveError, match=f"slot 1: action {illegal} "):
        env.step(np.array([np.flatnonzero(info["action_mask"][0])[0], illegal]))


@pytest.mark.parametrize("impl", IMPLS)
def test_vector_env_takes_a_numpy_seed_as_vector_game_does(impl: str) -> None:
    env = PatienceVectorEnv("germaine", 2, impl=impl)
    twin = PatienceVectorEnv("germaine", 2, impl=impl)
    assert np.array_equal(env.reset(seed=np.int64(3))[0], twin.reset(seed=3)[0])
    with pytest.raises(ValueError, match=r"^seed must be in 0 \.\. 2\*\*64-1, got -1$"):
        env.reset(seed=-1)


def test_import_without_gymnasium() -> None:
    """The package never imports Gymnasium; the envs module names the extra when it is missing."""
    code = (
        "import sys\n"
        "import patience_engine, patience_engine.reference\n"
        "assert 'gymnasium' not in sys.modules, 'patience_engine imported gymnasium'\n"
        "sys.modules['gymnasium'] = None\n"
        "try:\n"
        "    import patience_engine.envs\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "patience_engine.envs needs Gymnasium: pip install 'patience-engine[rl]'"


def test_a_deal_with_no_legal_move_ends_at_the_first_step(impl: str) -> None:
    env = make("geoffrey", impl)
    _, info = env.reset(options={"deal": game_data("geoffrey").DEAD_DEAL})
    assert not info["action_mask"].any()
    _, reward, terminated, truncated, info = env.step(0)
    assert (reward, terminated, truncated, "illegal_action" in info) == (0.0, True, False, False)


@pytest.mark.parametrize("action, shown", [(1.0, "float"), (np.array([5]), "ndarray"), (np.True_, "numpy.bool"),
                                           ("3", "str")])
def test_a_non_int_action_is_named_in_one_line(impl: str, action: Any, shown: str) -> None:
    env = gymnasium.make(ENV_IDS["geoffrey"], impl=impl)
    env.reset(seed=0)
    with pytest.raises(TypeError, match=f"^action must be an int, got {shown}$"):
        env.step(action)
    assert env.step(np.int16(env.unwrapped.state.legal_actions()[0]))[2] is not None  # type: ignore[attr-defined]


@pytest.mark.parametrize("impl", IMPLS)
def test_vector_env_seed_seeds_np_random_as_gymnasium_does(impl: str) -> None:
    env = PatienceVectorEnv("germaine", 2, impl=impl)
    env.reset(seed=np.int64(5))
    first = env.np_random.integers(2**32)
    env.reset(seed=5)
    assert env.np_random.integers(2**32) == first and env.np_random_seed == 5


def test_vector_env_renders_every_slot(impl: str) -> None:
    env = gymnasium.make_vec(ENV_IDS["geoffrey"], num_envs=2, vectorization_mode="vector_entry_point", impl=impl,
                             render_mode="ansi")
    env.reset(options={"deals": [1, 2]})
    assert env.render() == tuple(reference.Geoffrey.deal(deal).to_text(hidden=True) for deal in (1, 2))
    assert PatienceVectorEnv("germaine", 1, impl=impl).render() is None
    with pytest.raises(ValueError, match="^render_mode must be None or 'ansi', got 'human'$"):
        PatienceVectorEnv("germaine", 1, impl=impl, render_mode="human")


def test_copy_false_gives_read_only_views_that_still_step() -> None:
    env = PatienceVectorEnv("royal-marriage", 2, copy=False)
    obs, info = env.reset(seed=0)
    assert not obs.flags.writeable and not info["action_mask"].flags.writeable
    obs, *_ = env.step(np.asarray(env.vector.sample_legal_actions()))
    assert np.array_equal(obs, [env.vector.state(i).observation() for i in range(2)])


@pytest.mark.parametrize("mode", [None, "sync", "async", "vector_entry_point"])
def test_a_game_the_id_contradicts_is_refused(mode: Any) -> None:
    def build(**kwargs: Any) -> Any:
        if mode is None:
            return gymnasium.make(ENV_IDS["geoffrey"], **kwargs)
        return gymnasium.make_vec(ENV_IDS["geoffrey"], num_envs=2, vectorization_mode=mode, **kwargs)

    with pytest.raises(ValueError, match=r"^game='germaine' contradicts the id patience_engine/Geoffrey-v0, whose game "
                                         r"is 'geoffrey': leave game out; patience_engine/Germaine-v0 is that game's$"):
        build(game="germaine")
    # Not a game's name at all: said as such, not as another game.
    with pytest.raises(TypeError, match=r"^game must be a str, got int"):
        build(game=7)
    with pytest.raises(TypeError, match=r"^game must be a str, got the class Geoffrey"):
        build(game=REGISTRY["geoffrey"].cpp)
    with pytest.raises(ValueError, match=r"^unknown game 'Geoffrey': expected one of 'royal-marriage', "):
        build(game="Geoffrey")
    env = build(game="geoffrey")
    assert env.unwrapped.game == "geoffrey" if mode is None else env.observation_space.shape[1:] == (18, 12, 52)
    env.close()


@pytest.mark.parametrize("mode", ["sync", "async", "vector_entry_point"])
def test_info_has_the_same_mask_keys_in_every_vectorization_mode(mode: str) -> None:
    envs = gymnasium.make_vec(ENV_IDS["royal-marriage"], num_envs=2, vectorization_mode=mode)
    infos = [envs.reset(seed=0)[1]]
    for _ in range(3):
        mask = infos[-1]["action_mask"]
        infos.append(envs.step(np.array([np.flatnonzero(row)[0] for row in mask]))[4])
    envs.close()
    for info in infos:
        assert sorted(info) == ["_action_mask", "action_mask"]
        assert info["_action_mask"].dtype == np.bool_ and info["_action_mask"].tolist() == [True, True]
        assert info["action_mask"].shape == (2, 2500)


def test_all_false_mask_rows_are_slots_whose_action_is_ignored() -> None:
    """docs/rl.md "Gymnasium": a slot awaiting autoreset shows its ended position's mask, all False when no move
    was left; its action is ignored, so the documented fix (any action there) steps where -inf masking fails."""
    envs = gymnasium.make_vec(ENV_IDS["royal-marriage"], num_envs=64, vectorization_mode="vector_entry_point")
    _, info = envs.reset(seed=1)
    rng = np.random.default_rng(1)
    ended = np.zeros(64, dtype=bool)
    empty_rows = 0
    for _ in range(200):
        mask = info["action_mask"]
        empty = ~mask.any(axis=1)
        assert not (empty & ~ended).any(), "an all-False row belongs to a slot awaiting autoreset"
        empty_rows += int(empty.sum())
        with np.errstate(invalid="ignore"):  # what a policy masking logits with -inf gets on those rows
            logits = np.where(mask, 0.0, -np.inf)
            probabilities = np.exp(logits - logits.max(axis=1, keepdims=True))
        assert np.isnan(probabilities[empty]).all() and not np.isnan(probabilities[~empty]).any()
        fixed = mask | empty[:, None]
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in fixed])
        _, _, terminated, truncated, info = envs.step(actions)
        ended = terminated | truncated
    assert empty_rows > 100


@pytest.mark.parametrize("game", GAME_NAMES)
def test_flat_observations_hold_the_same_values_on_one_axis(game: str, impl: str) -> None:
    cls = reference.GAMES[game]
    size = int(np.prod(cls.OBSERVATION_SHAPE))
    env, planes = make(game, impl, flat=True), make(game, impl)
    assert env.observation_space == gymnasium.spaces.Box(0, 1, (size,), np.uint8)
    check_env(env)
    obs, _ = env.reset(options={"deal": 3})
    assert obs.shape == (size,) and obs.tolist() == np.asarray(planes.reset(options={"deal": 3})[0]).reshape(-1).tolist()
    vector = gymnasium.make_vec(ENV_IDS[game], num_envs=2, vectorization_mode="vector_entry_point", impl=impl,
                                flat=True, copy=False)
    assert vector.single_observation_space == env.observation_space
    obs, _ = vector.reset(options={"deals": [3, 4]})
    assert obs.shape == (2, size) and obs.tolist() == [np.asarray(cls.deal(deal).observation(
        hidden=REGISTRY[game].hidden_cards)).reshape(-1).tolist() for deal in (3, 4)]
    with pytest.raises(TypeError, match="^flat must be a bool, got int$"):
        PatienceEnv(game, impl=impl, flat=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="^flat must be a bool, got int$"):
        PatienceVectorEnv(game, 2, impl=impl, flat=1)  # type: ignore[arg-type]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_action_masks_is_the_info_mask_through_the_wrappers(game: str, impl: str) -> None:
    """sb3-contrib's MaskablePPO asks every environment for action_masks(), through Gymnasium's wrappers."""
    env = gymnasium.make(ENV_IDS[game], impl=impl)
    with pytest.raises(RuntimeError, match=r"^call reset\(\) first$"):
        env.get_wrapper_attr("action_masks")()
    _, info = env.reset(seed=2)
    for _ in range(5):
        masks = env.get_wrapper_attr("action_masks")()
        assert masks.dtype == np.bool_ and masks.tolist() == info["action_mask"].tolist()
        legal = np.flatnonzero(masks)
        if not legal.size:
            break
        _, _, terminated, _, info = env.step(int(legal[-1]))
        if terminated:
            break
    vector = gymnasium.make_vec(ENV_IDS[game], num_envs=3, vectorization_mode="vector_entry_point", impl=impl)
    _, info = vector.reset(seed=2)
    assert vector.action_masks().tolist() == info["action_mask"].tolist()
    assert vector.action_masks().tolist() == np.asarray(vector.vector.action_masks).tolist()
