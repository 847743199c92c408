"""Geoffrey's test data: what the tests that cover every game know of this game, and the fixtures
of the tests of its own rules and hidden view.

``conftest.game_data("geoffrey")`` loads this file (the registry entry's ``module`` names it);
``tests/test_games.py`` ``DATA`` lists the constants every game's data file defines, and fails
naming any a registered game lacks. Each constant says what it is and where its value came from.
The values are pinned: one changes only with what the engine computes, on purpose.
"""

from __future__ import annotations

import random
from typing import Any, List, Tuple

from conftest import card_index, card_token, cards_at, splitmix_table

SMALL_POSITION = """\
Foundations: C-K D-K H-8 S-8
(JS) 9H
TH QS
KH
9S JH
QH TS
KS
-
-"""
"""A small hand-worked position (tests/test_rules.py lists its moves): a face-down JS under 9H, groups
to move, two empty columns."""

# --- the registry entry, pinned (tests/test_games.py, tests/test_envs.py) ----------------------

TITLE = "Geoffrey"
"""The title headings print (``GameInfo.title``)."""
PYSOL_ID = 492
"""PySolFC's own id of the game (``GameInfo.pysol_id``, as the registry had it when pinned)."""
ENV_ID = "patience_engine/Geoffrey-v0"
"""The Gymnasium environment id: docs/rl.md "Gymnasium"."""
HIDDEN_CARDS = True
"""Whether some cards lie face down (``GameInfo.hidden_cards``): 16 at the deal (docs/rules.md "Numbered deals")."""
PLAYED_FOR_SCORE = False
"""Whether the game is played for its best score, not only won or lost (``GameInfo.played_for_score``)."""

# --- rules and perft (tests/test_rules.py, tests/test_perft.py, tests/test_docs.py) -------------

DEAL_TEXTS = {
    2: """\
Foundations: C-0 D-0 H-0 S-0
QH 3S 4C 5H 7H 2D KH
TD AC 6C 7S 3C QC 7D
6H JH TC 9S JD 8C 4D
5S 2S 4H AD QD 6S 8H
(3H) (9D) (6D) (JS) AS 5C
(JC) (AH) (KC) (2H) 7C 4S
(9C) (TH) (5D) (TS) QS KS
(8S) (KD) (3D) (2C) 8D 9H""",
}
"""Deal number -> its text: docs/rules.md "Check values", worked out by an independent implementation."""
RULES_PERFT = {
    1: [7, 45, 266, 1428, 6986],
    2: [4, 18, 85, 407, 1998],
    3: [7, 44, 247, 1233, 5448],
}
"""Deal -> perft at depths 1, 2, ...: docs/rules.md "Check values" (the reference walks the depths up to
``bench.signature_depths[0]``, the C++ engine all of them)."""
MORE_PERFT = {
    0: [5, 24, 115, 567, 2895],
    4: [4, 17, 73, 303, 1220],
    5: [5, 23, 106, 469, 1992],
    1000: [5, 23, 98, 393, 1512],
    2**64 - 1: [6, 35, 194, 1036, 5299],
}
"""Deal -> perft at depths 1, 2, ... of more deals, counted alike by the reference and the engine when pinned."""

# --- Zobrist keys (tests/test_hashing.py) ------------------------------------------------------

GOLDEN_KEYS = {
    1: (0x11A1351664A6BDBE, 0x3EA5E7E8737EF877),
    2**64 - 1: (0xD0D913F916BD31A5, 0x6184400961986462),
}
"""Deal -> (hash, canonical_hash), as the engine computed them when pinned: a change to the key tables or
their construction shows here."""


def documented_keys(text: str) -> Tuple[int, int]:
    """(hash, canonical_hash) of a position's text by docs/architecture.md "Zobrist keys", with no engine code:
    keys for the cards home, each card on the card below it, each column's bottom card (in its column for
    the exact key, in any column for the canonical one, which the columns' order leaves alone) and each
    face-down card."""
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


# --- the bench signature (tests/test_signature.py) ---------------------------------------------

SIGNATURE_PERFT = {
    (1, 5): 6986,
    (1, 10): 7547283,
    (2, 5): 1998,
    (2, 10): 5481863,
    (3, 5): 5448,
    (3, 10): 892693,
}
"""(deal, depth) -> leaves of the bench signature's perft lines (``patience bench --signature``); each count
agreed with and without bulk counting when pinned, the shallow ones are docs/rules.md "Check values"."""
SIGNATURE_SOLVES = {
    1: "lost score 0 nodes 947 moves 0",
    2: "won score 52 nodes 88 moves 88",
    16: "lost score 0 nodes 62248 moves 0",
}
"""Deal -> the end of the signature's line ``solve <game> deal <deal>: ...`` (``patience bench --signature``)."""

