"""The solution page in a real browser: headless Chromium steps through it with the arrow keys.

Needs Chromium and its driver (Debian packages ``chromium`` and
``chromium-driver``, installed by ``.ci/run``) and selenium (the test extra);
skipped with the reason when they are missing. Screenshots are kept in
``test-artifacts/`` at the top of the checkout.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any, Iterator, List

import pytest

import patience_engine
from patience_engine.viewer import solution_html

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


def _shown(browser: Any) -> str:
    # textContent, not .text: the <pre> is hidden, and Selenium's .text is only what is rendered.
    return str(browser.find_element(By.ID, "position").get_attribute("textContent"))


@pytest.mark.parametrize("game, number", [("royal-marriage", 1), ("geoffrey", 2)])
def test_arrow_keys_step_through_the_solution(browser: Any, tmp_path: Path, game: str, number: int) -> None:
    state = patience_engine.GAMES[game].deal(number)
    moves = _solution(state)
    assert moves, "need at least one move to step through"
    page = tmp_path / f"{game}.html"
    page.write_text(solution_html(state, moves), encoding="utf-8")
    browser.get(page.as_uri())
    body = browser.find_element(By.TAG_NAME, "body")
    assert _shown(browser) == state.to_text()

    expected = state.copy()
    ks = sorted({1, min(3, len(moves)), len(moves) // 2, len(moves)} - {0})
    pressed = 0
    for k in ks:
        while pressed < k:
            body.send_keys(Keys.ARROW_RIGHT)
            expected.play(moves[pressed])
            pressed += 1
        assert _shown(browser) == expected.to_text(), f"after {k} right arrows"
        viewer = browser.find_element(By.ID, "viewer")
        assert viewer.get_attribute("data-step") == str(k)
        current = browser.find_elements(By.CSS_SELECTOR, "#moves li.current")
        assert [li.text for li in current] == ([moves[k]] if k < len(moves) else [])
        if k < len(moves):
            assert browser.find_elements(By.CSS_SELECTOR, "#picture .card.moving"), "next move not highlighted"

    body.send_keys(Keys.ARROW_LEFT)
    expected.undo()
    assert _shown(browser) == expected.to_text()
    browser.find_element(By.ID, "prev").click()
    expected.undo()
    assert _shown(browser) == expected.to_text()

    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / f"solution-{game}-{number}.png"
    assert browser.save_screenshot(str(shot))
    assert shot.read_bytes().startswith(b"\x89PNG")
