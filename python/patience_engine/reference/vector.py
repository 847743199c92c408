"""Batches of positions and random playouts: the reference's ``VectorGame`` and ``playouts``.

The executable statement of the batch interface the C++ engine implements
(``patience_engine.VectorGame``, ``patience_engine.playouts``): same deals,
actions, draws, rewards and flags, as lists where the engine gives numpy arrays.
Episodes follow docs/rl.md "Episodes"; every random draw is the SplitMix64
generator of docs/rules.md "Numbered deals", one stream per slot and per playout
(docs/rl.md "Random streams").

>>> vec = VectorGame("royal-marriage", 2)
>>> obs, info = vec.reset(options={"deals": [1, 2]})
>>> len(obs), len(obs[0]), len(obs[0][0]), info
(2, 17, 52, {})
>>> from patience_engine.reference import Geoffrey
>>> playouts(Geoffrey.deal(2), 3, seed=0, max_moves=5)
[0, 0, 0]
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, SupportsIndex, Tuple, Type

from .._arrays import ActionsLike, foreign_array, host_array
from .._errors import IllegalMoveError
from .._shown import int_text, qualified_name, repr_text, type_text
from ..limits import check_int, check_threads, int_value, span
from ._base import GAME_NAMES, Game, check_hidden, not_a_position
from ._cards import SplitMix64, check_deal_number, stream_seed

if TYPE_CHECKING:
    pass

StepResult = Tuple[List[Any], List[float], List[bool], List[bool], Dict[str, Any]]

MAX_INT = 2**31 - 1
"""Largest ``num_envs`` and ``max_moves``: the C++ engine counts them in an int."""


def _check_count(what: str, unit: str, num_envs: int, got: int) -> None:
    """ValueError unless ``got`` (items of ``what``, counted as len() says or as read) is ``num_envs``."""
    if got != num_envs:
        raise ValueError(f"{what} must hold num_envs = {num_envs} {unit}, got {got}")


def episode_over(state: Any) -> bool:
    """Whether an episode ends at ``state`` (docs/rl.md "Episodes"): won, or no legal move left (a won
    Germaine grid may still slide). Either implementation's position."""
    return bool(state.is_won or state.is_over)


def game_class(game: object) -> Type[Game[Any]]:
    """The reference class of ``game``: a registry name (``'geoffrey'``) or a reference game class.

    Raises ValueError for an unknown name, TypeError for anything else (a C++ class included).
    """
    from . import GAMES  # the package's registry, complete once the package is imported

    if isinstance(game, str):
        if game not in GAMES:
            raise ValueError(f"unknown game {repr_text(game)}: expected one of {', '.join(map(repr, GAMES))}")
        return GAMES[game]
    if isinstance(game, type) and game in GAMES.values():
        return game
    if isinstance(game, type):
        shown = qualified_name(game)
    elif isinstance(game, tuple(GAMES.values())):
        shown = f"a {type(game).__name__} position, not its class"
    elif type(game).__name__ in GAME_NAMES:  # the engine's
        shown = f"a {qualified_name(type(game))} position"
    else:
        shown = type_text(game)
    raise TypeError(f"game must be a game name or a reference game class, got {shown}")


def _max_moves(cls: Type[Game[Any]], max_moves: object) -> int:
    return cls.DEFAULT_MAX_MOVES if max_moves is None else check_int(max_moves, "max_moves", 1, MAX_INT)


def episode_settings(cls: Type[Any], max_moves: object, hidden: object) -> Tuple[int, bool]:
    """``(max_moves, hidden)`` checked for a game class of either implementation.

    ``max_moves``: None (the class's ``DEFAULT_MAX_MOVES``) or an int in 1 .. 2**31-1 (a numpy
    integer too); ``hidden``: a bool.
    Raises TypeError/ValueError naming the bad one.
    """
    return _max_moves(cls, max_moves), check_hidden(hidden)


def _is_sequence(value: object) -> bool:
    """Whether ``value`` lists items in an order, as actions and deals must (a list, tuple, range or
    array): what the engine's ``PySequence_Check`` takes (a class with ``__getitem__``), text
    aside; never a set or a mapping."""
    return not isinstance(value, (str, bytes, Mapping)) and hasattr(type(value), "__getitem__")


