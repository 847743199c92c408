"""Both implementations read the same texts alike: the same position, or the same error message."""

from __future__ import annotations

import random
from typing import Tuple

import pytest

from conftest import GAME_NAMES, game_class

JUNK = ["ZZ", "--", "-", "(5C)", "5C", "(", "()", "10h", "Q\u2665", "slides:", "slides: 1", "Foundations:",
        "C-0", "H-K", "s-5", "+", "QH", "KH", "AS", "(KS)", "x", "3", "2"]


def mutate(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    for _ in range(rng.randrange(1, 3)):
        if not lines:
            break
        i = rng.randrange(len(lines))
        tokens = lines[i].split()
        kind = rng.randrange(7)
        if kind == 0 and tokens:
            tokens.pop(rng.randrange(len(tokens)))
        elif kind == 1:
            tokens.insert(rng.randrange(len(tokens) + 1), rng.choice(JUNK))
        elif kind == 2 and tokens:
            j = rng.randrange(len(tokens))
            tokens[j] = rng.choice(JUNK)
        elif kind == 3 and tokens:
            j = rng.randrange(len(tokens))
            tokens[j] = tokens[j].strip("()") if tokens[j].startswith("(") else f"({tokens[j]})"
        elif kind == 4:
            lines.pop(i)
            continue
        elif kind == 5:
            lines.insert(i, rng.choice(["", " ", lines[i]]))
            continue
        elif kind == 6 and len(tokens) > 1:
            a, b = rng.sample(range(len(tokens)), 2)
            tokens[a], tokens[b] = tokens[b], tokens[a]
        lines[i] = " ".join(tokens)
    return "\n".join(lines)


def outcome(impl: str, game: str, text: str) -> Tuple[str, str]:
    try:
        return "ok", game_class(impl, game).from_text(text).to_text()
    except ValueError as error:
        return "error", str(error)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_mutated_texts_are_read_alike(game: str) -> None:
    rng = random.Random(game)
    refused = 0
    for trial in range(1500):
        state = game_class("reference", game).deal(trial)
        for _ in range(rng.randrange(0, 30)):
            moves = state.legal_moves()
            if not moves:
                break
            state.play(rng.choice(moves))
        text = mutate(state.to_text(), rng)
        cpp, ref = outcome("cpp", game, text), outcome("reference", game, text)
        assert cpp == ref, f"text {text!r}"
        refused += cpp[0] == "error"
    assert 300 < refused < 1500, "the mutations must produce both good and bad texts"


# Every character quote() escapes beyond ASCII, and the characters on either side of each run.
INVISIBLE = [*range(0x80, 0xA1), 0xAD, 0x34F, *range(0x600, 0x606), 0x61C, 0x115F, 0x1160, 0x1680, 0x17B4, 0x17B5,
             *range(0x180B, 0x1810), *range(0x2000, 0x2010), *range(0x2028, 0x2030), *range(0x205F, 0x2070), 0x3000,
             0x3164, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, *range(0xFE00, 0xFE10), 0xFEFF, 0xFFA0, *range(0xFFF9, 0xFFFC),
             *range(0x1D173, 0x1D17B), 0xE0000, 0xE0001, *range(0xE0020, 0xE0080), *range(0xE0100, 0xE01F0), 0xE0FFF]
VISIBLE = [0x7E, 0xA1, 0xAC, 0xAE, 0x34E, 0x350, 0x5FF, 0x606, 0x61B, 0x61D, 0x115E, 0x1161, 0x167F, 0x1681, 0x17B3,
           0x17B6, 0x180A, 0x1810, 0x1FFF, 0x2010, 0x2027, 0x2030, 0x205E, 0x2070, 0x2FFF, 0x3001, 0x3163, 0x3165,
           0xD7FF, 0xE000, 0xFDFF, 0xFE10, 0xFEFE, 0xFF00, 0xFF9F, 0xFFA1, 0xFFF8, 0xFFFC, 0x1D172, 0x1D17B, 0x1F0A1,
           0xDFFFF, 0xE1000]


def escaped(code: int) -> str:
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


@pytest.mark.parametrize("code", INVISIBLE + VISIBLE)
def test_messages_show_invisible_characters_alike(code: int) -> None:
    text = f"QH {chr(code)}3C KH"
    shown = escaped(code) if code in INVISIBLE else chr(code)
    messages = []
    for impl in ("cpp", "reference"):
        cls = game_class(impl, "royal-marriage")
        for call in (cls.from_text, cls.parse_move):
            with pytest.raises(ValueError) as error:
                call(text)
            messages.append(str(error.value))
    assert messages[:2] == messages[2:]
    assert messages[0] == f"line 1, token 2 '{shown}3C': unknown card"


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_leading_byte_order_mark_is_dropped_alike(game: str) -> None:
    """As the CLI's --file reads a file an editor saved with a byte-order mark; only one, only at the start."""
    for impl in ("cpp", "reference"):
        cls = game_class(impl, game)
        text = cls.deal(5).to_text()
        assert cls.from_text("\ufeff" + text) == cls.from_text(text)
    row = "QH 3C 9D KH"
    assert game_class("cpp", "royal-marriage").from_text("\ufeff" + row).to_text() == row
    for late in (" \ufeff" + row, "\ufeff\ufeff" + row):
        assert outcome("cpp", "royal-marriage", late) == outcome("reference", "royal-marriage", late) == (
            "error", "line 1, token 1 '\\ufeffQH': unknown card")
