"""Gymnasium environments of the games (needs the extra ``patience-engine[rl]``).

Importing this module registers, for ``gymnasium.make`` and ``gymnasium.make_vec``, one id per
game of the registry, ``patience_engine/<class name>-v0`` (``ENV_IDS``): ``RoyalMarriage-v0``,
``Germaine-v0`` and ``Geoffrey-v0``. A game with face-down cards (Geoffrey) is played as its player
sees it (``hidden=True``) unless made with ``hidden=False`` (docs/rl.md "Hidden view"). The id
fixes the game: a ``game=`` keyword naming another is a ValueError.

``PatienceEnv`` is one position; ``PatienceVectorEnv`` (``make_vec(...,
vectorization_mode="vector_entry_point")``) is a ``VectorGame`` stepped in one call. Both
take ``impl="cpp"`` (the C++ engine, the default) or ``impl="reference"`` (the pure-Python
reference), ``max_moves`` (default: the game's ``DEFAULT_MAX_MOVES``) and ``hidden``.
Actions, observations and episodes are those of docs/rl.md; ``info["action_mask"]`` holds
the legal actions as numpy bools.

>>> import gymnasium
>>> env = gymnasium.make("patience_engine/Geoffrey-v0", impl="reference", render_mode="ansi")
>>> obs, info = env.reset(options={"deal": 2})
>>> obs.shape, obs.dtype, int(info["action_mask"].sum())
((18, 12, 52), dtype('uint8'), 4)
>>> print(env.render().splitlines()[5])
(??) (??) (??) (??) AS 5C
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Any, Callable, Dict, Optional, SupportsFloat, SupportsIndex, Tuple

import numpy as np
import numpy.typing as npt

import patience_engine

from . import reference
from ._arrays import host_array
from ._errors import MissingExtraError
from ._shown import repr_text, type_text
from .games import REGISTRY, check_game_name
from .limits import MAX_DEAL, check_int, int_value
from .reference.vector import MAX_INT, episode_over, episode_settings

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError:
    raise MissingExtraError("patience_engine.envs needs Gymnasium: pip install 'patience-engine[rl]'") from None

ObsArray = npt.NDArray[np.uint8]

IMPLEMENTATIONS: Dict[str, ModuleType] = {"cpp": patience_engine, "reference": reference}
"""The module of each implementation by name, each with ``GAMES``, ``VectorGame`` and ``playouts``."""


def _implementation(impl: object) -> ModuleType:
    if not isinstance(impl, str) or impl not in IMPLEMENTATIONS:
        raise ValueError(f"impl must be 'cpp' or 'reference', got {repr_text(impl)}")
    return IMPLEMENTATIONS[impl]


def _check_render_mode(render_mode: object) -> None:
    if render_mode not in (None, "ansi"):
        raise ValueError(f"render_mode must be None or 'ansi', got {repr_text(render_mode)}")


def _spaces(game: str, flat: bool) -> Tuple[spaces.Box, spaces.Discrete]:
    cls = REGISTRY[game].reference
    shape = (math.prod(cls.OBSERVATION_SHAPE),) if flat else cls.OBSERVATION_SHAPE
    return spaces.Box(0, 1, shape=shape, dtype=np.uint8), spaces.Discrete(cls.NUM_ACTIONS)


def _check_flat(flat: object) -> bool:
    if not isinstance(flat, bool):
        raise TypeError(f"flat must be a bool, got {type_text(flat)}")
    return flat


class PatienceEnv(gymnasium.Env[ObsArray, SupportsIndex]):
    """One position of a game as a Gymnasium environment.

    ``game``: a registry name (``games.REGISTRY``, e.g. ``'royal-marriage'``).
    Observation: ``observation(hidden)`` as a uint8 array of ``OBSERVATION_SHAPE``
    (docs/rl.md "Observations"), or with ``flat=True`` the same values on one axis, shape
    ``(prod(OBSERVATION_SHAPE),)`` (for an MLP policy, such as SB3's ``"MlpPolicy"``); action: an int
    of ``Discrete(NUM_ACTIONS)`` (docs/rl.md "Actions"); reward: the change of ``score``;
    terminated when won or no legal move is left, truncated after ``max_moves`` moves (docs/rl.md
    "Episodes"). ``info["action_mask"]``: bool array of ``NUM_ACTIONS``; ``action_masks()`` gives
    the same values, the method sb3-contrib's MaskablePPO asks for (through Gymnasium's wrappers:
    ``env.get_wrapper_attr("action_masks")``). ``reset(seed=s)`` draws the deal from the seeded ``np_random``;
    ``options={"deal": n}`` plays deal ``n``. ``render()`` (``render_mode="ansi"``) gives the
    position's text, hidden like the observation. An illegal action (mask False) leaves the
    position as it is and ends the episode: reward 0, terminated, ``info["illegal_action"]``
    True; on a deal with no legal move (Geoffrey deal 787) any action ends the episode the same
    way without that flag. ``step`` raises ValueError outside the action space, TypeError for a non-int.
    ``num_threads`` is refused (ValueError): one position has nothing to split; it belongs to
    ``PatienceVectorEnv``, what ``make_vec(..., vectorization_mode="vector_entry_point")`` makes,
    while make_vec's "sync" and "async" modes make one ``PatienceEnv`` per slot.
    """

    metadata: Dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, game: str, *, hidden: bool = False, max_moves: Optional[int] = None,
                 render_mode: Optional[str] = None, impl: str = "cpp", num_threads: Optional[int] = None,
                 flat: bool = False) -> None:
        if num_threads is not None:
            raise ValueError("num_threads steps the slots of a batch on threads: only make_vec(..., "
                             "vectorization_mode='vector_entry_point') takes it; gymnasium.make and make_vec's "
                             "'sync' and 'async' modes make one PatienceEnv (one position) per slot")
        check_game_name(game)
        _check_render_mode(render_mode)
        module = _implementation(impl)
        self.game = game
        self.cls: Any = module.GAMES[game]
        self.max_moves, self.hidden = episode_settings(self.cls, max_moves, hidden)
        self.render_mode = render_mode
        self.flat = _check_flat(flat)
        self.observation_space, self.action_space = _spaces(game, flat)  # type: ignore[assignment]
        self.num_actions: int = self.cls.NUM_ACTIONS
        self.state: Any = None
        self.moves = 0

    def _observe(self) -> Tuple[ObsArray, Dict[str, Any]]:
        # A new mask each time: the caller owns it, and step() asks the position, not the mask.
        obs = np.asarray(self.state.observation(hidden=self.hidden), dtype=np.uint8)
        return obs.reshape(-1) if self.flat else obs, {"action_mask": self.action_masks()}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the position as a new bool array of ``NUM_ACTIONS``, as
        ``info["action_mask"]`` (sb3-contrib's convention); RuntimeError before ``reset()``."""
        if self.state is None:
            raise RuntimeError("call reset() first")
        return np.asarray(self.state.legal_action_mask(), dtype=bool)

    def reset(self, *, seed: Optional[int] = None,
              options: Optional[Dict[str, Any]] = None) -> Tuple[ObsArray, Dict[str, Any]]:
        """Deal a new position; returns ``(obs, info)``.

        ``options={"deal": n}`` plays numbered deal ``n`` (docs/rules.md "Numbered deals");
        otherwise the deal is drawn from ``np_random``, reproducible after ``seed``. Raises
        TypeError for options that are not a dict, ValueError for another option key and
        TypeError/ValueError for a bad deal number.
        """
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options must be a dict or None, got {type_text(options)}")
        super().reset(seed=seed)
        options = options or {}
        for key in options:
            if key != "deal":
                raise ValueError(f"unknown option {repr_text(key)}: the only one is 'deal'")
        if "deal" in options:
            deal = options["deal"]
        else:
            deal = int(self.np_random.integers(0, MAX_DEAL, dtype=np.uint64, endpoint=True))
        self.state = self.cls.deal(deal)
        self.moves = 0
        return self._observe()

    def step(self, action: SupportsIndex) -> Tuple[ObsArray, SupportsFloat, bool, bool, Dict[str, Any]]:
        """Play ``action`` (an int, a numpy integer, or a 0-d array of any library on the CPU); returns
        ``(obs, reward, terminated, truncated, info)`` (docs/rl.md "Episodes")."""
        if self.state is None:
            raise RuntimeError("call reset() first")
        if not isinstance(action, (int, np.generic)):
            # A 0-d array of another library (a torch tensor): read on the host, a GPU's refused by name.
            host = host_array(action, "action")
            if host is not None and host.ndim == 0:
                action = host[()]
        chosen = check_int(action, "action", 0, self.num_actions - 1, index=ValueError)
        if not self.state.is_legal(chosen):
            # An illegal action ends the episode as pgx's games do, so that any action of the
            # space can be stepped (Gymnasium's checker samples the space unmasked); it earns
            # nothing and forgoes the rest of the score.
            obs, info = self._observe()
            if not self.state.is_over:
                info["illegal_action"] = True
            return obs, 0.0, True, False, info
        before = self.state.score
        self.state.play(chosen)
        self.moves += 1
        terminated = episode_over(self.state)
        truncated = not terminated and self.moves >= self.max_moves
        obs, info = self._observe()
        return obs, float(self.state.score - before), terminated, truncated, info

    def render(self) -> Optional[str]:
        """The position's text (hidden like the observation) when ``render_mode="ansi"``, else None."""
        if self.render_mode != "ansi" or self.state is None:
            return None
        text: str = self.state.to_text(hidden=self.hidden)
        return text


