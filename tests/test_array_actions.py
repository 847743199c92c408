"""Actions from any CPU array-like (docs/rl.md "Arrays of other libraries"): numpy, lists, ``__array__``, ``__dlpack__``,
in both implementations of ``VectorGame.step`` and in the environments; an array on a GPU is refused
by name. The DLPack objects here are made without torch; torch's own tensors are tried where it is
installed."""

from __future__ import annotations

import subprocess
import sys
from typing import Any, Callable, List, Tuple

import numpy as np
import pytest

import patience_engine as pe
from patience_engine import reference

IMPLS = {"cpp": pe, "reference": reference}
GPU_MESSAGE = ("actions on the DLPack device CUDA:0, not the CPU, cannot be read: move them to the CPU first "
               "(torch: .cpu(); JAX: jax.device_get())")


class DLPackOnly:
    """An array of another library as numpy meets it: ``__dlpack__`` and ``__dlpack_device__``, no
    ``__array__``, no ``__getitem__`` (so no sequence to CPython), its memory a numpy array's."""

    def __init__(self, values: Any, device: Tuple[int, int] = (1, 0)) -> None:
        self.values = np.asarray(values)
        self.device = device
        self.exported = 0

    def __dlpack__(self, **kwargs: Any) -> Any:
        self.exported += 1
        return self.values.__dlpack__(**kwargs)

    def __dlpack_device__(self) -> Tuple[int, int]:
        return self.device


class ArrayOnly:
    """An array-like that numpy reads by ``__array__`` alone."""

    def __init__(self, values: Any) -> None:
        self.values = np.asarray(values)

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        return self.values


def batches(impl: str) -> Tuple[Any, Any]:
    """Two Germaine batches of 3 slots in the same state."""
    pair = [IMPLS[impl].VectorGame("germaine", 3, max_moves=4) for _ in range(2)]
    for vec in pair:
        vec.reset(seed=11)
    return pair[0], pair[1]


WRAPPERS: List[Tuple[str, Callable[[List[int]], Any]]] = [
    ("int32 array", lambda a: np.asarray(a, dtype=np.int32)),
    ("uint16 array", lambda a: np.asarray(a, dtype=np.uint16)),
    ("non-contiguous array", lambda a: np.repeat(np.asarray(a, dtype=np.int64), 2)[::2]),
    ("__array__", ArrayOnly),
    ("__dlpack__", DLPackOnly),
    ("__dlpack__ int16", lambda a: DLPackOnly(np.asarray(a, dtype=np.int16))),
]


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("name, wrap", WRAPPERS, ids=[name for name, _ in WRAPPERS])
def test_an_array_like_steps_as_a_list_does(impl: str, name: str, wrap: Callable[[List[int]], Any]) -> None:
    vec, twin = batches(impl)
    for _ in range(6):  # past a truncation at 4 moves and its autoreset
        actions = [int(a) for a in vec.sample_legal_actions()]
        assert [int(a) for a in twin.sample_legal_actions()] == actions
        got, want = vec.step(wrap(actions)), twin.step(actions)
        for a, b in zip(got[:4], want[:4]):
            assert np.asarray(a).tolist() == np.asarray(b).tolist()


@pytest.mark.parametrize("impl", IMPLS)
def test_a_dlpack_array_is_exported_once(impl: str) -> None:
    vec, _ = batches(impl)
    actions = DLPackOnly(vec.sample_legal_actions())
    vec.step(actions)
    assert actions.exported == 1


