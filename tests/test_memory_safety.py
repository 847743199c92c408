"""No route from Python reaches a C++ value that was never constructed.

pybind11 allocates an instance in ``__new__`` and constructs its C++ value in ``__init__``;
an instance reached between the two (``Move.__new__(Move, text)``, a base's ``__new__``,
``object.__new__``) would read raw memory. Every route to ``__new__`` and ``__init__`` of every
bound class must raise TypeError (ValueError for bad move text, as ``Move(text)`` does) or give
a fully built object, and the object is then used to show which.
"""

from __future__ import annotations

import copy
import copyreg
import pickle
from typing import Any, Callable, List

import pytest

import patience_engine as pe
from patience_engine import _core
from patience_engine.games import REGISTRY

GAMES = [info.cpp for info in REGISTRY.values()]
MOVES = [game.Move for game in GAMES]
GAME_IDS = list(REGISTRY)
"""The tests' ids of GAMES, the games' names, so that ``pytest -k <name>`` selects a game's tests."""
CLASS_IDS = [*GAME_IDS, *(f"{name}-move" for name in GAME_IDS)]
"""The tests' ids of GAMES + MOVES."""
# Texts in each game's notation (each registered game's first move of deal 1 among them, so that every
# game's notation is tried on every move class), then values that are no text.
ODD_ARGUMENTS: List[Any] = ["", "7S", "x", "7S+JD", "a1xb1", "1:KS>2",
                            *(str(game.deal(1).legal_moves()[0]) for game in GAMES),
                            1, None, b"7S", 1.5, object()]


def first_move(game: Any) -> Any:
    """The first legal move of deal 1 (each game's deal 1 has one)."""
    moves = game.deal(1).legal_moves()
    assert moves
    return moves[0]


def use_move(game: Any, move: Any) -> None:
    """Reads every part of a move: it must be a whole, valid move of game."""
    text = str(move)
    assert repr(move) == f"{game.Move.__name__}({text!r})"
    assert game.Move(text) == move and hash(game.Move(text)) == hash(move)
    assert game.parse_move(text) == move
    state = game.deal(1)
    if state.is_legal(move):
        state.play(move)
        assert state.move_stack == [move] and state.undo() == move


def use_state(state: Any) -> None:
    """Reads and plays a position: it must be a whole, valid position."""
    game = type(state)
    text = state.to_text()
    assert game.from_text(text) == state and repr(state) == f"{game.__name__}.from_text({text!r})"
    moves = state.legal_moves()
    assert pe.perft(state, 1) == len(moves)
    if moves:
        before = state.hash
        state.play(moves[0])
        assert state.undo() == moves[0] and state.hash == before


def made_or_refused(make: Callable[[], Any], use: Callable[[Any], None]) -> None:
    """make() raises TypeError or ValueError, or what it gives passes use()."""
    try:
        made = make()
    except (TypeError, ValueError):
        return
    use(made)


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_move_new_with_any_single_argument_is_built_or_refused(game: Any) -> None:
    move_class = game.Move
    for arg in [*ODD_ARGUMENTS, str(first_move(game))]:
        made_or_refused(lambda a=arg: move_class.__new__(move_class, a), lambda m: use_move(game, m))
        made_or_refused(lambda a=arg: move_class.__new__(move_class, text=a), lambda m: use_move(game, m))
        made_or_refused(lambda a=arg: move_class(a), lambda m: use_move(game, m))
    text = str(first_move(game))
    assert move_class.__new__(move_class, text) == first_move(game)
    use_move(game, move_class.__new__(move_class, text))


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_move_new_with_other_arguments_is_refused(game: Any) -> None:
    move_class = game.Move
    text = str(first_move(game))
    for args, kwargs in [((), {}), ((text, text), {}), ((), {"move": text}), ((text,), {"text": text})]:
        with pytest.raises(TypeError, match="cannot be made that way"):
            move_class.__new__(move_class, *args, **kwargs)
        with pytest.raises(TypeError, match="cannot be made that way"):
            move_class(*args, **kwargs)
    for other in (int, object, game, MOVES[GAMES.index(game) - 1], 5):
        with pytest.raises(TypeError, match="expected"):
            move_class.__new__(other, text)


