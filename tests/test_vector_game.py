"""The C++ VectorGame and playouts (issue 14, docs/rl.md "Episodes") against the single-position API.

A VectorGame stepped with given actions must equal the same games stepped one position at a
time: observations, masks, rewards, flags, autoreset and truncation; an illegal action leaves
every slot as it was; the arrays are views of the engine's buffers. playouts must equal a Python
loop over the single-position API with the same SplitMix64 draws (the reference's pure-Python
generator).
"""

from __future__ import annotations

import random
import re
import threading
from typing import Any, List

import numpy as np
import pytest

import patience_engine as pe
from conftest import CLASS_CHOICES, GAME_NAMES, NAME_CHOICES, game_class, game_data
from patience_engine import IllegalMoveError, VectorGame, playouts, reference
from patience_engine.reference._cards import SplitMix64, stream_seed  # pure Python: no engine code


class Mirror:
    """The VectorGame contract (docs/rl.md "Episodes", "Batches") played one position at a time through
    the C++ API: slot i draws from stream i of the seed (docs/rl.md "Random streams")."""

    def __init__(self, game: str, seed: int, num_envs: int, max_moves: int, hidden: bool) -> None:
        self.cls = game_class("cpp", game)
        self.rngs = [SplitMix64(stream_seed(seed, i)) for i in range(num_envs)]
        self.states = [self.cls.deal(rng.next()) for rng in self.rngs]
        self.played = [0] * num_envs
        self.ended = [False] * num_envs
        self.max_moves = max_moves
        self.hidden = hidden
        self.reward = [0.0] * num_envs
        self.terminated = [False] * num_envs
        self.truncated = [False] * num_envs

    def sample(self) -> List[int]:
        out = []
        for state, ended, rng in zip(self.states, self.ended, self.rngs):
            legal = state.legal_actions()
            out.append(0 if ended or not legal else legal[rng.next() % len(legal)])
        return out

    def step(self, actions: List[int]) -> None:
        for i, action in enumerate(actions):
            if self.ended[i]:
                self.states[i] = self.cls.deal(self.rngs[i].next())
                self.played[i] = 0
                self.ended[i] = False
                self.reward[i], self.terminated[i], self.truncated[i] = 0.0, False, False
                continue
            state = self.states[i]
            if not state.legal_actions():  # a dead deal: this step ends it, the action ignored (docs/rl.md "Episodes")
                self.reward[i], self.terminated[i], self.truncated[i] = 0.0, True, False
                self.ended[i] = True
                continue
            before = state.score
            state.play(int(action))
            self.played[i] += 1
            self.reward[i] = float(state.score - before)
            self.terminated[i] = state.is_over
            self.truncated[i] = not state.is_over and self.played[i] >= self.max_moves
            self.ended[i] = self.terminated[i] or self.truncated[i]

    def check_positions(self, vec: VectorGame, obs: Any) -> None:
        for i, state in enumerate(self.states):
            assert vec.state(i) == state
            assert np.array_equal(obs[i], state.observation(hidden=self.hidden)), i
            assert np.array_equal(vec.action_masks[i], state.legal_action_mask()), i

    def check(self, vec: VectorGame, obs: Any, reward: Any, terminated: Any, truncated: Any) -> None:
        self.check_positions(vec, obs)
        assert reward.tolist() == self.reward
        assert terminated.tolist() == self.terminated
        assert truncated.tolist() == self.truncated


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("hidden", [False, True])
def test_vector_game_equals_positions_stepped_one_at_a_time(game: str, hidden: bool) -> None:
    # A short move limit so that truncation and autoreset both happen often.
    max_moves = game_data(game).VECTOR_MAX_MOVES
    vec = VectorGame(game, 6, max_moves=max_moves, hidden=hidden)
    obs, info = vec.reset(seed=77)
    assert info == {} and obs.dtype == np.uint8 and obs.shape == (6, *vec.OBSERVATION_SHAPE)
    mirror = Mirror(game, 77, 6, max_moves, hidden)
    mirror.check_positions(vec, obs)
    resets = truncations = 0
    for _ in range(150):
        actions = vec.sample_legal_actions()
        assert actions.dtype == np.int64 and actions.tolist() == mirror.sample()
        resets += sum(mirror.ended)
        obs, reward, terminated, truncated, info = vec.step(actions)
        mirror.step(actions.tolist())
        mirror.check(vec, obs, reward, terminated, truncated)
        truncations += int(truncated.sum())
        assert info == {} and reward.dtype == np.float32 and terminated.dtype == np.bool_
    assert resets and truncations


