"""Arguments of the wrong type get a one-line TypeError (or ValueError), never pybind11's list of
overloads, from every public function and method of the C++ classes.

Each method is called with its own number of arguments (read from the stub ``_core.pyi``, or from
the signature of a method written in Python), all of them None, a str, a float, or the other
implementation's object of the same kind; perft's and solve's arguments are then tried one by one.
"""

from __future__ import annotations

import ast
import inspect
from functools import partial
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Tuple

import pytest

import patience_engine as pe
from conftest import CLASS_CHOICES, NAME_CHOICES
from patience_engine import draw, reference
from patience_engine._shown import SHOWN_CHARS
from patience_engine.games import REGISTRY
from patience_engine.registry import ENTRIES

GAMES = list(REGISTRY)
"""Every game's name (its classes are ``REGISTRY[game].class_name`` and ``move_class_name``)."""
STUB = Path(pe.__file__).with_name("_core.pyi")


def stub_arities() -> Dict[str, Dict[str, Tuple[int, int]]]:
    """Per class of the stub (and "" for the module), each method's (required, all) positional
    arguments after self; properties left out."""
    tree = ast.parse(STUB.read_text())
    found: Dict[str, Dict[str, Tuple[int, int]]] = {"": {}}

    def arity(function: ast.FunctionDef, bound: bool) -> Tuple[int, int]:
        names = function.args.args[1:] if bound else function.args.args
        return len(names) - len(function.args.defaults), len(names)

    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            found[""][node.name] = arity(node, False)
        elif isinstance(node, ast.ClassDef):
            methods = found.setdefault(node.name, {})
            for item in node.body:
                if not isinstance(item, ast.FunctionDef):
                    continue
                decorators = {d.id for d in item.decorator_list if isinstance(d, ast.Name)}
                if "property" in decorators or item.name == "__init__":
                    continue
                methods[item.name] = arity(item, "staticmethod" not in decorators)
    return found


ARITIES = stub_arities()


def class_arities(game: str, move: bool) -> Dict[str, Tuple[int, int]]:
    """The stub's arities of a game's position class, or of its move class (``move``).

    An optional game's classes are not in the stub (docs/adding-a-game.md "The count"): they take the
    published games', which are one set, as one template (``bind_game<G>()``) binds every game.
    """
    info = REGISTRY[game]
    name = info.move_class_name if move else info.class_name
    if name in ARITIES:
        return ARITIES[name]
    published = [ARITIES[other.move_class_name if move else other.class_name] for other in ENTRIES
                 if not other.optional]
    assert all(arities == published[0] for arities in published), "the published games' methods differ"
    return published[0]


