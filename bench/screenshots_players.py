"""Screenshots of the pages for players who come back: the end screen (rating changes and a
rematch offer), the replay viewer, a profile and a leaderboard, phone and desktop.

Runs the real server as ``bench/screenshots.py`` does (bots think 20 ms here); a protocol client
"Anna" first plays a few dozen games against the bots through stand-ins (she leaves each table
at once), so that her profile and the Cribbage leaderboard have something to show. Writes
``docs/screenshots/{endscreen,replay,profile,leaderboard}-{phone,desktop}.png``.

    .venv/bin/python bench/screenshots_players.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright
from websockets.sync.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from feltroom.server import Limits
from screenshots import ARGS, CHROMIUM, server, shoot, table

_ids = itertools.count(1)

# (game, seats, options, bots, games): what Anna plays before the screenshots.
LADDER: list[tuple[str, int, dict[str, Any], list[str], int]] = [
    ("cribbage", 3, {"target": 61, "counting": "automatic"}, ["random", "heuristic"], 12),
    ("krypkasino", 3, {"dealer_rounds": 1}, ["random", "heuristic"], 4),
    ("crisp", 3, {"end_limit": 50}, ["random", "heuristic"], 3),
    ("craits", 3, {"short_game": True}, ["random", "heuristic"], 2),
]


def request(ws: ClientConnection, msg: dict[str, Any]) -> dict[str, Any]:
    mid = next(_ids)
    ws.send(json.dumps({**msg, "id": mid}))
    while True:
        reply: dict[str, Any] = json.loads(ws.recv(timeout=20))
        if reply.get("id") == mid:
            assert reply["type"] != "error", reply
            return reply


def drain(ws: ClientConnection, seconds: float) -> None:
    """Read (and drop) what the room sends for ``seconds``: the games' updates still reach her."""
    end = time.monotonic() + seconds
    with contextlib.suppress(TimeoutError):
        while time.monotonic() < end:
            ws.recv(timeout=max(0.01, end - time.monotonic()))


def finished(url: str, tid: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/api/games/{tid}/record", timeout=10):
            return True
    except urllib.error.HTTPError:
        return False


def play_ladder(url: str, name: str) -> tuple[str, str]:
    """``name`` plays the LADDER games through stand-ins; her player id and token."""
    with connect(url.replace("http", "ws") + "/ws") as ws:
        welcome = request(ws, {"type": "hello", "protocol": 1, "name": name, "token": None})
        for game, seats, options, bots, count in LADDER:
            left = count
            while left:
                tids = []
                for _ in range(min(left, 6)):  # at most 8 unfinished tables per player
                    tid = request(ws, {"type": "create", "game": game, "seats": seats, "options": options})["table"]
                    for seat, level in enumerate(bots, start=1):
                        request(ws, {"type": "bot", "table": tid, "seat": seat, "level": level})
                    request(ws, {"type": "start", "table": tid})
                    request(ws, {"type": "leave", "table": tid})
                    tids.append(tid)
                left -= len(tids)
                end = time.monotonic() + 120
                while not all(finished(url, t) for t in tids):
                    assert time.monotonic() < end, "the bots did not finish"
                    drain(ws, 0.2)
        print(f"{name} played {sum(c for *_, c in LADDER)} games")
        return welcome["player"], welcome["token"]


def as_player(page: Page, name: str, token: str) -> None:
    page.add_init_script(f"localStorage.setItem('feltroom.name', {json.dumps(name)});"
                         f"localStorage.setItem('feltroom.token', {json.dumps(token)});"
                         "localStorage.setItem('feltroom.autoname', '0');")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="docs/screenshots")
    out = Path(ap.parse_args().out)
    out.mkdir(parents=True, exist_ok=True)
    with server(bot_delay=0.02, limits=Limits(new_tables_per_hour=1000)) as url, sync_playwright() as pw:
        player, token = play_ladder(url, "Anna")
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)

        def new_page() -> Page:
            return browser.new_context(viewport={"width": 1280, "height": 800}, device_scale_factor=1,
                                       reduced_motion="reduce").new_page()

        # The end screen: Anna and Boris finish a Cribbage game (by stand-ins), Boris offers a rematch.
        anna = new_page()
        as_player(anna, "Anna", token)
        table(anna, url, "cribbage", 2, {"target": "61", "counting": "automatic"}, "Anna")
        tid = anna.url.split("#/t/")[1]
        boris = new_page()
        boris.add_init_script("localStorage.setItem('feltroom.name', 'Boris');"
                              "localStorage.setItem('feltroom.autoname', '0');")
        boris.goto(f"{url}/#/t/{tid}")
        boris.click("#take-seat")
        anna.click("#start-btn")
        boris.wait_for_selector(".mine .seat.me")
        for p in (anna, boris):
            p.evaluate("t => window.feltroom.conn.send({ type: 'leave', table: t })", tid)
        anna.wait_for_selector("#rating-changes", timeout=60_000)
        boris.wait_for_selector("#rematch-btn")
        boris.click("#rematch-btn")
        anna.wait_for_selector("#rematch-offer")
        shoot(anna, out, "endscreen")

        # The replay of one of Anna's Krypkasino games, from her seat, a few plays in.
        anna.goto(f"{url}/#/p/{player}")
        anna.wait_for_selector("#games")
        shoot(anna, out, "profile")
        anna.locator('#games tr:has-text("Krypkasino") [data-replay]').first.click()
        anna.wait_for_selector("#replay-pos")
        for _ in range(9):
            anna.keyboard.press("ArrowRight")
        anna.wait_for_timeout(400)
        shoot(anna, out, "replay")

        anna.goto(f"{url}/#/top/cribbage")
        anna.wait_for_selector("#board")
        shoot(anna, out, "leaderboard")
        browser.close()


if __name__ == "__main__":
    main()
