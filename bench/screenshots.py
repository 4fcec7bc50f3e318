"""Screenshots of the web client for the README: the lobby and each game, phone and desktop.

Runs the real server (``create_app`` on a temporary SQLite file) and drives Debian's chromium
with Playwright; writes ``docs/screenshots/{lobby,crisp,craits,cribbage,krypkasino}-{phone,desktop}.png``.
With ``--phases`` it writes ``docs/screenshots/{game}-{deal,play,result}-{phone,desktop}.png``
instead (390×844 and 1366×768): each game's tutorial (its stacked deal, so the pictures are the
same every run) right after the deal, halfway through the guided hand, and at the hand's result
moment (Krypkasino plays on to the end of the deal). ``pngquant``, when installed, cuts them to
256 colours (a third of the size: they go into git).

    .venv/bin/python bench/screenshots.py [--out docs/screenshots] [--phases]
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import uvicorn
from playwright.sync_api import Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}


@contextlib.contextmanager
def server(bot_delay: float = 0.25, limits: Any = None) -> Iterator[str]:
    from feltroom.server.app import create_app

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(database=str(Path(tmp) / "room.sqlite"), bot_delay=bot_delay, limits=limits)
        sock = socket.create_server(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        srv = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
        thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        with contextlib.suppress(urllib.error.HTTPError):
            urllib.request.urlopen(url, timeout=10).close()
        yield url
        srv.should_exit = True
        thread.join(5)


def table(page: Page, url: str, game: str, seats: int, options: dict[str, str | bool], name: str) -> None:
    page.goto(url + "/")
    page.wait_for_selector("#topbar .conn.online")
    page.fill("#name-input", name)
    page.click("#name-save")
    page.wait_for_selector("#topbar .conn.online")
    page.click(f"#pick-{game}")
    page.select_option("#opt-seats", str(seats))
    for key, value in options.items():
        if isinstance(value, bool):
            page.set_checked(f"#opt-{key}", value)
        else:
            page.select_option(f"#opt-{key}", value)
    page.click("#create-btn")
    page.wait_for_selector(".waiting")


def bots_and_start(page: Page) -> None:
    while page.locator("[data-addbot]").count():
        page.locator("[data-addbot]").first.click()
        page.wait_for_timeout(80)
    page.click("#start-btn")
    page.wait_for_selector(".mine .seat.me")


def until(page: Page, test: Callable[[], bool], act: Callable[[], object], limit: float = 30.0) -> None:
    end = time.monotonic() + limit
    while time.monotonic() < end and not test():
        with contextlib.suppress(Exception):
            act()
        page.wait_for_timeout(120)


def click_first(page: Page, selector: str) -> None:
    loc = page.locator(selector)
    if loc.count():
        loc.first.click(timeout=500)


def shoot(page: Page, out: Path, name: str) -> None:
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(250)
        snap(page, out, f"{name}-{size}")


PHASE_SIZES = {"phone": (390, 844), "desktop": (1366, 768)}


def tutorial_step(page: Page) -> bool:
    """Play the step the tutorial's coach asks for, if it asks the learner; ``False`` once it is over."""
    if page.locator("#coach.done").count() or page.locator("#result").count():
        return False
    coach = page.locator("#coach")
    asked = coach.get_attribute("data-asked") if coach.count() else None
    if asked:
        with contextlib.suppress(Exception):
            target = page.locator(f'.table-screen [data-act="{asked}"]')
            if target.count():
                target.first.click(timeout=500)
            elif asked.startswith("discard "):
                for card in asked.split()[1:]:
                    page.click(f'.mine [data-select][data-card="{card}"]', timeout=500)
                page.click(f'[data-act="{asked}"]', timeout=500)
            step = coach.get_attribute("data-step")
            page.wait_for_selector(f'#coach:not([data-step="{step}"])', timeout=3000)
    else:
        page.wait_for_timeout(60)
    return True


def step_due(page: Page) -> int:
    coach = page.locator("#coach")
    return int(coach.get_attribute("data-step") or 0) if coach.count() else 0


def phases(browser: Any, url: str, out: Path) -> None:
    """Deal, play and result of each game's tutorial, at phone and desktop size."""
    from feltroom.tutorial import tutorial_for, tutorial_games

    names = iter(["Anna", "Boris", "Chloe", "Dmitri", "Elena", "Felix", "Greta", "Hugo", "Irina", "Jonas"])
    for game in tutorial_games():
        tut = tutorial_for(game)
        assert tut is not None
        for size, (w, hh) in PHASE_SIZES.items():
            page = browser.new_context(viewport={"width": w, "height": hh}, device_scale_factor=1,
                                       reduced_motion="reduce").new_page()
            phase_shots(page, url, out, game, len(tut.steps), size, next(names))
            page.context.close()