def python_arity(function: Any) -> Tuple[int, int]:
    """(required, all) positional arguments of a bound method written in Python."""
    parameters = [p for p in inspect.signature(function).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return sum(p.default is p.empty for p in parameters), len(parameters)


def odd_values(game: str) -> List[Any]:
    """None, a str, a float, and the other implementation's position and move."""
    other = reference.GAMES[game].deal(1)
    return [None, "x", 1.5, other, other.legal_moves()[0]]


def assert_clear(call: Callable[[], Any], what: str) -> None:
    """call() returns, or raises TypeError or ValueError with a one-line message."""
    try:
        call()
    except (TypeError, ValueError) as error:
        message = str(error)
        assert "\n" not in message and "incompatible function arguments" not in message, f"{what}: {message}"


def method_calls(game: str) -> Iterator[Tuple[str, Callable[..., Any], int]]:
    """(name, bound method, number of arguments) for every public method of a game's C++ classes."""
    state = pe.GAMES[game].deal(1)
    for move, receiver in [(False, state), (True, state.legal_moves()[0])]:
        cls_name = type(receiver).__name__
        methods = dict(class_arities(game, move))
        for name in dir(receiver):
            attribute = getattr(type(receiver), name)
            # Properties are read, not called; the move class (Move) is made in test_memory_safety.py.
            if name.startswith("_") and name not in methods or isinstance(attribute, (property, type)):
                continue
            method = getattr(receiver, name)
            if not callable(method):
                continue
            if name in methods:
                required, total = methods[name]
            elif inspect.isfunction(getattr(method, "__func__", None)):
                required, total = python_arity(method)
            else:
                pytest.fail(f"{cls_name}.{name}: not in the stub _core.pyi")
            for count in range(max(required, 1), total + 1):
                yield f"{cls_name}.{name}", method, count


@pytest.mark.parametrize("game", GAMES)
def test_every_method_refuses_odd_arguments_in_one_line(game: str) -> None:
    calls = list(method_calls(game))
    assert {"deal", "from_text", "play", "is_legal"} <= {name.split(".")[1] for name, _, _ in calls}
    for name, method, count in calls:
        for value in odd_values(game):
            # Each call on a fresh receiver would be slower and find nothing more: the calls that
            # succeed (play("x") cannot) leave the position a valid one.
            assert_clear(partial(method, *[value] * count), f"{name} with {count} x {value!r}")


@pytest.mark.parametrize("game", GAMES)
def test_perft_and_solve_name_what_came(game: str) -> None:
    class_name = REGISTRY[game].class_name
    state = pe.GAMES[game].deal(1)
    other = reference.GAMES[game].deal(1)
    expected = f"expects a patience_engine position ({CLASS_CHOICES}), got"
    for function, call in [("perft", lambda s: pe.perft(s, 1)), ("solve", lambda s: pe.solve(s, node_limit=10))]:
        with pytest.raises(TypeError) as error:
            call(other)
        assert str(error.value) == f"{function}() {expected} {type(other).__module__}.{class_name}"
        with pytest.raises(TypeError) as error:
            call(None)
        assert str(error.value) == f"{function}() {expected} NoneType"
    for odd in odd_values(game):
        assert_clear(partial(pe.perft, state, odd), f"perft depth {odd!r}")
        assert_clear(partial(pe.perft, state, 1, odd), f"perft bulk {odd!r}")
        for keyword in ["node_limit", "time_limit", "table_bytes", "pruning"]:
            # Two limits, so that either may be None (no limit) and the search still stops.
            limits = {"node_limit": 10, "time_limit": 0.05, keyword: odd}
            assert_clear(partial(pe.solve, state, **limits), f"solve {keyword}={odd!r}")
    with pytest.raises(TypeError) as error:
        reference.perft(state, 1)
    engine_class = f"{type(state).__module__}.{class_name}"
    assert str(error.value) == f"perft() {expected.replace('patience_engine', 'reference')} {engine_class}"
    # The class itself, not a position: named, with how to make a position of it.
    for module, own, foreign in [(pe, "perft", reference), (reference, "perft", pe), (pe, "playouts", reference)]:
        call = (lambda m, c: m.perft(c, 1)) if own == "perft" else (lambda m, c: m.playouts(c, 1, seed=0))
        name = "patience_engine" if module is pe else "reference"
        theirs = foreign.GAMES[game]
        for cls, shown in [(module.GAMES[game], class_name), (theirs, f"{theirs.__module__}.{class_name}"), (int, "int")]:
            with pytest.raises(TypeError) as error:
                call(module, cls)
            hint = f", not a position of it ({class_name}.deal(n) makes one)" if cls is module.GAMES[game] else ""
            assert str(error.value) == f"{own}() {expected.replace('patience_engine', name)} the class {shown}{hint}"
    for module in (pe, reference):
        for odd, shown in [("no", "str"), (None, "NoneType"), (1, "int")]:
            with pytest.raises(TypeError, match=f"^perft bulk must be a bool, got {shown}$"):
                module.perft(module.GAMES[game].deal(1), 1, odd)
    with pytest.raises(TypeError, match="^solve pruning must be a bool, got str$"):
        pe.solve(state, pruning="no")


@pytest.mark.parametrize("module", [pe, reference], ids=["cpp", "reference"])
def test_numpy_integers_are_ints_and_numpy_bools_are_not(module: Any) -> None:
    """Deal numbers, seeds, depths and actions take any integer with __index__ (limits.int_value)."""
    np = pytest.importorskip("numpy")
    state = module.Geoffrey.deal(np.int64(5))
    assert state == module.Geoffrey.deal(5)
    assert state.determinize(np.uint64(3)) == state.determinize(3)
    assert module.perft(state, np.int8(3)) == module.perft(state, 3)
    action = np.flatnonzero(state.legal_action_mask())[0]  # a numpy int64, as an agent has it
    assert state.is_legal(action) and module.Geoffrey.move_of(action) == module.Geoffrey.move_of(int(action))
    for bad, shown in ((np.True_, "numpy.bool"), (np.float64(1.0), "float64")):  # numpy's bool is not bool
        with pytest.raises(TypeError, match=rf"^deal number must be an int, got {shown}$"):
            module.Geoffrey.deal(bad)
        with pytest.raises(TypeError, match="^perft depth must be an int, got "):
            module.perft(state, bad)
    with pytest.raises(ValueError, match=r"^deal number must be in 0 \.\. 2\*\*64-1, got -1$"):
        module.Geoffrey.deal(np.int64(-1))


@pytest.mark.parametrize("game", GAMES)
def test_a_wrong_number_of_arguments_is_one_line(game: str) -> None:
    """Too many arguments, too few, or an unknown keyword: a one-line TypeError naming the
    parameters, from every method (pybind11's own message lists every signature over lines)."""
    # Operators (__eq__) answer NotImplemented to arguments they cannot take, as Python's do.
    calls = [call for call in method_calls(game) if not call[0].split(".")[1].startswith("__")]
    for name, method, count in calls:
        short = name.split(".")[1]
        for args, kwargs in [([None] * (count + 1), {}), ([], {"no_such_argument": 1})]:
            with pytest.raises(TypeError) as raised:
                method(*args, **kwargs)
            message = str(raised.value)
            assert "\n" not in message and "incompatible" not in message, f"{name}: {message}"
            assert short in message, f"{name}: {message}"


def test_module_functions_and_vector_game_give_one_line_arity_errors() -> None:
    state = pe.Geoffrey.deal(1)
    for call, expected in [
        (lambda: pe.perft(state), "perft() takes (state, depth, bulk = True, *, num_threads = 1), got 1 positional "
                                  "argument; missing depth"),
        (lambda: pe.playouts(state, 3),
         "playouts() takes (state, n, *, seed, max_moves = None, num_threads = 1), got 2 positional arguments; "
         "missing seed"),
        (lambda: pe.VectorGame("geoffrey"),
         "VectorGame() takes (game, num_envs, *, max_moves = None, hidden = False, num_threads = 1), got 1 positional "
         "argument; missing num_envs"),
        (lambda: pe.VectorGame("geoffrey", 2, 5), "VectorGame() takes (game, num_envs, *, max_moves = None, "
                                                  "hidden = False, num_threads = 1), got 3 positional arguments"),
        (lambda: state.to_text(foo=1, bar=2), "to_text() takes (hidden = False), got keywords foo, bar"),
        (lambda: state.play(), "play() takes (move: GeoffreyMove | str | int), got no arguments; missing move"),
    ]:
        with pytest.raises(TypeError) as raised:
            call()
        assert str(raised.value) == expected


@pytest.mark.parametrize("game", GAMES)
def test_a_class_given_for_a_value_is_named_as_a_class(game: str) -> None:
    """Every method given a class names "the class X", never pybind11's metaclass; both sides alike."""
    class_name = REGISTRY[game].class_name
    cls = pe.GAMES[game]
    for name, method, count in method_calls(game):
        try:
            method(*[cls] * count)
        except (TypeError, ValueError) as error:
            assert "pybind11" not in str(error), f"{name}: {error}"
    for module in (pe, reference):
        own = module.GAMES[game]
        state = own.deal(1)
        for call, expected in [
            (partial(own.deal, own), "deal number must be an int"),
            (partial(own.move_of, own), "action must be an int"),
            (partial(state.play, own), f"expected a {class_name}Move, its text or an int action"),
            (partial(state.determinize, own), "seed must be an int"),
            (partial(module.perft, state, own), "perft depth must be an int"),
            (partial(module.VectorGame, own, own), "num_envs must be an int"),
        ]:
            with pytest.raises(TypeError) as raised:
                call()
            assert str(raised.value) == f"{expected}, got the class {class_name}", module


@pytest.mark.parametrize("module", [pe, reference], ids=["cpp", "reference"])
def test_a_long_type_name_is_cut_as_long_text_is(module: Any) -> None:
    """A message stays one short line whatever its value's class is called."""
    long_name = type("Q" * 100_000, (), {})
    cut = "Q" * SHOWN_CHARS + "..."
    state = module.Germaine.deal(1)
    play = "expected a GermaineMove, its text or an int action, got"
    for call, expected in [(partial(state.play, long_name()), f"{play} {cut}"),
                           (partial(state.play, long_name), f"{play} the class {cut}"),
                           (partial(module.Germaine.deal, long_name()), f"deal number must be an int, got {cut}")]:
        with pytest.raises(TypeError) as raised:
            call()
        assert str(raised.value) == expected
    # Where a message names a class with its module (one named as a game), each is cut on its own.
    geoffrey_elsewhere = type("Geoffrey", (), {"__module__": "M" * 100_000})
    qualified = "M" * SHOWN_CHARS + "....Geoffrey"
    for call, ending in [(partial(module.VectorGame, long_name, 2), f"got {__name__}.{cut}"),
                         (partial(module.perft, long_name, 1), f"got the class {cut}"),
                         (partial(module.perft, geoffrey_elsewhere(), 1), f"got {qualified}"),
                         (partial(module.VectorGame, geoffrey_elsewhere(), 2), f"got a {qualified} position")]:
        with pytest.raises(TypeError) as raised:
            call()
        assert str(raised.value).endswith(ending) and len(str(raised.value)) < 200


@pytest.mark.parametrize("module", [pe, reference], ids=["cpp", "reference"])
def test_huge_ints_are_shown_by_a_bound_not_their_digits(module: Any) -> None:
    """Python will not write an int of more than 4300 digits; an error message bounds it instead
    (limits.int_text), up to 2**128 in full."""
    state = module.Geoffrey.deal(1)
    vector = module.VectorGame("geoffrey", 2)
    vector.reset(seed=1)
    for call, expected in [
        (lambda: module.Geoffrey.deal(10**5000), "deal number must be in 0 .. 2**64-1, got an int >= 2**16609"),
        (lambda: module.Geoffrey.deal(-(2**128)), "deal number must be in 0 .. 2**64-1, got an int <= -2**128"),
        (lambda: module.Geoffrey.deal(2**128 - 1), f"deal number must be in 0 .. 2**64-1, got {2**128 - 1}"),
        (lambda: state.play(10**100), "action an int >= 2**332 is outside 0 .. 3327"),
        (lambda: module.Geoffrey.move_of(-(10**50)), "action an int <= -2**166 is outside 0 .. 3327"),
        (lambda: module.perft(state, 10**300), "perft depth must be in 0 .. 500, got an int >= 2**996"),
        (lambda: vector.step([10**200, 0]), "slot 0: action an int >= 2**664 is outside 0 .. 3327"),
        (lambda: vector.state(-(10**200)), "slot an int <= -2**664 is outside 0 .. 1"),
        (lambda: module.playouts(state, 10**40, seed=1), "n must be in 0 .. 2**63-1, got an int >= 2**132"),
    ]:
        with pytest.raises((ValueError, IndexError)) as raised:
            call()
        assert str(raised.value).strip("'") == expected
    with pytest.raises(ValueError, match=r"^time_limit must be a finite number of seconds > 0, got an int <= -2\*\*16609$"):
        pe.solve(pe.Geoffrey.deal(1), time_limit=-(10**5000))


@pytest.mark.parametrize("module", [pe, reference], ids=["cpp", "reference"])
def test_a_position_given_for_a_game_class_is_told_so(module: Any) -> None:
    kind = "patience_engine" if module is pe else "reference"
    with pytest.raises(TypeError, match=f"^game must be a game name or a {kind} game class, "
                                        "got a Geoffrey position, not its class$"):
        module.VectorGame(module.Geoffrey.deal(1), 2)


def test_whatever_the_size_of_a_value_a_message_stays_one_short_line(tmp_path: Path) -> None:
    """Huge ints and long text are shown by a bound or cut short, never Python's "Exceeds the limit"."""
    from fractions import Fraction

    from patience_engine.envs import PatienceEnv, PatienceVectorEnv
    from patience_engine.survey import run_survey

    db = str(tmp_path / "s.db")
    for call, error, expected in [
        (partial(run_survey, "geoffrey", range(10**5000), db=db), ValueError,
         "deals must be a contiguous range of at least one deal within 0 .. 2**63-1, got range(0, an int >= 2**16609)"),
        (partial(run_survey, int, range(1), db=db), TypeError, "game must be a str, got the class int"),
        (partial(run_survey, [], range(1), db=db), TypeError, "game must be a str, got list"),
        (partial(pe.solve, pe.Geoffrey.deal(1), time_limit=Fraction(-(10**5000), 3)), ValueError,
         "time_limit must be a finite number of seconds > 0, got a Fraction too long to show"),
        (partial(PatienceVectorEnv, "germaine", 2, max_moves=10**5000, max_episode_steps=5), ValueError,
         "max_moves must be in 1 .. 2147483647, got an int >= 2**16609"),
        (partial(PatienceVectorEnv, "germaine", 2, max_moves=True, max_episode_steps=1), TypeError,
         "max_moves must be an int, got bool"),
        (partial(PatienceVectorEnv, "germaine", 2, max_moves="5", max_episode_steps=5), TypeError,
         "max_moves must be an int, got str"),
        (partial(PatienceEnv, "x" * 10**6), ValueError,
         f"unknown game '{'x' * 40}'...: expected one of {NAME_CHOICES}"),
    ]:
        with pytest.raises(error) as raised:
            call()
        assert str(raised.value) == expected
    for impl in ("cpp", "reference"):
        env = PatienceEnv("geoffrey", impl=impl)
        env.reset(seed=0)
        with pytest.raises(ValueError, match=r"^action an int >= 2\*\*16609 is outside 0 \.\. 3327$"):
            env.step(10**5000)
    for module in (pe, reference):
        for call, expected in [
            (partial(module.VectorGame, "x" * 10**6, 1),
             f"unknown game '{'x' * 40}'...: expected one of {NAME_CHOICES}"),
            (partial(module.VectorGame("geoffrey", 1).reset, options={"y" * 10**6: 1}),
             f"unknown option '{'y' * 40}'...: the only one is 'deals'"),
        ]:
            with pytest.raises(ValueError) as raised:
                call()
            assert str(raised.value) == expected


def test_the_other_implementations_objects_are_named_with_their_module() -> None:
    for module, other in ((pe, reference), (reference, pe)):
        kind = "patience_engine" if module is pe else "reference"
        foreign = other.Geoffrey.deal(1)
        with pytest.raises(TypeError) as raised:
            module.VectorGame(foreign, 2)
        assert str(raised.value) == (f"game must be a game name or a {kind} game class, "
                                     f"got a {type(foreign).__module__}.Geoffrey position")
        with pytest.raises(TypeError) as raised:
            module.playouts(module.Geoffrey, 1, seed=1)
        assert str(raised.value) == (f"playouts() expects a {kind} position ({CLASS_CHOICES}), "
                                     "got the class Geoffrey, not a position of it (Geoffrey.deal(n) makes one)")
        with pytest.raises(TypeError) as raised:
            module.playouts(foreign, 1, seed=1)
        assert str(raised.value) == (f"playouts() expects a {kind} position ({CLASS_CHOICES}), "
                                     f"got {type(foreign).__module__}.Geoffrey")


class _FailingIndex:
    """An integer whose __index__ answers once, then raises ValueError."""

    def __init__(self, value: int) -> None:
        self.value, self.calls = value, 0

    def __index__(self) -> int:
        self.calls += 1
        if self.calls > 1:
            raise ValueError("asked twice")
        return self.value


@pytest.mark.parametrize("module", [pe, reference], ids=["cpp", "reference"])
def test_an_index_that_raises_passes_its_error_on_and_is_asked_once(module: Any) -> None:
    state = module.Geoffrey.deal(1)
    for call in (module.Geoffrey.deal, state.play, state.is_legal, partial(module.perft, state)):
        spent = _FailingIndex(0)
        spent.calls = 1
        with pytest.raises(ValueError, match="^asked twice$"):
            call(spent)
    action = state.legal_actions()[0]
    state.play(_FailingIndex(action))  # read once, so the second answer is never asked for
    assert state.is_legal(_FailingIndex(state.legal_actions()[0]))


@pytest.mark.parametrize("module", [pe, reference], ids=["cpp", "reference"])
def test_odd_move_classes_are_read_or_named(module: Any) -> None:
    state = module.Geoffrey.deal(1)
    text = str(state.legal_moves()[0])
    # A class of the move's name in a patience_engine module (a stale one after a reload) is read by its text.
    stale = type("GeoffreyMove", (), {"__module__": "patience_engine.reference.geoffrey", "__str__": lambda _: text})
    assert state.is_legal(stale())
    weird = type("GeoffreyMove", (), {"__module__": 5})
    with pytest.raises(TypeError, match=r"^expected a GeoffreyMove, its text or an int action, got 5\.GeoffreyMove$"):
        state.play(weird())
    if module is reference:  # the C++ move class is final
        sub = type("Sub", (reference.GeoffreyMove,), {})
        state.play(sub(text))
        assert state.move_stack == [reference.GeoffreyMove(text)]


def test_a_method_called_on_its_class_is_told_as_cpython_tells_it() -> None:
    for call, expected in [
        (lambda: pe.Germaine.to_text(), "unbound method Germaine.to_text() needs an argument"),
        (lambda: pe.Germaine.undo(1), "descriptor 'undo' for 'Germaine' objects doesn't apply to a 'int' object"),
        (lambda: pe.Germaine.to_text(pe.Geoffrey.deal(1)),
         "descriptor 'to_text' for 'Germaine' objects doesn't apply to a 'patience_engine._core.Geoffrey' object"),
        (lambda: pe.VectorGame.step(), "unbound method VectorGame.step() needs an argument"),
    ]:
        with pytest.raises(TypeError) as raised:
            call()
        assert str(raised.value) == expected


class _SaysDeals:
    def __str__(self) -> str:
        return "deals"


@pytest.mark.parametrize("module", [pe, reference], ids=["cpp", "reference"])
def test_option_keys_are_compared_not_printed(module: Any) -> None:
    vector = module.VectorGame("germaine", 1)
    with pytest.raises(ValueError, match=r"^unknown option an int >= 2\*\*16609: the only one is 'deals'$"):
        vector.reset(options={10**5000: 1})
    with pytest.raises(ValueError, match="^unknown option <"):
        vector.reset(options={_SaysDeals(): [1]})


def test_long_or_odd_names_are_cut_short_or_refused() -> None:
    from patience_engine.envs import PatienceEnv, PatienceVectorEnv
    from patience_engine.survey import check_scheduler_address

    long = "x" * 10**6
    for call, error, expected in [
        (partial(PatienceEnv, "germaine", render_mode=long), ValueError,
         f"render_mode must be None or 'ansi', got '{'x' * 40}'..."),
        (partial(PatienceEnv, "germaine", impl=long), ValueError, f"impl must be 'cpp' or 'reference', got '{'x' * 40}'..."),
        (partial(PatienceVectorEnv, "germaine", 2, impl=10**5000), ValueError,
         "impl must be 'cpp' or 'reference', got an int >= 2**16609"),
        (partial(PatienceVectorEnv, "germaine", 2, copy=1), TypeError, "copy must be a bool, got int"),
        (partial(draw.to_svg, long, ""), ValueError,
         f"unknown game '{'x' * 40}'...: expected one of {NAME_CHOICES}"),
        (partial(draw.to_svg, 10**5000, ""), TypeError, "game must be a str, got int"),
        (partial(check_scheduler_address, "tcp://" + long), ValueError,
         f"scheduler address 'tcp://{'x' * 34}'... is not [SCHEME://]HOST:PORT (an IPv6 HOST in brackets, PORT a number)"),
    ]:
        with pytest.raises(error) as raised:
            call()
        assert str(raised.value) == expected


def test_a_subclass_of_the_references_move_plays_on_the_engine() -> None:
    sub = type("Sub", (reference.GermaineMove,), {})
    state = pe.Germaine.deal(2)
    state.play(sub("a3xa2"))
    assert state.move_stack == [pe.GermaineMove("a3xa2")]


@pytest.mark.parametrize("name", ["__class__", "__dict__", "__init__", "bool", "GermaineMove"])
def test_odd_class_names_are_shown_alike(name: str) -> None:
    odd = type(name, (), {"__module__": "mymod"})()
    messages = []
    for module in (pe, reference):
        with pytest.raises(TypeError) as raised:
            module.Germaine.deal(1).play(odd)
        messages.append(str(raised.value))
    assert messages[0] == messages[1]
