"""The installed package: compiled module, version, typing files, a pure-Python reference."""

from __future__ import annotations

import ast
import importlib.machinery
import sys
from pathlib import Path

import patience_engine
from patience_engine import _core, reference

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


def test_module_says_how_it_was_built() -> None:
    assert _core.BUILD_TYPE in ("Release", "RelWithDebInfo", "MinSizeRel", "Debug")
    assert patience_engine.OPTIMIZED is _core.OPTIMIZED is (_core.BUILD_TYPE != "Debug")


def test_reference_imports_nothing_compiled() -> None:
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    folder = Path(reference.__file__).parent
    # The package's pure-Python helpers the reference may use; they import the stdlib alone too.
    helpers = ("_errors", "_replay", "_shown", "limits", "registry")
    for path in [*folder.glob("*.py"), *(folder.parent / f"{name}.py" for name in helpers)]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # Imports under `if TYPE_CHECKING:` (the engine's and numpy's types, for annotations) never run.
        typing_only = {id(inner) for node in ast.walk(tree)
                       if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
                       for statement in node.body for inner in ast.walk(statement)}
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
                    assert str(name).split(".")[0] in stdlib, f"{path}: imports {name}"