def _action(value: object, slot: int) -> int:
    """An action as an int: Python and numpy ints are taken, bools and floats are not."""
    number = int_value(value)
    if number is None:
        raise TypeError(f"slot {slot}: action must be an int, got {type_text(value)}")
    return number


class VectorGame:
    """``num_envs`` positions of one game stepped together, with Gymnasium's vector conventions.

    ``game``: a registry name (``registry.GAMES``, e.g. ``'royal-marriage'``) or a
    reference game class. ``num_envs``: an int in 1 .. 2**31-1. ``max_moves``: moves after which
    an episode is truncated (None: the game's ``DEFAULT_MAX_MOVES``, else an int in 1 .. 2**31-1);
    numpy integers are ints here. ``hidden``: observations show a game with face-down cards
    (Geoffrey) as its player sees it (docs/rl.md "Hidden view"). Slot ``i`` draws its
    deals and its ``sample_legal_actions`` from a generator of its own,
    SplitMix64(``stream_seed(seed, i)``) (docs/rl.md "Random streams"), so the results are the
    engine's at any thread count. ``num_threads`` is checked as the engine checks it (an int in
    0 .. MAX_THREADS); the reference steps its slots here, one after another (``num_threads`` 1).
    Raises TypeError/ValueError naming a bad argument.
    """

    def __init__(self, game: object, num_envs: SupportsIndex, *, max_moves: Optional[SupportsIndex] = None,
                 hidden: bool = False, num_threads: SupportsIndex = 1) -> None:
        self.game: Type[Game[Any]] = game_class(game)
        self.num_envs: int = check_int(num_envs, "num_envs", 1, MAX_INT)
        self.max_moves, self.hidden = episode_settings(self.game, max_moves, hidden)
        check_threads(num_threads)
        self.num_threads: int = 1
        self.NUM_ACTIONS: int = self.game.NUM_ACTIONS
        self.OBSERVATION_SHAPE: Tuple[int, ...] = self.game.OBSERVATION_SHAPE
        self._rngs: List[SplitMix64] = []
        self._states: List[Game[Any]] = []
        self._moves: List[int] = []
        self._ended: List[bool] = []

    def _draw(self, slot: int) -> int:
        return self._rngs[slot].next()

    def _started(self) -> None:
        if not self._states:
            raise RuntimeError("call reset() first")

    def _observations(self) -> List[Any]:
        return [state.observation(self.hidden) for state in self._states]

    def reset(self, seed: Optional[SupportsIndex] = None,
              options: Optional[Mapping[str, Any]] = None) -> Tuple[List[Any], Dict[str, Any]]:
        """Deal a new position into every slot; returns ``(obs, info)``.

        ``seed`` (an int in 0 .. 2**64-1) re-seeds slot ``i``'s generator with
        SplitMix64(``stream_seed(seed, i)``); None keeps them (seeded from ``os.urandom`` the first
        time). ``options={"deals": [...]}`` gives slot ``i`` deal ``deals[i]``; otherwise
        (``options`` None or ``{}``) slot ``i`` is dealt ``deal = draw()`` of its generator. ``obs``: ``num_envs``
        observations (nested lists of 0/1 ints of ``OBSERVATION_SHAPE``); ``info``: ``{}``.
        Raises TypeError/ValueError for a bad seed or options, changing nothing.
        """
        seed = None if seed is None else check_deal_number(seed, "seed")
        deals = self._option_deals(options)
        if seed is None and not self._rngs:
            seed = int.from_bytes(os.urandom(8), "little")
        if seed is not None:
            self._rngs = [SplitMix64(stream_seed(seed, slot)) for slot in range(self.num_envs)]
        if deals is None:
            deals = [self._draw(slot) for slot in range(self.num_envs)]
        self._states = [self.game.deal(deal) for deal in deals]
        self._moves = [0] * self.num_envs
        self._ended = [False] * self.num_envs
        return self._observations(), {}

    def _option_deals(self, options: object) -> Optional[List[int]]:
        if options is None:
            return None
        if not isinstance(options, Mapping):
            raise TypeError(f"options must be a dict or None, got {type_text(options)}")
        for key in options:
            if key != "deals":
                raise ValueError(f"unknown option {repr_text(key)}: the only one is 'deals'")
        if "deals" not in options:  # {}: Gymnasium passes it for no options
            return None
        deals = options["deals"]
        if not _is_sequence(deals):
            raise TypeError(f"options['deals'] must be a sequence of deal numbers, got {type_text(deals)}")
        _check_count("options['deals']", "deals", self.num_envs, len(deals))
        numbers = [check_deal_number(deal) for deal in deals]
        _check_count("options['deals']", "deals", self.num_envs, len(numbers))  # a len() may not be what it yields
        return numbers

    def step(self, actions: ActionsLike) -> StepResult:
        """Play one action in every slot; returns ``(obs, reward, terminated, truncated, info)``.

        Autoreset is Gymnasium's NEXT_STEP: a slot whose last step ended ignores its action, is
        dealt ``deal = draw()`` of its generator and returns reward 0.0, not terminated, not
        truncated. A slot dealt a position with no legal move (Geoffrey deal 787) ignores its
        action and returns reward 0.0, terminated. Otherwise ``reward`` is the change of ``score`` (a float), ``terminated``
        whether the game is won or no legal move is left, ``truncated`` whether the episode, not terminated, has
        now played ``max_moves`` moves (docs/rl.md "Episodes"); ``info`` is ``{}``.
        ``actions``: a sequence (list, tuple, numpy array) or an array of another library on the CPU
        (torch, JAX, CuPy: anything with ``__dlpack__`` or ``__array__``, read through numpy by
        ``patience_engine._arrays.host_array``, in place by DLPack).
        Every action is checked before any slot changes: ValueError for a wrong length, an
        action outside ``0 .. NUM_ACTIONS - 1`` or an array on a GPU (naming its device), TypeError for
        a non-int or ``actions`` that are no sequence nor array, IllegalMoveError
        naming the slot and the action for an illegal one; RuntimeError before ``reset()``.
        """
        self._started()
        items: Any = host_array(actions) if foreign_array(actions) else actions  # a torch tensor, say
        try:  # a 0-d array is Sized yet has no len()
            count = len(items) if _is_sequence(items) else -1
        except TypeError:
            count = -1
        if count < 0:
            raise TypeError(f"actions must be a sequence of num_envs ints, got {type_text(actions)}")
        _check_count("actions", "actions", self.num_envs, count)
        chosen = [_action(value, slot) for slot, value in enumerate(items)]
        _check_count("actions", "actions", self.num_envs, len(chosen))  # a len() may not be what it yields
        for slot, action in enumerate(chosen):
            if self._ended[slot] or self._states[slot].is_over:
                continue
            if not 0 <= action < self.NUM_ACTIONS:
                raise ValueError(f"slot {slot}: action {int_text(action)} is outside 0 .. {self.NUM_ACTIONS - 1}")
            if not (self._names_move(action) and self._states[slot].is_legal(action)):
                raise IllegalMoveError(f"slot {slot}: action {action} ({self._move_text(action)}) is not legal")
        rewards: List[float] = []
        terminated: List[bool] = []
        truncated: List[bool] = []
        for slot, action in enumerate(chosen):
            if self._ended[slot]:
                self._states[slot] = self.game.deal(self._draw(slot))
                self._moves[slot] = 0
                self._ended[slot] = False
                rewards.append(0.0)
                terminated.append(False)
                truncated.append(False)
                continue
            state = self._states[slot]
            if state.is_over:
                # Dealt with no legal move: reset() cannot say so, so this step ends the episode.
                self._ended[slot] = True
                rewards.append(0.0)
                terminated.append(True)
                truncated.append(False)
                continue
            before = state.score  # type: ignore[attr-defined]
            state.play(action)
            self._moves[slot] += 1
            over = episode_over(state)
            cut = not over and self._moves[slot] >= self.max_moves
            self._ended[slot] = over or cut
            rewards.append(float(state.score - before))  # type: ignore[attr-defined]
            terminated.append(over)
            truncated.append(cut)
        return self._observations(), rewards, terminated, truncated, {}

    def _names_move(self, action: int) -> bool:
        try:
            self.game.move_of(action)
        except ValueError:
            return False
        return True

    def _move_text(self, action: int) -> str:
        return str(self.game.move_of(action)) if self._names_move(action) else "names no move"

    @property
    def action_masks(self) -> List[List[bool]]:
        """``num_envs`` lists of ``NUM_ACTIONS`` bools, True at each slot's legal actions.

        A slot awaiting autoreset shows its ended position's (none when no move was left).
        Raises RuntimeError before ``reset()``.
        """
        self._started()
        return [state.legal_action_mask() for state in self._states]

    def sample_legal_actions(self) -> List[int]:
        """One uniformly random legal action per slot: ``legal[draw() % len(legal)]``, drawn by the slot's generator.

        ``legal`` is the slot's ascending ``legal_actions()``; a slot with none, or awaiting
        autoreset, gets 0 and draws nothing. Raises RuntimeError before ``reset()``.
        """
        self._started()
        chosen = []
        for slot, (state, ended) in enumerate(zip(self._states, self._ended)):
            legal = [] if ended else state.legal_actions()
            chosen.append(legal[self._draw(slot) % len(legal)] if legal else 0)
        return chosen

    def state(self, i: SupportsIndex) -> Game[Any]:
        """A copy of slot ``i``'s position, its move stack empty: a batch keeps positions, not their games.

        ``i``: an int (a numpy integer too); IndexError outside ``0 .. num_envs - 1``, RuntimeError
        before ``reset()``.
        """
        self._started()
        slot = check_int(i, "slot", 0, self.num_envs - 1, index=IndexError)
        # The C++ batch holds bare positions; its text is the whole position (docs/rules.md "Text formats").
        return self.game.from_text(self._states[slot].to_text())