@pytest.mark.parametrize("impl", IMPLS)
def test_an_array_on_a_gpu_is_refused_by_name_and_nothing_changes(impl: str) -> None:
    vec, twin = batches(impl)
    actions = DLPackOnly(vec.sample_legal_actions(), device=(2, 0))
    twin.sample_legal_actions()
    with pytest.raises(ValueError) as error:
        vec.step(actions)
    assert str(error.value) == GPU_MESSAGE and actions.exported == 0
    assert np.asarray(vec.step(vec.sample_legal_actions())[0]).tolist() == \
        np.asarray(twin.step(twin.sample_legal_actions())[0]).tolist()
    with pytest.raises(ValueError, match=r"^actions on the DLPack device type 99:3, not the CPU"):
        vec.step(DLPackOnly([0, 0, 0], device=(99, 3)))


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("actions, error, message", [
    (DLPackOnly([0.0, 1.0, 2.0]), TypeError, "slot 0: action must be an int, got float64"),
    (DLPackOnly([True, False, True]), TypeError, "slot 0: action must be an int, got numpy.bool"),
    (DLPackOnly([0, 0]), ValueError, "actions must hold num_envs = 3 actions, got 2"),
    (DLPackOnly(5), TypeError, "actions must be a sequence of num_envs ints, got DLPackOnly"),
    (ArrayOnly([[0, 0, 0]]), ValueError, "actions must hold num_envs = 3 actions, got 1"),
    (DLPackOnly([5000, 0, 0]), ValueError, "slot 0: action 5000 is outside 0 .. 415"),
], ids=["float", "bool", "short", "zero-d", "two-d", "outside"])
def test_a_bad_array_like_is_named_as_a_numpy_array_would_be(impl: str, actions: Any, error: type,
                                                              message: str) -> None:
    vec, _ = batches(impl)
    if "numpy.bool" in message and type(np.True_).__name__ != "bool":
        message = message.replace("numpy.bool", type(np.True_).__name__)
    with pytest.raises(error) as raised:
        vec.step(actions)
    assert str(raised.value) == message


def test_no_array_library_is_imported() -> None:
    code = (
        "import sys, numpy as np, patience_engine as pe\n"
        "class DLPackOnly:\n"
        "    def __init__(self, a): self.a = a\n"
        "    def __dlpack__(self, **kw): return self.a.__dlpack__(**kw)\n"
        "    def __dlpack_device__(self): return self.a.__dlpack_device__()\n"
        "vec = pe.VectorGame('royal-marriage', 2)\n"
        "vec.reset(seed=0)\n"
        "vec.step(DLPackOnly(vec.sample_legal_actions()))\n"
        "print(sorted({'torch', 'jax', 'cupy'} & set(sys.modules)))\n"
    )
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "[]\n"


@pytest.mark.parametrize("impl", IMPLS)
def test_the_environments_take_array_likes(impl: str) -> None:
    import gymnasium

    from patience_engine.envs import ENV_IDS

    env = gymnasium.make(ENV_IDS["royal-marriage"], impl=impl)
    _, info = env.reset(seed=3)
    action = int(np.flatnonzero(info["action_mask"])[0])
    assert env.step(DLPackOnly(np.int64(action)))[1] > 0
    action = int(np.flatnonzero(env.unwrapped.action_masks())[0])  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="^action on the DLPack device CUDA:0, not the CPU, cannot be read"):
        env.step(DLPackOnly(np.int64(action), device=(2, 0)))
    with pytest.raises(TypeError, match="^action must be an int, got ArrayOnly$"):
        env.step(ArrayOnly([action]))
    assert env.step(ArrayOnly(np.int64(action)))[1] > 0
    envs = gymnasium.make_vec(ENV_IDS["royal-marriage"], num_envs=2, vectorization_mode="vector_entry_point", impl=impl)
    envs.reset(seed=3)
    envs.step(DLPackOnly(np.asarray(envs.action_masks().argmax(axis=1))))  # type: ignore[attr-defined]


def test_torch_tensors_step_both_implementations() -> None:
    torch = pytest.importorskip("torch", reason="torch is not installed (CI's recipe venv installs it)")
    for impl in IMPLS:
        vec, twin = batches(impl)
        for _ in range(6):
            actions = [int(a) for a in twin.sample_legal_actions()]
            vec.sample_legal_actions()
            got, want = vec.step(torch.tensor(actions)), twin.step(actions)
            assert np.asarray(got[0]).tolist() == np.asarray(want[0]).tolist()
        vec.step(torch.tensor(vec.sample_legal_actions(), dtype=torch.int32))
        with pytest.raises(TypeError, match="^slot 0: action must be an int, got float32$"):
            vec.step(torch.zeros(3))
