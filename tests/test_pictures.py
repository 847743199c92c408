"""Pictures: SVG of positions, `patience show`, terminal colour, the solution page's HTML."""

from __future__ import annotations

import contextlib
import html
import json
import os
import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

from conftest import GAME_NAMES, game_cases, game_class, game_data, position_of
from patience_engine import IllegalMoveError, cli, draw, solve
from patience_engine.games import REGISTRY
from patience_engine.viewer import delta_encode, solution_html, svg_elements, svg_tokens

SVG = "{http://www.w3.org/2000/svg}"


def _played(impl: str, game: str, deal: int, moves: int) -> Any:
    """Deal ``deal`` after up to ``moves`` random legal moves (seeded), to reach varied positions."""
    state = game_class(impl, game).deal(deal)
    rng = random.Random(deal)
    for _ in range(moves):
        legal = state.legal_moves()
        if not legal:
            break
        state.play(rng.choice(sorted(legal, key=str)))
    return state


def _card_elements(svg: str) -> List[ET.Element]:
    root = ET.fromstring(svg)
    return [g for g in root.iter(f"{SVG}g") if "card" in g.get("class", "").split()]


@pytest.mark.parametrize("moves", [0, 5, 40])
def test_svg_has_one_card_element_per_visible_card(impl: str, game: str, moves: int) -> None:
    for deal in range(1, 6):
        state = _played(impl, game, deal, moves)
        cards = _card_elements(state.to_svg())
        expected = game_data(game).visible_cards(state.to_text())
        assert sorted(g.get("data-card") for g in cards) == sorted(expected)
        face_down = [g for g in cards if "face-down" in g.get("class", "")]
        assert len(face_down) == state.to_text().count("(")


def test_both_implementations_draw_the_same(game: str) -> None:
    assert _played("cpp", game, 3, 10).to_svg() == _played("reference", game, 3, 10).to_svg()


def test_card_faces_show_rank_suit_symbol_and_colour() -> None:
    svg = game_class("cpp", "royal-marriage").from_text("QH TS 3C KH").to_svg()
    root = ET.fromstring(svg)
    faces = {g.get("data-card"): g for g in _card_elements(svg)}
    texts = ["".join(t.itertext()) for t in faces["TS"].iter(f"{SVG}text")]
    assert "10♠" in texts
    red = {t.get("fill") for t in faces["QH"].iter(f"{SVG}text")}
    black = {t.get("fill") for t in faces["3C"].iter(f"{SVG}text")}
    assert red == {draw.RED} and black == {draw.BLACK}
    assert root.get("width") and root.get("height")


def test_germaine_empty_cells_and_slide_allowance() -> None:
    grid = game_class("reference", "germaine").deal(1)
    grid.play("d1xd2")
    root = ET.fromstring(grid.to_svg())
    empties = [r for r in root.iter(f"{SVG}rect") if "empty" in r.get("class", "").split()]
    assert [r.get("data-cell") for r in empties] == ["d1"]
    slides = [g for g in root.iter(f"{SVG}g") if g.get("class") == "slides"]
    assert slides[0].get("data-slides") == "2"
    assert "slides allowed: 2" in "".join(slides[0].itertext())


def test_geoffrey_foundations_and_empty_columns() -> None:
    text = ("Foundations: C-K D-Q H-0 S-K\n- \n- \n- \n- \n- \n- \n- \nKD KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH")
    svg = game_class("cpp", "geoffrey").from_text(text).to_svg()
    root = ET.fromstring(svg)
    foundations = [g.get("data-card") for g in _card_elements(svg) if "foundation" in g.get("class", "")]
    assert foundations == ["KC", "QD", "KS"]
    empties = [r for r in root.iter(f"{SVG}rect") if "empty" in r.get("class", "").split()]
    assert len(empties) == 7 + 1  # seven empty columns and the empty hearts foundation


def _axis_labels(svg: str, axis: str) -> List[Tuple[str, float, float]]:
    """The (text, x, y) of the picture's row or column labels of one axis, in document order."""
    return [("".join(t.itertext()), float(t.get("x", "nan")), float(t.get("y", "nan")))
            for t in ET.fromstring(svg).iter(f"{SVG}text") if t.get("data-axis") == axis]


