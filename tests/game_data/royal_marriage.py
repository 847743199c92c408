"""Royal Marriage's test data: what the tests that cover every game know of this game.

``conftest.game_data("royal-marriage")`` loads this file (the registry entry's ``module`` names it);
``tests/test_games.py`` ``DATA`` lists the constants every game's data file defines, and fails
naming any a registered game lacks. Each constant says what it is and where its value came from.
The values are pinned: one changes only with what the engine computes, on purpose.
"""

from __future__ import annotations

import random
from typing import Any, List, Tuple

from conftest import card_index, card_token, cards_at, splitmix_table

# --- the registry entry, pinned (tests/test_games.py, tests/test_envs.py) ----------------------

TITLE = "Royal Marriage"
"""The title headings print (``GameInfo.title``)."""
PYSOL_ID = 288
"""PySolFC's own id of the game (``GameInfo.pysol_id``, as the registry had it when pinned)."""
ENV_ID = "patience_engine/RoyalMarriage-v0"
"""The Gymnasium environment id: docs/rl.md "Gymnasium"."""
HIDDEN_CARDS = False
"""Whether some cards lie face down (``GameInfo.hidden_cards``): none do."""
PLAYED_FOR_SCORE = False
"""Whether the game is played for its best score, not only won or lost (``GameInfo.played_for_score``)."""

# --- rules and perft (tests/test_rules.py, tests/test_perft.py, tests/test_docs.py) -------------

DEAL_TEXTS = {
    3: """\
QH 8S 7S 6S AD JH JD 6C 7D 4D 9S QS 4S
AC TD 3H 5D 9D 2H 9H 2S JS KS 2D 5S 3S
AS TH TS QC 6H 7H 9C 8C QD 6D 5C 7C 3C
TC 8D 4H AH 2C KC KD 5H 3D 8H JC 4C KH""",
}
"""Deal number -> its text: docs/rules.md "Check values", worked out by an independent implementation."""
RULES_PERFT = {
    1: [30, 846, 22464, 562500],
    2: [34, 1085, 32469, 910715],
    3: [28, 750, 19208, 470064],
}
"""Deal -> perft at depths 1, 2, ...: docs/rules.md "Check values" (the reference walks the depths up to
``bench.signature_depths[0]``, the C++ engine all of them)."""
MORE_PERFT = {
    0: [32, 971, 27935],
    4: [35, 1150, 35451],
    5: [39, 1419, 48187],
    1000: [34, 1100, 33812],
    2**64 - 1: [25, 600, 13784],
}
"""Deal -> perft at depths 1, 2, ... of more deals, counted alike by the reference and the engine when pinned."""

# --- Zobrist keys (tests/test_hashing.py) ------------------------------------------------------

GOLDEN_KEYS = {
    1: (0x2889A5C584E97BB9, 0x2889A5C584E97BB9),
    2**64 - 1: (0xBB3C3EBFDB995370, 0xBB3C3EBFDB995370),
}
"""Deal -> (hash, canonical_hash), as the engine computed them when pinned: a change to the key tables or
their construction shows here."""


def documented_keys(text: str) -> Tuple[int, int]:
    """(hash, canonical_hash) of a position's text by docs/architecture.md "Zobrist keys", with no engine code:
    one key per pair of neighbouring cards in the row; the row has no symmetry, so both keys are one."""
    row = [card_index(t) for t in text.split()]
    nxt = splitmix_table(0x526F79616C4D6172, 52 * 52)
    key = 0
    for a, b in zip(row, row[1:]):
        key ^= nxt[a * 52 + b]
    return key, key


# --- the bench signature (tests/test_signature.py) ---------------------------------------------

SIGNATURE_PERFT = {
    (1, 3): 22464,
    (1, 5): 13300292,
    (2, 3): 32469,
    (2, 5): 23940273,
    (3, 3): 19208,
    (3, 5): 10985558,
}
"""(deal, depth) -> leaves of the bench signature's perft lines (``patience bench --signature``); each count
agreed with and without bulk counting when pinned, the shallow ones are docs/rules.md "Check values"."""
SIGNATURE_SOLVES = {
    1: "won score 50 nodes 27 moves 27",
    3: "won score 50 nodes 27 moves 27",
}
"""Deal -> the end of the signature's line ``solve <game> deal <deal>: ...`` (``patience bench --signature``)."""

# --- move texts (tests/test_move_parity.py, tests/test_text.py) --------------------------------

MOVE_PROPERTIES = {"cards": (tuple,)}
"""The move class's properties beyond ``action``, each with the types of value it takes (both
implementations must agree on value and type)."""


def random_notation(rng: random.Random) -> str:
    """Well-formed-looking move text, mostly not legal: one card or two joined by '+'."""
    def card() -> str:
        return rng.choice("A23456789TJQK") + rng.choice("CDHS")

    return card() if rng.random() < 0.5 else f"{card()}+{card()}"


