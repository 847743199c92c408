"""The Wish's test data: what the tests that cover every game know of this game.

``conftest.game_data("the-wish")`` loads this file (the registry entry's ``module`` names it);
``tests/test_games.py`` ``DATA`` lists the constants every game's data file defines, and fails
naming any a registered game lacks. Each constant says what it is and where its value came from.
The values are pinned: one changes only with what the engine computes, on purpose.

The Wish is the example game of docs/adding-a-game.md, built only with the CMake option
PATIENCE_EXAMPLE_GAME; the generic tests read this file only in such a build (``GAME_NAMES`` is
the registry's games of the build). Its rules have no check values from outside the project: the
values below were computed by both implementations, which agreed on each, unless a constant says
otherwise (worked by hand, or the engine's alone where the reference has no twin: the solver's node
counts). tests/test_the_wish.py tests its own rules.
"""

from __future__ import annotations

import random
from typing import Any, List, Tuple

from conftest import card_index, card_token, cards_at, splitmix_table

PIQUET = [rank + suit for suit in "CDHS" for rank in "A789TJQK"]
"""The 32 cards of the deck in card order (docs/rules.md "The Wish"): every card a text lacks is on the foundation."""


def piles(*lines: str) -> str:
    """The text of a position: the lines given for piles 1, 2, ..., the rest empty ('-')."""
    return "\n".join([*lines, *["-"] * (8 - len(lines))])


SMALL_POSITION = piles("(8C) (9C) AD", "(TD) AH", "QS")
"""A small hand-worked position: one move, 1+2 (AD and AH), which turns up 9C and TD and leaves no move;
26 cards are on the foundation."""

# --- the registry entry, pinned (tests/test_games.py, tests/test_envs.py) ----------------------

TITLE = "The Wish"
"""The title headings print (``GameInfo.title``)."""
PYSOL_ID = None
"""PySolFC's own id of the game (``GameInfo.pysol_id``): None. PySolFC has it (game 328), but its layouts
are not dealt here (the registry entry says so)."""
ENV_ID = "patience_engine/TheWish-v0"
"""The Gymnasium environment id: docs/rl.md "Gymnasium"."""
HIDDEN_CARDS = True
"""Whether some cards lie face down (``GameInfo.hidden_cards``): 24 at the deal, all but each pile's top."""
PLAYED_FOR_SCORE = False
"""Whether the game is played for its best score, not only won or lost (``GameInfo.played_for_score``)."""

# --- rules and perft (tests/test_rules.py, tests/test_perft.py, tests/test_docs.py) -------------

DEAL_TEXTS = {
    1: """\
(7S) (7D) (8H) AD
(JD) (QD) (9H) 7H
(8C) (9S) (8S) QS
(TD) (QH) (TC) JC
(AS) (TS) (AH) KD
(KS) (QC) (KC) AC
(TH) (9D) (8D) KH
(JH) (9C) (JS) 7C""",
}
"""Deal number -> its text: docs/rules.md "Check values", computed by both implementations (tests/test_the_wish.py
also deals it from a restatement of docs/rules.md "Numbered deals")."""
RULES_PERFT = {
    1: [3, 11, 31, 84, 232, 745, 2324, 5782],
    2: [3, 9, 27, 78, 277, 1012, 3157, 8718],
    3: [3, 13, 54, 224, 850, 3152, 12119, 37204],
}
"""Deal -> perft at depths 1, 2, ...: docs/rules.md "Check values", computed by both implementations (the
reference walks the depths up to ``bench.signature_depths[0]``, 8: all of them)."""
MORE_PERFT = {
    0: [5, 27, 105, 269, 591, 1398, 2907, 5472, 10633, 18504],
    4: [1, 3, 4, 9, 23, 71, 218, 702, 1931, 1712, 746, 746, 0, 0, 0, 0],
    5: [2, 5, 7, 19, 45, 103, 225, 453, 946, 1913, 2638, 2158, 2031, 2786, 3660, 2972],
    1000: [3, 10, 31, 94, 191, 373, 962, 2985, 8470, 21722],
    2**64 - 1: [3, 8, 22, 73, 180, 365, 745, 1504, 3261, 7281],
}
"""Deal -> perft at depths 1, 2, ... of more deals, counted alike by the reference and the engine when pinned.
Deals 4 and 5 go to depth 16, a whole game: no line of deal 4 reaches a 13th move, and deal 5 has 2972
winning lines. The others stop at depth 10, which the reference walks in a fraction of a second (deal 0's
whole game takes it seconds)."""

