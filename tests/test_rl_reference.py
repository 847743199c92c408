"""The reference's reinforcement-learning interface (docs/rl.md): actions, masks, observations,
the hidden view of Geoffrey and determinization.

Values are worked out by hand from the encodings in docs/rl.md and the SplitMix64
generator of docs/rules.md "Numbered deals"; the rest are properties that must hold on
seeded random games.
"""

from __future__ import annotations

import pickle
import random
import re
from typing import Any, Dict, Iterator, List, Tuple

import pytest

from conftest import cards_at, flat, game_cases, game_data
from patience_engine.games import names_where
from patience_engine.reference import GAMES, Geoffrey, Germaine, IllegalMoveError, RoyalMarriage

RANDOM_GAMES = 200
# The 99.9% point of the chi-square distribution with 5 degrees of freedom (six outcomes).
CHI_SQUARE_5_999 = 20.515


def random_game(game: str, seed: int) -> Iterator[Any]:
    """Yield one position, played on in place, at each ply of a seeded random game.

    Moves are played alternately as Move and as int action.
    """
    rng = random.Random(seed)
    state = GAMES[game].deal(rng.randrange(2**64))
    yield state
    for ply in range(game_data(game).RANDOM_MOVES):
        moves = state.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        state.play(move.action if ply % 2 else move)
        yield state


def random_positions(game: str, seed: int, every: int) -> List[Any]:
    """Copies of every ``every``-th position of ``random_game(game, seed)``."""
    return [state.copy() for ply, state in enumerate(random_game(game, seed)) if ply % every == 0]


def shape_of(value: Any) -> Tuple[int, ...]:
    """Shape of nested lists, checking every sublist at a depth has the same length."""
    if not isinstance(value, list):
        return ()
    inner = {shape_of(item) for item in value}
    assert len(inner) == 1, "ragged observation"
    return (len(value),) + inner.pop()


# --- actions -----------------------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(GAMES))
def test_random_games_actions_masks_and_order(game: str) -> None:
    cls = GAMES[game]
    for seed in range(RANDOM_GAMES):
        for state in random_game(game, seed):
            moves = state.legal_moves()
            actions = state.legal_actions()
            assert [move.action for move in moves] == actions
            assert actions == sorted(set(actions)), "ascending and distinct"
            for move in moves:
                assert 0 <= move.action < cls.NUM_ACTIONS
                assert cls.move_of(move.action) == move
                assert str(cls.move_of(move.action)) == str(move)
            mask = state.legal_action_mask()
            assert len(mask) == cls.NUM_ACTIONS
            assert all(type(bit) is bool for bit in mask)
            assert [a for a, bit in enumerate(mask) if bit] == actions


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_action_round_trips(game: str) -> None:
    cls = GAMES[game]
    named = 0
    for action in range(cls.NUM_ACTIONS):
        try:
            move = cls.move_of(action)
        except ValueError as error:
            assert re.match(f"action {action} names no move: ", str(error)), error
            continue
        named += 1
        assert move.action == action
        assert cls.parse_move(str(move)).action == action
    assert named == game_data(game).NAMED_ACTIONS


@pytest.mark.parametrize("game, text", game_cases("HAND_WORKED_ACTIONS"))
def test_hand_worked_actions(game: str, text: str) -> None:
    action = game_data(game).HAND_WORKED_ACTIONS[text]
    assert GAMES[game].parse_move(text).action == action
    assert str(GAMES[game].move_of(action)) == text


@pytest.mark.parametrize("game", sorted(GAMES))
def test_action_space_sizes(game: str) -> None:
    assert GAMES[game].NUM_ACTIONS == game_data(game).NUM_ACTIONS


@pytest.mark.parametrize("text", ["QH", "KH", "QH+7S", "7S+KH"])
def test_royal_marriage_moves_of_the_ends_have_no_action(text: str) -> None:
    with pytest.raises(ValueError, match="has no action: it can never be legal"):
        _ = RoyalMarriage.parse_move(text).action


