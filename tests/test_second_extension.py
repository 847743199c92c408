"""Importing patience_engine leaves every other pybind11 module as it was.

The engine replaces ``tp_new`` of pybind11's base class ``pybind11_object`` (own_new() in
cpp/core/pybind11_internals.hpp). That base belongs to a pybind11 "internals", which every module
built with the same pybind11 and compiler ABI shares unless it asks for one of its own: a class of
another module made before the patch keeps the ``tp_new`` it copied, and CPython then refuses its
``Foo.__new__(Foo)`` ("pybind11_object.__new__(Foo) is not safe"), which ``copy.copy()`` and the
pure-Python unpickler call. The engine has internals of its own (CMakeLists.txt), which this test
proves: a tiny second extension, compiled here with the pybind11 of the test environment (the
build's: pyproject.toml pins both), behaves alike in a fresh process without the engine, before it
and after it."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any, Dict, List

import pytest

ROOT = Path(__file__).resolve().parents[1]

SOURCE = r"""
#include <pybind11/pybind11.h>

namespace py = pybind11;

struct Counter {
  int value;
};

PYBIND11_MODULE(second_extension, m) {
  py::class_<Counter>(m, "Counter")
      .def(py::init<int>())
      .def_readonly("value", &Counter::value)
      .def(py::pickle([](const Counter& c) { return py::make_tuple(c.value); },
                      [](const py::tuple& t) { return Counter{t[0].cast<int>()}; }));
}
"""

# Prints, as JSON, what the second extension's class does; the engine, when asked, is imported
# (and used) before or after the extension.
SCRIPT = r"""
import copy, json, pickle, sys

order = sys.argv[1]
if order == "engine first":
    import patience_engine
    patience_engine.RoyalMarriage.deal(1).legal_moves()
import second_extension as ext
if order == "engine after":
    import patience_engine
    patience_engine.RoyalMarriage.deal(1).legal_moves()


def outcome(make):
    try:
        return ["ok", make()]
    except Exception as error:
        return [type(error).__name__, str(error)]


print(json.dumps({
    "made": outcome(lambda: ext.Counter(7).value),
    "new": outcome(lambda: type(ext.Counter.__new__(ext.Counter)).__name__),
    "copied": outcome(lambda: copy.copy(ext.Counter(7)).value),
    # The C unpickler calls tp_new itself; the pure-Python one, as copy does, calls Counter.__new__.
    "pickled": [outcome(lambda p=p, loads=loads: loads(pickle.dumps(ext.Counter(7), p)).value)
                for p in range(2, pickle.HIGHEST_PROTOCOL + 1) for loads in (pickle.loads, pickle._loads)],
}))
"""


def compiler() -> List[str]:
    """The C++ compiler: $CXX, else c++, g++ or clang++ on PATH; skips the test without one."""
    if os.environ.get("CXX"):
        return shlex.split(os.environ["CXX"])
    for name in ("c++", "g++", "clang++"):
        found = shutil.which(name)
        if found:
            return [found]
    pytest.skip("no C++ compiler to build a second pybind11 extension with ($CXX, c++, g++ or clang++)")


@pytest.fixture(scope="session")
def second_extension(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of the compiled second extension (built once per session, a few seconds)."""
    pybind11 = pytest.importorskip("pybind11", reason="pybind11 is not installed (the test extra brings it)")
    python_include = sysconfig.get_paths()["include"]
    if not (Path(python_include) / "Python.h").exists():
        pytest.skip(f"Python's C headers are not installed ({python_include}/Python.h)")
    cxx = compiler()
    folder = tmp_path_factory.mktemp("second_extension")
    source = folder / "second_extension.cpp"
    source.write_text(SOURCE)
    target = folder / f"second_extension{sysconfig.get_config_var('EXT_SUFFIX')}"
    flags = ["-O0", "-std=c++17", "-shared", "-fPIC", "-fvisibility=hidden"]
    if sys.platform == "darwin":
        flags += ["-undefined", "dynamic_lookup"]
    built = subprocess.run([*cxx, *flags, f"-I{pybind11.get_include()}", f"-I{python_include}", str(source),
                            "-o", str(target)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    return folder


def behaviour(folder: Path, order: str) -> Dict[str, Any]:
    """What the second extension's class does in a fresh process, the engine imported as order says."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")]))
    ran = subprocess.run([sys.executable, "-c", SCRIPT, order], capture_output=True, text=True, env=env, timeout=60)
    assert ran.returncode == 0, ran.stderr
    result: Dict[str, Any] = json.loads(ran.stdout)
    return result


def test_the_test_environment_has_the_builds_pybind11() -> None:
    pybind11 = pytest.importorskip("pybind11", reason="pybind11 is not installed (the test extra brings it)")
    pins = set(re.findall(r'"pybind11==([^"]+)"', (ROOT / "pyproject.toml").read_text()))
    assert pins == {pybind11.__version__}, "pyproject.toml: the build and the test extra pin one pybind11"


def test_another_pybind11_module_behaves_the_same_with_the_engine(second_extension: Path) -> None:
    alone = behaviour(second_extension, "no engine")
    pickled = [["ok", 7]] * len(alone["pickled"])
    assert alone == {"made": ["ok", 7], "new": ["ok", "Counter"], "copied": ["ok", 7], "pickled": pickled}
    for order in ("engine after", "engine first"):
        assert behaviour(second_extension, order) == alone, order
