"""The blind Geoffrey players: they see only what a player sees, and what they report is true."""

from __future__ import annotations

import os
import pickle
import sqlite3
from pathlib import Path
from typing import Any, List, Optional, Tuple

import pytest

from patience_engine import Geoffrey, Germaine, reference, solve, survey
from patience_engine.cli import main
from patience_engine.players import (
    BaselinePlayer,
    HindsightPlayer,
    PlayedGame,
    View,
    _baseline_order,
    check_on_reference,
    play_game,
)

# Every card home but these five: KC on the face-down QS, JS on QC, KS alone.
ENDGAME = """Foundations: C-J D-K H-K S-T
(QS) KC
QC JS
KS
-
-
-
-
-"""

# Nothing can go home; KC lies on the face-down QS.
TURN_UP = """Foundations: C-T D-K H-K S-T
(QS) KC
JS QC
JC KS
-
-
-
-
-"""

FAST = dict(determinizations=4, node_limit=20_000, table_bytes=1 << 20)


def first_moves_until_a_card_turns_up(state: Geoffrey, player: Any) -> Tuple[List[str], int]:
    """The moves ``player`` makes from ``state`` up to the first that turns a card up (included),
    and how many of them were choices among two or more useful moves."""
    position = state.copy()
    player.new_game(position)
    moves: List[str] = []
    choices = 0
    while True:
        view = View(position)
        choices += len(_baseline_order(view, position.legal_moves())) > 1
        move = player.choose(position)
        if move is None:
            return moves, choices
        moves.append(str(move))
        turned = view.turns_up(move)
        position.play(move)
        player.played(position, move)
        if turned:
            return moves, choices


class Peeking:
    """A player that reads the face-down cards: plays the thoughtful solver's line. The test
    below must tell it apart from the blind players."""

    def new_game(self, state: Geoffrey) -> None:
        pass

    def choose(self, state: Geoffrey) -> Optional[Any]:
        solution = solve(state, node_limit=20_000, table_bytes=1 << 20)
        return solution.moves[0] if solution.moves else BaselinePlayer().choose(state)

    def played(self, state: Geoffrey, move: Any) -> None:
        pass


def swapped(state: Geoffrey, seed: int) -> Geoffrey:
    """``state`` with its face-down cards dealt again: the same view, other hidden cards."""
    other = state.determinize(seed)
    assert other.to_text(hidden=True) == state.to_text(hidden=True)
    assert other.to_text() != state.to_text()
    return other


def test_the_players_choices_depend_only_on_what_they_have_seen() -> None:
    deals = range(1, 13)
    choices = 0
    peeking_differs = False
    for deal in deals:
        state = Geoffrey.deal(deal)
        for seed in (7, 8):
            other = swapped(state, seed)
            for player in (HindsightPlayer(seed=3, **FAST), BaselinePlayer()):
                mine, made = first_moves_until_a_card_turns_up(state, player)
                theirs, _ = first_moves_until_a_card_turns_up(other, player)
                assert mine == theirs, (deal, seed, player.name)
                choices += made
            peeking_differs |= (first_moves_until_a_card_turns_up(state, Peeking())[0]
                                != first_moves_until_a_card_turns_up(other, Peeking())[0])
    assert choices >= 20, "the deals gave the players too few real choices to test"
    assert peeking_differs, "a player that reads the face-down cards must fail this test"


def test_a_fixed_seed_plays_the_same_game() -> None:
    state = Geoffrey.deal(4)
    player = HindsightPlayer(seed=5, **FAST)
    first = play_game(state, player)
    copied = pickle.loads(pickle.dumps(player))  # as a survey sends it to its workers, mid-game state dropped
    assert copied == HindsightPlayer(seed=5, **FAST)
    for again in (play_game(state, HindsightPlayer(seed=5, **FAST)), play_game(state, copied)):
        assert (first.moves, first.won, first.nodes) == (again.moves, again.won, again.nodes)
    assert state.to_text() == Geoffrey.deal(4).to_text(), "play_game leaves its state alone"