@pytest.mark.parametrize("game", GAME_NAMES)
def test_given_deals_and_given_actions(game: str) -> None:
    vec = VectorGame(pe.GAMES[game], 3)
    vec.reset(options={"deals": [5, 6, 2**64 - 1]})
    states = [game_class("cpp", game).deal(d) for d in (5, 6, 2**64 - 1)]
    assert [vec.state(i) for i in range(3)] == states
    assert vec.max_moves == states[0].DEFAULT_MAX_MOVES and vec.game is type(states[0])
    for _ in range(10):
        actions = [s.legal_actions()[-1] if s.legal_actions() else 0 for s in states]
        if not all(s.legal_actions() for s in states):
            break
        vec.step(actions)  # a list of Python ints is taken too
        for s, a in zip(states, actions):
            s.play(a)
        assert [vec.state(i) for i in range(3)] == states


@pytest.mark.parametrize("game", GAME_NAMES)
def test_illegal_action_leaves_every_slot_unchanged(game: str) -> None:
    vec = VectorGame(game, 4)
    vec.reset(seed=3)
    vec.step(vec.sample_legal_actions())
    views = [*vec.step(vec.sample_legal_actions())[:4], vec.action_masks]
    arrays = [view.copy() for view in views]
    before = [vec.state(i) for i in range(4)]
    actions = vec.sample_legal_actions()
    state = vec.state(2)
    illegal = next(a for a in range(state.NUM_ACTIONS) if not vec.action_masks[2, a] and _names_a_move(state, a))
    actions[2] = illegal
    text = re.escape(str(type(state).move_of(illegal)))
    with pytest.raises(IllegalMoveError, match=rf"^slot 2: action {illegal} \({text}\) is not legal$"):
        vec.step(actions)
    actions[2] = state.NUM_ACTIONS
    with pytest.raises(ValueError, match=rf"^slot 2: action {state.NUM_ACTIONS} is outside 0 .. "):
        vec.step(actions)
    assert [vec.state(i) for i in range(4)] == before
    for view, array in zip(views, arrays):
        assert np.array_equal(view, array)
    # The generator is untouched: the same draws as a twin that never saw the bad steps.
    twin = VectorGame(game, 4)
    twin.reset(seed=3)
    twin.step(twin.sample_legal_actions())
    twin.step(twin.sample_legal_actions())
    twin.sample_legal_actions()  # the draws of the actions tried above
    assert vec.sample_legal_actions().tolist() == twin.sample_legal_actions().tolist()


def _names_a_move(state: Any, action: int) -> bool:
    try:
        type(state).move_of(action)
    except ValueError:
        return False
    return True


def test_arrays_share_the_engine_buffers() -> None:
    vec = VectorGame("geoffrey", 8)
    obs, _ = vec.reset(seed=1)
    masks = vec.action_masks
    first = vec.step(vec.sample_legal_actions())
    for _ in range(5):
        again = vec.step(vec.sample_legal_actions())
        for a, b in zip(first[:4], again[:4]):
            assert a is b and np.shares_memory(a, b)
    assert first[0] is obs and vec.action_masks is masks
    for array in (*first[:4], masks):
        assert not array.flags.owndata and array.base is not None
    # The views outlive the VectorGame: they keep its buffers alive.
    del vec
    assert obs.sum() > 0 and masks.any()


