"""The reference's batch interface (docs/rl.md "Episodes", "Batches: `VectorGame` and `playouts`"):
VectorGame and playouts.

Deals and sampled actions are checked against SplitMix64 draws made here, slot i's and playout k's
from stream i or k of the seed (docs/rl.md "Random streams"); batches against the same games stepped
one position at a time.
"""

from __future__ import annotations

import collections
import copy
from typing import Any, List, Tuple

import numpy as np
import pytest

import patience_engine
from conftest import CLASS_CHOICES, game_cases, game_data
from patience_engine.reference import GAMES, Geoffrey, Germaine, IllegalMoveError, RoyalMarriage, VectorGame, playouts
from patience_engine.reference._cards import SplitMix64, stream_seed

# The first two draws of SplitMix64(0) (docs/rl.md "Determinization"): the seeds of streams 0 and 1 of
# seed 0 (docs/rl.md "Random streams").
DRAW_0, DRAW_1 = 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4


def stream_draws(seed: int, i: int, count: int) -> List[int]:
    """The first ``count`` draws of stream ``i`` of ``seed``: slot i's deals and samples, in order."""
    rng = SplitMix64(stream_seed(seed, i))
    return [rng.next() for _ in range(count)]


# Seed 0's first two draws of slot 0, and the first of slot 1.
SLOT_0, SLOT_0_NEXT = stream_draws(0, 0, 2)
SLOT_1 = stream_draws(0, 1, 1)[0]


def started(game: str, num_envs: int, seed: int = 0, **kwargs: Any) -> VectorGame:
    vec = VectorGame(game, num_envs, **kwargs)
    vec.reset(seed=seed)
    return vec


def test_attributes_follow_the_game() -> None:
    vec = VectorGame(Geoffrey, 3, hidden=True)
    assert (vec.game, vec.num_envs, vec.max_moves, vec.hidden) == (Geoffrey, 3, 1000, True)
    assert (vec.NUM_ACTIONS, vec.OBSERVATION_SHAPE) == (3328, (18, 12, 52))
    assert VectorGame("germaine", 1, max_moves=7).max_moves == 7