def test_with_nothing_hidden_the_hindsight_player_wins_what_the_solver_wins() -> None:
    checked = won = 0
    for deal in range(1, 31):
        text = Geoffrey.deal(deal).to_text().replace("(", "").replace(")", "")
        state = Geoffrey.from_text(text)
        verdict = solve(state, node_limit=100_000, table_bytes=1 << 22).status
        if verdict == "unknown":
            continue
        played = play_game(state, HindsightPlayer(node_limit=100_000, table_bytes=1 << 22))
        assert played.won == (verdict == "won"), deal
        checked += 1
        won += played.won
    assert checked >= 20 and won > 0


def test_the_baseline_sends_home_then_turns_up_then_moves_and_never_idles() -> None:
    state = Geoffrey.from_text(ENDGAME)
    view = View(state)
    legal = [str(m) for m in state.legal_moves()]
    # By hand: JS home; KC to any of the five empty columns (turning QS up); QC onto KC;
    # KS, already at the bottom of its column, to another empty column (idle).
    assert legal == ["1:KC>4", "1:KC>5", "1:KC>6", "1:KC>7", "1:KC>8", "2:QC>1", "2:JS>F",
                     "3:KS>4", "3:KS>5", "3:KS>6", "3:KS>7", "3:KS>8"]
    assert [view.turns_up(m) for m in state.legal_moves()][:6] == [True] * 5 + [False]
    assert [view.idle(m) for m in state.legal_moves()] == [False] * 7 + [True] * 5
    assert str(BaselinePlayer().choose(state)) == "2:JS>F"
    # No card can go home: KC to an empty column turns QS up, before QC onto KC or KS to an empty column.
    state = Geoffrey.from_text(TURN_UP)
    assert not any(m.to_foundation for m in state.legal_moves())
    assert str(BaselinePlayer().choose(state)) == "1:KC>4"
    state.play("1:KC>4")
    assert BaselinePlayer().choose(state) is not None


def test_every_game_ends_and_won_lines_replay_on_the_reference() -> None:
    for deal in range(1, 9):
        state = Geoffrey.deal(deal)
        for player in (HindsightPlayer(**FAST), BaselinePlayer()):
            played = play_game(state, player)
            assert len(played.moves) < 1000
            check_on_reference(state, played)
            position = state.copy()
            for move in played.moves:
                position.play(move)
            assert (position.is_won, position.score) == (played.won, played.score)


def test_a_false_report_fails_the_reference_check() -> None:
    state = Geoffrey.deal(1)
    played = play_game(state, BaselinePlayer())
    assert not played.won
    forged = PlayedGame(played.moves, True, 52, 0, 0.0)
    with pytest.raises(RuntimeError, match="the reference ends the line"):
        check_on_reference(state, forged)


@pytest.mark.parametrize("options, error, message", [
    (dict(determinizations=0), ValueError, "determinizations"),
    (dict(determinizations=2.0), TypeError, "determinizations"),
    (dict(determinizations=(1 << 20) + 1), ValueError, "determinizations"),
    (dict(node_limit=0), ValueError, "node limit"),
    (dict(node_limit=1 << 63), ValueError, "node limit"),
    (dict(table_bytes=-1), ValueError, "table bytes"),
    (dict(table_bytes=1 << 63), ValueError, "table bytes"),
    (dict(seed=1 << 64), ValueError, "seed"),
    (dict(seed=True), TypeError, "seed"),
])
def test_player_settings_are_checked(options: Any, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        HindsightPlayer(**options)


def test_play_game_needs_a_geoffrey_position_and_a_player() -> None:
    with pytest.raises(TypeError, match="Geoffrey position, got Germaine"):
        play_game(Germaine.deal(1), BaselinePlayer())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="HindsightPlayer or BaselinePlayer, got str"):
        play_game(Geoffrey.deal(1), "baseline")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Geoffrey position, got Germaine"):
        View(Germaine.deal(1))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^play_game needs a patience_engine\.Geoffrey position, "
                                        r"got patience_engine\.reference\.geoffrey\.Geoffrey$"):
        play_game(reference.Geoffrey.deal(1), BaselinePlayer())  # type: ignore[arg-type]


