"""The Wish's own rules (docs/rules.md "The Wish", docs/rl.md "The Wish: 28 actions"), hand-worked, on both implementations.

The game is built only with the CMake option PATIENCE_EXAMPLE_GAME (docs/adding-a-game.md);
on a build without it this module is skipped. Every generic test covers the game as well.
"""

from __future__ import annotations

import re
from typing import Any, List

import pytest

import patience_engine

if "the-wish" not in patience_engine.GAMES:
    pytest.skip("The Wish is not built: it needs the CMake option PATIENCE_EXAMPLE_GAME=ON", allow_module_level=True)

from conftest import game_class, perft_of, sorted_moves
from patience_engine import IllegalMoveError, solve
from patience_engine.reference._cards import SplitMix64, parse_card

GAME = "the-wish"


def wish(impl: str, text: str) -> Any:
    return game_class(impl, GAME).from_text(text)


def piles(*lines: str) -> str:
    """The text of a position: the lines given for piles 1, 2, ..., the rest empty."""
    return "\n".join([*lines, *["-"] * (8 - len(lines))])


# The numbered deals' texts and perft check values are checked by the generic tests
# (tests/test_rules.py, tests/test_perft.py) from tests/game_data/the_wish.py.
# Perft at depth 16, the whole game: the winning lines.
WINNING_LINES = {1: 0, 2: 116, 3: 3140194}


