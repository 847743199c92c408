"""The installed package: compiled module, version, build, CPU check, typing files, a pure-Python
reference; and the source distribution a release ships."""

from __future__ import annotations

import ast
import importlib.machinery
import platform
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import List

import pytest

import patience_engine
from patience_engine import _core, _cpu, _target, reference
from patience_engine.cli import main

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(patience_engine.__file__).resolve().parent


def pyproject_version() -> str:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.startswith("version = "):
            return line.split('"')[1]
    raise AssertionError("no version in pyproject.toml")


def test_version_comes_from_pyproject() -> None:
    assert patience_engine.__version__ == _core.__version__ == pyproject_version()


def test_installed_outside_the_source_tree_with_the_compiled_module() -> None:
    assert ROOT / "python" not in PACKAGE.parents and PACKAGE != ROOT / "python" / "patience_engine"
    core = Path(_core.__file__)
    assert core.parent == PACKAGE
    assert any(core.name.endswith(suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES)
    assert (PACKAGE / "_core.pyi").is_file() and (PACKAGE / "py.typed").is_file()


def test_module_says_how_it_was_built(capsys: pytest.CaptureFixture[str]) -> None:
    assert _core.BUILD_TYPE in ("Release", "RelWithDebInfo", "MinSizeRel", "Debug")
    assert patience_engine.OPTIMIZED is _core.OPTIMIZED is (_core.BUILD_TYPE != "Debug")
    # CI runs the tests of the sanitizers' build with their runtime preloaded, and only those.
    maps = Path("/proc/self/maps")
    if maps.exists():
        assert (patience_engine.SANITIZERS == ("address", "undefined")) is ("libasan" in maps.read_text())
    assert patience_engine.SANITIZERS is _core.SANITIZERS
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    sanitizers = ", sanitizers address, undefined" if _core.SANITIZERS else ""
    assert capsys.readouterr().out == f"patience-engine {pyproject_version()} ({_core.BUILD_TYPE} build{sanitizers})\n"


# Python run with /proc/cpuinfo of a CPU from before x86-64-v2 (SSE2 and SSE3 only), importing the package.
OLD_CPU = """
import builtins, io, sys
real_open = builtins.open
def fake_open(file, *args, **kwargs):
    if file == "/proc/cpuinfo":
        return io.StringIO("processor\\t: 0\\nflags\\t\\t: fpu cmov sse sse2 pni cx16 lahf_lm\\n")
    return real_open(file, *args, **kwargs)
builtins.open = fake_open
try:
    import patience_engine
except ImportError as error:
    print(error)
print("patience_engine._core" in sys.modules)
"""


def test_a_cpu_without_the_builds_instruction_set_is_a_one_line_import_error(tmp_path: Path) -> None:
    if platform.machine() in ("x86_64", "AMD64"):
        assert _target.MARCH == "x86-64-v2" and _target.MARCH in _cpu.LEVEL_FLAGS
    if _target.MARCH is None:
        pytest.skip("this build is compiled for no particular instruction set (-march), so there is nothing to check")
    child = subprocess.run([sys.executable, "-c", OLD_CPU], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert (child.returncode, child.stderr) == (0, "")
    assert child.stdout == ("patience_engine's compiled module needs an x86-64-v2 CPU, and this one lacks popcnt, "
                            "sse4_1, sse4_2, ssse3 (/proc/cpuinfo); it cannot run here\nFalse\n")
    assert _cpu.missing("x86-64-v2", "processor : 0\n") == [], "no flags line: nothing to judge by"


def test_reference_imports_nothing_compiled() -> None:
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    folder = Path(reference.__file__).parent
    # The package's pure-Python helpers the reference may use; they import the stdlib alone too, but for
    # _arrays, which reads an array of another library (a torch tensor) through numpy, imported only then.
    helpers = ("_arrays", "_errors", "_replay", "_shown", "limits", "registry")
    lazily = {("_arrays.py", "numpy")}
    for path in [*folder.glob("*.py"), *(folder.parent / f"{name}.py" for name in helpers)]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # Imports under `if TYPE_CHECKING:` (the engine's and numpy's types, for annotations) never run.
        typing_only = {id(inner) for node in ast.walk(tree)
                       if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
                       for statement in node.body for inner in ast.walk(statement)}
        in_functions = {id(inner) for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
                        for inner in ast.walk(node)}
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.ImportFrom) and node.level:
                inside = path.parent == folder and (node.level == 1 or node.module in helpers)
                between_helpers = path.parent == folder.parent and node.level == 1 and node.module in helpers
                assert inside or between_helpers, f"{path}: imports {node.module}"
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module]
                for name in names:
                    top = str(name).split(".")[0]
                    assert top in stdlib or ((path.name, top) in lazily and id(node) in in_functions), \
                        f"{path}: imports {name}"


SDIST_FILES = ("pyproject.toml", "CMakeLists.txt", "README.md", "CHANGELOG.md", "cpp/", "python/")
"""What the sdist holds (pyproject.toml [tool.scikit-build] sdist): the build's files and the package's pages."""
DEBRIS = (".venv/bin/python", ".venv-recipes/pyvenv.cfg", "build/editable/CMakeCache.txt", "dist/old.tar.gz",
          "python/patience_engine/_core.cpython-311-x86_64-linux-gnu.so", "python/patience_engine/__pycache__/cli.pyc",
          "cpp/__pycache__/x.pyc", ".pytest_cache/README.md", ".hypothesis/examples/x", "patience-survey.sqlite",
          "docs/_build/html/index.html", "docs/_api/patience_engine.rst", ".ci/cache/x", "notes.txt")
"""Files a working tree gathers, none of which belongs in the sdist."""


def tracked_files() -> List[str]:
    """The files git tracks in this checkout (skips the test outside one)."""
    git = shutil.which("git")
    listed = subprocess.run([git, "-C", str(ROOT), "ls-files", "-z"], capture_output=True, text=True) if git else None
    if listed is None or listed.returncode != 0:
        pytest.skip("needs git and a git checkout of the project, to know its files")
    return [name for name in listed.stdout.split("\0") if name and (ROOT / name).is_file()]


def test_the_sdist_holds_the_builds_files_and_no_debris(tmp_path: Path) -> None:
    """The sdist of a tree of the checkout's files and a working tree's debris: what it holds builds the wheels
    (.ci/dist makes them from it)."""
    pytest.importorskip("build", reason="needs the build package (the test extra has it)")
    source = tmp_path / "source"
    files = tracked_files()
    for name in [*files, *DEBRIS]:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        if name in files:
            shutil.copy2(ROOT / name, source / name)
        else:
            (source / name).write_text("debris\n")
    built = subprocess.run([sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir", str(tmp_path),
                            str(source)], capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stdout + built.stderr
    (sdist,) = tmp_path.glob("patience_engine-*.tar.gz")
    top = sdist.name[: -len(".tar.gz")]
    with tarfile.open(sdist) as archive:
        names = {member.name for member in archive.getmembers() if member.isfile()}
    assert all(name.startswith(top + "/") for name in names)
    expected = {name for name in files if name in SDIST_FILES or name.startswith(SDIST_FILES)}
    assert {name[len(top) + 1:] for name in names} == expected | {"PKG-INFO"}