def test_blind_survey_rows_are_kept_apart_resume_and_match_play_game(tmp_path: Path) -> None:
    db = str(tmp_path / "blind.sqlite")
    player = HindsightPlayer(**FAST)
    run = survey.run_survey("geoffrey", range(1, 7), db=db, jobs=1, progress=False, player=player)
    assert (run.solved, run.skipped) == (6, 0)
    run = survey.run_survey("geoffrey", range(1, 9), db=db, jobs=2, progress=False, player=player)
    assert (run.solved, run.skipped) == (2, 6)
    survey.run_survey("geoffrey", range(1, 9), db=db, jobs=1, progress=False, player=BaselinePlayer())
    survey.run_survey("geoffrey", range(1, 9), db=db, jobs=1, progress=False, node_limit=20_000,
                      table_bytes=1 << 20)
    rows = survey.read_rows(db)
    by_player = {p: [r for r in rows if r.player == p] for p in {r.player for r in rows}}
    assert set(by_player) == {"baseline", survey.THOUGHTFUL, player.name}
    for row in by_player[player.name]:
        played = play_game(Geoffrey.deal(row.deal), player)
        assert (row.status == "won", row.score, row.solution, row.nodes) == \
            (played.won, played.score, played.text, played.nodes)
        assert (row.node_limit, row.table_bytes, row.proven) == (20_000, 1 << 20, False)
    assert len(survey.summarize(rows)) == 3
    with pytest.raises(ValueError, match="Geoffrey only"):
        survey.run_survey("germaine", range(1, 2), db=db, player=player)
    with pytest.raises(ValueError, match="never unknown"):
        survey.run_survey("geoffrey", range(1, 2), db=db, player=player, only_unknown=True)


def test_a_schema_1_file_is_read_as_thoughtful_and_upgraded_when_written(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    connection = sqlite3.connect(db)
    connection.executescript(f"""
        PRAGMA application_id = {survey.APPLICATION_ID};
        PRAGMA user_version = 1;
        CREATE TABLE deals (game TEXT NOT NULL, deal INTEGER NOT NULL, status TEXT NOT NULL, score INTEGER NOT NULL,
            nodes INTEGER NOT NULL, seconds REAL NOT NULL, solution TEXT NOT NULL, proven INTEGER NOT NULL,
            engine_version TEXT NOT NULL, node_limit INTEGER NOT NULL, table_bytes INTEGER NOT NULL,
            PRIMARY KEY (game, engine_version, node_limit, table_bytes, deal));
        INSERT INTO deals VALUES ('geoffrey', 1, 'lost', 0, 5, 0.1, '', 1, '0.1.0+0123456789ab', 100, 0);
    """)
    connection.commit()
    connection.close()
    old = survey.read_rows(str(db))
    assert [(r.deal, r.player, r.engine_version) for r in old] == [(1, survey.THOUGHTFUL, "r1-0123456789ab")]
    survey.run_survey("geoffrey", range(1, 3), db=str(db), jobs=1, progress=False, player=BaselinePlayer())
    rows = survey.read_rows(str(db))
    assert [r for r in rows if r.player == survey.THOUGHTFUL] == old
    assert sorted(r.deal for r in rows if r.player == "baseline") == [1, 2]
    connection = sqlite3.connect(db)
    assert connection.execute("PRAGMA user_version").fetchone()[0] == survey.SCHEMA_VERSION
    connection.close()


def test_dask_blind_rows_equal_local_rows(tmp_path: Path) -> None:
    distributed = pytest.importorskip("dask.distributed")
    local, on_dask = str(tmp_path / "local.sqlite"), str(tmp_path / "dask.sqlite")
    player = HindsightPlayer(**FAST)
    survey.run_survey("geoffrey", range(1, 7), db=local, jobs=1, progress=False, player=player)
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=2,
                                  dashboard_address=":0") as cluster:
        survey.run_survey("geoffrey", range(1, 7), db=on_dask, scheduler=cluster.scheduler_address,
                          progress=False, player=player)

    def timeless(path: str) -> List[Any]:
        return [r._replace(seconds=0.0) for r in survey.read_rows(path)]

    assert timeless(on_dask) == timeless(local)


