"""Arrays of other libraries (torch, JAX, CuPy) read as numpy arrays on the host, for actions.

One place for both implementations: the reference's ``VectorGame.step`` and the environments call
``host_array``, and so does the C++ ``VectorGame.step`` for an argument ``foreign_array`` takes (it
tests the same in C++).
"""

from __future__ import annotations

import sys
from typing import Any, Optional, Protocol, Sequence, SupportsIndex, Union

# DLPack's device types (dlpack.h, DLDeviceType) other than the CPU's (1), for the message.
_DEVICES = {2: "CUDA", 3: "CUDA host", 4: "OpenCL", 7: "Vulkan", 8: "Metal", 9: "VPI", 10: "ROCm", 11: "ROCm host",
            12: "ext_dev", 13: "CUDA managed", 14: "oneAPI", 15: "WebGPU", 16: "Hexagon", 17: "MAIA"}
_CPU = 1


def foreign_array(value: object) -> bool:
    """Whether ``value`` is an array of another library: it offers ``__dlpack__`` or ``__array__`` and
    is no numpy array (a subclass of which, a masked array, is read item by item). Imports nothing."""
    numpy = sys.modules.get("numpy")  # not imported: value is no numpy array
    if numpy is not None and isinstance(value, numpy.ndarray):
        return False
    kind = type(value)
    return hasattr(kind, "__dlpack__") or hasattr(kind, "__array__")


def host_array(value: object, what: str = "actions") -> Optional[Any]:
    """``value`` as a numpy array (``numpy.ndarray``) when it offers ``__dlpack__`` (read in place, no
    copy) or ``__array__``; None when it offers neither.

    An object with ``__dlpack_device__`` is asked for its device first: ValueError naming ``what`` and
    the device for anything but the CPU (a torch tensor on a GPU, say), whose memory numpy cannot
    read. Imports numpy, never torch or another array library.
    """
    kind = type(value)
    if hasattr(kind, "__dlpack__"):
        import numpy as np

        if hasattr(kind, "__dlpack_device__"):
            device, index = value.__dlpack_device__()  # type: ignore[attr-defined]
            if device != _CPU:
                name = _DEVICES.get(int(device), f"type {int(device)}")
                raise ValueError(f"{what} on the DLPack device {name}:{int(index)}, not the CPU, cannot be read: "
                                 "move them to the CPU first (torch: .cpu(); JAX: jax.device_get())")
        return np.from_dlpack(value)  # type: ignore[arg-type]  # checked by hasattr above
    if hasattr(kind, "__array__"):
        import numpy as np

        return np.asarray(value)
    return None


class SupportsDLPack(Protocol):
    """An array that hands out its memory by DLPack (a torch tensor, a JAX or CuPy array)."""

    def __dlpack__(self, *args: Any, **kwargs: Any) -> Any: ...


class SupportsArray(Protocol):
    """An array that numpy reads by ``__array__``."""

    def __array__(self, *args: Any, **kwargs: Any) -> Any: ...


ActionsLike = Union[Sequence[SupportsIndex], SupportsArray, SupportsDLPack]
"""What ``VectorGame.step`` takes: ``num_envs`` integer actions as a sequence or a CPU array of any library."""
