"""The report of a survey database: the text ``patience report`` prints, and its plot."""

from __future__ import annotations

from typing import Dict, List, Sequence

from .._errors import MissingExtraError
from .._files import write_whole
from .._shown import repr_text
from ..games import REGISTRY
from .statistics import Comparison, Summary, wilson_interval
from .store import THOUGHTFUL, Row, Settings


def _comparison_lines(c: Comparison) -> List[str]:
    """The lines that set a blind survey beside the thoughtful solver on the same deals."""
    low, high = wilson_interval(c.thoughtful_won, c.deals)
    lines = [f"  on the {c.deals:,} of these deals the thoughtful solver settles: it won {c.thoughtful_won:,} "
             f"({100 * c.thoughtful_won / c.deals:.2f}%, 95% Wilson interval {100 * low:.2f}% - {100 * high:.2f}%), "
             f"the player {c.player_won:,} ({100 * c.player_won / c.deals:.2f}%)"]
    if c.thoughtful_won:
        share = c.player_won_of_thoughtful_won / c.thoughtful_won
        lines.append(f"  the player won {c.player_won_of_thoughtful_won:,} of the {c.thoughtful_won:,} deals "
                     f"the solver won ({100 * share:.2f}%)")
    if c.unsettled:
        lines.append(f"  {c.unsettled:,} of the player's deals have no settled thoughtful row and are left out of this")
    if c.contradictions:
        shown = ", ".join(str(d) for d in c.contradictions[:10])
        more = f" and {len(c.contradictions) - 10:,} more" if len(c.contradictions) > 10 else ""
        lines.append(f"  CONTRADICTION: the player won deals the solver proved lost (an engine fault): {shown}{more}")
    return lines


def format_report(summaries: Sequence[Summary], titles: Dict[str, str],
                  comparisons: Sequence[Comparison] = ()) -> str:
    """The text of ``patience report``: one block per summary; ``titles`` names the games; a blind
    survey's block ends with its comparison with the thoughtful solver, if ``comparisons`` has one."""
    beside = {c.settings: c for c in comparisons}
    blocks = []
    for s in summaries:
        head = f"{titles.get(s.game, s.game)}: engine {s.engine_version}, node limit {s.node_limit:,}, " \
               f"table {s.table_bytes:,} bytes"
        if s.threads != 1:
            head = f"{head}, {s.threads} threads per solve"
        if s.player != THOUGHTFUL:
            head = f"{head}, blind player {s.player} (won: won by the player; lost: not won by it)"
        lines = [head,
                 f"  deals {s.deals:,}  won {s.won:,}  lost {s.lost:,}  unknown {s.unknown:,}"]
        if s.winnability is not None and s.interval is not None:
            what = "winnability" if s.player == THOUGHTFUL else "win rate"
            lines.append(f"  {what} {100 * s.winnability:.2f}% (95% Wilson interval "
                         f"{100 * s.interval[0]:.2f}% - {100 * s.interval[1]:.2f}%) over {s.won + s.lost:,} resolved deals")
        else:
            lines.append("  winnability - (no resolved deal)")
        if s.unknown:
            # The unknown deals are the hard ones, not a random sample: the rate over resolved deals
            # can be far off, while these bounds over the deals surveyed are certain.
            lines.append(f"  won over all {s.deals:,} deals: {100 * s.won / s.deals:.2f}% (unknown as lost) - "
                         f"{100 * (s.won + s.unknown) / s.deals:.2f}% (unknown as won)")
        lines.append(f"  nodes    median {s.nodes_median:,.0f}  99th percentile {s.nodes_p99:,.0f}")
        lines.append(f"  seconds  median {s.seconds_median:.4f}  99th percentile {s.seconds_p99:.4f}")
        if s.game in REGISTRY and REGISTRY[s.game].played_for_score:
            lines.append(f"  score distribution (score: deals; {s.proven_scores:,} of {s.deals:,} proven best): "
                         + ", ".join(f"{score}: {n}" for score, n in s.scores))
        compared = beside.get((s.game, s.engine_version, s.node_limit, s.table_bytes, s.player, s.threads))
        if compared is not None:
            lines.extend(_comparison_lines(compared))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def plot(rows: Sequence[Row], path: str, titles: Dict[str, str]) -> None:
    """Draw to the PNG file ``path`` the nodes per deal and the winnability as deals accumulate.

    One curve per survey settings; ``titles`` names the games. Raises ``ValueError`` for a ``path``
    not ending in ``.png`` (matplotlib would add the ending to a bare name, or write another format),
    ``MissingExtraError`` without matplotlib (the ``plot`` extra), ``OSError`` if the file cannot be written.
    """
    if not path.lower().endswith(".png"):
        raise ValueError(f"the plot file must end in .png, got {repr_text(path)}")
    try:
        import numpy
        from matplotlib.figure import Figure
    except ImportError:
        raise MissingExtraError("--plot needs matplotlib: pip install 'patience-engine[plot]'") from None
    groups: Dict[Settings, List[Row]] = {}
    for row in rows:
        groups.setdefault(row.settings, []).append(row)
    figure = Figure(figsize=(12, 4.5), layout="constrained")
    nodes_axes, rate_axes = figure.subplots(1, 2)
    highest = max((r.nodes for r in rows), default=1)
    bins = numpy.geomspace(1, max(highest, 2), 50)
    for (game, version, limit, _, player, threads), group in sorted(groups.items()):
        label = f"{titles.get(game, game)} (limit {limit:,}, engine {version})"
        if threads != 1:
            label = f"{label}, {threads} threads"
        if player != THOUGHTFUL:
            label = f"{label}, {player}"
        nodes_axes.hist([max(r.nodes, 1) for r in group], bins=bins, histtype="step", label=label)
        resolved = [r for r in sorted(group, key=lambda r: r.deal) if r.status != "unknown"]
        if not resolved:
            continue
        won = numpy.cumsum([r.status == "won" for r in resolved])
        count = numpy.arange(1, len(resolved) + 1)
        bounds = numpy.array([wilson_interval(int(w), int(n)) for w, n in zip(won, count)])
        line, = rate_axes.plot(count, won / count, label=label)
        rate_axes.fill_between(count, bounds[:, 0], bounds[:, 1], color=line.get_color(), alpha=0.2)
    nodes_axes.set(xscale="log", xlabel="nodes per deal", ylabel="deals", title="Solver nodes per deal")
    rate_axes.set(xlabel="resolved deals, in deal order", ylabel="won / resolved", ylim=(0, 1),
                  title="Winnability as deals accumulate (band: 95% Wilson)")
    for axes in (nodes_axes, rate_axes):
        if axes.has_data():
            axes.legend(fontsize="small")
    write_whole(path, lambda name: figure.savefig(name, dpi=120, format="png"))
