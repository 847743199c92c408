"""Zobrist keys: incremental against from-scratch, transpositions, symmetries, golden values."""

from __future__ import annotations

import itertools
import random
from typing import Any, List

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import GAME_NAMES, U64, game_cases, game_class, game_data


def from_scratch(state: Any) -> Any:
    """The same position set up anew from its text, so its keys are computed from scratch."""
    return type(state).from_text(state.to_text())


@pytest.mark.parametrize("game", GAME_NAMES)
@settings(max_examples=60, deadline=None)
@given(deal=st.integers(0, U64 - 1), choices=st.lists(st.integers(0, 10_000), max_size=60))
def test_incremental_keys_equal_from_scratch_keys(game: str, deal: int, choices: List[int]) -> None:
    cpp = game_class("cpp", game).deal(deal)
    ref = game_class("reference", game).deal(deal)
    for choice in choices:
        moves = sorted(str(m) for m in ref.legal_moves())
        if not moves:
            break
        move = moves[choice % len(moves)]
        cpp.play(move)
        ref.play(move)
        for state in (cpp, ref):
            scratch = from_scratch(state)
            assert (state.hash, state.canonical_hash) == (scratch.hash, scratch.canonical_hash)
        assert (cpp.hash, cpp.canonical_hash) == (ref.hash, ref.canonical_hash)
    while cpp.move_stack:
        cpp.undo()
        ref.undo()
        assert (cpp.hash, cpp.canonical_hash) == (ref.hash, ref.canonical_hash)
        assert cpp.hash == from_scratch(cpp).hash
    assert cpp.hash == game_class("cpp", game).deal(deal).hash


def test_keys_are_unsigned_64_bit(impl: str, game: str) -> None:
    keys = []
    for deal in range(64):
        state = game_class(impl, game).deal(deal)
        keys += [state.hash, state.canonical_hash]
    assert all(type(k) is int and 0 <= k < U64 for k in keys)
    assert any(k >= 1 << 63 for k in keys), "the top bit must survive the binding"


def test_move_orders_reaching_one_position_give_one_key(impl: str, game: str) -> None:
    found = 0
    for deal in range(1, 4):
        start = game_class(impl, game).deal(deal)
        for a, b in itertools.combinations(start.legal_moves(), 2):
            ends = []
            for first, second in ((a, b), (b, a)):
                state = start.copy()
                state.play(first)
                if state.is_legal(second):
                    state.play(second)
                    ends.append(state)
            if len(ends) == 2:
                same = ends[0] == ends[1]
                assert (ends[0].hash == ends[1].hash) == same
                found += same
    assert found > 0


def reflect_germaine(text: str, flip_rows: bool, flip_columns: bool) -> str:
    lines = text.split("\n")
    rows = [line.split() for line in lines[:4]]
    if flip_rows:
        rows.reverse()
    if flip_columns:
        rows = [row[::-1] for row in rows]
    return "\n".join(" ".join(row) for row in rows) + "\n" + lines[4]


def test_germaine_reflections_share_the_canonical_key(impl: str) -> None:
    cls = game_class(impl, "germaine")
    rng = random.Random(5)
    for deal in range(10):
        state = cls.deal(deal)
        for _ in range(rng.randrange(1, 20)):
            if state.legal_moves():
                state.play(rng.choice(state.legal_moves()))
        images = [cls.from_text(reflect_germaine(state.to_text(), r, c)) for r in (False, True) for c in (False, True)]
        assert len({image.canonical_hash for image in images}) == 1
        assert len({image.hash for image in images}) == 4
        assert len({tuple(sorted(map(str, image.legal_moves()))) for image in images}) >= 2


def test_germaine_allowance_is_part_of_both_keys(impl: str) -> None:
    cls = game_class(impl, "germaine")
    text = cls.deal(4).to_text()
    states = [cls.from_text(text.replace("slides: 0", f"slides: {a}")) for a in range(3)]
    assert len({s.hash for s in states}) == 3 and len({s.canonical_hash for s in states}) == 3


def test_geoffrey_column_order_does_not_change_the_canonical_key(impl: str) -> None:
    cls = game_class(impl, "geoffrey")
    rng = random.Random(9)
    for deal in range(10):
        state = cls.deal(deal)
        lines = state.to_text().split("\n")
        columns = lines[1:]
        rng.shuffle(columns)
        permuted = cls.from_text("\n".join(lines[:1] + columns))
        assert permuted.canonical_hash == state.canonical_hash
        assert permuted.hash != state.hash
        assert permuted != state


def test_geoffrey_face_down_state_is_part_of_the_position(impl: str) -> None:
    cls = game_class(impl, "geoffrey")
    small = game_data("geoffrey").SMALL_POSITION
    down = cls.from_text(small)
    up = cls.from_text(small.replace("(JS)", "JS"))
    assert down != up
    assert down.hash != up.hash and down.canonical_hash != up.canonical_hash


def test_royal_marriage_canonical_key_is_the_key(impl: str) -> None:
    for deal in range(20):
        state = game_class(impl, "royal-marriage").deal(deal)
        assert state.canonical_hash == state.hash


@pytest.mark.parametrize("game, deal", game_cases("GOLDEN_KEYS"))
def test_golden_keys(impl: str, game: str, deal: int) -> None:
    state = game_class(impl, game).deal(deal)
    assert (state.hash, state.canonical_hash) == game_data(game).GOLDEN_KEYS[deal]


def test_keys_follow_the_documented_construction(impl: str, game: str) -> None:
    rng = random.Random(3)
    for deal in range(5):
        state = game_class(impl, game).deal(deal)
        for _ in range(20):
            assert (state.hash, state.canonical_hash) == game_data(game).documented_keys(state.to_text())
            moves = state.legal_moves()
            if not moves:
                break
            state.play(rng.choice(moves))
