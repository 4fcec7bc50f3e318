"""The pages for players who come back: the replay viewer (each game, public and per seat, forward
and back), the end screen's replay link, the invitation link, profiles and leaderboards.

Games are finished fast without a browser: a protocol client creates a table of bots, starts it
and leaves at once, so that its stand-in and the bots play it to the end. Any console error or
uncaught exception on a page fails the test."""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from ..server.served import Peer, create_table
from .driver import create_table as ui_create_table
from .driver import open_lobby

pytestmark = pytest.mark.browser

SHORT: dict[str, tuple[int, dict[str, Any]]] = {
    "crisp": (3, {"end_limit": 50}),
    "craits": (3, {"short_game": True}),
    "cribbage": (2, {"target": 61, "counting": "automatic"}),
    "krypkasino": (2, {"dealer_rounds": 1}),
}

# Steps through the whole replay in the page (one rendered frame per step) with the viewer's own
# buttons; returns the first step whose position, table or seat panel was not drawn, or null.
WALK = """async ([dir, total, seated]) => {
  const frame = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  for (let k = 0; k < total - 1; k++) {
    document.querySelector(dir > 0 ? '#replay-next' : '#replay-prev').click();
    await frame();
    const want = dir > 0 ? k + 1 : total - 2 - k;
    const pos = document.querySelector('#replay-pos').textContent;
    if (!pos.startsWith(`Step ${want} of ${total - 1}`)) return `step ${want}: position ${pos}`;
    if (!document.querySelector('.replay-table .table-screen .center').children.length) return `step ${want}: no table`;
    if (seated !== !!document.querySelector('.replay-table .mine .seat.me')) return `step ${want}: seat panel`;
  }
  return null;
}"""


