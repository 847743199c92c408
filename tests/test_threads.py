"""Every core in one call: batches, playouts and perft on threads give what one thread gives.

The same seed gives the same arrays, scores and counts at 1, 2, 3 and 7 threads, in the engine and
in the reference (which checks num_threads and runs on its own thread); a batch uses at most one
thread per 64 slots; the threads answer Ctrl-C, survive a fork() and stop with their batch.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from typing import Any, List, Optional

import numpy as np
import pytest

import patience_engine as pe
from conftest import GAME_NAMES, game_cases, game_class, game_data, interrupt_after_first_line
from patience_engine import reference
from patience_engine.games import REGISTRY
from patience_engine.limits import MAX_THREADS

THREADS = [1, 2, 3, 7]


def batch_run(module: Any, game: str, num_envs: int, threads: int, steps: int, seed: int = 11) -> List[Any]:
    """Every array a batch hands out over a reset and ``steps`` steps of its own samples, as lists."""
    vec = module.VectorGame(game, num_envs, max_moves=20, num_threads=threads)
    obs, _ = vec.reset(seed=seed)
    seen: List[Any] = [np.asarray(obs).tolist()]
    for _ in range(steps):
        actions = vec.sample_legal_actions()
        seen.append(list(actions))
        seen.extend(np.asarray(a).tolist() for a in vec.step(actions)[:4])
    return seen


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_batch_gives_the_same_arrays_at_any_thread_count(game: str) -> None:
    # 200 slots: up to 4 blocks of 64, so 3 and 7 threads cut it unevenly.
    expected = batch_run(pe, game, 200, 1, 25)
    for threads in THREADS[1:]:
        assert batch_run(pe, game, 200, threads, 25) == expected, threads
    assert batch_run(reference, game, 200, 7, 25) == expected


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_threaded_batch_refuses_an_illegal_action_as_one_thread_does(game: str) -> None:
    """Each thread checks its own block's actions: the error still names the first bad slot (70, in
    the second of 4 blocks, though slot 150 is bad too), and no slot of any block moves."""
    errors = []
    for threads in (1, 3):
        vec = pe.VectorGame(game, 200, num_threads=threads)
        obs_view, _ = vec.reset(seed=5)
        obs, masks = np.array(obs_view), np.array(vec.action_masks)
        texts = [vec.state(i).to_text() for i in range(200)]
        actions = np.array(vec.sample_legal_actions())
        for slot in (150, 70):
            actions[slot] = np.flatnonzero(~masks[slot])[0]
        with pytest.raises(pe.IllegalMoveError) as error:
            vec.step(actions)
        errors.append(str(error.value))
        assert [vec.state(i).to_text() for i in range(200)] == texts
        assert np.array_equal(obs_view, obs) and np.array_equal(vec.action_masks, masks)
    assert errors[0] == errors[1] and errors[0].startswith("slot 70: action ")


def test_a_batch_uses_a_thread_per_64_slots_at_most() -> None:
    for num_envs, threads, used in [(1, 7, 1), (64, 7, 1), (65, 7, 2), (128, 2, 2), (200, 7, 4), (1024, 3, 3)]:
        assert pe.VectorGame("royal-marriage", num_envs, num_threads=threads).num_threads == used, (num_envs, threads)
    assert pe.VectorGame("germaine", 10**4, num_threads=0).num_threads == pe.usable_cores()
    assert reference.VectorGame("germaine", 10**4, num_threads=0).num_threads == 1


@pytest.mark.parametrize("game", GAME_NAMES)
def test_playouts_give_the_same_scores_at_any_thread_count(game: str) -> None:
    start = game_class("cpp", game).deal(2)
    expected = pe.playouts(start, 300, seed=9, max_moves=40).tolist()
    for threads in [*THREADS, 0]:
        assert pe.playouts(start, 300, seed=9, max_moves=40, num_threads=threads).tolist() == expected, threads
    # Fewer games than threads, and none.
    assert pe.playouts(start, 2, seed=9, max_moves=40, num_threads=7).tolist() == expected[:2]
    assert pe.playouts(start, 0, seed=9, num_threads=7).tolist() == []
    assert reference.playouts(game_class("reference", game).deal(2), 300, seed=9, max_moves=40,
                              num_threads=7) == expected


@pytest.mark.parametrize("game, deal", game_cases("RULES_PERFT") + game_cases("MORE_PERFT"))
def test_threaded_perft_counts_the_pinned_values(game: str, deal: int) -> None:
    state = game_class("cpp", game).deal(deal)
    counts = [pe.perft(state, d, num_threads=3) for d in range(len(game_data_perft(game, deal)) + 1)]
    assert counts == [1, *game_data_perft(game, deal)]
    depth = len(game_data_perft(game, deal))
    for threads in THREADS:
        assert pe.perft(state, depth, num_threads=threads) == counts[-1]
        assert pe.perft(state, depth, False, num_threads=threads) == counts[-1]
    assert reference.perft(game_class("reference", game).deal(deal), 2, num_threads=7) == counts[2]


def game_data_perft(game: str, deal: int) -> List[int]:
    """The perft counts pinned for a deal, depth 1 on."""
    data = game_data(game)
    return {**data.RULES_PERFT, **data.MORE_PERFT}[deal]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_threaded_perft_splits_deep_trees_exactly(game: str) -> None:
    """Deep enough that the tree is cut below the root into many subtrees of every size."""
    state = game_class("cpp", game).deal(1)
    depth = REGISTRY[game].bench.timed.make_unmake[0][1]
    one = pe.perft(state, depth)
    assert [pe.perft(state, depth, num_threads=t) for t in THREADS[1:]] == [one] * 3


@pytest.mark.parametrize("call", [
    lambda threads: pe.perft(pe.Germaine.deal(1), 2, num_threads=threads),
    lambda threads: pe.playouts(pe.Germaine.deal(1), 2, seed=0, num_threads=threads),
    lambda threads: pe.VectorGame("germaine", 2, num_threads=threads),
    lambda threads: pe.solve(pe.RoyalMarriage.deal(1), num_threads=threads),
    lambda threads: reference.perft(reference.Germaine.deal(1), 2, num_threads=threads),
    lambda threads: reference.playouts(reference.Germaine.deal(1), 2, seed=0, num_threads=threads),
    lambda threads: reference.VectorGame("germaine", 2, num_threads=threads),
], ids=["perft", "playouts", "VectorGame", "solve", "reference-perft", "reference-playouts", "reference-VectorGame"])
@pytest.mark.parametrize("bad, error, message", [
    (-1, ValueError, f"num_threads must be in 0 .. {MAX_THREADS}, got -1"),
    (MAX_THREADS + 1, ValueError, f"num_threads must be in 0 .. {MAX_THREADS}, got {MAX_THREADS + 1}"),
    (2.0, TypeError, "num_threads must be an int, got float"),
    (True, TypeError, "num_threads must be an int, got bool"),
    (None, TypeError, "num_threads must be an int, got NoneType"),
])
def test_num_threads_is_checked_alike(call: Any, bad: Any, error: type, message: str) -> None:
    with pytest.raises(error) as raised:
        call(bad)
    assert str(raised.value) == message
    call(np.int64(2))  # numpy integers are ints


def test_the_engine_bounds_threads_as_the_package_does() -> None:
    assert pe.MAX_THREADS == pe._core.MAX_THREADS == MAX_THREADS


def test_usable_cores_follow_the_cpu_affinity() -> None:
    assert 1 <= pe.usable_cores() <= (os.cpu_count() or 1)
    if not hasattr(os, "sched_setaffinity"):
        pytest.skip("this system sets no CPU affinity")
    script = ("import os, patience_engine as pe; os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}); "
              "print(pe.usable_cores(), pe.VectorGame('germaine', 999, num_threads=0).num_threads)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["1", "1"]


def test_a_batch_made_before_a_fork_steps_in_the_child() -> None:
    """Pool threads do not survive fork(): the child starts its own (Gymnasium's AsyncVectorEnv forks on Linux)."""
    if not hasattr(os, "fork"):
        pytest.skip("no fork() on this system")
    vec = pe.VectorGame("geoffrey", 256, num_threads=2)
    vec.reset(seed=3)
    vec.step(vec.sample_legal_actions())
    twin = pe.VectorGame("geoffrey", 256)
    twin.reset(seed=3)
    twin.step(twin.sample_legal_actions())
    expected = [twin.step(twin.sample_legal_actions())[1].tolist() for _ in range(5)]
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: step, report, and leave without running the parent's clean-up
        try:
            got = [vec.step(vec.sample_legal_actions())[1].tolist() for _ in range(5)]
            os.write(write, b"same" if got == expected and vec.num_threads == 2 else b"differs")
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as child:
        answer = child.read()
    os.waitpid(pid, 0)
    assert answer == b"same"
    assert [vec.step(vec.sample_legal_actions())[1].tolist() for _ in range(5)] == expected  # the parent's too


def test_a_batch_freed_while_another_thread_waits_on_it() -> None:
    """One Python thread steps a batch while another waits on its lock for samples; the test drops its
    own reference meanwhile. Both calls finish, nothing is left waiting, and a batch dropped at last
    stops its threads."""
    errors: List[BaseException] = []

    def steps(vec: Any) -> None:
        try:
            for _ in range(20):
                vec.step(vec.sample_legal_actions())
        except BaseException as error:  # reported below
            errors.append(error)

    def samples(vec: Any) -> None:
        try:
            for _ in range(200):
                vec.sample_legal_actions()  # draws, but never changes what is legal
        except BaseException as error:  # reported below
            errors.append(error)

    vec: Any = pe.VectorGame("geoffrey", 4096, num_threads=2)
    vec.reset(seed=1)
    others = [threading.Thread(target=steps, args=(vec,)), threading.Thread(target=samples, args=(vec,))]
    for thread in others:
        thread.start()
    time.sleep(0.01)
    del vec  # the threads still hold it until their calls return
    for thread in others:
        thread.join(timeout=60)
        assert not thread.is_alive()
    assert errors == []
    if not os.path.isdir("/proc/self/task"):
        return  # the system does not list a process's threads

    def threads_of_this_process(expected: Optional[int] = None) -> int:
        """The threads /proc lists, once it lists expected (or the same twice 50 ms apart): a joined
        thread's entry can linger there for a moment after the join returns."""
        deadline = time.monotonic() + 5
        count = len(os.listdir("/proc/self/task"))
        while time.monotonic() < deadline:
            time.sleep(0.05)
            count, last = len(os.listdir("/proc/self/task")), count
            if count == expected or (expected is None and count == last):
                break
        return count

    before = threads_of_this_process()
    gone = pe.VectorGame("germaine", 1024, num_threads=2)
    obs, _ = gone.reset(seed=0)
    assert threads_of_this_process(before + 1) == before + 1  # its pool: one worker beside the caller
    del gone
    assert threads_of_this_process(before) == before  # stopped, though a view of its buffers lives on
    assert obs.shape == (1024, *pe.Germaine.OBSERVATION_SHAPE) and obs.sum() > 0


LONG = {
    "perft": "patience_engine.perft(patience_engine.Germaine.deal(1), 12, num_threads=2)",
    "playouts": "patience_engine.playouts(patience_engine.Germaine.deal(1), 10**8, seed=1, num_threads=2)",
    "batch": ("v = patience_engine.VectorGame('geoffrey', 4096, num_threads=2); v.reset(seed=0)\n"
              "    while True: v.step(v.sample_legal_actions())"),
}


@pytest.mark.timing
@pytest.mark.parametrize("call", list(LONG.values()), ids=list(LONG))
def test_ctrl_c_stops_threaded_calls_within_a_second(call: str) -> None:
    script = f"""
import sys, patience_engine
print("ready", flush=True)
try:
    {call}
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(3)
"""
    result = interrupt_after_first_line([sys.executable, "-c", script])
    assert (result.code, result.stdout.strip()) == (3, "interrupted")
    assert result.seconds < 1.0