def test_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        VectorGame("chess", 2)
    with pytest.raises(TypeError, match="game must be"):
        VectorGame(pe.reference.Geoffrey, 2)
    with pytest.raises(TypeError, match="num_envs must be an int, got bool"):
        VectorGame("geoffrey", True)
    with pytest.raises(ValueError, match="num_envs must be >= 1, got 0|num_envs must be in 1 .. "):
        VectorGame("geoffrey", 0)
    with pytest.raises(ValueError, match="max_moves must be in 1 .. "):
        VectorGame("geoffrey", 2, max_moves=0)
    with pytest.raises(TypeError, match="hidden must be a bool, got int"):
        VectorGame("geoffrey", 2, hidden=1)  # type: ignore[arg-type]
    vec = VectorGame("germaine", 2)
    with pytest.raises(RuntimeError, match="call reset"):
        vec.step([0, 0])
    with pytest.raises(RuntimeError, match="call reset"):
        vec.sample_legal_actions()
    with pytest.raises(ValueError, match="seed must be in 0 .. 2\\*\\*64-1"):
        vec.reset(seed=-1)
    with pytest.raises(ValueError, match="unknown option 'deal'"):
        vec.reset(options={"deal": [1, 2]})
    with pytest.raises(ValueError, match="must hold num_envs = 2 deals, got 1"):
        vec.reset(options={"deals": [1]})
    vec.reset(seed=0)
    with pytest.raises(ValueError, match="^actions must hold num_envs = 2 actions, got 3$"):
        vec.step([0, 0, 0])
    with pytest.raises(TypeError, match="^slot 0: action must be an int, got float$"):
        vec.step([0.0, 1.0])
    with pytest.raises(TypeError, match="^slot 0: action must be an int, got float64$"):
        vec.step(np.array([0, 1.5]))


@pytest.mark.parametrize("call, error, message", [
    (lambda m: m.VectorGame("chess", 2), ValueError,
     f"unknown game 'chess': expected one of {NAME_CHOICES}"),
    (lambda m: started(m, 3).reset(options={"deals": [1, 2]}), ValueError,
     "options['deals'] must hold num_envs = 3 deals, got 2"),
    (lambda m: started(m, 3).reset(options={"deal": 3}), ValueError, "unknown option 'deal': the only one is 'deals'"),
    (lambda m: started(m, 3).reset(seed="1", options={"deal": 3}), TypeError, "seed must be an int, got str"),
    (lambda m: started(m, 3).step([27, 27]), ValueError, "actions must hold num_envs = 3 actions, got 2"),
    (lambda m: started(m, 2).step([True, 1]), TypeError, "slot 0: action must be an int, got bool"),
    (lambda m: started(m, 2).step([1, False]), TypeError, "slot 1: action must be an int, got bool"),
    (lambda m: started(m, 2).step([[1], [2]]), TypeError, "slot 0: action must be an int, got list"),
    (lambda m: started(m, 2).step((a for a in [1, 2])), TypeError,
     "actions must be a sequence of num_envs ints, got generator"),
    (lambda m: started(m, 2).step(np.array(5)), TypeError, "actions must be a sequence of num_envs ints, got ndarray"),
], ids=["game", "deal-count", "option", "seed-before-option", "action-count", "bool-first", "bool-second", "nested",
        "generator", "zero-d-array"])
def test_both_implementations_word_batch_errors_alike(call: Any, error: type, message: str) -> None:
    """A list mixing bools with ints is read item by item in both (numpy would make the bools ints)."""
    for module in (pe, pe.reference):
        with pytest.raises(error) as raised:
            call(module)
        assert str(raised.value) == message, module.__name__


@pytest.mark.parametrize("module, kind", [(pe, "patience_engine"), (pe.reference, "reference")],
                         ids=["cpp", "reference"])
def test_a_game_of_the_wrong_kind_is_named_alike(module: Any, kind: str) -> None:
    other = pe.reference.Geoffrey if module is pe else pe.Geoffrey
    for game, shown in [(None, "NoneType"), (3, "int"), (other, f"{other.__module__}.Geoffrey")]:
        with pytest.raises(TypeError) as raised:
            module.VectorGame(game, 2)
        assert str(raised.value) == f"game must be a game name or a {kind} game class, got {shown}"


def started(module: Any, num_envs: int) -> Any:
    """A Royal Marriage batch of module (the engine or the reference), reset to deal 1 in every slot."""
    vec = module.VectorGame("royal-marriage", num_envs)
    vec.reset(options={"deals": [1] * num_envs})
    return vec


def test_deals_may_be_a_numpy_array_in_both_implementations() -> None:
    for module in (pe, pe.reference):
        vec = module.VectorGame("germaine", 3)
        obs = vec.reset(options={"deals": np.array([4, 5, 6], dtype=np.uint64)})[0]
        assert [vec.state(i).to_text() for i in range(3)] == [module.Germaine.deal(d).to_text() for d in (4, 5, 6)]
        assert len(obs) == 3