def _card_places(svg: str) -> Dict[str, Tuple[float, float]]:
    """The top-left corner of each card element, by its data-cell (Germaine) or data-card."""
    places = {}
    for g in _card_elements(svg):
        x, y = re.fullmatch(r"translate\(([-\d.]+),([-\d.]+)\)", g.get("transform", "")).groups()  # type: ignore[union-attr]
        places[g.get("data-cell") or g.get("data-card", "")] = (float(x), float(y))
    return places


def test_germaine_columns_and_rows_are_labelled_as_the_notation_names_them(impl: str) -> None:
    svg = game_class(impl, "germaine").deal(1).to_svg()
    columns, rows = _axis_labels(svg, "column"), _axis_labels(svg, "row")
    assert [text for text, _, _ in columns] == list("abcdefghijklm")
    assert [text for text, _, _ in rows] == ["1", "2", "3", "4"]
    cells = _card_places(svg)
    for letter, x, y in columns:  # centred over its column, above the top row
        for row in "1234":
            left, top = cells[letter + row]
            assert x == left + draw.CARD_W / 2 and y < top
    for number, x, y in rows:  # level with its row, left of the first column
        for letter in "abcdefghijklm":
            left, top = cells[letter + number]
            assert top < y < top + draw.CARD_H and x < left


def test_geoffrey_columns_and_foundations_are_labelled_as_the_notation_names_them(impl: str) -> None:
    state = game_class(impl, "geoffrey").deal(2)
    svg = state.to_svg()
    places = _card_places(svg)
    columns = _axis_labels(svg, "column")
    assert [text for text, _, _ in columns] == [str(c) for c in range(1, 9)]
    for (_, x, y), column in zip(columns, state.to_text().splitlines()[1:]):
        for card in column.split():  # centred over its column's cards (face-down ones too), above them
            left, top = places[card.strip("()")]
            assert x == left + draw.CARD_W / 2 and y < top
    [(text, x, y)] = _axis_labels(svg, "foundation")
    foundations = [r for r in ET.fromstring(svg).iter(f"{SVG}rect") if "foundation" in r.get("class", "")]
    assert text == "F" and len(foundations) == 4
    assert all(x < float(r.get("x", "nan")) and float(r.get("y", "nan")) < y < float(r.get("y", "nan")) + draw.CARD_H
               for r in foundations)
    assert y < min(top for _, top in places.values()), "the foundations row is above the tableau"


def test_royal_marriage_needs_no_labels_its_moves_name_the_cards() -> None:
    svg = game_class("cpp", "royal-marriage").from_text("QH 3C 9D 2S 3S KH").to_svg()
    assert 'data-axis' not in svg
    assert [g.get("data-card") for g in _card_elements(svg)] == ["QH", "3C", "9D", "2S", "3S", "KH"]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_highlight_marks_the_moving_cards_and_target(game: str) -> None:
    spec, move, moving, target = game_data(game).HIGHLIGHT
    state = position_of("cpp", game, spec)
    assert state.is_legal(move)
    cards = _card_elements(state.to_svg(highlight=move))
    assert sorted(g.get("data-card") for g in cards if "moving" in g.get("class", "")) == sorted(moving)
    assert any("target" in g.get("class", "") for g in cards) == target


def test_highlight_takes_what_play_takes(impl: str, game: str) -> None:
    state = game_class(impl, game).deal(2)
    for other in ("cpp", "reference"):
        move = game_class(other, game).deal(2).legal_moves()[0]
        assert state.to_svg(highlight=move) == state.to_svg(highlight=str(move)) == state.to_svg(highlight=move.action)
    assert state.to_svg(highlight=move) != state.to_svg()


@pytest.mark.parametrize("game, spec, highlight, error, message", game_cases("HIGHLIGHT_REFUSALS"))
def test_highlight_refuses_an_illegal_move_or_a_wrong_type(impl: str, game: str, spec: Any, highlight: Any,
                                                          error: type, message: str) -> None:
    state = position_of(impl, game, spec)
    with pytest.raises(error) as raised:
        state.to_svg(highlight=highlight)
    assert str(raised.value) == message


