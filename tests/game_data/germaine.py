"""Germaine 2-Move's test data: what the tests that cover every game know of this game, and the
fixtures of the tests of its own rules.

``conftest.game_data("germaine")`` loads this file (the registry entry's ``module`` names it);
``tests/test_games.py`` ``DATA`` lists the constants every game's data file defines, and fails
naming any a registered game lacks. Each constant says what it is and where its value came from.
The values are pinned: one changes only with what the engine computes, on purpose.
"""

from __future__ import annotations

import random
from typing import Any, Dict, List, Tuple

from conftest import card_index, card_token, cards_at, flat, splitmix_table

COLUMNS = "abcdefghijklm"
"""The grid's column letters, as the move notation names them."""


def grid(cards: Dict[str, str], slides: int = 0) -> str:
    """Germaine text with the given cells ('g3': 'QH') filled and every other cell empty."""
    rows = [["--"] * 13 for _ in range(4)]
    for cell, card in cards.items():
        rows[int(cell[1:]) - 1][COLUMNS.index(cell[0])] = card
    return "\n".join(" ".join(row) for row in rows) + f"\nslides: {slides}"


# --- the registry entry, pinned (tests/test_games.py, tests/test_envs.py) ----------------------

TITLE = "Germaine 2-Move"
"""The title headings print (``GameInfo.title``)."""
PYSOL_ID = None
"""PySolFC's own id of the game (``GameInfo.pysol_id``): None, as PySolFC lacks the game."""
ENV_ID = "patience_engine/Germaine-v0"
"""The Gymnasium environment id: docs/rl.md "Gymnasium"."""
HIDDEN_CARDS = False
"""Whether some cards lie face down (``GameInfo.hidden_cards``): none do."""
PLAYED_FOR_SCORE = True
"""Whether the game is played for its best score (``GameInfo.played_for_score``): a one-card finish scores
more with a higher card (docs/rules.md "Germaine 2-Move")."""

# --- rules and perft (tests/test_rules.py, tests/test_perft.py, tests/test_docs.py) -------------

DEAL_TEXTS = {
    1: """\
7D 9C 4D 8H 8D 5S JD 6D 9S JC 5D KD 3C
2D JH 5H 7H 4H 2C AD 6S KC KH TH TS JS
TD 8S QC 4S 6C 7C AS 5C AH KS 6H QS QH
QD 9D 3D 3S AC 4C 2H 8C TC 3H 2S 9H 7S
slides: 0""",
}
"""Deal number -> its text: docs/rules.md "Check values", worked out by an independent implementation."""
RULES_PERFT = {
    1: [26, 724, 21265],
    2: [40, 1603, 64421],
    3: [24, 598, 15478],
}
"""Deal -> perft at depths 1, 2, ...: docs/rules.md "Check values" (the reference walks the depths up to
``bench.signature_depths[0]``, the C++ engine all of them)."""
MORE_PERFT = {
    0: [30, 953, 31717],
    4: [26, 714, 20614],
    5: [30, 926, 29475],
    1000: [30, 900, 27196],
    2**64 - 1: [20, 434, 10082],
}
"""Deal -> perft at depths 1, 2, ... of more deals, counted alike by the reference and the engine when pinned."""

# --- Zobrist keys (tests/test_hashing.py) ------------------------------------------------------

GOLDEN_KEYS = {
    1: (0x649E9B51B39FE924, 0x649E9B51B39FE924),
    2**64 - 1: (0xAFBEFAF3B831FD50, 0x6127F1E688732AC2),
}
"""Deal -> (hash, canonical_hash), as the engine computed them when pinned: a change to the key tables or
their construction shows here."""


def documented_keys(text: str) -> Tuple[int, int]:
    """(hash, canonical_hash) of a position's text by docs/architecture.md "Zobrist keys", with no engine code:
    one key per card in its cell and one for the slide allowance; the canonical key is the least of the
    grid's four reflections' keys."""
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


# --- the bench signature (tests/test_signature.py) ---------------------------------------------