def test_play_command_prints_each_move_and_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["play", "geoffrey", "2", "--determinizations", "4", "--node-limit", "20000", "--seed", "1"])
    out = capsys.readouterr().out.splitlines()
    played = play_game(Geoffrey.deal(2), HindsightPlayer(seed=1, **FAST))
    assert code == (0 if played.won else 1)
    assert out[1:10] == Geoffrey.deal(2).to_text(hidden=True).splitlines(), "it shows what a player sees"
    numbered = [line.split(". ", 1)[1] for line in out if line.split(". ", 1)[0].isdigit()]
    assert numbered == [str(m) for m in played.moves]
    assert f"score    {played.score} cards home" in out


@pytest.mark.parametrize("argv, message", [
    (["play", "geoffrey", "2", "--player", "baseline", "--seed", "1"], "searches nothing"),
    (["survey", "germaine", "--deals", "1-2", "--player", "hindsight"], "Geoffrey only"),
    (["survey", "geoffrey", "--deals", "1-2", "--seed", "1"], "options of --player hindsight"),
    (["play", "geoffrey", "2", "--determinizations", "0"], "determinizations"),
])
def test_play_and_survey_refuse_options_that_do_not_fit(argv: List[str], message: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_report_sets_a_blind_survey_beside_the_solver_on_the_same_deals(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blind, solved = str(tmp_path / "blind.sqlite"), str(tmp_path / "solved.sqlite")
    survey.run_survey("geoffrey", range(1, 13), db=blind, jobs=1, progress=False, player=BaselinePlayer())
    survey.run_survey("geoffrey", range(3, 21), db=solved, jobs=1, progress=False, node_limit=10**6,
                      table_bytes=1 << 22)
    rows = survey.read_rows(blind) + survey.read_rows(solved)
    won = {r.deal for r in rows if r.player == survey.THOUGHTFUL and r.status == "won" and r.deal <= 12}
    played = {r.deal for r in rows if r.player == "baseline" and r.status == "won" and r.deal >= 3}
    assert all(r.status != "unknown" for r in rows) and played <= won and won
    [compared] = survey.compare_with_thoughtful(rows)
    assert (compared.deals, compared.thoughtful_won, compared.player_won, compared.player_won_of_thoughtful_won,
            compared.contradictions, compared.unsettled) == (10, len(won), len(played), len(played), (), 2)
    assert main(["report", blind, solved, "./" + os.path.relpath(solved)]) == 0, "a file named twice is read once"
    out = capsys.readouterr().out
    assert f"on the 10 of these deals the thoughtful solver settles: it won {len(won)} ({100 * len(won) / 10:.2f}%" in out
    assert f"the player {len(played)} ({100 * len(played) / 10:.2f}%)" in out
    assert f"the player won {len(played)} of the {len(won)} deals the solver won" in out
    assert "2 of the player's deals have no settled thoughtful row" in out and "repeated rows" not in out

    # A player's win on a deal the solver proved lost is an engine fault: named, and exit 1.
    [deal] = sorted(played)[:1]
    connection = sqlite3.connect(solved)
    with connection:
        connection.execute("UPDATE deals SET status = 'lost', solution = '' WHERE deal = ?", (deal,))
    connection.close()
    assert main(["report", blind, solved]) == 1
    assert f"CONTRADICTION: the player won deals the solver proved lost (an engine fault): {deal}" in \
        capsys.readouterr().out
