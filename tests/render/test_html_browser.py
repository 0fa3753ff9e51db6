"""The HTML step-through page in a real headless Chromium: next until the end, keys, play, no errors, no network.

Skips only when the system's chromium (or its chromedriver) is not installed;
CI installs both (``.ci/run``).
"""

from __future__ import annotations

import time

import pytest
from render_helpers import MAYAN, RANDOM8, solution


def _state(driver):
    return driver.execute_script("""
        var shown = Array.prototype.filter.call(document.querySelectorAll('#stage .step'),
                                               function (f) { return !f.hidden; });
        var current = document.querySelectorAll('#moves li.current');
        return {shown: shown.map(function (f) { return +f.dataset.step; }),
                moves: Array.prototype.map.call(current, function (li) { return +li.dataset.move; }),
                slider: +document.getElementById('slider').value,
                visible: shown.length ? shown[0].getBoundingClientRect().height > 0 : false};
    """)


def _requests(driver) -> list[str]:
    import json

    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


@pytest.mark.parametrize("game,path", [("mayan", MAYAN), ("flood", RANDOM8)])
def test_page_steps_through_the_solution(browser, searchkit_registry, tmp_path, game, path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    from searchkit.render.html import render_html

    _, _, moves, steps = solution(searchkit_registry, game, path)
    page = tmp_path / "page.html"
    page.write_text(render_html(steps, title=f"{game} test"), encoding="utf-8")
    browser.get_log("browser")
    browser.get_log("performance")
    browser.get(page.as_uri())
    assert browser.title == f"{game} test"
    items = browser.find_elements(By.CSS_SELECTOR, "#moves li")
    assert len(items) == len(moves) + 1
    state = _state(browser)
    assert state == {"shown": [0], "moves": [0], "slider": 0, "visible": True}
    nxt = browser.find_element(By.ID, "next")
    for i in range(1, len(steps)):
        nxt.click()
        state = _state(browser)
        assert state["shown"] == [i] and state["slider"] == i and state["visible"]
        assert state["moves"] == [steps[i].index], (i, steps[i].label)
        if steps[i].settled:
            assert items[steps[i].index].text.endswith(steps[i].move)
    nxt.click()  # past the end: stays on the last frame
    assert _state(browser)["shown"] == [len(steps) - 1]
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_LEFT)
    assert _state(browser)["shown"] == [len(steps) - 2]
    body.send_keys(Keys.HOME)
    assert _state(browser)["shown"] == [0]
    body.send_keys(Keys.ARROW_RIGHT)
    assert _state(browser)["shown"] == [1]
    items[-1].click()
    assert _state(browser)["shown"] == [len(steps) - 1] and _state(browser)["moves"] == [len(moves)]
    body.send_keys(Keys.HOME)
    play = browser.find_element(By.ID, "play")
    play.click()
    assert play.text == "pause"
    deadline = time.monotonic() + 10
    while _state(browser)["shown"] == [0] and time.monotonic() < deadline:
        time.sleep(0.1)
    play.click()
    assert play.text == "play" and _state(browser)["shown"][0] >= 1
    errors = [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    assert errors == []
    requests = _requests(browser)
    assert page.as_uri() in requests
    # the page itself is the only load; chrome:// is the browser's own UI, never the network
    assert [u for u in requests if not u.startswith(("file://", "chrome://", "data:", "about:"))] == []
    assert [u for u in requests if u.startswith("file://")] == [page.as_uri()]


@pytest.mark.parametrize("window", [(1200, 900), (700, 900), (1600, 500)])
def test_the_board_scales_to_the_window(browser, searchkit_registry, tmp_path, window):
    """The board fills the window it has (it was 238 px wide in a 1200 px window), keeps its shape and stays on
    screen with the move list beside it."""
    from searchkit.render.html import render_html
    from searchkit.render.layout import board_only, single_layout

    from render_helpers import PC19

    _, _, _, steps = solution(searchkit_registry, "flood", PC19)
    natural = board_only(single_layout(steps))
    page = tmp_path / "page.html"
    page.write_text(render_html(steps, title="scaling"), encoding="utf-8")
    browser.set_window_size(*window)
    browser.get(page.as_uri())
    box = browser.execute_script("""
        var svg = document.querySelector('#stage .step:not([hidden]) svg').getBoundingClientRect();
        var moves = document.getElementById('moves').getBoundingClientRect();
        return {w: svg.width, h: svg.height, bottom: svg.bottom, right: svg.right, movesLeft: moves.left,
                innerW: window.innerWidth, innerH: window.innerHeight};
    """)
    assert abs(box["w"] / box["h"] - natural.width / natural.height) < 0.02  # the board keeps its shape
    assert box["right"] <= box["movesLeft"] <= box["innerW"]
    # within the window's height, unless the window is too short for even its natural size
    assert box["bottom"] <= box["innerH"] or abs(box["w"] - natural.width) < 1, box
    if window == (1200, 900):
        assert box["w"] > 2 * natural.width, box  # the board was 238 px wide in a 1200 px window
    assert box["w"] >= min(natural.width, box["innerW"] * 0.5), box  # not below its natural size when it fits