SIGNATURE_PERFT = {
    (1, 3): 21265,
    (1, 5): 20514590,
    (2, 3): 64421,
    (2, 5): 104679137,
    (3, 3): 15478,
    (3, 5): 11307700,
}
"""(deal, depth) -> leaves of the bench signature's perft lines (``patience bench --signature``); each count
agreed with and without bulk counting when pinned, the shallow ones are docs/rules.md "Check values"."""
SIGNATURE_SOLVES = {
    1: "won score 63 nodes 100000 moves 150",
    15: "won score 64 nodes 10411 moves 144",
}
"""Deal -> the end of the signature's line ``solve <game> deal <deal>: ...`` (``patience bench --signature``)."""

# --- move texts (tests/test_move_parity.py, tests/test_text.py) --------------------------------

MOVE_PROPERTIES = {"is_combine": (bool,), "src": (str,), "dst": (str,)}
"""The move class's properties beyond ``action``, each with the types of value it takes (both
implementations must agree on value and type)."""


def random_notation(rng: random.Random) -> str:
    """Well-formed-looking move text, mostly not legal: two cells, some off the grid, joined by 'x' or '-'."""
    def cell() -> str:
        return rng.choice("abcdefghijklmn") + rng.choice("012345")

    return cell() + rng.choice("x-") + cell()


BAD_MOVE_MESSAGES = [
    ("G3xH3", "bad move text 'G3xH3': bad cell 'G3' (columns a..m, rows 1..4)"),
    ("a1\u00e9b", "bad move text 'a1\u00e9b': expected a combine 'g3xh3' or a slide 'g3-h3'"),
    ("a1\u00e9b1", "bad move text 'a1\u00e9b1': expected 'x' (combine) or '-' (slide) between the cells, got '\u00e9'"),
]
"""(move text, the ValueError's whole message) of ``parse_move``, alike in both implementations."""
BAD_MOVE_TEXTS = ["g3xh4", "z1xa1", "a1*a2"]
"""Move texts ``parse_move`` refuses with a ValueError."""
BAD_POSITION_TEXTS = [
    (grid({"c2": "QX"}), r"line 2, token 3 'QX': unknown card"),
    (grid({"a1": "5C", "m4": "5c"}), r"line 4, token 13 '5c': duplicate card"),
    (grid({}).replace("slides: 0", "slides: 3"), r"line 5, token 2 '3'"),
    (grid({}).replace("-- --\n", "--\n", 1), r"line 1: expected 13 cells, got 12"),
    ("\n".join(grid({}).split("\n")[:3]), r"line \d+: expected 4 rows"),
    (grid({}) + "\nAS", r"line 6"),
]
"""(position text, a regular expression its ValueError's message matches) of ``from_text``."""
SPELLINGS = [("\n" + (grid({"a1": "10H", "b1": "j\u2665"}).replace("slides: 0", "") + "\n\n").replace(" ", "   "),
              grid({"a1": "TH", "b1": "JH"}))]
"""(text with odd blank space and card spellings, the text ``to_text`` gives of it): docs/rules.md "Cards";
the missing slides line means an allowance of 0."""

# --- actions and observations (tests/test_rl_parity.py, tests/test_rl_reference.py) ------------

NUM_ACTIONS = 416
"""The size of the action space: docs/rl.md "Actions"."""
NAMED_ACTIONS = 2 * (96 + 78)
"""How many actions of the space name a move: 4 x 12 x 2 horizontal and 3 x 13 x 2 vertical ordered pairs
of cells, two kinds each; the others point off the grid ("cell a1 has no neighbour up")."""
HAND_WORKED_ACTIONS = {"a2xa1": 13, "a1xb1": 104, "m4-l4": 311, "c3-c4": 392}
"""Move text -> action, worked by hand from docs/rl.md "Actions": (kind * 4 + direction) * 52 + cell;
m4-l4 = (1 * 4 + 1) * 52 + 51."""
RL_PARITY_PLIES = 153
"""Plies of each seeded random game in tests/test_rl_parity.py: the games end before it."""
RANDOM_MOVES = 153
"""Moves of each seeded random game in tests/test_rl_reference.py: the games end before it."""


