"""End to end in a real headless browser: open the page, solve a puzzle by clicking, see a wrong card explained."""

from __future__ import annotations

import shutil
import socket
import threading
import time

import pytest

pytest.importorskip("selenium", reason="the browser test needs selenium (pip install '.[test]')")
uvicorn = pytest.importorskip("uvicorn", reason="the browser test needs the service extra")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
if not (CHROMIUM and DRIVER):
    pytest.skip("Debian's chromium and chromium-driver are not installed (.ci/run installs them)",
                allow_module_level=True)

from selenium import webdriver  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from puzzles import puzzle as collection_io  # noqa: E402
from puzzles.generator import Settings, generate  # noqa: E402
from puzzles.referee import judge  # noqa: E402
from puzzles.service.app import Limits, create_app  # noqa: E402
from solver import Position, solve  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("browser")
    puzzles = generate(Settings("minimo", vary=False, cards=(3, 3), engine="reference"), 2, 3,
                       max_candidates=400).puzzles
    collection_io.save(collection_io.Collection(puzzles, 3), folder / "p.msgpack")
    app = create_app(folder / "db.sqlite", [folder / "p.msgpack"], Limits(workers=1))
    with socket.socket() as s:  # a free loopback port
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(100):
        if srv.started:
            break
        time.sleep(0.1)
    yield f"http://127.0.0.1:{port}", {p.id: p for p in puzzles}
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1000,900"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=DRIVER))
    yield driver
    driver.quit()


def solution(puzzle):
    """The team's optimal moves from the start, found with the reference solver and judged by the referee."""
    moves = []
    while True:
        outcome = judge(puzzle, moves, engine="reference")
        if outcome.finished:
            assert outcome.solved
            return moves
        pos = Position.from_json(outcome.position)
        moves.append(pos.game.format_piece(solve(pos, engine="reference").best[0]))


def wait(driver, condition, timeout=30):
    return WebDriverWait(driver, timeout).until(lambda d: condition(d))


def click(driver, token, number):
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#hand button[data-piece="{token}"]'))
    driver.find_element(By.CSS_SELECTOR, f'#hand button[data-piece="{token}"]').click()
    wait(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-moves") == str(number))


def test_solve_a_puzzle_and_see_a_wrong_card_explained(server, browser):
    url, puzzles = server
    browser.get(url + "/")
    first = wait(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-puzzle"))
    assert browser.find_element(By.CSS_SELECTOR, "#table svg")
    for number, token in enumerate(solution(puzzles[first]), 1):
        click(browser, token, number)
    status = browser.find_element(By.ID, "status").text
    assert status.startswith("Right!") and "solved" in status
    assert browser.find_element(By.ID, "answer").is_displayed()

    browser.find_element(By.ID, "next").click()
    second = wait(browser, lambda d: (p := d.find_element(By.TAG_NAME, "body").get_attribute("data-puzzle")) != first
                  and p)
    puzzle = puzzles[second]
    wrong, value = next((m, v) for m, v in puzzle.moves if v != puzzle.value)
    click(browser, wrong, 1)
    status = browser.find_element(By.ID, "status").text
    assert status.startswith("Wrong:")
    assert f"gives {value}" in status and f"instead of {puzzle.value}" in status
