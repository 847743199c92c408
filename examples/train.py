"""A learning baseline: MaskablePPO on random deals of one game, resumable, evaluated on held-out deals.

    python examples/train.py train --game royal-marriage --dir ~/runs/royal-marriage
    python examples/train.py evaluate --game royal-marriage --agent ppo --dir ~/runs/royal-marriage
    python examples/train.py evaluate --game royal-marriage --agent ppo-sampled --dir ~/runs/royal-marriage
    python examples/train.py evaluate --game royal-marriage --agent random --dir ~/runs/royal-marriage
    python examples/train.py evaluate --game royal-marriage --agent monte-carlo --dir ~/runs/royal-marriage --deals 200
    python examples/train.py plot --dir ~/runs/royal-marriage ~/runs/germaine ~/runs/geoffrey --out curves.png

``train`` trains sb3-contrib's MaskablePPO with its ``MlpPolicy`` on the flat observation
(``flat=True``, docs/rl.md "Which observation") of ``--envs`` environments, each dealt random deals
(numbers drawn from 0 .. 2**64-1: a held-out deal below comes up with probability 500 / 2**64 an
episode), for ``--steps`` environment steps in all (rounded up to whole rollouts of 256 steps per
environment). Geoffrey is played as its
player sees it (the hidden view). Every ``--checkpoint-every`` steps it writes ``model.zip``,
``run.json`` (settings, steps, wall time) and a line of ``curve.csv`` (steps, wall seconds, mean
episode score of the last 100 episodes) into ``--dir``, a folder outside this repository; run again
with the same ``--dir``, it resumes from the last checkpoint. Ctrl-C (exit 130) and SIGTERM (143)
write one first.

``evaluate`` plays deals ``--first`` .. ``--first + --deals - 1`` (default 1,000,001 .. 1,000,500)
with one agent (the trained policy, greedy among legal actions, or ``ppo-sampled``: drawing from its
distribution over them, seeded by the deal; the random agent or the flat
Monte-Carlo agent of ``examples/agents.py``, with its defaults) and prints the win rate with a 95%
Wilson interval and the mean final score with a 95% normal interval; ``--dir`` gets
``eval-<agent>.json``. ``plot`` draws ``curve.csv`` of each ``--dir``, with the mean scores of the
other agents' evaluations in it as lines.

Needs ``pip install torch==2.13.0 'patience-engine[train]'`` (sb3-contrib; torch first picks the CPU
build), and for ``plot`` the ``plot`` extra.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import signal
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

import patience_engine
from patience_engine.envs import ENV_IDS

sys.path.insert(0, str(Path(__file__).resolve().parent))
from agents import Agent, flat_monte_carlo, play, random_agent  # noqa: E402

REPOSITORY = Path(__file__).resolve().parents[1]

# One set of settings for every game, chosen before any run (not tuned per game).
HYPERPARAMETERS: Dict[str, Any] = dict(n_steps=256, batch_size=256, n_epochs=4, learning_rate=3e-4, gamma=0.99,
                                       gae_lambda=0.95, ent_coef=0.01, clip_range=0.2)
NET_ARCH = [256, 256]


def run_dir(text: str) -> Path:
    """An argparse type: a folder outside this repository (checkpoints are no source)."""
    path = Path(text).expanduser().resolve()
    if path == REPOSITORY or REPOSITORY in path.parents:
        raise argparse.ArgumentTypeError(f"{text} is inside the repository {REPOSITORY}: keep runs outside it")
    return path


def write_atomically(path: Path, write: Callable[[Path], None]) -> None:
    """Write ``path`` whole or not at all: a kill while writing leaves the previous one."""
    partial = path.with_name(path.name + ".partial")
    write(partial)
    os.replace(partial, path)


class Stopped(Exception):
    """SIGTERM, taken as Ctrl-C: checkpoint, then stop."""


def train(args: argparse.Namespace) -> None:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.env_util import make_vec_env

    torch.set_num_threads(args.threads)
    args.dir.mkdir(parents=True, exist_ok=True)
    model_path, meta_path, curve_path = args.dir / "model.zip", args.dir / "run.json", args.dir / "curve.csv"
    meta: Dict[str, Any] = json.loads(meta_path.read_text()) if meta_path.exists() else {}
    if meta and meta["game"] != args.game:
        sys.exit(f"{args.dir} holds a run of {meta['game']}, not {args.game}")
    done = meta.get("steps", 0)
    if done >= args.steps:
        print(f"{args.dir}: {done:,} steps done, the budget is {args.steps:,}")
        return
    # Seeded by the steps done, so that a resumed run does not deal the same deals again. make_vec_env
    # asks for render_mode "rgb_array" unless told otherwise, which the environments do not draw.
    envs = make_vec_env(ENV_IDS[args.game], n_envs=args.envs, seed=args.seed * 1_000_003 + done,
                        env_kwargs={"flat": True, "render_mode": None})
    if model_path.exists():
        model = MaskablePPO.load(model_path, env=envs, device="cpu")
    else:
        model = MaskablePPO("MlpPolicy", envs, seed=args.seed, device="cpu", verbose=0,
                            policy_kwargs={"net_arch": NET_ARCH}, **HYPERPARAMETERS)
        meta = {"game": args.game, "seed": args.seed, "envs": args.envs, "hyperparameters": HYPERPARAMETERS,
                "net_arch": NET_ARCH, "steps": 0, "seconds": 0.0, "torch": torch.__version__,
                "patience_engine": patience_engine.__version__}
    start, seconds_before = time.monotonic(), meta["seconds"]

    def checkpoint() -> None:
        meta["steps"], meta["seconds"] = int(model.num_timesteps), seconds_before + time.monotonic() - start
        write_atomically(model_path, model.save)
        write_atomically(meta_path, lambda path: path.write_text(json.dumps(meta, indent=1) + "\n"))
        scores = [info["r"] for info in model.ep_info_buffer]
        with open(curve_path, "a", newline="") as handle:
            csv.writer(handle).writerow([meta["steps"], round(meta["seconds"], 1),
                                         round(statistics.fmean(scores), 3) if scores else "", len(scores)])
        print(f"{meta['steps']:,} steps, {meta['seconds']:.0f} s, mean score of the last {len(scores)} episodes "
              f"{statistics.fmean(scores) if scores else float('nan'):.2f}", flush=True)

    class Checkpoints(BaseCallback):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.next = (model.num_timesteps // args.checkpoint_every + 1) * args.checkpoint_every

        def _on_step(self) -> bool:
            if self.num_timesteps >= self.next:
                checkpoint()
                self.next += args.checkpoint_every
            return True

    def stop(signum: int, frame: object) -> None:
        raise Stopped

    signal.signal(signal.SIGTERM, stop)
    try:
        model.learn(total_timesteps=args.steps - done, callback=Checkpoints(), reset_num_timesteps=False)
    except (KeyboardInterrupt, Stopped) as stop:
        checkpoint()
        print("stopped: run again with the same --dir to resume", file=sys.stderr)
        sys.exit(143 if isinstance(stop, Stopped) else 130)  # as the patience command exits
    if model.num_timesteps != meta["steps"]:  # the budget is no multiple of --checkpoint-every
        checkpoint()


def ppo_agent(model_path: Path, hidden: bool, sampled: bool) -> Agent:
    """The trained policy among the legal actions: greedy (its most likely action), or ``sampled``
    from its distribution, as in training, with a generator seeded by the deal and the moves left, so
    that an evaluation repeats."""
    import numpy
    import torch
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(model_path, device="cpu")

    def choose(state: Any, moves_left: int, seed: int) -> int:
        obs = state.observation(hidden=hidden).reshape(-1)
        mask = state.legal_action_mask()
        if not sampled:
            action, _ = model.predict(obs, action_masks=mask, deterministic=True)
            return int(action)
        tensor, _ = model.policy.obs_to_tensor(obs)
        with torch.no_grad():
            probs = model.policy.get_distribution(tensor, action_masks=mask).distribution.probs[0].numpy()
        probs = probs.astype(numpy.float64) * mask
        return int(numpy.random.default_rng([seed, moves_left]).choice(len(probs), p=probs / probs.sum()))

    return choose


def wilson(won: int, n: int, z: float = 1.96) -> List[float]:
    """The 95% Wilson score interval of a proportion ``won / n``."""
    p = won / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [centre - half, centre + half]


def evaluate(args: argparse.Namespace) -> None:
    import torch

    torch.set_num_threads(args.threads)
    cls = patience_engine.GAMES[args.game]
    hidden = patience_engine.games.REGISTRY[args.game].hidden_cards
    agent: Agent
    if args.agent in ("ppo", "ppo-sampled"):
        agent = ppo_agent(args.dir / "model.zip", hidden, sampled=args.agent == "ppo-sampled")
    elif args.agent == "random":
        agent = random_agent
    else:
        agent = flat_monte_carlo(patience_engine, 200, 10)
    deals = range(args.first, args.first + args.deals)
    start = time.monotonic()
    finals = [play(cls.deal(deal), agent, cls.DEFAULT_MAX_MOVES, deal) for deal in deals]
    seconds = time.monotonic() - start
    scores = [float(state.score) for state in finals]
    won = sum(bool(state.is_won) for state in finals)
    mean = statistics.fmean(scores)
    half = 1.96 * (statistics.stdev(scores) if len(scores) > 1 else 0.0) / math.sqrt(len(scores))
    result = {"game": args.game, "agent": args.agent, "deals": [deals.start, deals.stop - 1], "won": won,
              "win_rate": won / len(finals), "win_rate_95": wilson(won, len(finals)), "mean_score": mean,
              "mean_score_95": [mean - half, mean + half], "seconds": round(seconds, 1)}
    if args.agent in ("ppo", "ppo-sampled"):
        result["steps"] = json.loads((args.dir / "run.json").read_text())["steps"]
    args.dir.mkdir(parents=True, exist_ok=True)
    write_atomically(args.dir / f"eval-{args.agent}.json", lambda path: path.write_text(json.dumps(result, indent=1) + "\n"))
    low, high = result["win_rate_95"]
    print(f"| {args.game} | {args.agent} | {len(finals)} | {won} | {won / len(finals):.1%} ({low:.1%}-{high:.1%}) "
          f"| {mean:.2f} ± {half:.2f} | {seconds:.0f} |")


def plot(args: argparse.Namespace) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, len(args.dir), figsize=(4.5 * len(args.dir), 3.5), squeeze=False)
    for axis, folder in zip(axes[0], args.dir):
        meta = json.loads((folder / "run.json").read_text())
        with open(folder / "curve.csv", newline="") as handle:
            rows = [row for row in csv.reader(handle) if row[2]]
        axis.plot([int(row[0]) / 1e6 for row in rows], [float(row[2]) for row in rows], label="PPO, training episodes")
        for agent, style in (("random", "--"), ("monte-carlo", ":")):
            if (folder / f"eval-{agent}.json").exists():
                score = json.loads((folder / f"eval-{agent}.json").read_text())["mean_score"]
                axis.axhline(score, linestyle=style, color="grey", label=f"{agent} agent, held-out deals")
        axis.set_title(patience_engine.games.TITLES[meta["game"]])
        axis.set_xlabel("environment steps (millions)")
        axis.set_ylabel("mean score (PPO: last 100 episodes)")
        axis.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(args.out, dpi=100)


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="command", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    tr = sub.add_parser("train", parents=[common], help="train, or resume, a run")
    tr.add_argument("--game", choices=list(ENV_IDS), required=True)
    tr.add_argument("--dir", type=run_dir, required=True, help="the run's folder, outside this repository")
    tr.add_argument("--steps", type=int, default=1_000_000, help="environment steps in all (default 1,000,000)")
    tr.add_argument("--envs", type=int, default=8, help="environments stepped together (default 8)")
    tr.add_argument("--seed", type=int, default=0)
    tr.add_argument("--checkpoint-every", type=int, default=50_000, help="steps between checkpoints (default 50,000)")
    tr.set_defaults(func=train)
    ev = sub.add_parser("evaluate", parents=[common], help="play held-out deals with one agent")
    ev.add_argument("--game", choices=list(ENV_IDS), required=True)
    ev.add_argument("--agent", choices=["ppo", "ppo-sampled", "random", "monte-carlo"], required=True)
    ev.add_argument("--dir", type=run_dir, required=True, help="the run's folder (its model for ppo; the results)")
    ev.add_argument("--first", type=int, default=1_000_001, help="the first deal (default 1,000,001)")
    ev.add_argument("--deals", type=int, default=500, help="deals played (default 500)")
    ev.set_defaults(func=evaluate)
    pl = sub.add_parser("plot", help="learning curves of runs")
    pl.add_argument("--dir", type=run_dir, nargs="+", required=True)
    pl.add_argument("--out", required=True, help="the PNG file")
    pl.set_defaults(func=plot)
    args = parser.parse_args(argv)
    args.func(args)


if __name__ == "__main__":
    main()