def test_hidden_picture_names_no_face_down_card(impl: str, game: str) -> None:
    state = _played(impl, game, 3, 5)
    plain, hidden = state.to_svg(), state.to_svg(hidden=True)
    if not REGISTRY[game].hidden_cards:
        assert hidden == plain
        return
    face_down = [g for g in _card_elements(hidden) if "face-down" in g.get("class", "").split()]
    assert len(face_down) == state.to_text(hidden=True).count("(??)") > 0
    assert {g.get("data-card") for g in face_down} == {"??"}
    assert hidden == re.sub(r'(class="card face-down" data-card=")..(")', r"\1??\2", plain)
    with pytest.raises(TypeError, match="^hidden must be a bool, got int$"):
        state.to_svg(hidden=1)


def test_terminal_text() -> None:
    assert draw.terminal_text("(5D) QS\nslides: 2", colour=False) == "(5♦) Q♠\nslides: 2"
    assert draw.terminal_text("QH", colour=True) == "\x1b[31mQ♥\x1b[0m"
    assert draw.terminal_text("Foundations: C-0 D-4", colour=True) == "Foundations: C-0 D-4"


def test_deal_is_plain_text_when_not_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["deal", "royal-marriage", "3"]) == 0
    out = capsys.readouterr().out
    assert "\x1b[" not in out and "♥" not in out and out.startswith("QH 8S")


def test_deal_uses_symbols_and_colour_in_a_terminal(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert cli.main(["deal", "royal-marriage", "3"]) == 0
    assert capsys.readouterr().out.startswith("\x1b[31mQ♥\x1b[0m 8♠")


def test_show_writes_svg(tmp_path: Path) -> None:
    out = tmp_path / "g.svg"
    assert cli.main(["show", "geoffrey", "--pysol", "1", "--out", str(out)]) == 0
    assert len(_card_elements(out.read_text(encoding="utf-8"))) == 52


def test_show_writes_png(tmp_path: Path) -> None:
    pytest.importorskip("cairosvg", reason="PNG needs the optional extra patience-engine[png]")
    out = tmp_path / "g.png"
    assert cli.main(["show", "germaine", "1", "--out", str(out)]) == 0
    assert out.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_show_png_without_cairosvg_says_what_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)
    assert cli.main(["show", "germaine", "1", "--out", str(tmp_path / "g.png")]) == 2
    assert "patience-engine[png]" in capsys.readouterr().err


def test_show_refuses_other_endings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["show", "germaine", "1", "--out", str(tmp_path / "g.jpg")]) == 2
    assert ".svg or .png" in capsys.readouterr().err


def _decoded(page: str, name: str) -> List[str]:
    """What the page's script rebuilds from ``const {name}Tokens`` and the edits passed with it to decode()."""
    tokens = re.search(rf"^const {name}Tokens = (.*);$", page, re.MULTILINE)
    edits = re.search(rf"^const {name}s = decode\({name}Tokens, (.*)\);$", page, re.MULTILINE)
    assert tokens and edits, f"the page carries its {name}s as tokens and edits"
    table, steps = json.loads(tokens.group(1)), json.loads(edits.group(1))
    current: List[int] = []
    decoded = []
    for step in steps:  # viewer.delta_encode: splices "at, removed, count, indices..."
        k = 0
        while k < len(step):
            at, removed, count = step[k:k + 3]
            current[at:at + removed] = step[k + 3:k + 3 + count]
            k += 3 + count
        decoded.append("".join(table[i] for i in current))
    return decoded


def _page_drawings(page: str) -> List[str]:
    """The drawing the page's script shows at each step."""
    return _decoded(page, "picture")


def _drawings_by_reference(game: str, deal: int, moves: List[str]) -> List[str]:
    """Each position of the line drawn from the reference, the next move highlighted."""
    state = game_class("reference", game).deal(deal)
    drawings = []
    for move in moves:
        drawings.append(draw.to_svg(game, state.to_text(), highlight=move))
        state.play(move)
    return drawings + [draw.to_svg(game, state.to_text())]