def test_deals_are_dealt_as_the_rules_say(impl: str) -> None:
    # docs/rules.md "Numbered deals", restated: the 32 piquet cards in increasing index, shuffled, card k to pile
    # k % 8 at height k // 8.
    for n in (0, 7, 2**64 - 1):
        cards = [c for c in range(52) if c % 13 in (0, 6, 7, 8, 9, 10, 11, 12)]
        rng = SplitMix64(n)
        for i in range(31, 0, -1):
            j = rng.next() % (i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        lines = game_class(impl, GAME).deal(n).to_text().splitlines()
        for k, line in enumerate(lines):
            assert [parse_card(token.strip("()")) for token in line.split()] == cards[k::8]
            assert [token.startswith("(") for token in line.split()] == [True, True, True, False]


@pytest.mark.parametrize("deal", sorted(WINNING_LINES))
def test_the_whole_game_is_16_moves(deal: int) -> None:
    state = game_class("cpp", GAME).deal(deal)
    assert perft_of("cpp")(state, 16) == WINNING_LINES[deal]
    assert perft_of("cpp")(state, 17) == 0


def test_only_top_cards_of_one_rank_pair(impl: str) -> None:
    # Tops AD AH 7C 7S KD; the face-down AS lies under 7C, so it pairs with nothing.
    state = wish(impl, piles("AD", "AH", "(AS) 7C", "7S", "KD"))
    assert sorted_moves(state) == ["1+2", "3+4"]
    for move in ("1+5", "2+3", "4+5", "1+3"):
        assert not state.is_legal(move)
        with pytest.raises(IllegalMoveError, match=re.escape(f"illegal move {move}: not legal in this position")):
            state.play(move)
    assert [move.piles for move in state.legal_moves()] == [(1, 2), (3, 4)]


def test_both_cards_go_and_the_cards_under_them_turn_up(impl: str) -> None:
    state = wish(impl, piles("(8C) (9C) AD", "(TD) AH", "QS"))
    assert state.score == 32 - 6
    state.play("1+2")
    assert state.to_text() == piles("(8C) 9C", "TD", "QS")
    assert state.to_text(hidden=True) == piles("(??) 9C", "TD", "QS")
    assert state.score == 32 - 4 and not state.is_won and state.is_over
    assert str(state.undo()) == "1+2"
    assert state.to_text() == piles("(8C) (9C) AD", "(TD) AH", "QS")


def test_a_pair_that_empties_both_piles_and_the_win(impl: str) -> None:
    state = wish(impl, piles("-", "(JS) JD", "-", "JC", "JH"))
    assert sorted_moves(state) == ["2+4", "2+5", "4+5"]
    state.play("4+5")
    assert state.to_text() == piles("-", "(JS) JD")
    assert state.is_over and not state.is_won
    state.undo()
    state.play("2+4")
    state.play("2+5")
    assert state.to_text() == piles()
    assert state.is_won and state.is_over and state.score == 32
    assert state.legal_moves() == []


def test_cards_in_no_pile_are_on_the_foundation(impl: str) -> None:
    state = wish(impl, piles("QH", "QD"))
    assert state.score == 30
    obs = state.observation()
    foundation = [[int(v) for v in row] for row in obs[18]]
    # Rows A, 7, 8, ..., K; columns C D H S: only QD and QH are not on the foundation.
    assert foundation[6] == [1, 0, 0, 1]
    assert sum(map(sum, foundation)) == 30


@pytest.mark.parametrize("move, action", [("1+2", 0), ("1+8", 6), ("2+3", 7), ("3+4", 13), ("6+8", 26), ("7+8", 27)])
def test_actions_are_the_pairs_in_order(impl: str, move: str, action: int) -> None:
    cls = game_class(impl, GAME)
    assert cls.parse_move(move).action == action
    assert str(cls.move_of(action)) == move
    assert cls.NUM_ACTIONS == 28 and cls.DEFAULT_MAX_MOVES == 16 and cls.OBSERVATION_SHAPE == (19, 8, 4)


@pytest.mark.parametrize("text, why", [
    ("7+2", "the lower pile comes first, as in 2+7"),
    ("2+2", "the two piles must differ"),
    ("9+1", "pile '9' is not 1..8"),
    ("0+1", "pile '0' is not 1..8"),
    ("2+10", "pile '10' is not 1..8"),
    ("2-7", "expected two piles joined by '+', as in 2+7"),
    ("2+", "expected two piles joined by '+', as in 2+7"),
    ("+7", "expected two piles joined by '+', as in 2+7"),
    ("1+2+3", "expected two piles joined by '+', as in 2+7"),
    ("", "expected two piles joined by '+', as in 2+7"),
    (" 2+7", "pile ' 2' is not 1..8"),
])
def test_bad_move_text(impl: str, text: str, why: str) -> None:
    cls = game_class(impl, GAME)
    for read in (cls.parse_move, cls.Move, cls.deal(1).play):
        with pytest.raises(ValueError, match="^" + re.escape(f"bad move text '{text}': {why}") + "$"):
            read(text)


BAD_TEXTS = [
    (piles("AD QS"), "line 1, token 1 'AD': face-up card under the top card"),
    (piles("(AD)"), "line 1, token 1 '(AD)': face-down card on top of a pile"),
    (piles("(AD) (KS) QS (7C)"), "line 1, token 3 'QS': face-up card under the top card"),
    (piles("(AD) (KS) (QS) (7C) 8C"), "line 1, token 5 '8C': a pile holds at most 4 cards"),
    (piles("(2D) QS"), "line 1, token 1 '(2D)': not a piquet card (A, 7 to K)"),
    (piles("6H"), "line 1, token 1 '6H': not a piquet card (A, 7 to K)"),
    (piles("QX"), "line 1, token 1 'QX': unknown card"),
    (piles("AD", "(KS) AD"), "line 2, token 2 'AD': duplicate card"),
    (piles("(??) AD"), "line 1, token 1 '(??)': face-down card not known (a hidden view: determinize() gives a position)"),
    (piles("- AD"), "line 1, token 1 '-': unexpected token"),
    (piles("(AD) -"), "line 1, token 2 '-': unexpected token"),
    (piles() + "\nAS", "line 9: unexpected line"),
    ("AD\n-\n\n-", "line 4: expected 8 piles"),
]


@pytest.mark.parametrize("text, message", BAD_TEXTS)
def test_bad_text_names_line_and_token(impl: str, text: str, message: str) -> None:
    with pytest.raises(ValueError) as error:
        wish(impl, text)
    assert str(error.value) == message


def test_text_is_read_with_any_card_spelling_and_blank_space(impl: str) -> None:
    state = wish(impl, "\n (10c)\t(a♥) qs \n\n" + "\n".join(["-"] * 7) + "\n")
    assert state.to_text() == piles("(TC) (AH) QS")


def keys_from_scratch(text: str) -> List[int]:
    """(hash, canonical_hash) of a text, by docs/architecture.md "Zobrist keys" alone."""
    seed = int.from_bytes(b"The Wish", "big")
    rng = SplitMix64(seed)
    table = [rng.next() for _ in range(52 * 52 + 8 * 52 + 52)]
    on, bottom, bottom_any = table[:2704], table[2704:3120], table[3120:]
    key = canonical = 0
    for k, line in enumerate(text.splitlines()):
        cards = [parse_card(token.strip("()")) for token in line.split() if token != "-"]
        for i, card in enumerate(cards):
            key ^= on[card * 52 + cards[i - 1]] if i else bottom[k * 52 + card]
            canonical ^= on[card * 52 + cards[i - 1]] if i else bottom_any[card]
    return [key, canonical]


def test_keys_against_a_from_scratch_computation(impl: str) -> None:
    assert int.from_bytes(b"The Wish", "big") == 0x5468652057697368
    state = game_class(impl, GAME).deal(3)
    while True:  # deal 3, each time by its first legal move, to the end (AS on AD left)
        assert [state.hash, state.canonical_hash] == keys_from_scratch(state.to_text())
        if state.is_over:
            break
        state.play(state.legal_moves()[0])
    assert state.to_text() == piles(*["-"] * 7, "(AD) AS")
    assert wish(impl, piles()).hash == 0


def test_canonical_key_ignores_the_order_of_the_piles(impl: str) -> None:
    a = wish(impl, piles("(KS) AD", "-", "(7C) (8C) QH"))
    b = wish(impl, piles("-", "(7C) (8C) QH", "-", "-", "-", "-", "-", "(KS) AD"))
    assert a.canonical_hash == b.canonical_hash and a.hash != b.hash


def test_hidden_view_and_determinize(impl: str) -> None:
    state = wish(impl, piles("(KD) (KH) (KC) KS"))
    assert state.to_text(hidden=True) == piles("(??) (??) (??) KS")
    obs = state.observation(hidden=True)
    assert [obs[17][0][slot] for slot in range(4)] == [1, 1, 1, 0]
    assert [sum(obs[plane][0][slot] for plane in range(17)) for slot in range(4)] == [0, 0, 0, 2]
    # docs/rl.md "Determinization", worked as for Geoffrey: KC KD KH shuffled by SplitMix64(0) give KH KC KD.
    assert state.determinize(0).to_text() == piles("(KH) (KC) (KD) KS")


def test_solver_verdicts_are_the_whole_game_perft(impl: str) -> None:
    # A deal is won exactly when some line of 16 moves exists; pruning on or off.
    for deal in range(1, 41):
        state = game_class("cpp", GAME).deal(deal)
        won = perft_of("cpp")(state, 16) > 0
        for pruning in (True, False):
            solution = solve(state, pruning=pruning)
            assert solution.proven and (solution.status == "won") == won, (deal, pruning)
            if won:
                replay = game_class(impl, GAME).deal(deal)
                for move in solution.moves:
                    replay.play(str(move))
                assert replay.is_won


def test_a_rank_that_cannot_leave_in_pairs_is_lost_at_once() -> None:
    # Three Aces in pile 1 and one in pile 2: each move takes at most one card of a pile, and two moves
    # would have to take the three. The bound proves it without a node; the plain search tries 1+2 first.
    state = wish("cpp", piles("(AC) (AD) AH", "AS"))
    assert solve(state).status == "lost" and solve(state).nodes == 0
    plain = solve(state, pruning=False)
    assert plain.status == "lost" and plain.nodes == 2
    # An odd count of a rank can never leave either.
    assert solve(wish("cpp", piles("AH", "AS", "AD"))).nodes == 0
