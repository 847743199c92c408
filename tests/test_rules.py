"""Each rule of docs/rules.md from a small hand-worked position, on both implementations."""

from __future__ import annotations

from typing import Any, Dict, List

import pytest

from conftest import game_cases, game_class, game_data, perft_of, sorted_moves
from patience_engine import IllegalMoveError


@pytest.mark.parametrize("game, deal", game_cases("DEAL_TEXTS"))
def test_numbered_deals_match_rules_check_values(impl: str, game: str, deal: int) -> None:
    assert game_class(impl, game).deal(deal).to_text() == game_data(game).DEAL_TEXTS[deal]


# --- Germaine 2-Move -------------------------------------------------------------------------

grid = game_data("germaine").grid


def germaine(impl: str, cards: Dict[str, str], slides: int = 0) -> Any:
    return game_class(impl, "germaine").from_text(grid(cards, slides))


@pytest.mark.parametrize("a, b", [("AS", "KH"), ("KS", "AH"), ("5C", "6D"), ("QD", "JC")])
def test_germaine_near_ranks_combine_both_ways(impl: str, a: str, b: str) -> None:
    assert sorted_moves(germaine(impl, {"a1": a, "b1": b})) == ["a1xb1", "b1xa1"]
    assert sorted_moves(germaine(impl, {"c2": a, "c3": b})) == ["c2xc3", "c3xc2"]


@pytest.mark.parametrize("a, b", [("QS", "AH"), ("KS", "2H"), ("5C", "5D"), ("5C", "7C")])
def test_germaine_other_ranks_do_not_combine(impl: str, a: str, b: str) -> None:
    state = germaine(impl, {"a1": a, "b1": b})
    assert state.legal_moves() == []
    assert state.is_over and not state.is_won
    assert state.score == 50


def test_germaine_no_adjacency_across_row_ends(impl: str) -> None:
    state = germaine(impl, {"m1": "5C", "a2": "6C", "m3": "9D", "a4": "TD"})
    assert state.legal_moves() == []
    with pytest.raises(ValueError, match="adjacent"):
        state.play("m1xa2")
    with pytest.raises(ValueError, match="adjacent"):
        state.parse_move("m3-a4")
    assert sorted_moves(germaine(impl, {"m1": "5C"}, slides=1)) == ["m1-l1", "m1-m2"]


@pytest.mark.parametrize(
    "cell, targets",
    [
        ("a1", ["a2", "b1"]),
        ("m1", ["l1", "m2"]),
        ("a4", ["a3", "b4"]),
        ("m4", ["l4", "m3"]),
        ("g1", ["f1", "g2", "h1"]),
        ("a3", ["a2", "a4", "b3"]),
        ("m2", ["l2", "m1", "m3"]),
        ("g4", ["f4", "g3", "h4"]),
        ("g2", ["f2", "g1", "g3", "h2"]),
    ],
)
def test_germaine_slides_from_edges_and_corners(impl: str, cell: str, targets: List[str]) -> None:
    state = germaine(impl, {cell: "7S"}, slides=1)
    assert sorted_moves(state) == sorted(f"{cell}-{t}" for t in targets)


def test_germaine_slide_allowance(impl: str) -> None:
    state = germaine(impl, {"a1": "5C", "b1": "6C", "d1": "4D", "a3": "9H"})
    assert sorted_moves(state) == ["a1xb1", "b1xa1"]
    state.play("a1xb1")
    assert state.to_text().endswith("slides: 2")
    assert state.score == 52 - 3, "score is 52 minus the cards left"
    assert "b1-c1" in sorted_moves(state)
    state.play("b1-c1")
    assert state.to_text().endswith("slides: 1")
    state.play("c1xd1")
    assert state.to_text().endswith("slides: 2"), "a combine resets the allowance to 2, not 3"
    state.play("d1-d2")
    state.play("d2-d3")
    assert state.to_text().endswith("slides: 0")
    assert state.legal_moves() == [], "no slide is legal at allowance 0"
    with pytest.raises(IllegalMoveError):
        state.play("d3-c3")
    assert state.to_text().endswith("slides: 0")
    assert (state.score, state.is_won, state.is_over) == (50, False, True)


def test_germaine_last_card_wins_with_its_rank(impl: str) -> None:
    state = germaine(impl, {"a1": "5C", "b1": "6C"})
    state.play("b1xa1")
    assert (state.is_won, state.score, state.is_over) == (True, 52 - 1 + 6, False)
    assert sorted_moves(state) == ["a1-a2", "a1-b1"]
    state.play("a1-a2")
    state.play("a2-a3")
    assert (state.is_won, state.is_over) == (True, True)


def test_germaine_combine_covers_the_destination_card(impl: str) -> None:
    state = germaine(impl, {"a1": "5C", "b1": "6C", "c1": "4D"})
    state.play("a1xb1")
    assert state.to_text().split("\n")[0].split()[:3] == ["--", "5C", "4D"]
    state.play("c1xb1")
    assert state.to_text().split("\n")[0].split()[:3] == ["--", "4D", "--"]
    assert str(state.undo()) == "c1xb1"
    assert str(state.undo()) == "a1xb1"
    assert state.to_text() == grid({"a1": "5C", "b1": "6C", "c1": "4D"})


