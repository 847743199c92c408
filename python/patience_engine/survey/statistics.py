"""The figures of a survey: winnability with its Wilson interval, percentiles of effort, scores."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from .store import THOUGHTFUL, Row, Settings

Z_95 = statistics.NormalDist().inv_cdf(0.975)
"""The standard normal quantile of a two-sided 95% interval (1.95996...)."""


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> Tuple[float, float]:
    """The Wilson score interval of a binomial proportion, as (low, high) fractions in [0, 1].

    With p = successes / trials and n = trials, the bounds are
    (p + z²/2n ± z·sqrt(p(1 − p)/n + z²/4n²)) / (1 + z²/n).
    Source: E. B. Wilson, "Probable inference, the law of succession, and statistical inference",
    Journal of the American Statistical Association 22 (1927), 209-212; also R. G. Newcombe,
    "Two-sided confidence intervals for the single proportion: comparison of seven methods",
    Statistics in Medicine 17 (1998), 857-872, method 3. Raises ``ValueError`` if trials < 1 or
    successes is not in 0 .. trials.
    """
    if trials < 1 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials and trials >= 1, got {successes}/{trials}")
    p = successes / trials
    z2 = z * z
    centre = p + z2 / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    scale = 1 + z2 / trials
    return (max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0 <= q <= 100) of ``values``, interpolating linearly between ranks.

    Raises ``ValueError`` for no values or q out of range.
    """
    if not values or not 0 <= q <= 100:
        raise ValueError(f"need values and 0 <= q <= 100, got {len(values)} values, q={q}")
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


@dataclass(frozen=True)
class Summary:
    """The figures of one survey: the rows of one (game, engine version, node limit, table bytes, player, threads)."""

    game: str
    engine_version: str
    node_limit: int
    table_bytes: int
    player: str
    """``"thoughtful"`` for the solver, else a blind player's name (``patience_engine.players``)."""
    threads: int
    """Threads each solve ran on."""
    deals: int
    won: int
    lost: int
    unknown: int
    winnability: Optional[float]
    """won / (won + lost), or None when no deal is resolved."""
    interval: Optional[Tuple[float, float]]
    """95% Wilson score interval of the winnability, or None."""
    nodes_median: float
    nodes_p99: float
    seconds_median: float
    seconds_p99: float
    scores: Tuple[Tuple[int, int], ...]
    """(score, deals) pairs by score."""
    proven_scores: int
    """Deals whose score is proven the best there is."""


def summarize(rows: Sequence[Row]) -> List[Summary]:
    """One ``Summary`` per settings (game, engine version, node limit, table bytes, player, threads) in ``rows``."""
    groups: Dict[Settings, List[Row]] = {}
    for row in rows:
        groups.setdefault(row.settings, []).append(row)
    summaries = []
    for settings, group in sorted(groups.items()):
        counts = {status: sum(1 for r in group if r.status == status) for status in ("won", "lost", "unknown")}
        resolved = counts["won"] + counts["lost"]
        nodes = [r.nodes for r in group]
        seconds = [r.seconds for r in group]
        scores: Dict[int, int] = {}
        for r in group:
            scores[r.score] = scores.get(r.score, 0) + 1
        summaries.append(Summary(
            *settings, deals=len(group), won=counts["won"], lost=counts["lost"], unknown=counts["unknown"],
            winnability=counts["won"] / resolved if resolved else None,
            interval=wilson_interval(counts["won"], resolved) if resolved else None,
            nodes_median=statistics.median(nodes), nodes_p99=percentile(nodes, 99),
            seconds_median=statistics.median(seconds), seconds_p99=percentile(seconds, 99),
            scores=tuple(sorted(scores.items())), proven_scores=sum(1 for r in group if r.proven)))
    return summaries


@dataclass(frozen=True)
class Comparison:
    """A blind player's survey beside the thoughtful solver's verdicts on the same deals."""

    settings: Settings
    """The blind survey's (game, engine version, node limit, table bytes, player, threads)."""
    deals: int
    """Deals with a row of the player and a settled (won or proven lost) thoughtful row."""
    thoughtful_won: int
    """Of those, the deals the solver won."""
    player_won: int
    """Of those, the deals the player won."""
    player_won_of_thoughtful_won: int
    """Of the deals the solver won, those the player won too."""
    contradictions: Tuple[int, ...]
    """Deals the player won that the solver proved lost: never, unless the engine is at fault."""
    unsettled: int
    """Deals of the player's survey with no settled thoughtful row (left out of ``deals``)."""