def test_germaine_directions_off_the_grid_name_no_move() -> None:
    with pytest.raises(ValueError, match="action 0 names no move: cell a1 has no neighbour up"):
        Germaine.move_of(0)
    with pytest.raises(ValueError, match="cell m4 has no neighbour down"):
        Germaine.move_of(7 * 52 + 51)


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("bad", [True, 1.0, "3", None])
def test_move_of_refuses_non_ints(game: str, bad: Any) -> None:
    with pytest.raises(TypeError, match=f"action must be an int, got {type(bad).__name__}"):
        GAMES[game].move_of(bad)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_actions_outside_the_space(game: str) -> None:
    cls = GAMES[game]
    state = cls.deal(5)
    before = state.to_text()
    for action in (-1, cls.NUM_ACTIONS, 2**64):
        message = f"action {action} is outside 0 .. {cls.NUM_ACTIONS - 1}"
        with pytest.raises(ValueError, match=message):
            cls.move_of(action)
        with pytest.raises(ValueError, match=message):
            state.play(action)
        with pytest.raises(ValueError, match=message):
            state.is_legal(action)
    with pytest.raises(TypeError, match=r"expected a \w+Move, its text or an int action, got bool"):
        state.play(True)
    assert state.to_text() == before and state.move_stack == []


@pytest.mark.parametrize("game", sorted(GAMES))
def test_play_and_is_legal_take_int_actions(game: str) -> None:
    cls = GAMES[game]
    state = cls.deal(7)
    legal = set(state.legal_actions())
    illegal = next(a for a in range(cls.NUM_ACTIONS) if a not in legal and not _off_grid(cls, a))
    assert not state.is_legal(illegal)
    before = state.to_text()
    with pytest.raises(IllegalMoveError, match=re.escape(f"illegal move {cls.move_of(illegal)}: not legal")):
        state.play(illegal)
    assert state.to_text() == before
    action = max(legal)
    assert state.is_legal(action)
    other = state.copy()
    state.play(action)
    other.play(cls.move_of(action))
    assert state == other and state.move_stack == [cls.move_of(action)]


def _off_grid(cls: Any, action: int) -> bool:
    try:
        cls.move_of(action)
    except ValueError:
        return True
    return False


@pytest.mark.parametrize("game", sorted(GAMES))
def test_moves_keep_their_action_through_pickle(game: str) -> None:
    move = GAMES[game].deal(9).legal_moves()[-1]
    assert pickle.loads(pickle.dumps(move)).action == move.action


# --- observations ------------------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(GAMES))
def test_observations_have_the_shape_and_show_the_position(game: str) -> None:
    cls = GAMES[game]
    assert cls.OBSERVATION_DTYPE == "uint8"
    for seed in range(20):
        for state in random_positions(game, seed, 5):
            obs = state.observation()
            assert shape_of(obs) == cls.OBSERVATION_SHAPE
            assert set(flat(obs)) <= {0, 1}
            assert game_data(game).decoded_text(obs) == state.to_text()


def test_royal_marriage_observation_hand_worked() -> None:
    state = RoyalMarriage.deal(3)  # QH 8S 7S 6S AD ... (docs/rules.md "Check values")
    obs = state.observation()
    assert obs[11][0] == obs[13 + 2][0] == 1  # QH: rank 12, hearts
    assert obs[7][1] == obs[13 + 3][1] == 1  # 8S
    assert obs[12][51] == obs[15][51] == 1  # KH
    assert sum(flat(obs)) == 2 * 52
    state.play("7S")
    obs = state.observation()
    assert obs[5][2] == obs[16][2] == 1  # 6S closed up into position 2
    assert [plane[50] for plane in obs] == [0] * 12 + [1, 0, 0, 1, 0]  # KH at position 50
    assert [plane[51] for plane in obs] == [0] * 17
    assert state.observation(hidden=True) == obs


