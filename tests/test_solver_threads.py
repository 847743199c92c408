"""One position solved on several threads: the same verdicts and best scores as one thread.

A solve that runs to the end gives one thread's status and Germaine's best score at 1, 2, 3 and 7
threads, on the pinned positions and on deals 1-200 of every game, and every line it gives replays
in the reference; a node limit counts the nodes of every thread; an error in the progress callback
stops every thread, with what they found, as Ctrl-C does (tests/test_solver.py; docs/solver.md
"Threads").
"""

from __future__ import annotations

import threading
import time
from typing import Any, Dict, List, Tuple

import pytest

import patience_engine
from conftest import GAME_NAMES, SMALL_GERMAINE_SEEDS, game_cases, game_data, small_germaine
from patience_engine import Solution, reference, solve
from patience_engine.games import REGISTRY

THREADS = [1, 2, 3, 7]
KNOWN = game_cases("KNOWN_VERDICTS")
HARD_GERMAINE_DEAL = game_data("germaine").HARD_DEAL
GERMAINE_LIMIT = 100_000
"""Nodes one thread solves a Germaine deal of 1-200 under: most (127) reach a proven score within it (a perfect
64 ends the search), and are then solved on threads with no limit, to the same verdict and score; the rest, some
of which take minutes, are solved on threads under the same limit, where the results only have to agree."""
FAST_GAMES = [game for game in GAME_NAMES if not REGISTRY[game].played_for_score]
"""The games whose deals 1-200 are each solved to the end in well under a second: all but Germaine."""


def position(game: str, spec: Any, impl: Dict[str, Any] = patience_engine.GAMES) -> Any:
    cls = impl[game]
    return cls.deal(spec) if isinstance(spec, int) else cls.from_text(spec)


def check_line(game: str, spec: Any, solution: Solution) -> None:
    """The solution's line replays in the reference to its score, and to a win exactly when it is won."""
    state = position(game, spec, reference.GAMES)
    for move in solution.moves:
        state.play(str(move))
    assert state.score == solution.score and state.is_won == (solution.status == "won"), (game, spec)


def settled(solution: Solution) -> Tuple[str, int, bool]:
    """What a search that ran to the end must repeat at any thread count: status, score, proven."""
    return solution.status, solution.score, solution.proven


def agree(one: Solution, many: Solution) -> bool:
    """Whether two solves of one position under the same limit can both be right: when both ran to the
    end, the same status and score; else no win against a proven loss, and no score above a proven best."""
    if one.proven and many.proven:
        return settled(one) == settled(many)
    if {one.status, many.status} == {"won", "lost"}:
        return False
    proven = one if one.proven else many if many.proven else None
    return proven is None or max(one.score, many.score) <= proven.score


@pytest.mark.parametrize("game,spec,status", KNOWN)
def test_known_verdicts_at_every_thread_count(game: str, spec: Any, status: str) -> None:
    for pruning in (True, False):
        for threads in THREADS:
            solution = solve(position(game, spec), pruning=pruning, num_threads=threads)
            assert solution.status == status and solution.proven, (pruning, threads)
            check_line(game, spec, solution)


@pytest.mark.parametrize("seed", SMALL_GERMAINE_SEEDS)
def test_germaine_best_scores_at_every_thread_count(seed: int) -> None:
    """tests/test_solver.py checks one thread's best score against an exhaustive search."""
    text = small_germaine(seed)
    one = solve(patience_engine.Germaine.from_text(text), table_bytes=1 << 20)
    assert one.proven
    for threads in THREADS[1:]:
        many = solve(patience_engine.Germaine.from_text(text), table_bytes=1 << 20, num_threads=threads)
        assert settled(many) == settled(one), threads
        check_line("germaine", text, many)


@pytest.mark.parametrize("game", FAST_GAMES)
def test_deals_1_to_200_have_one_verdict_at_every_thread_count(game: str) -> None:
    for deal in range(1, 201):
        one = solve(patience_engine.GAMES[game].deal(deal))
        assert one.proven, deal
        for threads in THREADS[1:]:
            many = solve(patience_engine.GAMES[game].deal(deal), num_threads=threads)
            assert settled(many) == settled(one), (deal, threads)
            check_line(game, deal, many)


@pytest.mark.parametrize("deals", [range(1, 101), range(101, 201)], ids=["1-100", "101-200"])
def test_germaine_deals_1_to_200_agree_at_every_thread_count(deals: range) -> None:
    proven = 0
    for deal in deals:
        one = solve(patience_engine.Germaine.deal(deal), node_limit=GERMAINE_LIMIT)
        proven += one.proven
        for threads in THREADS[1:]:
            if one.proven:
                many = solve(patience_engine.Germaine.deal(deal), num_threads=threads)
                assert settled(many) == settled(one), (deal, threads)
            else:
                many = solve(patience_engine.Germaine.deal(deal), node_limit=GERMAINE_LIMIT, num_threads=threads)
                assert agree(one, many), (deal, threads, settled(one), settled(many))
                assert many.nodes <= GERMAINE_LIMIT
            check_line("germaine", deal, many)
    assert proven > len(deals) // 2, "most deals must be settled for the test to compare verdicts"