def compare_with_thoughtful(rows: Sequence[Row]) -> List[Comparison]:
    """One ``Comparison`` per blind survey in ``rows`` for which thoughtful rows of the same game and
    engine version settle some of its deals (any node limit or threads; a deal won under one limit counts as won).

    A player can only win a deal the solver wins: a deal it won that the solver proved lost is a
    contradiction (an engine fault), listed in ``contradictions``.
    """
    settled: Dict[Tuple[str, str, int], bool] = {}
    for r in rows:
        if r.player == THOUGHTFUL and r.status != "unknown":
            key = (r.game, r.engine_version, r.deal)
            settled[key] = settled.get(key, False) or r.status == "won"
    blind: Dict[Settings, List[Row]] = {}
    for r in rows:
        if r.player != THOUGHTFUL:
            blind.setdefault(r.settings, []).append(r)
    comparisons = []
    for settings, group in sorted(blind.items()):
        pairs = [(r.deal, settled[key], r.status == "won") for r in group
                 if (key := (r.game, r.engine_version, r.deal)) in settled]
        if pairs:
            comparisons.append(Comparison(
                settings, len(pairs), sum(t for _, t, _ in pairs), sum(p for _, _, p in pairs),
                sum(t and p for _, t, p in pairs), tuple(d for d, t, p in pairs if p and not t),
                len(group) - len(pairs)))
    return comparisons


def contradict(a: Row, b: Row) -> bool:
    """Whether two rows of one deal cannot both be right: one won and the other lost (proven: no line
    wins), or both proven (the search ran to the end) with another score. An ``"unknown"`` left by a
    limit contradicts nothing, nor do wins of different scores not both proven.

    >>> row = Row("germaine", 7, "won", 61, 900, 0.1, "", False, "v", 1000, 0)
    >>> contradict(row, row._replace(status="unknown", score=40)), contradict(row, row._replace(status="lost"))
    (False, True)
    """
    if {a.status, b.status} == {"won", "lost"}:
        return True
    return a.proven and b.proven and (a.status, a.score) != (b.status, b.score)


@dataclass(frozen=True)
class Merged:
    """Rows read from several files, each (settings, deal) once."""

    rows: List[Row]
    """The first row of each (settings, deal), in the order read."""
    agreeing: int
    """Rows dropped as repeats that agree with the kept row: on one thread (a deterministic search) in every field
    but ``seconds``, on several in what a search that races cannot change (``contradict`` finds nothing)."""
    repeated_deals: int
    """Deals read more than once under the same settings; with three files a deal can repeat twice."""
    disagreeing: List[Tuple[Row, Row]]
    """(kept row, repeat) pairs that do not agree: one engine version computed two results for one deal,
    which the engine never does (a fault, or a file edited by hand)."""
    threads_compared: int = 0
    """Deals kept at more than one thread count under otherwise the same settings."""
    contradictions: List[Tuple[Row, Row]] = field(default_factory=list)
    """Pairs of those rows (fewer threads first) that ``contradict``: an engine fault."""


def merge_rows(rows: Sequence[Row]) -> Merged:
    """Keep one row per (settings, deal) of ``rows``; check every repeat against it, ``seconds`` aside,
    and the rows of one deal at other thread counts against each other.

    A survey run twice on one thread (in two files, locally and on a Dask cluster) must give the same
    rows. Several threads race, so their rows agree in verdicts only: a won against a lost, or two
    different proven scores, is a fault; a limit reached with one thread count and not another is not.
    """
    kept: Dict[Tuple[Settings, int], Row] = {}
    repeated: Set[Tuple[Settings, int]] = set()
    agreeing = 0
    disagreeing = []
    for row in rows:
        key = (row.settings, row.deal)
        first = kept.setdefault(key, row)
        if first is row:
            continue
        repeated.add(key)
        same = (first._replace(seconds=0.0) == row._replace(seconds=0.0) if row.threads == 1
                else not contradict(first, row))
        if same:
            agreeing += 1
        else:
            disagreeing.append((first, row))
    by_threads: Dict[Tuple[Any, ...], List[Row]] = {}
    for row in kept.values():
        by_threads.setdefault((*row.settings[:-1], row.deal), []).append(row)
    compared = [sorted(group, key=lambda r: r.threads) for group in by_threads.values() if len(group) > 1]
    contradictions = [(a, b) for group in compared for i, a in enumerate(group) for b in group[i + 1:]
                      if contradict(a, b)]
    return Merged(list(kept.values()), agreeing, len(repeated), disagreeing, len(compared), contradictions)