def test_germaine_observation_hand_worked() -> None:
    state = Germaine.deal(1)  # a1 7D ... m4 7S (docs/rules.md "Check values")
    obs = state.observation()
    assert obs[6][0][0] == obs[13 + 1][0][0] == 1
    assert obs[6][3][12] == obs[13 + 3][3][12] == 1
    assert sum(flat(obs[17])) == sum(flat(obs[18])) == 0
    state.play("c2xc1")  # 5H onto 4D
    obs = state.observation()
    assert [plane[0][2] for plane in obs[:17]] == [0] * 4 + [1] + [0] * 10 + [1, 0]
    assert [plane[1][2] for plane in obs[:17]] == [0] * 17
    assert sum(flat(obs[17])) == sum(flat(obs[18])) == 52
    state.play("c1-c2")
    obs = state.observation()
    assert sum(flat(obs[17])) == 52 and sum(flat(obs[18])) == 0
    assert state.observation(hidden=True) == obs


def test_geoffrey_observation_hand_worked() -> None:
    state = Geoffrey.deal(2)
    assert state.to_text() == game_data("geoffrey").DEAL_TEXTS[2]
    obs = state.observation()
    hidden = state.observation(hidden=True)
    assert obs[11][0][0] == obs[13 + 2][0][0] == 1  # QH at the bottom of column 1
    assert obs[2][4][0] == obs[13 + 2][4][0] == obs[17][4][0] == 1  # (3H), face down
    assert [plane[4][0] for plane in hidden] == [0] * 17 + [1]
    assert [plane[4][4] for plane in hidden] == [plane[4][4] for plane in obs] == [1] + [0] * 15 + [1, 0]  # AS
    assert sum(flat(obs[17])) == sum(flat(hidden[17])) == 16
    assert sum(flat(hidden)) == sum(flat(obs)) - 2 * 16


def test_geoffrey_foundations_in_the_observation() -> None:
    state = Geoffrey.from_text(
        "Foundations: C-2 D-0 H-A S-0\n(3C) 4C\n-\n-\n-\n-\n-\n-\n"
        + " ".join(c + s for s in "DS" for c in "A23456789TJQK")
        + " " + " ".join(c + "H" for c in "23456789TJQK") + " " + " ".join(c + "C" for c in "56789TJQK")
    )
    obs = state.observation(hidden=True)
    assert [cards_at(obs, 8, slot) for slot in range(3)] == [(1, 0), (2, 0), (0, -1)]
    assert [cards_at(obs, 10, slot) for slot in range(2)] == [(1, 2), (0, -1)]
    assert sum(flat([pile for plane in obs for pile in plane[9:12:2]])) == 0  # the D and S piles are empty
    assert obs[17][0][:3] == [1, 0, 0] and cards_at(obs, 0, 0) == (0, -1) and cards_at(obs, 0, 1) == (4, 0)
    assert cards_at(obs, 7, 46) == (13, 0) and cards_at(obs, 7, 47) == (0, -1)  # KC tops 47 cards


@pytest.mark.parametrize("game", sorted(GAMES))
def test_hidden_must_be_a_bool(game: str) -> None:
    state = GAMES[game].deal(1)
    for method in (state.observation, state.to_text):
        with pytest.raises(TypeError, match="hidden must be a bool, got int"):
            method(hidden=1)


# --- the hidden view and determinization -------------------------------------------------------


def face_down(state: Geoffrey) -> List[Tuple[int, int, str]]:
    """(line, token, card text) of each face-down card in the position's text."""
    found = []
    for number, line in enumerate(state.to_text().split("\n")):
        for index, token in enumerate(line.split()):
            if token.startswith("("):
                found.append((number, index, token[1:-1]))
    return found


def with_face_down(state: Geoffrey, cards: List[str]) -> Geoffrey:
    """The position with its face-down cards replaced, in text order, by ``cards``."""
    lines = [line.split() for line in state.to_text().split("\n")]
    for (number, index, _), card in zip(face_down(state), cards):
        lines[number][index] = f"({card})"
    return Geoffrey.from_text("\n".join(" ".join(line) for line in lines))