@pytest.mark.parametrize("cls", GAMES + MOVES, ids=CLASS_IDS)
def test_no_base_new_makes_an_instance(cls: Any) -> None:
    assert cls.__mro__[0] is cls and cls.__mro__[-1] is object
    for base in cls.__mro__[1:]:
        for args in [(), ("7S",)]:
            with pytest.raises(TypeError, match="is not safe"):
                base.__new__(cls, *args)
    with pytest.raises(TypeError):
        copyreg.__newobj__(cls)  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        copyreg._reconstructor(cls, object, None)  # type: ignore[attr-defined]


def test_the_pybind11_base_itself_cannot_be_made() -> None:
    base = GAMES[0].__mro__[1]
    assert all(cls.__mro__[1] is base for cls in GAMES + MOVES)
    with pytest.raises(TypeError, match="cannot be made"):
        base.__new__(base)
    with pytest.raises(TypeError, match="cannot be made"):
        base()

    class Plain(base):  # type: ignore[misc, valid-type]
        pass

    with pytest.raises(TypeError, match="cannot be made"):
        Plain()
    with pytest.raises(TypeError, match="cannot be made"):
        base.__new__(Plain)


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_positions_come_only_from_the_game(game: Any) -> None:
    for args in [(), (1,), ("text",), (game.deal(1).to_text(),)]:
        with pytest.raises(TypeError, match="deal"):
            game(*args)
        with pytest.raises(TypeError, match="deal"):
            game.__new__(game, *args)
    with pytest.raises(TypeError, match="deal"):
        game.__new__(game, n=1)


@pytest.mark.parametrize("cls", GAMES + MOVES, ids=CLASS_IDS)
def test_bound_classes_cannot_be_subclassed(cls: Any) -> None:
    with pytest.raises(TypeError, match="not an acceptable base type"):
        type("Sub", (cls,), {})


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_init_again_leaves_a_move_as_it_was(game: Any) -> None:
    move = first_move(game)
    text, key = str(move), hash(move)
    other = str(game.deal(2).legal_moves()[-1])
    for args in [(other,), (), (1,), (other, other)]:
        try:
            game.Move.__init__(move, *args)
        except TypeError:
            pass
        assert str(move) == text and hash(move) == key
        use_move(game, move)
    with pytest.raises(TypeError, match="self"):
        game.Move.__init__(game.deal(1), text)
    with pytest.raises(TypeError, match="self"):
        game.Move.__init__(object(), text)


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_init_on_a_position_is_refused(game: Any) -> None:
    state = game.deal(1)
    text = state.to_text()
    for args in [(), (text,), (1,)]:
        with pytest.raises(TypeError):
            game.__init__(state, *args)
    assert state.to_text() == text
    use_state(state)
    with pytest.raises(TypeError):
        game.__init__(object())


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_copies_and_pickles_are_whole(game: Any) -> None:
    state = game.deal(3)
    for _ in range(3):
        moves = state.legal_moves()
        if not moves:
            break
        state.play(moves[-1])
    move = first_move(game)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        for obj, use in [(state, use_state), (move, lambda m: use_move(game, m))]:
            clone = pickle.loads(pickle.dumps(obj, protocol))
            assert clone == obj and type(clone) is type(obj)
            use(clone)
    for clone in (copy.copy(state), copy.deepcopy(state), state.copy()):
        assert clone == state and clone.move_stack == state.move_stack and clone is not state
        use_state(clone)
    for clone in (copy.copy(move), copy.deepcopy(move)):
        use_move(game, clone)


def test_vector_game_is_made_whole_or_refused() -> None:
    with pytest.raises(TypeError):
        object.__new__(pe.VectorGame)
    with pytest.raises(TypeError):
        pe.VectorGame.__new__(pe.VectorGame)
    with pytest.raises(TypeError, match="expected VectorGame"):
        pe.VectorGame.__new__(pe.Geoffrey, "geoffrey", 1)  # type: ignore[arg-type]
    made = pe.VectorGame.__new__(pe.VectorGame, "geoffrey", 2)
    made.reset(seed=1)
    made.step(made.sample_legal_actions())
    again = pe.VectorGame("germaine", 3, max_moves=5)
    again.__init__("geoffrey", 9)  # a second __init__ changes nothing
    assert again.num_envs == 3 and again.game is pe.Germaine and again.max_moves == 5


def test_every_bound_class_is_covered() -> None:
    bound = {name for name in dir(_core) if isinstance(getattr(_core, name), type)}
    assert bound == {cls.__name__ for cls in GAMES + MOVES} | {"VectorGame"}