# --- move texts (tests/test_move_parity.py, tests/test_text.py) --------------------------------

MOVE_PROPERTIES = {"src": (int,), "card": (str,), "dst": (int, str), "to_foundation": (bool,)}
"""The move class's properties beyond ``action``, each with the types of value it takes (both
implementations must agree on value and type): ``dst`` is a column or 'F'."""


def random_notation(rng: random.Random) -> str:
    """Well-formed-looking move text, mostly not legal: any card, columns 0..9, some out of range."""
    def card() -> str:
        return rng.choice("A23456789TJQK") + rng.choice("CDHS")

    return f"{rng.randrange(10)}:{card()}>{rng.choice('0123456789F')}"


BAD_MOVE_MESSAGES = [
    ("0:9S>5", "bad move text '0:9S>5': source column '0' is not 1..8"),
    ("1:9S>9", "bad move text '1:9S>9': destination '9' is not 1..8 or F"),
    ("1:9X>2", "bad move text '1:9X>2': '9X' is not a card"),
]
"""(move text, the ValueError's whole message) of ``parse_move``, alike in both implementations."""
BAD_MOVE_TEXTS = ["3:9S>3", "9:9S>3", "3:9X>F", ""]
"""Move texts ``parse_move`` refuses with a ValueError."""
BAD_POSITION_TEXTS = [
    (SMALL_POSITION.replace("(JS) 9H", "9H (JS)"), r"line 2, token 2 '\(JS\)'"),
    (SMALL_POSITION.replace("TH QS", "TH QS 9H"), r"line 3, token 3 '9H': duplicate card"),
    (SMALL_POSITION.replace("KH\n", "KH 5C\n"), r"line 4, token 2 '5C': duplicate card"),
    (SMALL_POSITION.replace("KS\n", "-\n"), r"line \d+: missing card KS"),
    (SMALL_POSITION.replace("H-8", "X-8"), r"line 1, token 4 'X-8'"),
    (SMALL_POSITION.replace("H-8", "\u2665\u2665-8"), r"^line 1, token 4 '\u2665\u2665-8': bad foundation"),
    (SMALL_POSITION.replace("H-8", "H8"), r"^line 1, token 4 'H8': bad foundation"),
    (SMALL_POSITION.replace("H-8", "HH-8"), r"^line 1, token 4 'HH-8': bad foundation"),
    (SMALL_POSITION.replace("H-8", "H-T"), r"^line 2, token 2 '9H': duplicate card \(on its foundation\)$"),
    (SMALL_POSITION.replace("H-8", "H-12"),
     r"^line 1, token 4 'H-12': bad foundation: expected a suit, '-' and 0 or A..K, as C-0 or H-Q$"),
    (SMALL_POSITION.replace("QH TS", "QH T\u2660 (QC)"), r"line 6, token 3"),
    (SMALL_POSITION + "\n-", r"line 10"),
]
"""(position text, a regular expression its ValueError's message matches) of ``from_text``."""
SPELLINGS = [
    ("\n" + SMALL_POSITION.lower() + "\n", SMALL_POSITION),
    # A foundation's suit and rank are read as a card's are: symbols and 10 too.
    (SMALL_POSITION.replace("C-K D-K H-8 S-8", "\u2663-K \u2666-k h-8 \u2660-8"), SMALL_POSITION),
]
"""(text with odd blank space and card spellings, the text ``to_text`` gives of it): docs/rules.md "Cards"."""

# --- actions and observations (tests/test_rl_parity.py, tests/test_rl_reference.py) ------------

NUM_ACTIONS = 3328
"""The size of the action space: docs/rl.md "Actions"."""
NAMED_ACTIONS = 8 * 52 * 8
"""How many actions of the space name a move: every one (source column, card, target)."""
HAND_WORKED_ACTIONS = {"1:AC>2": 0, "2:AH>F": 631, "3:9S>5": 1211, "8:KS>7": 3326, "8:KS>F": 3327}
"""Move text -> action, worked by hand from docs/rl.md "Actions": (src * 52 + card) * 8 + target;
3:9S>5 = (2 * 52 + 47) * 8 + 3."""
RL_PARITY_PLIES = 120
"""Plies of each seeded random game in tests/test_rl_parity.py: a Geoffrey game can run for ever."""
RANDOM_MOVES = 80
"""Moves of each seeded random game in tests/test_rl_reference.py: a Geoffrey game can run for ever."""


