"""Two agents for every game: random play, and flat Monte-Carlo over ``playouts``.

The flat Monte-Carlo agent scores each legal move by the mean final score of
``--playouts`` random games after it and plays the best (docs/rl.md "Agents").
It plays fair: the playouts run on determinizations of the position
(``determinize(seed)``, docs/rl.md "Determinization"), so Geoffrey's face-down
cards are guessed, never read; for the other games a determinization is a copy.

    python examples/agents.py --game geoffrey --deals 100 --playouts 200

prints, per game and agent, the deals played, the deals won, the win rate and
the mean final score, with a progress bar over the deals on a terminal.
``--impl reference`` runs the pure-Python reference (slow: fit for a deal or
two with a few playouts).
"""

from __future__ import annotations

import argparse
import random
import time
from types import ModuleType
from typing import Any, Callable, List, Optional, Sequence

import numpy as np
from tqdm import tqdm

import patience_engine
from patience_engine import reference

IMPLEMENTATIONS = {"cpp": patience_engine, "reference": reference}
Agent = Callable[[Any, int, int], int]
"""An agent: (position, moves left before truncation, seed) -> the action it plays."""


def random_agent(state: Any, moves_left: int, seed: int) -> int:
    """A uniformly random legal action."""
    legal = state.legal_actions()
    return int(legal[random.Random(seed).randrange(len(legal))])


def flat_monte_carlo(module: ModuleType, playouts: int, determinizations: int) -> Agent:
    """The agent that plays the legal action with the best mean score over ``playouts`` playouts after it.

    The playouts of each action are shared out as evenly as they go over ``determinizations``
    determinizations of the position (as many as there are playouts, if fewer), the same ones for
    every action (common random numbers), each followed by ``module.playouts`` with at most
    ``moves_left - 1`` moves. Ties go to the lowest action.
    """
    # World k's share of an action's playouts: playouts // determinizations, one more for the first
    # playouts % determinizations worlds; a world with no share is not made.
    shares = [playouts // determinizations + (k < playouts % determinizations) for k in range(determinizations)]
    shares = [share for share in shares if share]

    def choose(state: Any, moves_left: int, seed: int) -> int:
        worlds = [state.determinize((seed + k) % 2**64) for k in range(len(shares))]
        best_action, best_mean = -1, -1.0
        for action in state.legal_actions():
            scores: List[Any] = []
            for k, world in enumerate(worlds):
                child = world.copy()
                child.play(int(action))
                if moves_left > 1:
                    scores.append(module.playouts(child, shares[k], seed=(seed + k) % 2**64, max_moves=moves_left - 1))
                else:
                    scores.append([child.score])
            mean = float(np.mean(np.concatenate(scores)))
            if mean > best_mean:
                best_action, best_mean = int(action), mean
        return best_action

    return choose


def play(state: Any, agent: Agent, max_moves: int, seed: int) -> Any:
    """Play ``state`` with ``agent`` until no move is left or ``max_moves`` moves; returns the final position."""
    for ply in range(max_moves):
        if state.is_over:
            break
        state.play(agent(state, max_moves - ply, (seed * 1_000_003 + ply) % 2**64))
    return state


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--game", choices=[*reference.GAMES, "all"], default="all")
    parser.add_argument("--deals", type=int, default=100, help="deals 1 .. DEALS are played (default 100)")
    parser.add_argument("--playouts", type=int, default=200, help="playouts per legal move (default 200)")
    parser.add_argument("--determinizations", type=int, default=10,
                        help="determinizations the playouts of a move are shared out over (default 10)")
    parser.add_argument("--impl", choices=list(IMPLEMENTATIONS), default="cpp")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.playouts < 1 or args.determinizations < 1:
        parser.error("--deals, --playouts and --determinizations must be >= 1")
    module = IMPLEMENTATIONS[args.impl]
    agents = {"random": random_agent, "flat Monte-Carlo": flat_monte_carlo(module, args.playouts, args.determinizations)}
    games = list(reference.GAMES) if args.game == "all" else [args.game]
    print("| game | agent | deals | won | win rate | mean score | seconds |")
    print("|---|---|---|---|---|---|---|")
    for game in games:
        cls = module.GAMES[game]
        for name, agent in agents.items():
            start = time.perf_counter()
            # A bar on stderr only when it is a terminal (disable=None), so the table stays clean.
            deals = tqdm(range(1, args.deals + 1), desc=f"{game}, {name}", unit="deal", leave=False, disable=None)
            finals = [play(cls.deal(deal), agent, cls.DEFAULT_MAX_MOVES, deal) for deal in deals]
            won = sum(bool(state.is_won) for state in finals)
            mean = sum(state.score for state in finals) / len(finals)
            print(f"| {game} | {name} | {len(finals)} | {won} | {won / len(finals):.0%} | {mean:.2f} "
                  f"| {time.perf_counter() - start:.1f} |")


if __name__ == "__main__":
    main()