def test_hidden_card_swap_leaves_the_hidden_view_alone() -> None:
    rng = random.Random(14)
    checked = 0
    for seed in range(40):
        for state in random_positions("geoffrey", seed, 7):
            cards = [card for _, _, card in face_down(state)]
            if len(cards) < 2:
                continue
            for _ in range(3):
                shuffled = cards[:]
                while shuffled == cards:
                    rng.shuffle(shuffled)
                other = with_face_down(state, shuffled)
                assert other != state and other.to_text() != state.to_text()
                assert other.observation() != state.observation()
                assert other.to_text(hidden=True) == state.to_text(hidden=True)
                assert other.observation(hidden=True) == state.observation(hidden=True)
                checked += 1
    assert checked > 100


def test_hidden_text_and_its_refusal() -> None:
    state = Geoffrey.deal(2)
    hidden = state.to_text(hidden=True)
    assert hidden.split("\n")[5] == "(??) (??) (??) (??) AS 5C"
    assert hidden.count("(??)") == 16 and "(" not in hidden.replace("(??)", "")
    with pytest.raises(ValueError, match=r"line 6, token 1 '\(\?\?\)': face-down card not known"):
        Geoffrey.from_text(hidden)


@pytest.mark.parametrize("game", names_where(lambda info: not info.hidden_cards))
def test_no_face_down_cards_no_hidden_difference(game: str) -> None:
    state = GAMES[game].deal(11)
    state.play(state.legal_moves()[0])
    assert state.to_text(hidden=True) == state.to_text()
    clone = state.determinize(123)
    assert clone == state and clone is not state and clone.move_stack == state.move_stack
    clone.play(clone.legal_moves()[0])
    assert clone != state


def test_determinize_keeps_what_is_in_view() -> None:
    for seed in range(30):
        for state in random_positions("geoffrey", seed, 9):
            before = state.to_text()
            picked = state.determinize(seed)
            assert state.to_text() == before
            assert picked.to_text(hidden=True) == state.to_text(hidden=True)
            assert picked.observation(hidden=True) == state.observation(hidden=True)
            assert sorted(c for _, _, c in face_down(picked)) == sorted(c for _, _, c in face_down(state))
            assert picked.move_stack == []
            assert state.determinize(seed) == picked
            assert Geoffrey.from_text(picked.to_text()) == picked


def test_determinize_by_hand() -> None:
    # Face-down cards in card order: KC (12), KD (25), KH (38). SplitMix64(0)'s first two draws
    # are 0xE220A8397B1DCDAF and 0x6E789E6AA1B965F4: i = 2 swaps with j = draw % 3 = 1 (KC KH KD),
    # i = 1 with j = draw % 2 = 0, giving KH KC KD, laid into column 1 from the bottom.
    assert 0xE220A8397B1DCDAF % 3 == 1 and 0x6E789E6AA1B965F4 % 2 == 0
    state = Geoffrey.from_text(THREE_KINGS.format("(KD) (KH) (KC)"))
    assert state.determinize(0).to_text() == Geoffrey.from_text(THREE_KINGS.format("(KH) (KC) (KD)")).to_text()


THREE_KINGS = "Foundations: C-Q D-Q H-Q S-Q\n{} KS\n-\n-\n-\n-\n-\n-\n-"


def test_determinize_is_uniform() -> None:
    state = Geoffrey.from_text(THREE_KINGS.format("(KC) (KD) (KH)"))
    trials = 6000
    counts: Dict[str, int] = {}
    for seed in range(trials):
        column = state.determinize(seed).to_text().split("\n")[1]
        counts[column] = counts.get(column, 0) + 1
    assert len(counts) == 6
    expected = trials / 6
    chi_square = sum((count - expected) ** 2 / expected for count in counts.values())
    assert chi_square < CHI_SQUARE_5_999, counts


def test_determinize_seeds() -> None:
    state = Geoffrey.deal(2)
    assert len({state.determinize(seed).to_text() for seed in range(20)}) == 20
    assert state.determinize(2**64 - 1) == state.determinize(2**64 - 1)
    with pytest.raises(TypeError, match="seed must be an int, got str"):
        state.determinize("1")
    with pytest.raises(TypeError, match="seed must be an int, got bool"):
        state.determinize(True)
    for bad in (-1, 2**64):
        with pytest.raises(ValueError, match=f"seed must be in 0 .. 2\\*\\*64-1, got {bad}"):
            state.determinize(bad)