class PatienceVectorEnv(VectorEnv[ObsArray, npt.NDArray[np.int64], npt.NDArray[np.uint8]]):
    """``num_envs`` positions of a game in one ``VectorGame``, as a Gymnasium vector environment.

    Spaces, rewards and flags as ``PatienceEnv``, batched: observations uint8
    ``(num_envs, *OBSERVATION_SHAPE)``, or ``(num_envs, prod(OBSERVATION_SHAPE))`` with
    ``flat=True`` (a view, no copy); rewards float32, flags bool; actions ``num_envs`` ints (a
    sequence or a CPU array of any library, as ``VectorGame.step`` takes them);
    ``info["action_mask"]`` and ``action_masks()`` are the VectorGame's ``action_masks`` (bool,
    ``(num_envs, NUM_ACTIONS)``) and ``info["_action_mask"]`` all True (bool, ``(num_envs,)``), the
    keys make_vec's "sync" and "async" modes give. Autoreset is NEXT_STEP: a slot whose last step
    ended ignores its action, and its mask row is the ended position's (all False when no move was
    left; docs/rl.md "Gymnasium" says what a policy should do). ``reset(seed=s)`` re-seeds the
    VectorGame's SplitMix64 generator (an int seed; it draws the deals, and the actions of
    ``vector.sample_legal_actions()``) and ``np_random`` as Gymnasium does;
    ``options={"deals": [...]}`` gives each slot's deal. ``max_episode_steps`` (what
    ``make_vec(..., max_episode_steps=n)`` passes) is ``max_moves`` under Gymnasium's name, a step
    being one move; ValueError when both are given and differ. ``step`` and ``reset`` are one call
    into the VectorGame each. With ``copy=False`` the C++ engine's arrays are returned as they
    are: views of its buffers that the next step overwrites (observations and masks read-only);
    the default copies them. Unlike ``PatienceEnv``, an illegal action in any slot raises
    ``IllegalMoveError`` naming the slot and the action, with no slot changed (the batch does
    not end an episode on one): draw actions from ``info["action_mask"]``, not from
    ``action_space.sample()``. ``render()`` (``render_mode="ansi"``) gives a tuple of every
    slot's text, hidden like the observations. ``num_threads`` is the VectorGame's: its slots
    stepped on that many threads (0: every core the process may use), the same results.
    """

    metadata: Dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": ["ansi"]}

    def __init__(self, game: str, num_envs: int = 1, *, hidden: bool = False, max_moves: Optional[int] = None,
                 impl: str = "cpp", copy: bool = True, max_episode_steps: Optional[int] = None,
                 render_mode: Optional[str] = None, num_threads: int = 1, flat: bool = False) -> None:
        check_game_name(game)
        _check_render_mode(render_mode)
        self.render_mode = render_mode
        if not isinstance(copy, bool):
            raise TypeError(f"copy must be a bool, got {type_text(copy)}")
        if max_episode_steps is not None:
            steps = check_int(max_episode_steps, "max_episode_steps", 1, MAX_INT)
            moves = steps if max_moves is None else check_int(max_moves, "max_moves", 1, MAX_INT)
            if moves != steps:
                raise ValueError(f"max_moves={moves} and max_episode_steps={steps} name one limit and differ: give one")
            max_moves = steps
        self.vector: Any = _implementation(impl).VectorGame(game, num_envs, max_moves=max_moves, hidden=hidden,
                                                            num_threads=num_threads)
        self.num_envs = num_envs
        self.copy = copy
        self.flat = _check_flat(flat)
        self.single_observation_space, self.single_action_space = _spaces(game, flat)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def _array(self, values: Any, dtype: Any) -> Any:
        return np.array(values, dtype=dtype) if self.copy else np.asarray(values, dtype=dtype)

    def _observations(self, obs: Any) -> ObsArray:
        array: ObsArray = self._array(obs, np.uint8)
        return array.reshape(self.num_envs, -1) if self.flat else array

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Each slot's legal actions, bool ``(num_envs, NUM_ACTIONS)``: ``info["action_mask"]`` of the
        last step (a copy unless ``copy=False``). RuntimeError before ``reset()``."""
        mask: npt.NDArray[np.bool_] = self._array(self.vector.action_masks, bool)
        return mask

    def _info(self) -> Dict[str, Any]:
        # "_action_mask" says which slots carry the key, as the "sync" and "async" modes' info does.
        return {"action_mask": self.action_masks(), "_action_mask": np.ones(self.num_envs, bool)}

    def reset(self, *, seed: Optional[int] = None,
              options: Optional[Dict[str, Any]] = None) -> Tuple[ObsArray, Dict[str, Any]]:
        """Deal into every slot (``VectorGame.reset``); returns ``(obs, info)``."""
        obs, _ = self.vector.reset(seed=seed, options=options)
        # np_random as Gymnasium seeds it, after VectorGame has checked the seed: Gymnasium's
        # seeding refuses a numpy int, which VectorGame takes.
        super().reset(seed=None if seed is None else int_value(seed))
        return self._observations(obs), self._info()

    def step(self, actions: npt.NDArray[np.int64]) -> Tuple[ObsArray, Any, Any, Any, Dict[str, Any]]:
        """Step every slot (``VectorGame.step``); returns ``(obs, reward, terminated, truncated, info)``."""
        obs, reward, terminated, truncated, _ = self.vector.step(actions)
        return (self._observations(obs), self._array(reward, np.float32), self._array(terminated, bool),
                self._array(truncated, bool), self._info())

    def render(self) -> Optional[Tuple[str, ...]]:
        """Every slot's text (hidden like the observations) when ``render_mode="ansi"``, else None;
        RuntimeError before ``reset()``."""
        if self.render_mode != "ansi":
            return None
        return tuple(self.vector.state(i).to_text(hidden=self.vector.hidden) for i in range(self.num_envs))


ENV_IDS: Dict[str, str] = {name: f"patience_engine/{info.class_name}-v0" for name, info in REGISTRY.items()}
"""The Gymnasium id of each game by its registry name, e.g. ``'patience_engine/Geoffrey-v0'``."""


def _creator(env_class: Callable[..., Any], game: str) -> Callable[..., Any]:
    """The entry point of ``game``'s id: ``env_class`` for that game. The game is not among the id's
    kwargs, which a caller's kwargs would silently override, so that a ``game`` the id
    contradicts can be refused."""

    def make(**kwargs: Any) -> Any:
        # A game that is no name (a class, say) or no game's name is told as such, not as another game.
        given = check_game_name(kwargs.pop("game", game))
        if given != game:
            other = f"; {ENV_IDS[given]} is that game's"
            raise ValueError(f"game={repr_text(given)} contradicts the id {ENV_IDS[game]}, whose game is "
                             f"{game!r}: leave game out{other}")
        return env_class(game, **kwargs)

    return make


for _name, _env_id in ENV_IDS.items():
    # Entry points are named in the module, not passed as functions, so that specs stay picklable and
    # printable: _RoyalMarriageEnv, _RoyalMarriageVectorEnv and so on.
    _single, _vector = f"_{REGISTRY[_name].class_name}Env", f"_{REGISTRY[_name].class_name}VectorEnv"
    globals()[_single], globals()[_vector] = _creator(PatienceEnv, _name), _creator(PatienceVectorEnv, _name)
    if _env_id not in gymnasium.registry:
        gymnasium.register(
            id=_env_id,
            entry_point=f"patience_engine.envs:{_single}",
            vector_entry_point=f"patience_engine.envs:{_vector}",
            kwargs={"hidden": REGISTRY[_name].hidden_cards},
        )