def decoded_text(obs: List[Any]) -> str:
    """The position's text read back from its plain observation, as docs/rl.md lays it out: eight columns
    of 52 slots, four foundation piles (planes 8-11) and the face-down plane 17."""
    tops = []
    for suit in range(4):
        pile = [cards_at(obs, 8 + suit, slot) for slot in range(52)]
        top = sum(1 for card in pile if card[0])
        assert pile[:top] == [(rank, suit) for rank in range(1, top + 1)]
        tops.append(f"{'CDHS'[suit]}-{'A23456789TJQK'[top - 1] if top else '0'}")
    lines = ["Foundations: " + " ".join(tops)]
    for k in range(8):
        tokens = []
        for slot in range(52):
            card = cards_at(obs, k, slot)
            if card[0]:
                tokens.append(f"({card_token(*card)})" if obs[17][k][slot] else card_token(*card))
        lines.append(" ".join(tokens) or "-")
    return "\n".join(lines)


# --- batches and playouts (tests/test_rl_vector.py, tests/test_vector_game.py) -----------------

VECTOR_MIRROR_RUNS = [(3, 10)]
"""(max_moves, steps) of the reference's batches checked against single positions."""
PLAYOUT_LOOPS = [(6, 1000), (10, 3)]
"""(n, max_moves) of reference playouts checked against a loop written out by hand (1000 is the default
limit)."""
VECTOR_MAX_MOVES = 12
"""The move limit of tests/test_vector_game.py's six-slot batch over 150 steps: short, so that truncation
and autoreset both happen often."""

# --- the solver (tests/test_solver.py) ---------------------------------------------------------

KNOWN_VERDICTS: List[Tuple[Any, str]] = [
    (2, "won"),
    (6, "won"),
    (3, "lost"),
    (9, "lost"),
    (10, "lost"),
    # A random game of deal 1 played until no move was left.
    (
        """Foundations: C-3 D-2 H-0 S-0
        KC
        6D 9S JC 5D 4D
        KH TH TS JS
        KD QD JD TD 8S 7S 6S 5S
        (QC) (4S) (6C) (7C) AS 5C 4C 2H
        (AH) (KS) (6H) (QS) QH JH 5H 7H 4H
        (9D) (3D) 3S
        (8C) (TC) (3H) (2S) 9H 8H 8D 7D 9C""",
        "lost",
    ),
]
"""(position text or deal number, status): verdicts the solver must prove, with and without pruning, on
every table size; each agrees with a plain exhaustive search over the reference."""
SOLVE_ALIKE_DEALS = range(11, 21)
"""Deals solved under 300,000 nodes on every table size, with and without pruning, whose settled
verdicts must agree."""
DEAD_DEAL = 787
"""A deal with no legal move: the first of deals 0-199,999 (18 have none), as both implementations find."""

# --- pictures and the solution page (tests/test_pictures.py, tests/test_browser.py) ------------


def visible_cards(text: str) -> List[str]:
    """The cards a picture of the position shows, read from its text: each foundation's top card and every
    card of the columns, face down or up."""
    lines = text.strip().splitlines()
    tops = [rank + suit for suit, rank in (t.split("-") for t in lines[0].split()[1:]) if rank != "0"]
    return tops + [t.strip("()") for line in lines[1:] for t in line.split() if t != "-"]


HIGHLIGHT: Tuple[Any, str, List[str], bool] = (2, "1:4C>5", ["4C", "5H", "7H", "2D", "KH"], True)
"""(position text or deal, a legal move, the cards the picture marks moving, whether it marks a target):
a group moves whole."""
HIGHLIGHT_REFUSALS: List[Tuple[Any, Any, type, str]] = [
    (2, "1:AH>F", ValueError, "highlight: 1:AH>F is not a legal move in this position"),
    (2, 5, ValueError, "highlight: action 5 is not a legal move in this position"),
    (2, 3328, ValueError, "highlight: action 3328 is outside 0 .. 3327"),
    (2, "9D+2S", ValueError,
     "highlight: bad move text '9D+2S': expected source:card>destination, as in 3:9S>5 or 2:AH>F"),
    (2, 5.0, TypeError, "highlight: expected a GeoffreyMove, its text or an int action, got float"),
]
"""(position text or deal, highlight, error, its whole message) of ``to_svg(highlight=...)``."""
SOLUTION_PAGE_DEAL = 2
"""The deal whose solution page tests/test_browser.py steps through."""

# --- PySolFC (tests/test_pysol.py) -------------------------------------------------------------

PYSOL_GAME_1 = """\
Foundations: C-0 D-0 H-0 S-0
JD KD 2S 4C 3S 6D 6S
2D KC KS 5C TD 8S 9C
9H 9S 9D TS 4S 8D 2H
JC 5S QD QH TH QS 6H
(5D) (AD) (JS) (4H) 8H 6C
(7H) (QC) (AS) (AC) 2C 3D
(7C) (KH) (AH) (4D) JH 8C
(5H) (3H) (3C) (7S) 7D TC"""
"""The text of PySolFC's game 1 (its layout, as PySolFC deals it)."""