@pytest.mark.parametrize("threads", THREADS[1:])
def test_a_node_limit_counts_the_nodes_of_every_thread(threads: int) -> None:
    # 20,011 nodes split unevenly: the threads stop at exactly the limit between them.
    solution = solve(patience_engine.Germaine.deal(HARD_GERMAINE_DEAL), node_limit=20_011, num_threads=threads)
    assert solution.status == "unknown" and not solution.proven and solution.nodes == 20_011
    check_line("germaine", HARD_GERMAINE_DEAL, solution)
    # Fewer nodes than threads: a thread per node.
    solution = solve(patience_engine.Geoffrey.deal(1), node_limit=2, num_threads=threads)
    assert solution.status == "unknown" and solution.nodes == 2


def test_a_time_limit_stops_every_thread() -> None:
    start = time.perf_counter()
    solution = solve(patience_engine.Germaine.deal(HARD_GERMAINE_DEAL), time_limit=0.2, num_threads=3)
    assert solution.status == "unknown" and time.perf_counter() - start < 2
    check_line("germaine", HARD_GERMAINE_DEAL, solution)


def test_progress_reports_every_thread_once_on_the_calling_thread() -> None:
    caller = threading.get_ident()
    reports: List[Tuple[int, int, int]] = []

    def progress(nodes: int, best_score: int) -> None:
        reports.append((nodes, best_score, threading.get_ident()))

    solution = solve(patience_engine.Germaine.deal(HARD_GERMAINE_DEAL), node_limit=3_000_000, progress=progress,
                     num_threads=2)
    assert reports and {ident for _, _, ident in reports} == {caller}
    nodes = [n for n, _, _ in reports]
    assert nodes == sorted(nodes) and nodes[-1] <= solution.nodes
    assert all(best <= solution.score for _, best, _ in reports)


def test_an_error_in_the_progress_callback_stops_every_thread_with_what_they_found() -> None:
    def progress(nodes: int, best_score: int) -> None:
        if nodes > 1_000_000:
            raise KeyboardInterrupt

    start = time.perf_counter()
    with pytest.raises(KeyboardInterrupt) as stopped:
        solve(patience_engine.Germaine.deal(HARD_GERMAINE_DEAL), progress=progress, num_threads=2)
    assert time.perf_counter() - start < 60
    found = stopped.value.solution  # type: ignore[attr-defined]
    assert found.status == "unknown" and found.nodes > 1_000_000 and found.score > 26
    check_line("germaine", HARD_GERMAINE_DEAL, found)

    class Refused(Exception):
        pass

    def refuse(nodes: int, best_score: int) -> None:
        raise Refused("no")

    with pytest.raises(Refused, match="^no$"):
        solve(patience_engine.Germaine.deal(HARD_GERMAINE_DEAL), progress=refuse, num_threads=3)


@pytest.mark.timing
def test_the_time_limit_stops_more_threads_than_cores_within_a_second() -> None:
    # Each member read the clock only at its own polls: 1,024 threads on 2 cores ran 17.7 s past a
    # 0.5 s limit, 512 some 8 s. The first member past the limit now ends them all.
    start = time.perf_counter()
    solution = solve(patience_engine.Germaine.deal(HARD_GERMAINE_DEAL), time_limit=0.3, num_threads=512)
    assert time.perf_counter() - start < 1.3 and solution.status in ("won", "unknown")


@pytest.mark.timing
@pytest.mark.parametrize("threads", [2, 7])
def test_an_error_in_the_progress_callback_stops_every_thread_within_a_second(threads: int) -> None:
    raised: List[float] = []

    def progress(nodes: int, best_score: int) -> None:
        if nodes > 200_000:
            raised.append(time.perf_counter())
            raise ValueError("enough")

    with pytest.raises(ValueError, match="^enough$"):
        solve(patience_engine.Germaine.deal(HARD_GERMAINE_DEAL), progress=progress, num_threads=threads)
    assert len(raised) == 1 and time.perf_counter() - raised[0] < 1.0


def test_every_core_is_zero_threads() -> None:
    solution = solve(patience_engine.Geoffrey.deal(6), num_threads=0)
    assert settled(solution) == settled(solve(patience_engine.Geoffrey.deal(6)))


def test_a_threaded_solve_leaves_the_position_and_the_next_solve_alone() -> None:
    state = patience_engine.Germaine.deal(2)
    before = state.to_text()
    solve(state, node_limit=50_000, num_threads=3)
    assert state.to_text() == before and state.move_stack == []
    # The table is cleared when a solve ends: the next one on one thread is today's, node for node.
    assert solve(state, node_limit=20_000).nodes == solve(state, node_limit=20_000).nodes
    runs = [solve(patience_engine.Germaine.deal(11), node_limit=20_000) for _ in range(2)]
    solve(patience_engine.Germaine.deal(11), node_limit=20_000, num_threads=2)
    assert solve(patience_engine.Germaine.deal(11), node_limit=20_000).text == runs[0].text == runs[1].text