@pytest.mark.parametrize("args, kwargs, error, message", [
    (("klondike", 1), {}, ValueError, "unknown game 'klondike'"),
    ((patience_engine.Geoffrey, 1), {}, TypeError, "reference game class, got patience_engine._core.Geoffrey"),
    ((3, 1), {}, TypeError, "got int"),
    (("geoffrey", True), {}, TypeError, "num_envs must be an int, got bool"),
    (("geoffrey", 0), {}, ValueError, "num_envs must be in 1 .. 2147483647, got 0"),
    (("geoffrey", 1), {"max_moves": 0}, ValueError, "max_moves must be in 1 .. 2147483647, got 0"),
    (("geoffrey", 1), {"max_moves": 2.0}, TypeError, "max_moves must be an int, got float"),
    (("geoffrey", 1), {"hidden": 1}, TypeError, "hidden must be a bool, got int"),
])
def test_bad_arguments_are_named(args: Any, kwargs: Any, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        VectorGame(*args, **kwargs)


def test_step_and_sample_need_a_reset() -> None:
    vec = VectorGame("royal-marriage", 2)
    with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
        vec.step([0, 0])
    with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
        vec.sample_legal_actions()


def test_a_seed_deals_each_slot_the_first_draw_of_its_stream() -> None:
    assert (stream_seed(0, 0), stream_seed(0, 1)) == (DRAW_0, DRAW_1)  # the (i + 1)-th draw of SplitMix64(0)
    vec = VectorGame("geoffrey", 2)
    obs, info = vec.reset(seed=0)
    assert info == {}
    assert vec.state(0) == Geoffrey.deal(SLOT_0) and vec.state(1) == Geoffrey.deal(SLOT_1)
    assert obs == [Geoffrey.deal(SLOT_0).observation(), Geoffrey.deal(SLOT_1).observation()]


def test_reset_without_a_seed_keeps_the_generator() -> None:
    vec = VectorGame("royal-marriage", 1)
    vec.reset(seed=0)
    vec.reset()
    assert vec.state(0) == RoyalMarriage.deal(SLOT_0_NEXT)
    vec.reset(options={"deals": [5]})  # given deals draw nothing
    vec.reset(seed=0)
    assert vec.state(0) == RoyalMarriage.deal(SLOT_0)


def test_options_give_the_deals() -> None:
    vec = VectorGame("germaine", 3)
    obs, _ = vec.reset(options={"deals": (1, 2, 2**64 - 1)})
    assert [vec.state(i) for i in range(3)] == [Germaine.deal(1), Germaine.deal(2), Germaine.deal(2**64 - 1)]
    assert obs[1] == Germaine.deal(2).observation()


@pytest.mark.parametrize("seed, options, error, message", [
    (-1, None, ValueError, "seed must be in 0 .. 2\\*\\*64-1, got -1"),
    (1.0, None, TypeError, "seed must be an int, got float"),
    (None, {"deal": [1, 2]}, ValueError, "unknown option 'deal': the only one is 'deals'"),
    (None, {"deals": [1]}, ValueError, "must hold num_envs = 2 deals, got 1"),
    (None, {"deals": [1, -2]}, ValueError, "deal number must be in 0 .. 2\\*\\*64-1, got -2"),
    (None, {"deals": "12"}, TypeError, "sequence of deal numbers, got str"),
    (None, [1, 2], TypeError, "options must be a dict or None, got list"),
])
def test_bad_reset_changes_nothing(seed: Any, options: Any, error: type, message: str) -> None:
    vec = started("royal-marriage", 2, seed=7)
    before = copy.deepcopy(vec)
    with pytest.raises(error, match=message):
        vec.reset(seed=seed, options=options)
    assert [vec.state(i) for i in range(2)] == [before.state(i) for i in range(2)]
    assert vec.sample_legal_actions() == before.sample_legal_actions()


def mirror_run(game: str, num_envs: int, seed: int, steps: int, max_moves: int, hidden: bool) -> None:
    """Step a VectorGame on its own samples and the same games one position at a time, with the draws made here."""
    cls = GAMES[game]
    vec = VectorGame(game, num_envs, max_moves=max_moves, hidden=hidden)
    rngs = [SplitMix64(stream_seed(seed, i)) for i in range(num_envs)]
    states = [cls.deal(rng.next()) for rng in rngs]
    moves = [0] * num_envs
    ended = [False] * num_envs
    returns = [0.0] * num_envs
    obs, _ = vec.reset(seed=seed)
    assert obs == [state.observation(hidden) for state in states]
    for _ in range(steps):
        assert vec.action_masks == [state.legal_action_mask() for state in states]
        expected_actions = []
        for state, done, rng in zip(states, ended, rngs):
            legal = [] if done else state.legal_actions()
            expected_actions.append(legal[rng.next() % len(legal)] if legal else 0)
        actions = vec.sample_legal_actions()
        assert actions == expected_actions
        obs, rewards, terminated, truncated, info = vec.step(actions)
        for i, state in enumerate(states):
            if ended[i]:
                states[i] = cls.deal(rngs[i].next())
                moves[i], ended[i], returns[i] = 0, False, 0.0
                assert (rewards[i], terminated[i], truncated[i]) == (0.0, False, False)
                continue
            if not state.legal_actions():  # a dead deal: this step ends it, the action ignored (docs/rl.md "Episodes")
                assert (rewards[i], terminated[i], truncated[i]) == (0.0, True, False)
                ended[i] = True
                continue
            before = state.score
            state.play(actions[i])
            moves[i] += 1
            assert rewards[i] == state.score - before
            returns[i] += rewards[i]
            assert terminated[i] == (not state.legal_actions())
            assert truncated[i] == (not terminated[i] and moves[i] == max_moves)
            ended[i] = terminated[i] or truncated[i]
            if ended[i]:
                assert returns[i] == state.score  # rewards sum to the score of the deal's episode
        assert info == {}
        assert obs == [state.observation(hidden) for state in states]
        assert [vec.state(i) for i in range(num_envs)] == states


@pytest.mark.parametrize("game, max_moves, steps", game_cases("VECTOR_MIRROR_RUNS"))
def test_batch_equals_single_positions(game: str, max_moves: int, steps: int) -> None:
    mirror_run(game, 3, seed=11, steps=steps, max_moves=max_moves, hidden=False)


def test_hidden_batch_equals_hidden_single_positions() -> None:
    mirror_run("geoffrey", 2, seed=5, steps=6, max_moves=4, hidden=True)


def test_truncation_then_autoreset_by_hand() -> None:
    vec = started("royal-marriage", 1, seed=0, max_moves=1)
    first = RoyalMarriage.deal(SLOT_0)
    action = first.legal_actions()[0]
    _, reward, terminated, truncated, _ = vec.step([action])
    first.play(action)
    assert (reward, terminated, truncated) == ([float(first.score)], [False], [True])
    assert vec.action_masks == [first.legal_action_mask()]  # the ended position's, until the reset
    assert vec.sample_legal_actions() == [0]  # awaiting autoreset: 0, no draw
    # The action of a slot that resets is ignored, even an illegal or off-grid one.
    obs, reward, terminated, truncated, _ = vec.step([2499])
    assert (reward, terminated, truncated) == ([0.0], [False], [False])
    assert vec.state(0) == RoyalMarriage.deal(SLOT_0_NEXT) and obs == [RoyalMarriage.deal(SLOT_0_NEXT).observation()]


def test_a_terminated_slot_shows_no_legal_action() -> None:
    vec = started("royal-marriage", 1, seed=3)
    total, terminated = 0.0, [False]
    while not terminated[0]:
        _, reward, terminated, truncated, _ = vec.step(vec.sample_legal_actions())
        assert truncated == [False]  # 50 moves are never reached
        total += reward[0]
    assert vec.action_masks == [[False] * 2500]
    assert total == vec.state(0).score > 0


def test_an_illegal_action_changes_no_slot() -> None:
    vec = started("geoffrey", 3, seed=2)
    vec.step(vec.sample_legal_actions())
    actions = vec.sample_legal_actions()
    before = copy.deepcopy(vec)
    legal = vec.state(2).legal_actions()
    illegal = next(a for a in range(vec.NUM_ACTIONS) if a not in legal)
    bad = list(actions)
    bad[2] = illegal
    text = str(Geoffrey.move_of(illegal))
    with pytest.raises(IllegalMoveError, match=rf"^slot 2: action {illegal} \({text}\) is not legal$"):
        vec.step(bad)
    for i in range(3):
        assert vec.state(i) == before.state(i) and vec.state(i).move_stack == before.state(i).move_stack
    # The generator is untouched and the batch goes on as if the bad step had not been tried.
    assert vec.sample_legal_actions() == before.sample_legal_actions()
    assert vec.step(actions)[1:4] == before.step(actions)[1:4]


@pytest.mark.parametrize("slot, action, error, message", [
    (2, 416, ValueError, "slot 2: action 416 is outside 0 .. 415"),
    (1, -1, ValueError, "slot 1: action -1 is outside 0 .. 415"),
    (1, 1.0, TypeError, "slot 1: action must be an int, got float"),
    (1, True, TypeError, "slot 1: action must be an int, got bool"),
    (0, 0, IllegalMoveError, r"slot 0: action 0 \(names no move\) is not legal"),  # a1 up: off the grid
])
def test_bad_actions_are_named_by_slot(slot: int, action: Any, error: type, message: str) -> None:
    vec = started("germaine", 3, seed=1)
    actions: List[Any] = vec.sample_legal_actions()
    actions[slot] = action
    with pytest.raises(error, match=message):
        vec.step(actions)
    with pytest.raises(ValueError, match="actions must hold num_envs = 3 actions, got 2"):
        vec.step(actions[:2])


def test_numpy_actions_are_taken() -> None:
    vec, twin = started("germaine", 2, seed=4), started("germaine", 2, seed=4)
    actions = vec.sample_legal_actions()
    twin.sample_legal_actions()
    assert vec.step(np.array(actions, dtype=np.int64))[:4] == twin.step(actions)[:4]


def test_state_is_a_copy() -> None:
    vec = started("royal-marriage", 2)
    state = vec.state(1)
    state.play(state.legal_actions()[0])
    assert vec.state(1) == RoyalMarriage.deal(SLOT_1)
    with pytest.raises(IndexError, match="slot 2 is outside 0 .. 1"):
        vec.state(2)


def hand_playouts(state: Any, n: int, seed: int, max_moves: int) -> List[int]:
    """docs/rl.md playouts written out: game k with stream k of seed, legal[draw % len] of the ascending actions."""
    scores = []
    for k in range(n):
        rng = SplitMix64(stream_seed(seed, k))
        game = state.copy()
        played = 0
        while played < max_moves and game.legal_actions():
            legal = game.legal_actions()
            game.play(legal[rng.next() % len(legal)])
            played += 1
        scores.append(game.score)
    return scores


@pytest.mark.parametrize("game, n, max_moves", game_cases("PLAYOUT_LOOPS"))
def test_playouts_equal_a_hand_loop(game: str, n: int, max_moves: int) -> None:
    state = GAMES[game].deal(9)
    state.play(state.legal_actions()[-1])
    before = state.copy()
    limit = None if max_moves == GAMES[game].DEFAULT_MAX_MOVES else max_moves
    scores = playouts(state, n, seed=123, max_moves=limit)
    assert scores == hand_playouts(state, n, 123, max_moves)
    assert state == before and state.move_stack == before.move_stack
    assert playouts(state, n, seed=124, max_moves=limit) != scores or len(set(scores)) == 1


def test_playouts_of_one_move() -> None:
    state = RoyalMarriage.deal(4)
    scores = playouts(state, 30, seed=0, max_moves=1)
    assert set(scores) <= {1, 2} and len(set(scores)) == 2  # deal 4 has removals of one and of two cards
    assert playouts(state, 0, seed=0) == []


@pytest.mark.parametrize("args, kwargs, error, message", [
    ((patience_engine.RoyalMarriage.deal(1), 1), {"seed": 0}, TypeError,
     rf"^playouts\(\) expects a reference position \({CLASS_CHOICES}\), got patience_engine\._core\.RoyalMarriage$"),
    ((RoyalMarriage.deal(1), -1), {"seed": 0}, ValueError, "n must be >= 0, got -1"),
    ((RoyalMarriage.deal(1), 1), {"seed": 2**64}, ValueError, "seed must be in 0 .. 2\\*\\*64-1"),
    ((RoyalMarriage.deal(1), 1), {"seed": 0, "max_moves": 0}, ValueError, "max_moves must be in 1 .. 2147483647"),
])
def test_bad_playouts_arguments(args: Any, kwargs: Any, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        playouts(*args, **kwargs)


@pytest.mark.parametrize("impl", ["reference", "cpp"])
def test_a_deal_with_no_legal_move_ends_at_the_next_step(impl: str) -> None:
    """reset() cannot say an episode is over, so a dead deal's first step ends it (docs/rl.md "Episodes")."""
    module: Any = patience_engine if impl == "cpp" else patience_engine.reference
    cls = module.GAMES["geoffrey"]
    dead = game_data("geoffrey").DEAD_DEAL
    assert cls.deal(dead).legal_actions() == []
    vec = module.VectorGame("geoffrey", 2)
    vec.reset(seed=0, options={"deals": [5, dead]})
    assert list(vec.sample_legal_actions())[1] == 0 and not any(vec.action_masks[1])
    live = cls.deal(5)
    action = live.legal_actions()[0]
    live.play(action)
    # Any action of the dead slot is ignored, even one that is not legal.
    _, reward, terminated, truncated, _ = vec.step([action, 7])
    assert (list(reward), list(terminated), list(truncated)) == ([float(live.score), 0.0], [False, True], [False, False])
    assert vec.state(0) == live and vec.state(1) == cls.deal(dead)
    # Then it autoresets to its stream's first draw (the slot drew nothing before: given deals and
    # a sample of a slot with no move draw nothing).
    _, reward, terminated, truncated, _ = vec.step([live.legal_actions()[0], 0])
    assert (list(reward)[1], list(terminated)[1], list(truncated)[1]) == (0.0, False, False)
    assert vec.state(1) == cls.deal(SLOT_1)


IMPLS = ["reference", "cpp"]


def implementation(impl: str) -> Any:
    return patience_engine if impl == "cpp" else patience_engine.reference


@pytest.mark.parametrize("impl", IMPLS)
def test_state_is_the_position_without_its_moves(impl: str) -> None:
    """A batch keeps positions, not games: state(i) has an empty move stack in both implementations."""
    module = implementation(impl)
    vec = module.VectorGame("geoffrey", 2)
    vec.reset(options={"deals": [3, 4]})
    game = module.Geoffrey.deal(4)
    for _ in range(3):
        action = game.legal_actions()[0]
        game.play(action)
        vec.step([vec.state(0).legal_actions()[0], action])
    state = vec.state(1)
    assert state == game and state.to_text() == game.to_text() and list(state.move_stack) == []
    assert len(game.move_stack) == 3


@pytest.mark.parametrize("impl", IMPLS)
def test_state_and_masks_need_a_reset(impl: str) -> None:
    vec = implementation(impl).VectorGame("geoffrey", 2)
    with pytest.raises(RuntimeError, match=r"^call reset\(\) first$"):
        vec.state(1)
    with pytest.raises(RuntimeError, match=r"^call reset\(\) first$"):
        getattr(vec, "action_masks")  # noqa: B009 - the property's getter raises


@pytest.mark.parametrize("impl", IMPLS)
def test_an_off_grid_germaine_action_is_an_illegal_move(impl: str) -> None:
    vec = implementation(impl).VectorGame("germaine", 2)
    vec.reset(seed=1)
    with pytest.raises(IllegalMoveError, match=r"^slot 1: action 0 \(names no move\) is not legal$"):
        vec.step([vec.sample_legal_actions()[0], 0])


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("actions, shown", [(3, "int"), (None, "NoneType"), (iter([0, 0]), "list_iterator"),
                                            ({0, 1}, "set"), ({0: 0, 1: 0}, "dict"), ({0: 0, 1: 0}.keys(), "dict_keys"),
                                            (collections.UserDict({0: 0, 1: 0}), "UserDict")])
def test_actions_that_are_not_a_sequence_are_named(impl: str, actions: Any, shown: str) -> None:
    """A set or a dict of num_envs items is refused too: it has no order to match items to slots."""
    vec = implementation(impl).VectorGame("germaine", 2)
    vec.reset(seed=1)
    with pytest.raises(TypeError, match=rf"^actions must be a sequence of num_envs ints, got {shown}$"):
        vec.step(actions)


@pytest.mark.parametrize("impl", IMPLS)
def test_hidden_names_a_numpy_bool_by_its_module(impl: str) -> None:
    module = implementation(impl)
    shown = "numpy.bool" if type(np.True_).__name__ == "bool" else type(np.True_).__name__
    for call in (lambda: module.VectorGame("geoffrey", 2, hidden=np.True_),
                 lambda: module.Geoffrey.deal(1).observation(np.True_),
                 lambda: module.Geoffrey.deal(1).to_text(hidden=np.True_)):
        with pytest.raises(TypeError, match=rf"^hidden must be a bool, got {shown}$"):
            call()


@pytest.mark.parametrize("impl", IMPLS)
def test_empty_options_draw_the_deals(impl: str) -> None:
    module = implementation(impl)
    vec = module.VectorGame("royal-marriage", 2)
    vec.reset(seed=0, options={})
    assert [vec.state(i) for i in range(2)] == [module.RoyalMarriage.deal(SLOT_0), module.RoyalMarriage.deal(SLOT_1)]


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("num_envs, kwargs, message", [
    (2**40, {}, "num_envs must be in 1 .. 2147483647, got 1099511627776"),
    (1, {"max_moves": 2**31}, "max_moves must be in 1 .. 2147483647, got 2147483648"),
    (1, {"max_moves": 0}, "max_moves must be in 1 .. 2147483647, got 0"),
])
def test_sizes_have_the_engine_limits(impl: str, num_envs: int, kwargs: Any, message: str) -> None:
    with pytest.raises(ValueError, match=f"^{message}$"):
        implementation(impl).VectorGame("geoffrey", num_envs, **kwargs)


@pytest.mark.parametrize("impl", IMPLS)
def test_numpy_integers_are_ints(impl: str) -> None:
    module = implementation(impl)
    vec = module.VectorGame("royal-marriage", np.int64(2), max_moves=np.int32(5))
    assert (vec.num_envs, vec.max_moves) == (2, 5) and type(vec.num_envs) is int and type(vec.max_moves) is int
    vec.reset(seed=0)
    assert vec.state(np.int64(1)) == vec.state(1) == module.RoyalMarriage.deal(SLOT_1)
    state = module.RoyalMarriage.deal(4)
    assert list(module.playouts(state, np.int64(3), seed=0, max_moves=np.uint8(2))) == list(
        module.playouts(state, 3, seed=0, max_moves=2))
    for bad, shown in ((np.True_, "numpy.bool"), (True, "bool"), (2.0, "float")):
        with pytest.raises(TypeError, match=f"^num_envs must be an int, got {shown}$"):
            module.VectorGame("royal-marriage", bad)
        with pytest.raises(TypeError, match=f"^slot must be an int, got {shown}$"):
            vec.state(bad)
        with pytest.raises(TypeError, match=f"^n must be an int, got {shown}$"):
            module.playouts(state, bad, seed=0)
        with pytest.raises(TypeError, match=f"^max_moves must be an int, got {shown}$"):
            module.VectorGame("royal-marriage", 2, max_moves=bad)


class _OldStyleSequence:
    """A sequence by __len__ and __getitem__ alone, as CPython's sequence protocol defines one."""

    def __init__(self, items: List[int], length: int) -> None:
        self.items, self.length = items, length

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, i: int) -> int:
        return self.items[i]


def test_both_implementations_take_the_same_sequences() -> None:
    """An old-style sequence is taken by both; one whose len() is not what it yields is refused by both."""
    vecs = [implementation(impl).VectorGame("germaine", 2) for impl in IMPLS]
    for vec in vecs:
        vec.reset(seed=3)
    actions = [int(a) for a in vecs[0].sample_legal_actions()]
    assert actions == [int(a) for a in vecs[1].sample_legal_actions()]
    rewards = [list(vec.step(_OldStyleSequence(actions, 2))[1]) for vec in vecs]
    assert rewards[0] == rewards[1]
    for vec in vecs:
        with pytest.raises(ValueError, match=r"^actions must hold num_envs = 2 actions, got 1$"):
            vec.step(_OldStyleSequence(actions[:1], 2))


@pytest.mark.parametrize("deals, length, got", [([10, 20, 30], 2**32 + 2, 2**32 + 2), ([10, 20, 30], 2, 3), ([10], 2, 1)])
def test_deals_whose_count_is_wrong_are_refused_by_both(deals: List[int], length: int, got: int) -> None:
    """A length beyond 32 bits is not cut to it, and the deals are counted again as read: `got` is the
    length when it is wrong, else the number of deals yielded."""
    for impl in IMPLS:
        vec = implementation(impl).VectorGame("royal-marriage", 2)
        with pytest.raises(ValueError, match=rf"^options\['deals'\] must hold num_envs = 2 deals, got {got}$"):
            vec.reset(options={"deals": _OldStyleSequence(deals, length)})


def test_options_may_be_any_mapping_in_both() -> None:
    import types

    for impl in IMPLS:
        vec = implementation(impl).VectorGame("geoffrey", 2)
        vec.reset(options=types.MappingProxyType({"deals": [1, 2]}))
        assert vec.state(1) == implementation(impl).Geoffrey.deal(2)


def test_a_masked_array_is_read_by_its_items_in_both() -> None:
    """A masked entry is no int (the engine does not play the value under the mask); an array with
    nothing masked plays as a plain one."""
    for impl in IMPLS:
        vec = implementation(impl).VectorGame("geoffrey", 2)
        vec.reset(options={"deals": [2, 2]})
        legal = implementation(impl).Geoffrey.deal(2).legal_actions()
        with pytest.raises(TypeError, match="^slot 1: action must be an int, got MaskedConstant$"):
            vec.step(np.ma.array([legal[0], legal[0]], mask=[False, True]))
        assert vec.state(1) == implementation(impl).Geoffrey.deal(2)
        vec.step(np.ma.array([legal[0], legal[-1]]))
        expected = implementation(impl).Geoffrey.deal(2)
        expected.play(legal[-1])
        assert vec.state(1) == expected


def _won_germaine_line() -> Tuple[int, List[int]]:
    """A Germaine deal and the actions of a winning line for it (the solver's)."""
    from patience_engine.solver import solve

    for deal in range(20):
        solution = solve(patience_engine.Germaine.deal(deal), node_limit=20_000)
        if solution.status == "won":
            return deal, [move.action for move in solution.moves]
    raise AssertionError("no Germaine deal of 0..19 won within 20,000 nodes")


@pytest.mark.parametrize("impl", IMPLS)
def test_a_won_germaine_grid_ends_the_episode_though_it_can_slide(impl: str) -> None:
    """docs/rl.md "Episodes": terminated when won, even where slides are left (the winning combine
    restores the allowance)."""
    module = implementation(impl)
    deal, line = _won_germaine_line()
    final = module.Germaine.deal(deal)
    for action in line:
        final.play(action)
    assert final.is_won and final.legal_actions(), "the won grid can still slide"
    vec = module.VectorGame("germaine", 1)
    vec.reset(options={"deals": [deal]})
    total = 0.0
    for k, action in enumerate(line):
        _, reward, terminated, truncated, _ = vec.step([action])
        total += float(reward[0])
        assert (bool(terminated[0]), bool(truncated[0])) == (k == len(line) - 1, False)
    assert total == final.score
    gymnasium = pytest.importorskip("gymnasium")
    import patience_engine.envs  # noqa: F401  (registers the environments)

    env = gymnasium.make("patience_engine/Germaine-v0", impl=impl)
    env.reset(options={"deal": deal})
    ends = [env.step(action)[2] for action in line]
    assert ends == [False] * (len(line) - 1) + [True]