def test_playouts_name_what_is_missing_or_too_big() -> None:
    state = pe.Germaine.deal(1)
    with pytest.raises(TypeError, match=r"^playouts\(\) takes \(state, n, \*, seed, max_moves = None, num_threads = 1\), "
                                        r"got 1 positional "
                                        r"argument and keyword n; missing seed$"):
        playouts(state, n=3)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match=r"; missing n, seed$"):
        playouts(state)  # type: ignore[call-arg]
    for play, start in [(playouts, state), (reference.playouts, reference.Germaine.deal(1))]:
        # The reference played 2**40 games for hours where the engine refused at once.
        for n in [2**40, 2**62]:
            with pytest.raises(MemoryError, match=rf"^playouts of n = {n} games: their int32 scores do not fit in memory$"):
                play(start, n, seed=0)


def python_playouts(start: Any, n: int, seed: int, max_moves: int) -> List[int]:
    """playouts() written over legal_actions() and play(): the final scores, game k drawing from stream k."""
    scores = []
    for k in range(n):
        rng = SplitMix64(stream_seed(seed, k))
        state = start.copy()
        for _ in range(max_moves):
            legal = state.legal_actions()
            if not legal:
                break
            state.play(legal[rng.next() % len(legal)])
        scores.append(state.score)
    return scores


@pytest.mark.parametrize("game", GAME_NAMES)
def test_playouts_equal_a_python_loop(game: str) -> None:
    start = game_class("cpp", game).deal(9)
    for _ in range(3):
        start.play(start.legal_actions()[0])
    got = playouts(start, 25, seed=123, max_moves=60)
    assert got.dtype == np.int32 and got.tolist() == python_playouts(start, 25, 123, 60)
    assert playouts(start, 0, seed=1).tolist() == []
    default = playouts(start, 3, seed=5)
    assert default.tolist() == playouts(start, 3, seed=5, max_moves=start.DEFAULT_MAX_MOVES).tolist()


@pytest.mark.parametrize("game", GAME_NAMES)
def test_playouts_draw_as_the_list_does_from_many_positions(game: str) -> None:
    """The C++ draw finds the r-th legal action without listing them (Royal Marriage and Geoffrey
    skip by counts): from positions along random games of 40 deals, short playouts, whose scores
    part at the first move drawn differently, equal the loop over legal_actions()."""
    rng = random.Random(game)
    for deal in range(40):
        start = game_class("cpp", game).deal(deal)
        for _ in range(rng.randrange(30)):
            legal = start.legal_actions()
            if not legal:
                break
            start.play(rng.choice(legal))
        seed = rng.randrange(2**64)
        for max_moves in (1, 2, 5, 30):
            got = playouts(start, 6, seed=seed, max_moves=max_moves).tolist()
            assert got == python_playouts(start, 6, seed, max_moves), (deal, max_moves)