# --- Zobrist keys (tests/test_hashing.py) ------------------------------------------------------

GOLDEN_KEYS = {
    1: (0xAA864EAB3C6177D3, 0xE08B045FC014E7E5),
    2: (0x8510CFC89ABA85FD, 0x8EFC152D673EA217),
    3: (0x97347B354C060C9A, 0xE68AAF9DCE75A986),
    2**64 - 1: (0x01846737C1525ADF, 0x40E152127D854EF8),
}
"""Deal -> (hash, canonical_hash), as both implementations computed them when pinned: a change to the key
tables or their construction shows here."""


def documented_keys(text: str) -> Tuple[int, int]:
    """(hash, canonical_hash) of a position's text by docs/architecture.md "Zobrist keys", with no engine code:
    per card in a pile, ``ON[c][d]`` (d the card under it) or, for a pile's bottom card, ``BOTTOM[pile][c]``
    in the exact key and ``BOTTOM_ANY[c]`` in the canonical one; face-down and foundation cards add nothing."""
    table = splitmix_table(int.from_bytes(b"The Wish", "big"), 2704 + 416 + 52)
    on, bottom, bottom_any = 0, 2704, 2704 + 416
    exact = canonical = 0
    for k, line in enumerate(text.split("\n")):
        below = None
        for token in line.split():
            if token == "-":
                continue
            card = card_index(token.strip("()"))
            if below is None:
                exact ^= table[bottom + k * 52 + card]
                canonical ^= table[bottom_any + card]
            else:
                exact ^= table[on + card * 52 + below]
                canonical ^= table[on + card * 52 + below]
            below = card
    return exact, canonical


# --- the bench signature (tests/test_signature.py) ---------------------------------------------

SIGNATURE_PERFT = {
    (1, 8): 5782,
    (1, 12): 15231,
    (2, 8): 8718,
    (2, 12): 71549,
    (3, 8): 37204,
    (3, 12): 934705,
}
"""(deal, depth) -> leaves of the bench signature's perft lines (``patience bench --signature``); each count
agreed with and without bulk counting and with the reference when pinned, the shallow ones are
docs/rules.md "Check values". The Wish is optional, so its lines are left out of the pinned digest."""
SIGNATURE_SOLVES = {
    1: "lost score 0 nodes 1 moves 0",
    2: "won score 32 nodes 77 moves 16",
    3: "won score 32 nodes 16 moves 16",
}
"""Deal -> the end of the signature's line ``solve <game> deal <deal>: ...`` (``patience bench --signature``),
as the engine's solver gives it; the verdicts agree with an exhaustive search over the reference (and deal 1's
and 2's with its perft at depth 16: 0 and 116 winning lines), and the lines of deals 2 and 3 replay to a win
through it."""

# --- move texts (tests/test_move_parity.py, tests/test_text.py) --------------------------------

MOVE_PROPERTIES = {"piles": (tuple,)}
"""The move class's properties beyond ``action``, each with the types of value it takes (both
implementations must agree on value and type): the two piles, 1..8, the lower first."""


def random_notation(rng: random.Random) -> str:
    """Well-formed-looking move text, mostly not legal: two digits 0..9 joined by '+', in either order."""
    return f"{rng.randrange(10)}+{rng.randrange(10)}"