def phase_shots(page: Page, url: str, out: Path, game: str, steps: int, size: str, name: str) -> None:
    """The deal, the middle of the guided hand and its result, of ``game``'s tutorial."""
    page.add_init_script("localStorage.setItem('feltroom.lang', 'en')")
    page.goto(url + "/")
    page.wait_for_selector("#topbar .conn.online")
    page.fill("#name-input", name)
    page.click("#name-save")
    page.wait_for_timeout(300)
    page.click(f'.tutorial-links [data-tutorial="{game}"]')
    page.wait_for_selector("#coach-intro")
    page.wait_for_timeout(400)
    snap(page, out, f"{game}-deal-{size}")
    until(page, lambda: step_due(page) >= steps // 2, lambda: tutorial_step(page), 30)
    page.wait_for_timeout(600)
    snap(page, out, f"{game}-play-{size}")
    until(page, lambda: not tutorial_step(page), lambda: None, 40)
    if not page.locator("#moment").count():  # the deal goes on (Krypkasino): play it out
        if page.locator("#coach-close").count():
            page.click("#coach-close")
        until(page, lambda: page.locator("#moment").count() > 0,
              lambda: click_first(page, ".mine .hand [data-act], .picker [data-act]"), 90)
    page.wait_for_timeout(500)
    snap(page, out, f"{game}-result-{size}")


def snap(page: Page, out: Path, name: str) -> None:
    path = out / f"{name}.png"
    page.screenshot(path=str(path))
    quant = shutil.which("pngquant")
    if quant:  # 256 colours: a third of the size, and they go into git
        subprocess.run([quant, "--force", "--skip-if-larger", "--output", str(path), "256", str(path)], check=False)
    print("wrote", path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="docs/screenshots")
    ap.add_argument("--phases", action="store_true", help="each game's deal, play and result (its tutorial)")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.phases:
        with server(bot_delay=0.05) as url, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            phases(browser, url, out)
            browser.close()
        return
    with server() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)

        def new_page() -> Page:
            return browser.new_context(viewport={"width": 1280, "height": 800}, device_scale_factor=1,
                                       reduced_motion="reduce").new_page()

        # Lobby, with a few tables in it.
        hosts = []
        lobby_tables: list[tuple[str, int, dict[str, str | bool], str]] = [
            ("crisp", 4, {"end_limit": "100", "draw_time": "30"}, "Anna"),
            ("cribbage", 2, {"target": "121"}, "Boris"),
            ("craits", 6, {"short_game": True, "idiot_card": True}, "Chloe"),
        ]
        for game, seats, opts, who in lobby_tables:
            p = new_page()
            table(p, url, game, seats, opts, who)
            hosts.append(p)
        lobby = new_page()
        lobby.goto(url + "/")
        lobby.wait_for_selector(".trow")
        lobby.fill("#name-input", "Dmitri")
        lobby.click("#name-save")
        lobby.wait_for_timeout(500)
        shoot(lobby, out, "lobby")

        # Crisp: right after the deal, the player's peek (L and R) is face up.
        p = new_page()
        table(p, url, "crisp", 4, {"end_limit": "100", "draw_time": "30"}, "Elena")
        bots_and_start(p)
        p.wait_for_selector(".seat.me [data-peek]")
        until(p, lambda: p.locator(".crisp-center .held").count() > 0, lambda: click_first(p, '[data-act="draw"]'), 8)
        shoot(p, out, "crisp")

        # Cribbage: discard, then into the play with a few cards on the table.
        p = new_page()
        table(p, url, "cribbage", 2, {"target": "121"}, "Felix")
        bots_and_start(p)

        def crib_step() -> None:
            confirm = '.actionbar [data-act^="discard"]'
            if p.locator(confirm).count():
                click_first(p, confirm)
            elif p.locator('.mine [data-select][aria-pressed="false"]').count():
                click_first(p, '.mine [data-select][aria-pressed="false"]')
            else:
                click_first(p, '.mine .hand [data-act]')
        until(p, lambda: p.locator(".series .played").count() >= 3, crib_step, 20)
        p.keyboard.press("v")
        shoot(p, out, "cribbage")

        # Craits: a few turns into the first hand.
        p = new_page()
        table(p, url, "craits", 4, {"short_game": False}, "Greta")
        bots_and_start(p)
        plays = {"n": 0}

        def craits_step() -> None:
            loc = p.locator(".mine .hand [data-act], .picker [data-act], .actionbar [data-act]")
            if loc.count():
                loc.first.click(timeout=500)
                plays["n"] += 1
        until(p, lambda: plays["n"] >= 3, craits_step, 20)
        p.wait_for_timeout(600)
        shoot(p, out, "craits")

        # Krypkasino: some plays in, with captures on the piles.
        p = new_page()
        table(p, url, "krypkasino", 3, {"dealer_rounds": "1"}, "Hugo")
        bots_and_start(p)
        kr = {"n": 0}

        def kr_step() -> None:
            loc = p.locator(".mine .hand [data-act], .picker [data-act]")
            if loc.count():
                loc.first.click(timeout=500)
                kr["n"] += 1
        until(p, lambda: kr["n"] >= 3, kr_step, 20)
        p.wait_for_timeout(900)
        shoot(p, out, "krypkasino")
        browser.close()


if __name__ == "__main__":
    main()