def test_playouts_arguments_are_checked() -> None:
    state = pe.Geoffrey.deal(1)
    with pytest.raises(TypeError) as error:
        playouts(pe.reference.Geoffrey.deal(1), 1, seed=0)
    assert str(error.value) == (f"playouts() expects a patience_engine position ({CLASS_CHOICES}), "
                                "got patience_engine.reference.geoffrey.Geoffrey")
    with pytest.raises(ValueError, match="n must be >= 0, got -1"):
        playouts(state, -1, seed=0)
    with pytest.raises(TypeError, match="seed must be an int, got NoneType"):
        playouts(state, 1, seed=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_moves must be in 1 .. "):
        playouts(state, 1, seed=0, max_moves=0)


def test_read_only_views_cannot_be_made_writeable() -> None:
    """step() patches the observations and masks where they change and checks actions against the
    masks, so no route from Python may write them: not setflags, not a write through .base."""
    vec = VectorGame("germaine", 2)
    obs, _ = vec.reset(seed=1)
    for array in (obs, vec.action_masks):
        with pytest.raises(ValueError):
            array.setflags(write=True)
        base = array.base
        while isinstance(base, np.ndarray):
            assert not base.flags.writeable
            base = base.base


def test_two_threads_on_one_batch_leave_it_consistent() -> None:
    """step() and reset() run without the GIL; the batch's lock keeps a second thread out of it."""
    vec = VectorGame("royal-marriage", 256)
    vec.reset(seed=0)
    done = threading.Event()
    failures: List[BaseException] = []

    def stepper() -> None:
        try:
            while not done.is_set():
                try:
                    vec.step(vec.sample_legal_actions())
                except IllegalMoveError:  # a reset came between the sample and the step
                    pass
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            failures.append(error)

    thread = threading.Thread(target=stepper)
    thread.start()
    try:
        for k in range(2000):
            vec.reset(seed=k)
    finally:
        done.set()
        thread.join()
    assert failures == []
    obs, masks = vec.step(vec.sample_legal_actions())[0], vec.action_masks
    for i in range(vec.num_envs):
        state = vec.state(i)
        assert np.array_equal(obs[i], state.observation()), i
        assert np.array_equal(masks[i], state.legal_action_mask()), i


def test_observation_and_mask_views_are_read_only() -> None:
    """step() patches only what changed, so a write to these views would corrupt every later row."""
    vec = VectorGame("royal-marriage", 2)
    obs, _ = vec.reset(seed=0)
    with pytest.raises(ValueError, match="read-only"):
        obs[:] = 1
    with pytest.raises(ValueError, match="read-only"):
        vec.action_masks[:] = True
    obs, *_ = vec.step(vec.sample_legal_actions())
    with pytest.raises(ValueError, match="read-only"):
        obs[0, 0, 0] = 1
    assert not obs.flags.writeable and not vec.action_masks.flags.writeable


def test_actions_beyond_int64_are_named_with_their_value() -> None:
    vec = VectorGame("geoffrey", 3)
    vec.reset(seed=0)
    a0, a1, _ = vec.sample_legal_actions().tolist()
    with pytest.raises(ValueError, match=r"^slot 2: action 9223372036854775808 is outside 0 \.\. 3327$"):
        vec.step([a0, a1, 2**63])
    with pytest.raises(ValueError, match=rf"^slot 1: action {2**70} is outside 0 \.\. 3327$"):
        vec.step([a0, 2**70, a1])
    with pytest.raises(ValueError, match=rf"^slot 0: action {-2**70} is outside 0 \.\. 3327$"):
        vec.step([-2**70, a1, a1])
    big = np.array([a0, a1, 2**63 + 5], dtype=np.uint64)
    with pytest.raises(ValueError, match=r"^slot 2: action 9223372036854775813 is outside 0 \.\. 3327$"):
        vec.step(big)
    with pytest.raises(TypeError, match=r"^slot 1: action must be an int, got float$"):
        vec.step([a0, 1.0, 2**70])


@pytest.mark.parametrize("deals, shown", [(5, "int"), ({"a": 1}, "dict"), (iter([1, 2]), "list_iterator"),
                                          (None, "NoneType"), ("12", "str")])
def test_deals_that_are_not_a_sequence_are_named(deals: Any, shown: str) -> None:
    vec = VectorGame("germaine", 2)
    with pytest.raises(TypeError, match=rf"^options\['deals'\] must be a sequence of deal numbers, got {shown}$"):
        vec.reset(options={"deals": deals})


def test_a_batch_too_big_for_memory_says_how_big() -> None:
    per = VectorGame("geoffrey", 1).bytes_per_position
    with pytest.raises(MemoryError, match=rf"100000000 positions of {per} bytes \({100_000_000 * per} bytes\)"):
        VectorGame("geoffrey", 10**8)


@pytest.mark.parametrize("module", [pe, pe.reference], ids=["cpp", "reference"])
def test_a_slot_outside_the_batch_is_an_index_error(module: Any) -> None:
    vec = module.VectorGame("germaine", 2)
    vec.reset(seed=1)
    for slot in (2, -1, np.int64(7), 2**70):
        with pytest.raises(IndexError, match=rf"^slot {int(slot)} is outside 0 \.\. 1$"):
            vec.state(slot)
    assert vec.state(np.int64(1)).to_text() == vec.state(1).to_text()


def test_playouts_name_the_bound_an_oversized_count_meets() -> None:
    state = pe.Germaine.deal(1)
    for module, position in ((pe, state), (pe.reference, pe.reference.Germaine.deal(1))):
        with pytest.raises(ValueError, match=rf"^n must be in 0 \.\. 2\*\*63-1, got {2**70}$"):
            module.playouts(position, 2**70, seed=1)
    with pytest.raises(ValueError, match=r"^n must be >= 0, got -1$"):
        playouts(state, -1, seed=1)