BAD_MOVE_MESSAGES = [
    ("7+2", "bad move text '7+2': the lower pile comes first, as in 2+7"),
    ("2+2", "bad move text '2+2': the two piles must differ"),
    ("8+9", "bad move text '8+9': pile '9' is not 1..8"),
    ("1+2+3", "bad move text '1+2+3': expected two piles joined by '+', as in 2+7"),
    ("1+\n", "bad move text '1+\\n': pile '\\n' is not 1..8"),
    ("it's+1", "bad move text 'it\\'s+1': pile 'it\\'s' is not 1..8"),
    ("\u2665" * 50 + "+1", "bad move text '" + "\u2665" * 40 + "'...: pile '" + "\u2665" * 40 + "'... is not 1..8"),
]
"""(move text, the ValueError's whole message) of ``parse_move``, alike in both implementations; input is
shown escaped and cut short as docs/rules.md "Cards" says of every message."""
BAD_MOVE_TEXTS = ["9+1", "0+1", "2-7", "2+", "+7", "", " 2+7"]
"""Move texts ``parse_move`` refuses with a ValueError (docs/rules.md "Move notation")."""
BAD_POSITION_TEXTS = [
    (piles("AD QS"), r"^line 1, token 1 'AD': face-up card under the top card$"),
    (piles("(AD)"), r"^line 1, token 1 '\(AD\)': face-down card on top of a pile$"),
    (piles("(AD) (KS) (QS) (7C) 8C"), r"^line 1, token 5 '8C': a pile holds at most 4 cards$"),
    (piles("(2D) QS"), r"^line 1, token 1 '\(2D\)': not a piquet card \(A, 7 to K\)$"),
    (piles("QX"), r"^line 1, token 1 'QX': unknown card$"),
    (piles("AD", "(KS) AD"), r"^line 2, token 2 'AD': duplicate card$"),
    (piles("- AD"), r"^line 1, token 1 '-': unexpected token$"),
    (piles() + "\nAS", r"^line 9: unexpected line$"),
    ("AD\n-\n\n-", r"^line 4: expected 8 piles$"),
    ("", r"^line 1: expected 8 piles$"),
]
"""(position text, a regular expression its ValueError's message matches) of ``from_text``: docs/rules.md
"Text formats"."""
SPELLINGS = [
    ("\n (10c)\t(a\u2665) qs \n\n" + "\n".join(["-"] * 7) + "\n", piles("(TC) (AH) QS")),
    (piles("(8\u2663) (9c)  a\u2666", "(td)\tAH", "Q\u2660 "), SMALL_POSITION),
]
"""(text with odd blank space and card spellings, the text ``to_text`` gives of it): docs/rules.md "Cards"."""

# --- actions and observations (tests/test_rl_parity.py, tests/test_rl_reference.py) ------------

NUM_ACTIONS = 28
"""The size of the action space: docs/rl.md "The Wish: 28 actions", the C(8, 2) pairs of piles."""
NAMED_ACTIONS = 28
"""How many actions of the space name a move: every one."""
HAND_WORKED_ACTIONS = {"1+2": 0, "1+8": 6, "2+3": 7, "3+4": 13, "6+8": 26, "7+8": 27}
"""Move text -> action, worked by hand from docs/rl.md "The Wish: 28 actions": the pairs low < high in
increasing order, low * (15 - low) / 2 + high - low - 1 with piles counted from 0; 6+8 = 5 * 10 / 2 + 1."""
RL_PARITY_PLIES = 16
"""Plies of each seeded random game in tests/test_rl_parity.py: a game is over by its 16th move."""
RANDOM_MOVES = 16
"""Moves of each seeded random game in tests/test_rl_reference.py: a game is over by its 16th move."""


def decoded_text(obs: List[Any]) -> str:
    """The position's text read back from its plain observation, as docs/rl.md "The Wish (19, 8, 4)" lays it
    out: eight piles of four slots from the bottom, the face-down plane 17, and the foundation plane 18
    (indexed [rank row][suit]), which must mark exactly the piquet cards in no pile."""
    lines, in_piles = [], set()
    for k in range(8):
        tokens = []
        for slot in range(4):
            card = cards_at(obs, k, slot)
            if card[0]:
                in_piles.add(card_token(*card))
                tokens.append(f"({card_token(*card)})" if obs[17][k][slot] else card_token(*card))
        lines.append(" ".join(tokens) or "-")
    foundation = {rank + suit for row, rank in enumerate("A789TJQK") for col, suit in enumerate("CDHS")
                  if obs[18][row][col]}
    assert foundation == set(PIQUET) - in_piles
    return "\n".join(lines)