@pytest.fixture(autouse=True)
def console_errors(page: Page) -> Iterator[list[str]]:
    """Fails the test on any console error or uncaught exception of its page (a test that expects
    one removes it from the list)."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield errors
    assert not errors, f"console errors: {errors}"


def port_of(base_url: str) -> int:
    return int(base_url.rsplit(":", 1)[1])


def get_json(url: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


@pytest.fixture(scope="module")
def finished(base_url: str) -> Iterator[dict[str, str]]:
    """One finished game of each game (table ids), played by bots and a stand-in."""
    tables: dict[str, str] = {}
    with Peer(port_of(base_url), "Replayer") as ann:
        for game, (seats, options) in SHORT.items():
            tid = create_table(ann, game, seats, options, bots={i: "random" for i in range(1, seats)})
            assert ann.request({"type": "leave", "table": tid})["type"] == "table"
            tables[game] = tid
        deadline = time.monotonic() + 120
        for tid in tables.values():
            while get_json(f"{base_url}/api/games/{tid}/record")[0] != 200:
                assert time.monotonic() < deadline, "the bots did not finish the games"
                time.sleep(0.1)
    yield tables


def walk(page: Page, total: int, seated: bool) -> None:
    expect(page.locator("#replay-pos")).to_contain_text(f"Step 0 of {total - 1}")
    assert page.evaluate(WALK, [1, total, seated]) is None
    expect(page.locator("#replay-next")).to_be_disabled()
    expect(page.locator(".replay-table .over-bar #record-link")).to_be_visible()
    assert page.evaluate(WALK, [-1, total, seated]) is None
    expect(page.locator("#replay-prev")).to_be_disabled()


@pytest.mark.parametrize("game", list(SHORT))
def test_the_replay_steps_through_a_whole_game_public_and_per_seat(page: Page, base_url: str,
                                                                    finished: dict[str, str], game: str) -> None:
    tid = finished[game]
    status, rec = get_json(f"{base_url}/api/games/{tid}/record")
    assert status == 200
    total = len(rec["actions"]) + 1
    page.goto(f"/replay/{tid}")  # the viewer's address: the server hands it to the client
    expect(page.locator(".replay-screen")).to_be_visible()
    assert page.url.endswith(f"/#/replay/{tid}") or "step=" in page.url
    expect(page.locator(".replay-table .mine .seat.me")).to_have_count(0)
    walk(page, total, seated=False)
    # Keys: → ← End Home, and the slider.
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-pos")).to_contain_text(f"Step 2 of {total - 1}")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay-pos")).to_contain_text(f"Step 1 of {total - 1}")
    page.keyboard.press("End")
    expect(page.locator("#replay-pos")).to_contain_text(f"Step {total - 1} of {total - 1}")
    assert page.url.endswith(f"step={total - 1}")
    page.keyboard.press("Home")
    expect(page.locator("#replay-pos")).to_contain_text(f"Step 0 of {total - 1}")
    page.locator("#replay-slider").fill(str(total // 2))
    expect(page.locator("#replay-pos")).to_contain_text(f"Step {total // 2} of {total - 1}")
    for seat in range(rec["players"]):
        page.select_option("#replay-seat", str(seat))
        expect(page.locator(".replay-table .mine .seat.me")).to_have_attribute("data-seat", str(seat))
        # The seat's view keeps the step; walk the whole game from the start.
        page.keyboard.press("Home")
        walk(page, total, seated=True)
    page.select_option("#replay-seat", "")
    expect(page.locator(".replay-table .mine .seat.me")).to_have_count(0)


def test_autoplay_and_a_running_game_has_no_replay_yet(page: Page, base_url: str, finished: dict[str, str],
                                                       console_errors: list[str]) -> None:
    tid = finished["cribbage"]
    page.goto(f"/#/replay/{tid}")
    expect(page.locator("#replay-pos")).to_contain_text("Step 0 of")
    page.select_option("#replay-speed", "4")
    page.click("#replay-play")
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#replay-pos")).to_contain_text(re.compile(r"Step [3-9]\d* of"))
    page.keyboard.press(" ")
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "false")
    # A game still running is refused with the record's reason.
    with Peer(port_of(base_url), "Runner") as ann:
        running = create_table(ann, "cribbage", 2, SHORT["cribbage"][1], bots={1: "random"})
        page.goto(f"/#/replay/{running}")
        expect(page.locator("#replay-error")).to_contain_text("not over")
    # Chromium reports the refused request itself; nothing else may be on the console.
    assert [e for e in console_errors if "409" in e] and console_errors == [e for e in console_errors if "409" in e]
    console_errors.clear()


def test_the_end_screen_links_the_replay_of_the_players_seat(page: Page, finished: dict[str, str]) -> None:
    tid = finished["krypkasino"]
    open_lobby(page)
    page.goto(f"/#/t/{tid}")  # a spectator of the finished table
    expect(page.locator("#result #replay-link")).to_be_visible()
    page.click("#result #replay-link")
    expect(page.locator(".replay-screen")).to_be_visible()
    expect(page.locator("#replay-pos")).to_contain_text("Step 0 of")


def test_an_invitation_link_offers_a_seat_to_the_visitor(page: Page, browser: Any, base_url: str) -> None:
    open_lobby(page, "Inviter")
    tid = ui_create_table(page, "cribbage", 2, {"target": "61"})
    expect(page.locator("#invite-link")).to_have_value(f"{base_url}/#/t/{tid}")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.click("#invite-copy")
    expect(page.locator("#invite-done")).to_have_text("Link copied.")
    assert page.evaluate("navigator.clipboard.readText()") == f"{base_url}/#/t/{tid}"
    expect(page.locator("#take-seat")).to_have_count(0)  # the host is seated
    friend = browser.new_context(base_url=base_url)
    try:
        guest = friend.new_page()
        guest.goto(f"{base_url}/#/t/{tid}")
        expect(guest.locator("#take-seat")).to_be_visible()
        guest.click("#take-seat")
        expect(guest.locator(".wseat.me")).to_have_count(1)
        expect(guest.locator("#take-seat")).to_have_count(0)
        expect(page.locator(".wseat.taken")).to_have_count(2)
        expect(page.locator("#start-btn")).to_be_enabled()
    finally:
        friend.close()