def test_solution_page_is_self_contained(impl: str, game: str) -> None:
    state = game_class(impl, game).deal(4)
    moves = [str(m) for m in _played(impl, game, 4, 12).move_stack]
    page = solution_html(state, moves)
    assert _page_drawings(page) == _drawings_by_reference(game, 4, moves)
    assert not re.search(r"""\b(src|href)\s*=|url\(|@import""", page)
    assert state.move_stack == [] and state.to_text() == game_class(impl, game).deal(4).to_text()
    for i, move in enumerate(moves):
        assert f'<li data-step="{i}">{html.escape(move)}</li>' in page


def test_a_long_germaine_line_makes_a_small_page() -> None:
    # A game has at most 51 combines, each followed by at most 2 slides: 153 moves. The solver's
    # lines come close (deal 4: won, 1,050 nodes, 148 moves when this was written).
    state = game_class("cpp", "germaine").deal(4)
    moves = [str(move) for move in solve(state, node_limit=100_000).moves]
    assert len(moves) >= 140
    page = solution_html(state, moves)
    assert len(page.encode("utf-8")) < 300_000
    drawings = _page_drawings(page)
    assert drawings == _drawings_by_reference("germaine", 4, moves)
    # One drawing per move, as the page was before, would be ten times the size.
    assert 10 * len(page.encode("utf-8")) < sum(len(d.encode("utf-8")) for d in drawings)


def test_svg_elements_and_tokens_join_back_to_the_drawing(game: str) -> None:
    svg = _played("cpp", game, 2, 5).to_svg()
    elements = svg_elements(svg)
    assert "".join(elements) == svg
    assert elements[0].startswith("<svg ") and elements[-1] == "</svg>\n"
    for element in elements[1:-1]:  # each a whole element
        ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{element}</svg>')
    assert all("".join(svg_tokens(element)) == element for element in elements)
    cards = [element for element in elements if element.startswith('<g class="card')]
    assert cards and all(any(t.startswith(" transform=") for t in svg_tokens(card)) for card in cards)
    # Any text is covered, even what draw never writes.
    for text in ["", "x", "<a b='1'>t</a>", '<a b="1"', "<<>>", " c=\"d\" />", "<g><g></g></g>"]:
        assert "".join(svg_elements(text)) == text and "".join(svg_tokens(text)) == text


def test_delta_encode_rebuilds_each_document() -> None:
    documents = [["ab", "c"], ["a", "c"], ["x", "ab", "c", "b"], [], ["bb"]]
    table, edits = delta_encode(documents, list)  # elements of one-letter tokens
    assert sorted(table) == ["a", "b", "c", "x"]
    current: List[str] = []
    for document, step in zip(documents, edits):
        k = 0
        while k < len(step):
            at, removed, count = step[k:k + 3]
            current[at:at + removed] = [table[i] for i in step[k + 3:k + 3 + count]]
            k += 3 + count
        assert current == [token for element in document for token in element]
    assert edits[1] == [1, 1, 0], "ab -> a: one token removed"


def test_solution_page_positions_are_those_of_the_line(game: str) -> None:
    state = game_class("cpp", game).deal(3)
    moves = [str(m) for m in _played("cpp", game, 3, 10).move_stack]
    play = game_class("reference", game).deal(3)
    expected = [play.to_text()]
    for move in moves:
        play.play(move)
        expected.append(play.to_text())
    assert _decoded(solution_html(state, moves), "position") == expected


def test_solution_page_refuses_an_illegal_move() -> None:
    with pytest.raises(ValueError):
        solution_html(game_class("cpp", "royal-marriage").deal(1), ["QH"])
    state = game_class("cpp", "germaine").deal(1)
    legal = state.legal_moves()[0]
    with pytest.raises(IllegalMoveError, match="^action 0 names no move"):
        solution_html(state, [legal, 0])
    with pytest.raises(IllegalMoveError, match=f"^illegal move {legal}: not legal in this position$"):
        solution_html(state, [legal, legal])


def test_solution_page_takes_what_play_takes_and_checks_its_arguments() -> None:
    state = game_class("cpp", "germaine").deal(1)
    moves = state.legal_moves()[:1]
    page = solution_html(state, [m.action for m in moves])
    assert page == solution_html(state, moves) == solution_html(state, [str(m) for m in moves])
    with pytest.raises(TypeError, match="^moves must be a sequence of moves, got str$"):
        solution_html(state, str(moves[0]))
    with pytest.raises(TypeError, match="^title must be a str or None, got int$"):
        solution_html(state, moves, title=5)
    with pytest.raises(ValueError, match=r"^action an int >= 2\*\*16609 is outside 0 \.\. 415$"):
        solution_html(state, [10**5000])