BAD_MOVE_MESSAGES = [
    ("7S+7S", "bad move text '7S+7S': the two cards must differ"),
    ("z\n", "bad move text 'z\\n': 'z\\n' is not a card"),
    ("7S\x00", "bad move text '7S\\x00': '7S\\x00' is not a card"),
    ("it's", "bad move text 'it\\'s': 'it\\'s' is not a card"),
    ("\u2665" * 50, "bad move text '" + "\u2665" * 40 + "'...: '" + "\u2665" * 40 + "'... is not a card"),
]
"""(move text, the ValueError's whole message) of ``parse_move``, alike in both implementations."""
BAD_MOVE_TEXTS = ["7S+", "QH+KH+2C"]
"""Move texts ``parse_move`` refuses with a ValueError."""
BAD_POSITION_TEXTS = [
    ("QH 3C ZZ KH", r"line 1, token 3 'ZZ': unknown card"),
    ("QH 3C\n3C KH", r"line 2, token 1 '3C': duplicate card"),
    ("3C QH KH", r"line 1, token 1 '3C': QH must be first"),
    ("QH 3C KH 4D", r"line 1, token [34] '(KH|4D)': KH must be last"),
    ("QH 3C\nKH QH", r"line 2, token 2 'QH'"),
    ("", r"line 1"),
]
"""(position text, a regular expression its ValueError's message matches) of ``from_text``."""
SPELLINGS = [("\n  qh\t3c 9\u2666\n\n 2\u2660   3s  kh \n", "QH 3C 9D 2S 3S KH")]
"""(text with odd blank space and card spellings, the text ``to_text`` gives of it): docs/rules.md "Cards"."""

# --- actions and observations (tests/test_rl_parity.py, tests/test_rl_reference.py) ------------

NUM_ACTIONS = 2500
"""The size of the action space: docs/rl.md "Actions"."""
NAMED_ACTIONS = 50 + 50 * 49
"""How many actions of the space name a move: every one (50 middle cards alone, then ordered pairs)."""
HAND_WORKED_ACTIONS = {"AC": 0, "JH": 36, "AS": 37, "KS": 49, "AC+2C": 50, "2C+AC": 99, "KS+QS": 2499}
"""Move text -> action, worked by hand from docs/rl.md "Actions": AS is middle card 37 (QH and KH
skipped); 2C+AC = 50 + 1 * 49 + 0."""
RL_PARITY_PLIES = 50
"""Plies of each seeded random game in tests/test_rl_parity.py: the games end before it."""
RANDOM_MOVES = 50
"""Moves of each seeded random game in tests/test_rl_reference.py: the games end before it."""


def decoded_text(obs: List[Any]) -> str:
    """The position's text read back from its plain observation, as docs/rl.md lays it out: one
    card per position along the row, the row written 13 cards a line."""
    cards = [cards_at(obs, p) for p in range(52)]
    tokens = [card_token(*card) for card in cards if card[0]]
    return "\n".join(" ".join(tokens[i : i + 13]) for i in range(0, len(tokens), 13))


# --- batches and playouts (tests/test_rl_vector.py, tests/test_vector_game.py) -----------------

VECTOR_MIRROR_RUNS = [(50, 70), (4, 12)]
"""(max_moves, steps) of the reference's batches checked against single positions: at 50 moves the
episodes end by termination and restart; at 4 by truncation."""
PLAYOUT_LOOPS = [(20, 50)]
"""(n, max_moves) of reference playouts checked against a loop written out by hand."""
VECTOR_MAX_MOVES = 30
"""The move limit of tests/test_vector_game.py's six-slot batch over 150 steps: short enough to truncate,
long enough that games also end (a game removes 50 cards at most)."""

# --- the solver (tests/test_solver.py) ---------------------------------------------------------

KNOWN_VERDICTS: List[Tuple[Any, str]] = [
    ("QH 2C 3D 4S KH", "lost"),  # no legal move
    ("QH 2C 3D 2S 4S KH", "lost"),  # only 3D, then stuck
    ("QH 3C 9D 2S 3S KH", "won"),  # 9D+2S, then 3C+3S (QH and KH match)
    (2, "won"),
    (4, "won"),
    (8, "won"),
]
"""(position text or deal number, status): verdicts the solver must prove, with and without pruning, on
every table size; each agrees with a plain exhaustive search over the reference."""
SOLVE_ALIKE_DEALS = range(11, 21)
"""Deals solved under 300,000 nodes on every table size, with and without pruning, whose settled
verdicts must agree."""

# --- pictures and the solution page (tests/test_pictures.py, tests/test_browser.py) ------------


def visible_cards(text: str) -> List[str]:
    """The cards a picture of the position shows, read from its text: every card of the row."""
    return text.split()


HIGHLIGHT: Tuple[Any, str, List[str], bool] = ("QH 3C 9D 2S 3S KH", "9D+2S", ["9D", "2S"], False)
"""(position text or deal, a legal move, the cards the picture marks moving, whether it marks a target):
a removal has no target."""
HIGHLIGHT_REFUSALS: List[Tuple[Any, Any, type, str]] = [
    ("QH 3C 9D 2S 3S KH", "QH+3C", ValueError, "highlight: QH+3C is not a legal move in this position"),
]
"""(position text or deal, highlight, error, its whole message) of ``to_svg(highlight=...)``."""
SOLUTION_PAGE_DEAL = 1
"""The deal whose solution page tests/test_browser.py steps through (the solver wins it)."""

# --- PySolFC (tests/test_pysol.py) -------------------------------------------------------------

PYSOL_GAME_1 = """\
QH JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S
AD QC 3H 2S KS 9D QD JS AS AH 3C 4C 5C
TS 4H AC 4D 7S 3S TD 4S TH 8H 2C JH 7D
6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H KH"""
"""The text of PySolFC's game 1 (its layout, as PySolFC deals it)."""