def decoded_text(obs: List[Any]) -> str:
    """The position's text read back from its plain observation, as docs/rl.md lays it out: a card per
    cell of the 4 x 13 grid, the slide allowance in planes 17 and 18."""
    lines = []
    for row in range(4):
        cards = [cards_at(obs, row, column) for column in range(13)]
        lines.append(" ".join(card_token(*card) if card[0] else "--" for card in cards))
    allowance = obs[17][0][0] + obs[18][0][0]
    assert all(set(flat(obs[plane])) == {obs[plane][0][0]} for plane in (17, 18))
    return "\n".join(lines + [f"slides: {allowance}"])


# --- batches and playouts (tests/test_rl_vector.py, tests/test_vector_game.py) -----------------

VECTOR_MIRROR_RUNS = [(5, 14)]
"""(max_moves, steps) of the reference's batches checked against single positions."""
PLAYOUT_LOOPS = [(6, 153)]
"""(n, max_moves) of reference playouts checked against a loop written out by hand."""
VECTOR_MAX_MOVES = 12
"""The move limit of tests/test_vector_game.py's six-slot batch over 150 steps: short, so that truncation
and autoreset both happen often."""

# --- the solver (tests/test_solver.py) ---------------------------------------------------------

_EMPTY_ROW = " ".join(["--"] * 13)
KNOWN_VERDICTS: List[Tuple[Any, str]] = [
    (f"AC 2D {' '.join(['--'] * 11)}\n" + "\n".join([_EMPTY_ROW] * 3), "won"),
    (f"AC -- 2D {' '.join(['--'] * 10)}\n" + "\n".join([_EMPTY_ROW] * 3), "lost"),
    (f"AC -- 2D {' '.join(['--'] * 10)}\n" + "\n".join([_EMPTY_ROW] * 3) + "\nslides: 1", "won"),
    # No card at all: nothing can leave one card.
    ("\n".join([_EMPTY_ROW] * 4), "lost"),
]
"""(position text or deal number, status): verdicts the solver must prove, with and without pruning, on
every table size; each agrees with a plain exhaustive search over the reference."""
SOLVE_ALIKE_DEALS = range(0)
"""Deals solved under 300,000 nodes on every table size, with and without pruning, whose settled verdicts
must agree: none, as most such solves of Germaine's deals stop unknown (8 of the 12 of deals 11 and 12)
and the 60 would add seconds; tests/test_solver.py checks Germaine's best scores against an exhaustive
search instead."""
HARD_DEAL = 890
"""The one deal of 1-1000 where the solver found no one-card finish in 10^7 nodes (docs/results.md "Winnability"; it
finds one after about 1.9 * 10^8): unknown under every limit the tests set."""

# --- pictures and the solution page (tests/test_pictures.py, tests/test_browser.py) ------------


def visible_cards(text: str) -> List[str]:
    """The cards a picture of the position shows, read from its text: every card of the grid."""
    lines = text.strip().splitlines()
    return [t for line in lines if not line.startswith("slides") for t in line.split() if t != "--"]


HIGHLIGHT: Tuple[Any, str, List[str], bool] = (1, "d1xd2", ["8H"], True)
"""(position text or deal, a legal move, the cards the picture marks moving, whether it marks a target)."""
HIGHLIGHT_REFUSALS: List[Tuple[Any, Any, type, str]] = [
    (2, "a1xa2", ValueError, "highlight: a1xa2 is not a legal move in this position"),
    (2, 0, ValueError, "highlight: action 0 is not a legal move in this position"),  # a1 up: no move
]
"""(position text or deal, highlight, error, its whole message) of ``to_svg(highlight=...)``."""
SOLUTION_PAGE_DEAL = 4
"""The deal whose solution page tests/test_browser.py steps through."""