def test_solve_writes_the_solution_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rm.html"
    assert cli.main(["solve", "royal-marriage", "--pysol", "1", "--html", str(out)]) == 0
    moves = re.search(r"moves +(\d+):", capsys.readouterr().out)
    assert moves is not None
    page = out.read_text(encoding="utf-8")
    assert len(_page_drawings(page)) == int(moves.group(1)) + 1
    assert "<title>Royal Marriage, PySolFC game 1: won</title>" in page


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_a_terminal_without_the_suit_symbols_gets_plain_text() -> None:
    leader, follower = os.openpty()
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    with subprocess.Popen([sys.executable, "-m", "patience_engine.cli", "deal", "royal-marriage", "3"],
                          stdout=follower, stderr=subprocess.PIPE, env=env) as child:
        os.close(follower)
        _, err = child.communicate(timeout=60)
    out = b""
    with contextlib.suppress(OSError):  # EIO once the terminal's other end has closed
        while chunk := os.read(leader, 4096):
            out += chunk
    os.close(leader)
    assert (child.returncode, err) == (0, b"")
    assert out.startswith(b"QH 8S 7S")


def test_solve_html_in_a_missing_directory_fails_before_the_search(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "missing" / "rm.html"
    assert cli.main(["solve", "royal-marriage", "3", "--html", str(page)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"patience: error: [Errno 2] no such directory for the --html page: '{page}'\n"


@pytest.mark.parametrize("where, message", [
    ("", "no such directory for the --html page: ''"),
    (".", "the --html page would replace a directory"),
])
def test_solve_html_path_that_cannot_be_a_page_fails_before_the_search(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str, message: str) -> None:
    page = str(tmp_path / where) if where else ""
    assert cli.main(["solve", "royal-marriage", "3", "--html", page]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and message in captured.err


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc, where no file can be made")
def test_solve_html_where_no_file_can_be_made_fails_before_the_search(capsys: pytest.CaptureFixture[str]) -> None:
    # os.access said yes for /proc/x.html (root may write anywhere): the search ran, then the page failed.
    assert cli.main(["solve", "royal-marriage", "3", "--html", "/proc/x.html"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("patience: error: [Errno ")
    assert captured.err.endswith(": '/proc/x.html'\n")


def test_solve_html_through_a_link_and_to_a_fifo_with_no_reader(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A link to a page not yet written was refused; a FIFO with no reader waited for ever.
    link = tmp_path / "link.html"
    link.symlink_to("page.html")
    assert cli.main(["solve", "royal-marriage", "3", "--html", str(link)]) == 0
    assert (tmp_path / "page.html").read_text().startswith("<!DOCTYPE html>") and link.is_symlink()
    capsys.readouterr()
    fifo = tmp_path / "fifo.html"
    os.mkfifo(fifo)
    assert cli.main(["solve", "royal-marriage", "3", "--html", str(fifo)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == f"patience: error: [Errno 6] No such device or address: '{fifo}'\n"


def test_solve_html_check_leaves_no_file_and_keeps_an_old_page(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    page = tmp_path / "rm.html"
    monkeypatch.setattr(cli, "_solve_with_progress", lambda state, args: (_ for _ in ()).throw(KeyboardInterrupt))
    assert cli.main(["solve", "royal-marriage", "3", "--html", str(page)]) == 130
    assert not page.exists(), "the check made no page"
    page.write_text("old")
    assert cli.main(["solve", "royal-marriage", "3", "--html", str(page)]) == 130
    assert page.read_text() == "old", "the check did not truncate it"


def test_solve_prints_its_result_before_the_html_page_fails(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def failing_page(*args: Any, **kwargs: Any) -> str:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(cli, "solution_html", failing_page)
    assert cli.main(["solve", "royal-marriage", "3", "--html", str(tmp_path / "rm.html")]) == 2
    captured = capsys.readouterr()
    assert "status   won" in captured.out and "No space left on device" in captured.err
