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