# --- batches and playouts (tests/test_rl_vector.py, tests/test_vector_game.py) -----------------

VECTOR_MIRROR_RUNS = [(16, 40), (3, 12)]
"""(max_moves, steps) of the reference's batches checked against single positions: at 16 moves (the default)
the episodes end by termination and restart; at 3 by truncation too."""
PLAYOUT_LOOPS = [(20, 16), (10, 3)]
"""(n, max_moves) of reference playouts checked against a loop written out by hand (16 is the default limit)."""
VECTOR_MAX_MOVES = 5
"""The move limit of tests/test_vector_game.py's six-slot batch over 150 steps: short, so that truncation
happens as well as termination (a game is over by its 16th move)."""

# --- the solver (tests/test_solver.py) ---------------------------------------------------------

KNOWN_VERDICTS: List[Tuple[Any, str]] = [
    (piles("AH", "AS"), "won"),  # 1+2 takes the last two cards
    (piles("(AC) AH", "(AD) AS"), "won"),  # 1+2, then 1+2 again
    (piles("(AC) (AD) AH", "AS"), "lost"),  # 1+2, then AD and AC lie in one pile
    (piles("(KS) AD", "(AS) KD"), "lost"),  # no legal move
    (SMALL_POSITION, "lost"),
    (1, "lost"),
    (2, "won"),
    (3, "won"),
    (176, "lost"),
]
"""(position text or deal number, status): verdicts the solver must prove, with and without pruning, on
every table size; each agrees with a plain exhaustive search over the reference. The texts are worked by
hand; the deals' verdicts agree with the engine's perft at depth 16 (a deal is won exactly when some line
of 16 moves exists)."""
SOLVE_ALIKE_DEALS = range(11, 21)
"""Deals solved under 300,000 nodes on every table size, with and without pruning, whose settled
verdicts must agree: 13, 14, 15, 17 and 18 are won, the others lost, as exhaustive searches over the
reference find."""

# --- pictures and the solution page (tests/test_pictures.py, tests/test_browser.py) ------------


def visible_cards(text: str) -> List[str]:
    """The cards a picture of the position shows, read from its text: every card of the piles, face down
    or up, and every card on the foundation (the piquet cards in no pile)."""
    in_piles = [token.strip("()") for line in text.split("\n") for token in line.split() if token != "-"]
    return in_piles + [card for card in PIQUET if card not in in_piles]


HIGHLIGHT: Tuple[Any, str, List[str], bool] = (SMALL_POSITION, "1+2", ["AD", "AH"], True)
"""(position text or deal, a legal move, the cards the picture marks moving, whether it marks a target): both
top cards move, and the foundation's last card is marked as the target (a position with cards on the
foundation: on an empty one the target is the foundation's empty place, which is no card)."""
HIGHLIGHT_REFUSALS: List[Tuple[Any, Any, type, str]] = [
    (1, "1+2", ValueError, "highlight: 1+2 is not a legal move in this position"),
    (1, 0, ValueError, "highlight: action 0 is not a legal move in this position"),
    (1, 28, ValueError, "highlight: action 28 is outside 0 .. 27"),
    (1, "6+1", ValueError, "highlight: bad move text '6+1': the lower pile comes first, as in 1+6"),
    (1, 5.0, TypeError, "highlight: expected a TheWishMove, its text or an int action, got float"),
]
"""(position text or deal, highlight, error, its whole message) of ``to_svg(highlight=...)``: deal 1's legal
moves are 1+6, 2+8 and 5+7."""
SOLUTION_PAGE_DEAL = 2
"""The deal whose solution page tests/test_browser.py steps through (the solver wins it in 16 moves)."""