def playouts(state: Game[Any], n: SupportsIndex, *, seed: SupportsIndex,
             max_moves: Optional[SupportsIndex] = None, num_threads: SupportsIndex = 1) -> List[int]:
    """The final scores of ``n`` random games from ``state`` (a list of ``n`` ints).

    Game ``k`` draws from its own generator SplitMix64(``stream_seed(seed, k)``): at each move
    ``legal[draw() % len(legal)]`` of the ascending legal actions, until none is left or
    ``max_moves`` moves are played (None: the game's ``DEFAULT_MAX_MOVES``). ``state`` is not
    changed. ``num_threads`` is checked as the engine checks it (0 .. MAX_THREADS); the games run
    here one after another, with the scores the engine gives at any thread count. Raises TypeError
    for a state that is not a reference position, TypeError/ValueError for a bad ``n`` (an int in
    0 .. 2**63-1), ``seed`` (0 .. 2**64-1), ``max_moves`` (an int in 1 .. 2**31-1) or
    ``num_threads``; numpy integers are ints for ``n``, ``max_moves`` and ``num_threads``.
    """
    from . import GAMES

    if not isinstance(state, tuple(GAMES.values())):
        raise not_a_position(state, "playouts")
    count = check_int(n, "n", 0)
    if count > 2**63 - 1:  # the engine's bound, worded as the engine words it
        raise ValueError(f"n must be {span(0, 2**63 - 1)}, got {int_text(count)}")
    seed = check_deal_number(seed, "seed")
    limit = _max_moves(type(state), max_moves)
    check_threads(num_threads)
    # The list first, as the engine makes its array first: n too many fails at once, not after hours.
    too_many = MemoryError(f"playouts of n = {count} games: their int32 scores do not fit in memory")
    if hasattr(os, "sysconf") and count > os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 4:
        raise too_many  # the engine's bound: n int32 scores beyond the machine's memory
    try:
        scores = [0] * count
    except (MemoryError, OverflowError):
        raise too_many from None
    for k in range(count):
        rng = SplitMix64(stream_seed(seed, k))
        game = state.copy()
        for _ in range(limit):
            legal = game.legal_moves()
            if not legal:
                break
            game.play(legal[rng.next() % len(legal)])
        scores[k] = game.score  # type: ignore[attr-defined]
    return scores
