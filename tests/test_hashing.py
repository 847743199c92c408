"""Zobrist keys: incremental against from-scratch, transpositions, symmetries, golden values."""

from __future__ import annotations

import itertools
import random
from typing import Any, List, Tuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import GAME_NAMES, game_class
from test_rules import GEOFFREY_SMALL

U64 = 1 << 64


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
    down = cls.from_text(GEOFFREY_SMALL)
    up = cls.from_text(GEOFFREY_SMALL.replace("(JS)", "JS"))
    assert down != up
    assert down.hash != up.hash and down.canonical_hash != up.canonical_hash


def test_royal_marriage_canonical_key_is_the_key(impl: str) -> None:
    for deal in range(20):
        state = game_class(impl, "royal-marriage").deal(deal)
        assert state.canonical_hash == state.hash


# Pinned keys: a change to the key tables or their construction shows here.
GOLDEN_KEYS = {
    ("royal-marriage", 1): (0x2889A5C584E97BB9, 0x2889A5C584E97BB9),
    ("royal-marriage", 2**64 - 1): (0xBB3C3EBFDB995370, 0xBB3C3EBFDB995370),
    ("germaine", 1): (0x649E9B51B39FE924, 0x649E9B51B39FE924),
    ("germaine", 2**64 - 1): (0xAFBEFAF3B831FD50, 0x6127F1E688732AC2),
    ("geoffrey", 1): (0x11A1351664A6BDBE, 0x3EA5E7E8737EF877),
    ("geoffrey", 2**64 - 1): (0xD0D913F916BD31A5, 0x6184400961986462),
}


@pytest.mark.parametrize("game, deal", list(GOLDEN_KEYS))
def test_golden_keys(impl: str, game: str, deal: int) -> None:
    state = game_class(impl, game).deal(deal)
    assert (state.hash, state.canonical_hash) == GOLDEN_KEYS[game, deal]


def splitmix_table(seed: int, count: int) -> List[int]:
    """The README's key construction, restated here independently of both implementations."""
    keys, state, mask = [], seed, U64 - 1
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        keys.append(z ^ (z >> 31))
    return keys


def card_index(text: str) -> int:
    return "CDHS".index(text[-1]) * 13 + "A23456789TJQK".index(text[0])


def documented_keys(game: str, text: str) -> Tuple[int, int]:
    """hash and canonical_hash of a position's text by the README's table, with no engine code."""
    if game == "royal-marriage":
        row = [card_index(t) for t in text.split()]
        nxt = splitmix_table(0x526F79616C4D6172, 52 * 52)
        key = 0
        for a, b in zip(row, row[1:]):
            key ^= nxt[a * 52 + b]
        return key, key
    if game == "germaine":
        table = splitmix_table(0x4765726D61696E65, 52 * 52 + 3)
        lines = text.split("\n")
        slides = table[52 * 52 + int(lines[4].split()[1])]
        keys = []
        for flip_rows, flip_columns in ((0, 0), (0, 1), (1, 0), (1, 1)):
            key = slides
            for r, line in enumerate(lines[:4]):
                for c, token in enumerate(line.split()):
                    if token != "--":
                        cell = 13 * (3 - r if flip_rows else r) + (12 - c if flip_columns else c)
                        key ^= table[cell * 52 + card_index(token)]
            keys.append(key)
        return keys[0], min(keys)
    table = splitmix_table(0x47656F6666726579, 2704 + 416 + 3 * 52)
    on, bottom, bottom_any, down, home = 0, 2704, 2704 + 416, 2704 + 416 + 52, 2704 + 416 + 104
    lines = text.split("\n")
    exact = canonical = 0
    for token in lines[0].split()[1:]:
        suit, rank = "CDHS".index(token[0]), "0A23456789TJQK".index(token[2])
        for r in range(rank):
            exact ^= table[home + suit * 13 + r]
            canonical ^= table[home + suit * 13 + r]
    for k, line in enumerate(lines[1:]):
        below = None
        for token in line.split():
            if token == "-":
                continue
            card = card_index(token.strip("()"))
            term = table[down + card] if token.startswith("(") else 0
            if below is None:
                exact ^= term ^ table[bottom + k * 52 + card]
                canonical ^= term ^ table[bottom_any + card]
            else:
                exact ^= term ^ table[on + card * 52 + below]
                canonical ^= term ^ table[on + card * 52 + below]
            below = card
    return exact, canonical


def test_keys_follow_the_documented_construction(impl: str, game: str) -> None:
    rng = random.Random(3)
    for deal in range(5):
        state = game_class(impl, game).deal(deal)
        for _ in range(20):
            assert (state.hash, state.canonical_hash) == documented_keys(game, state.to_text())
            moves = state.legal_moves()
            if not moves:
                break
            state.play(rng.choice(moves))
