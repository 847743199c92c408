"""The CPU check that runs before the compiled module loads.

The module is compiled for an instruction-set level (``-march``, CMakeLists.txt), which the build
records in ``patience_engine._target``. Run on a CPU without that level, its first popcount would
end the process with SIGILL ("Illegal instruction") and no word of why; ``check()`` reads the CPU's
features first and raises a one-line ``ImportError`` instead. Pure Python, so it runs on any CPU.

>>> missing("x86-64-v2", "processor : 0\\nflags : fpu sse2 cx16 lahf_lm pni ssse3 sse4_1\\n")
['popcnt', 'sse4_2']
"""

from __future__ import annotations

import importlib
from typing import Dict, List, Optional, Tuple

CPUINFO = "/proc/cpuinfo"
"""Where Linux lists the CPU's features (on its ``flags`` lines)."""

LEVEL_FLAGS: Dict[str, Tuple[str, ...]] = {
    # The x86-64 psABI's level 2 (CMPXCHG16B, LAHF/SAHF, POPCNT, SSE3, SSE4.1, SSE4.2, SSSE3), by the
    # names /proc/cpuinfo gives them (SSE3 is "pni").
    "x86-64-v2": ("cx16", "lahf_lm", "popcnt", "pni", "sse4_1", "sse4_2", "ssse3"),
}
"""The ``/proc/cpuinfo`` flags each ``-march`` level needs."""


def missing(march: str, cpuinfo: str) -> List[str]:
    """The flags ``march`` (a key of ``LEVEL_FLAGS``) needs that the first ``flags`` line of ``cpuinfo``
    (the text of /proc/cpuinfo) lacks, in ``LEVEL_FLAGS`` order; ``[]`` when the text has no such line
    (nothing to judge by). Raises KeyError for an unknown level."""
    needed = LEVEL_FLAGS[march]
    for line in cpuinfo.splitlines():
        name, _, value = line.partition(":")
        if name.strip() == "flags":
            have = set(value.split())
            return [flag for flag in needed if flag not in have]
    return []


def check() -> None:
    """Raise ``ImportError`` (one line, naming the level and the missing flags) if this CPU lacks an instruction
    set the compiled module was built for. Passes where that cannot be told: no ``_target`` (a source tree
    without a build), no level recorded (a build without ``-march``), or no readable ``CPUINFO`` (not Linux)."""
    try:
        march: Optional[str] = importlib.import_module("patience_engine._target").MARCH
    except ImportError:
        return
    if march is None:
        return
    try:
        with open(CPUINFO, encoding="utf-8", errors="replace") as handle:
            cpuinfo = handle.read()
    except OSError:
        return
    lacking = missing(march, cpuinfo)
    if lacking:
        raise ImportError(f"patience_engine's compiled module needs an {march} CPU, and this one lacks "
                          f"{', '.join(lacking)} ({CPUINFO}); it cannot run here")