# --- Royal Marriage --------------------------------------------------------------------------


def royal(impl: str, text: str) -> Any:
    return game_class(impl, "royal-marriage").from_text(text)


def test_royal_marriage_short_row_is_won_in_exactly_two_moves(impl: str) -> None:
    state = royal(impl, "QH 3C 9D 2S 3S KH")
    assert sorted_moves(state) == ["9D+2S"]
    assert perft_of(impl)(state, 1) == 1 and perft_of(impl)(state, 2) == 1
    state.play("9D+2S")
    assert not state.is_won
    assert sorted_moves(state) == ["3C+3S"]
    state.play("3C+3S")
    assert state.is_won and state.is_over
    assert state.to_text() == "QH KH"
    assert state.score == 52 - 2, "score counts the cards removed from a full deal"


def test_royal_marriage_queen_and_king_never_removed(impl: str) -> None:
    state = royal(impl, "QH 2H KH")
    assert sorted_moves(state) == ["2H"]
    for text in ["QH", "KH", "QH+2H", "2H+KH"]:
        with pytest.raises(IllegalMoveError):
            state.play(text)
        assert state.to_text() == "QH 2H KH"
    state.play("2H")
    assert state.is_won and state.legal_moves() == []


def test_royal_marriage_remove_two_needs_matching_outer_cards(impl: str) -> None:
    assert sorted_moves(royal(impl, "QH 2C 3D 9S KH")) == []
    assert sorted_moves(royal(impl, "QH 2C 3D 9H KH")) == ["2C+3D"]
    assert sorted_moves(royal(impl, "QH 2C 3D QS KH")) == ["2C+3D"]


def test_royal_marriage_remove_one_needs_matching_neighbours(impl: str) -> None:
    assert sorted_moves(royal(impl, "QH 4C 5C 6C KH")) == ["5C"]
    assert sorted_moves(royal(impl, "QH 4C 9D 4S KH")) == ["9D"]


# --- Geoffrey --------------------------------------------------------------------------------

GEOFFREY_SMALL = game_data("geoffrey").SMALL_POSITION


def geoffrey(impl: str, text: str = GEOFFREY_SMALL) -> Any:
    return game_class(impl, "geoffrey").from_text(text)


def test_geoffrey_moves_of_a_small_position(impl: str) -> None:
    assert sorted_moves(geoffrey(impl)) == sorted(
        ["1:9H>F", "5:QH>3", "2:TH>4", "4:9S>5", "2:QS>6", "3:KH>7", "3:KH>8", "6:KS>7", "6:KS>8"]
    )


def test_geoffrey_no_move_starts_at_a_face_down_card(impl: str) -> None:
    state = geoffrey(impl)
    assert not any(":JS>" in str(move) for move in state.legal_moves())
    with pytest.raises(IllegalMoveError):
        state.play("1:JS>2")
    assert state.to_text() == GEOFFREY_SMALL


def test_geoffrey_only_top_cards_go_home(impl: str) -> None:
    state = geoffrey(impl)
    assert [str(m) for m in state.legal_moves() if str(m).endswith(">F")] == ["1:9H>F"]
    with pytest.raises(IllegalMoveError):
        state.play("4:9S>F")


def test_geoffrey_groups_move_whatever_their_order(impl: str) -> None:
    state = geoffrey(impl)
    state.play("2:TH>4")
    assert state.to_text().split("\n")[2:5] == ["-", "KH", "9S JH TH QS"]


def test_geoffrey_exposed_card_turns_up_in_the_same_move(impl: str) -> None:
    state = geoffrey(impl)
    before = state.hash
    state.play("1:9H>F")
    lines = state.to_text().split("\n")
    assert lines[0] == "Foundations: C-K D-K H-9 S-8"
    assert lines[1] == "JS"
    assert "1:JS>2" in sorted_moves(state)
    assert state.score == 13 + 13 + 9 + 8
    state.undo()
    assert state.to_text() == GEOFFREY_SMALL and state.hash == before


@pytest.mark.parametrize("empty", range(8))
def test_geoffrey_only_kings_enter_an_empty_column(impl: str, empty: int) -> None:
    columns = ["QH", "KS", "9S JH", "TS", "9H", "TH", "JS QS KH"]
    columns.insert(empty, "-")
    state = geoffrey(impl, "Foundations: C-K D-K H-8 S-8\n" + "\n".join(columns))
    into_empty = sorted(str(m).split(":")[1] for m in state.legal_moves() if str(m).endswith(f">{empty + 1}"))
    assert into_empty == [f"KH>{empty + 1}", f"KS>{empty + 1}"]


def test_geoffrey_won_when_all_cards_are_home(impl: str) -> None:
    state = geoffrey(impl, "Foundations: C-K D-K H-K S-Q\nKS\n-\n-\n-\n-\n-\n-\n-")
    assert sorted_moves(state) == ["1:KS>2", "1:KS>3", "1:KS>4", "1:KS>5", "1:KS>6", "1:KS>7", "1:KS>8", "1:KS>F"]
    state.play("1:KS>F")
    assert state.is_won and state.is_over and state.score == 52
