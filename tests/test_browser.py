"""The solution page in a real browser: headless Chromium steps through it with the arrow keys.

After every move the page must show the position, the move marked and the picture the reference
implementation gives for the line so far, node for node.

Needs Chromium and its driver (Debian packages ``chromium`` and
``chromium-driver``, installed by ``.ci/run``) and selenium (the test extra);
skipped with the reason when they are missing. Screenshots are kept in
``test-artifacts/`` at the top of the checkout.
"""

from __future__ import annotations

import random
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Iterator, List, Tuple

import pytest

import patience_engine
from conftest import game_data
from patience_engine import draw
from patience_engine.games import REGISTRY
from patience_engine.viewer import solution_html

SVG = "{http://www.w3.org/2000/svg}"
REFERENCE = {name: info.reference for name, info in REGISTRY.items()}

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install '.[test]')")
if CHROMIUM is None or CHROMEDRIVER is None:
    pytest.skip("Chromium or chromedriver not found (apt-get install chromium chromium-driver)",
                allow_module_level=True)

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium through the Debian chromedriver (nothing downloaded)."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


def _solution(state: Any) -> List[str]:
    """The solver's winning line, else (no win found within the limit) a seeded random sequence of legal moves."""
    moves = [str(move) for move in patience_engine.solve(state, node_limit=2_000_000).moves]
    if moves:
        return moves
    rng = random.Random(7)
    play = state.copy()
    moves = []
    while len(moves) < 30 and play.legal_moves():
        move = rng.choice(sorted(play.legal_moves(), key=str))
        play.play(move)
        moves.append(str(move))
    return moves


# What the page shows: the position's text, the step, the move marked current, and whether the
# picture is, node for node, the SVG document passed (parsed by the browser too).
_SHOWN = """
const shown = (expectedPicture) => {
  const expected = new DOMParser().parseFromString(expectedPicture, "image/svg+xml").documentElement;
  return [document.getElementById("position").textContent,
          document.getElementById("viewer").dataset.step,
          Array.from(document.querySelectorAll("#moves li.current")).map((li) => li.textContent),
          expected.localName === "svg" && expected.isEqualNode(document.querySelector("#picture svg"))];
};
"""
# Every step, each reached by the right-arrow key from the one before, as _SHOWN sees it.
_EVERY_STEP = _SHOWN + """
return arguments[0].map((expectedPicture, k) => {
  if (k > 0) { document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight", bubbles: true})); }
  return shown(expectedPicture);
});
"""
# Every element of the picture shown: its tag, attributes in order, and text if it has no child.
_SHOWN_PICTURE = """
return Array.from(document.querySelectorAll("#picture svg, #picture svg *")).map((e) => [
  e.localName, Array.from(e.attributes).map((a) => [a.name, a.value]), e.children.length ? "" : e.textContent]);
"""


def _elements(svg: str) -> List[List[Any]]:
    """The elements of an SVG drawing as _SHOWN_PICTURE lists them from the page."""
    elements = []
    for e in ET.fromstring(svg).iter():
        attributes = [[name, value] for name, value in e.attrib.items()]
        if e.tag == f"{SVG}svg":
            attributes.insert(0, ["xmlns", SVG.strip("{}")])
        elements.append([e.tag.replace(SVG, ""), attributes, "" if len(e) else e.text or ""])
    return elements


def _expected_steps(game: str, number: int, moves: List[str]) -> List[Tuple[str, str, List[str], str]]:
    """For each step: the position's text, the step, the move marked, and the picture, all from the
    reference implementation playing the line (which the C++ solver found)."""
    reference = REFERENCE[game].deal(number)
    steps = []
    for k in range(len(moves) + 1):
        highlight = moves[k] if k < len(moves) else None
        steps.append((reference.to_text(), str(k), [highlight] if highlight else [],
                      draw.to_svg(game, reference.to_text(), highlight=highlight)))
        if highlight:
            reference.play(highlight)
    return steps


def _check(browser: Any, shown: List[Any], expected: Tuple[str, str, List[str], str], k: int) -> None:
    """``shown`` (from _SHOWN) is what the reference gives at step ``k``."""
    text, step, current, picture = expected
    assert shown[:3] == [text, step, current], f"step {k}"
    if not shown[3]:  # say where the pictures differ
        browser.execute_script("show(arguments[0]);", k)
        assert browser.execute_script(_SHOWN_PICTURE) == _elements(picture), f"picture at step {k}"
        pytest.fail(f"picture at step {k}: the browser sees a difference the element lists do not show")


@pytest.mark.parametrize("game", list(REGISTRY))
def test_arrow_keys_step_through_the_solution(browser: Any, tmp_path: Path, game: str) -> None:
    number = game_data(game).SOLUTION_PAGE_DEAL
    state = patience_engine.GAMES[game].deal(number)
    moves = _solution(state)
    assert moves, "need at least one move to step through"
    expected = _expected_steps(game, number, moves)
    page = tmp_path / f"{game}.html"
    page.write_text(solution_html(state, moves), encoding="utf-8")
    browser.get(page.as_uri())
    body = browser.find_element(By.TAG_NAME, "body")

    # Every move, by the page's key handler, in one call.
    every = browser.execute_script(_EVERY_STEP, [picture for *_, picture in expected])
    assert len(every) == len(moves) + 1
    for k, shown in enumerate(every):
        _check(browser, shown, expected[k], k)
    assert browser.find_elements(By.CSS_SELECTOR, "#picture .card.moving") == [], "no move after the last"

    # Real keys and buttons, from the start.
    def at(k: int) -> None:
        _check(browser, browser.execute_script(_SHOWN + "return shown(arguments[0]);", expected[k][3]), expected[k], k)

    body.send_keys(Keys.HOME)
    at(0)
    assert browser.find_elements(By.CSS_SELECTOR, "#picture .card.moving"), "next move not highlighted"
    for k in range(1, min(3, len(moves)) + 1):
        body.send_keys(Keys.ARROW_RIGHT)
        at(k)
    browser.find_element(By.ID, "next").click()
    at(min(4, len(moves)))
    body.send_keys(Keys.END)
    at(len(moves))
    body.send_keys(Keys.ARROW_RIGHT)  # past the end: stays
    at(len(moves))
    body.send_keys(Keys.ARROW_LEFT)
    at(len(moves) - 1)
    browser.find_element(By.ID, "prev").click()
    at(max(len(moves) - 2, 0))

    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / f"solution-{game}-{number}.png"
    assert browser.save_screenshot(str(shot))
    assert shot.read_bytes().startswith(b"\x89PNG")
