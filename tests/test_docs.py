"""Doctests in the package's docstrings and the README's examples run as tests."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import patience_engine

README = Path(__file__).resolve().parent.parent / "README.md"
MODULES = sorted(
    info.name for info in pkgutil.walk_packages(patience_engine.__path__, "patience_engine.")
    if info.name != "patience_engine._core"
) + ["patience_engine"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS, report=True)
    assert result.failed == 0


def test_readme_examples() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted >= 5, "the README shows its examples as doctests"
