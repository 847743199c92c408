"""Shared fixtures: the two implementations of each game side by side."""

from __future__ import annotations

from typing import Any, Callable, Dict, Tuple

import pytest

import patience_engine
from patience_engine import reference

GAME_NAMES = ["royal-marriage", "germaine", "geoffrey"]
IMPLS: Dict[str, Tuple[Dict[str, Any], Callable[[Any, int], int]]] = {
    "cpp": (patience_engine.GAMES, patience_engine.perft),
    "reference": (reference.GAMES, reference.perft),
}


@pytest.fixture(params=GAME_NAMES)
def game(request: pytest.FixtureRequest) -> str:
    """Each game's command-line name."""
    return str(request.param)


@pytest.fixture(params=list(IMPLS))
def impl(request: pytest.FixtureRequest) -> str:
    """Each implementation's name: 'cpp' or 'reference'."""
    return str(request.param)


def game_class(impl: str, game: str) -> Any:
    """The position class of a game in one implementation."""
    return IMPLS[impl][0][game]


def perft_of(impl: str) -> Callable[[Any, int], int]:
    """The perft function of one implementation."""
    return IMPLS[impl][1]


def sorted_moves(state: Any) -> list:
    """The legal moves of a position as sorted texts."""
    return sorted(str(move) for move in state.legal_moves())
