"""The pages for players who come back: the replay viewer (each game, public and per seat, forward
and back), the end screen (rating changes, rematch by two players, the replay link), the
invitation link, profiles and leaderboards.

Games are finished fast without a browser: a protocol client creates a table of bots, starts it
and leaves at once, so that its stand-in and the bots play it to the end. Any console error or
uncaught exception on a page fails the test."""

from __future__ import annotations

import contextlib
import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from feltroom.server import Limits

from ..helpers import SHORT_TABLES
from ..server.served import Peer, Served, create_table, eventually
from .driver import create_table as ui_create_table
from .driver import open_lobby

pytestmark = pytest.mark.browser


# Steps through the whole replay in the page with the viewer's own buttons (a step is drawn as it
# is taken); returns the first step whose position, table or seat panel was not drawn, or null.
WALK = """([dir, total, seated]) => {
  for (let k = 0; k < total - 1; k++) {
    document.querySelector(dir > 0 ? '#replay-next' : '#replay-prev').click();
    const want = dir > 0 ? k + 1 : total - 2 - k;
    const pos = document.querySelector('#replay-pos').textContent;
    if (!pos.startsWith(`Step ${want} of ${total - 1}`)) return `step ${want}: position ${pos}`;
    if (!document.querySelector('.replay-table .table-screen .center').children.length) return `step ${want}: no table`;
    if (seated !== !!document.querySelector('.replay-table .mine .seat.me')) return `step ${want}: seat panel`;
  }
  return null;
}"""


@pytest.fixture(scope="module")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """Reduced motion: a replay walked step by step would start a card flight at every step."""
    return {**browser_context_args, "reduced_motion": "reduce"}


@contextlib.contextmanager
def other_page(browser: Browser, base_url: str, expected: str | None = None) -> Iterator[Page]:
    """A page in a context of its own (another person), failing on any console error or uncaught
    exception but the one ``expected`` (Chromium reports a refused request, e.g. a 404, itself)."""
    context = browser.new_context(base_url=base_url, reduced_motion="reduce")
    errors: list[str] = []
    context.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    context.on("weberror", lambda e: errors.append(str(e.error)))
    try:
        yield context.new_page()
    finally:
        context.close()
    if expected is not None:
        assert any(expected in e for e in errors), errors
        errors = [e for e in errors if expected not in e]
    assert not errors, errors


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
        for game, (seats, options) in SHORT_TABLES.items():
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


@pytest.mark.parametrize("game", list(SHORT_TABLES))
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
    expect(page).to_have_url(re.compile(f"step={total - 1}$"))
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


def test_autoplay_and_a_running_game_has_no_replay_yet(page: Page, browser: Browser, base_url: str,
                                                       finished: dict[str, str]) -> None:
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
    with Peer(port_of(base_url), "Runner") as ann, other_page(browser, base_url, "409") as other:
        running = create_table(ann, "cribbage", 2, SHORT_TABLES["cribbage"][1], bots={1: "random"})
        other.goto(f"/#/replay/{running}")
        expect(other.locator("#replay-error")).to_contain_text("not over")


def test_the_end_screen_links_the_replay_of_the_players_seat(page: Page, finished: dict[str, str]) -> None:
    tid = finished["krypkasino"]
    open_lobby(page)
    page.goto(f"/#/t/{tid}")  # a spectator of the finished table
    expect(page.locator("#result #replay-link")).to_be_visible()
    page.click("#result #replay-link")
    expect(page.locator(".replay-screen")).to_be_visible()
    expect(page.locator("#replay-pos")).to_contain_text("Step 0 of")


def test_an_invitation_link_offers_a_seat_to_the_visitor(page: Page, browser: Browser, base_url: str) -> None:
    open_lobby(page, "Inviter")
    tid = ui_create_table(page, "cribbage", 2, {"target": "61"})
    expect(page.locator("#invite-link")).to_have_value(f"{base_url}/#/t/{tid}")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.click("#invite-copy")
    expect(page.locator("#invite-done")).to_have_text("Link copied.")
    assert page.evaluate("navigator.clipboard.readText()") == f"{base_url}/#/t/{tid}"
    expect(page.locator("#take-seat")).to_have_count(0)  # the host is seated
    with other_page(browser, base_url) as guest:
        guest.goto(f"{base_url}/#/t/{tid}")
        expect(guest.locator("#take-seat")).to_be_visible()
        guest.click("#take-seat")
        expect(guest.locator(".wseat.me")).to_have_count(1)
        expect(guest.locator("#take-seat")).to_have_count(0)
        expect(page.locator(".wseat.taken")).to_have_count(2)
        expect(page.locator("#start-btn")).to_be_enabled()


LEAVE = "table => window.feltroom.conn.send({ type: 'leave', table })"  # the stand-in plays on


def test_rematch_from_the_end_screen_by_two_players(page: Page, browser: Browser, base_url: str) -> None:
    open_lobby(page, "Ada")
    tid = ui_create_table(page, "cribbage", 2, {"target": "61", "counting": "automatic"})
    with other_page(browser, base_url) as bob:
        bob.goto(f"{base_url}/#/t/{tid}")
        bob.click("#take-seat")
        expect(page.locator("#start-btn")).to_be_enabled()
        page.click("#start-btn")
        expect(bob.locator(".mine .seat.me")).to_be_visible()
        # Both hand their seats to stand-ins, which finish the game fast; both stay its players.
        page.evaluate(LEAVE, tid)
        bob.evaluate(LEAVE, tid)
        for p in (page, bob):
            expect(p.locator("#result")).to_be_visible(timeout=60_000)
            # Two people: a rated game; each seat's rating change is shown.
            expect(p.locator("#rating-changes tbody tr")).to_have_count(2)
            expect(p.locator("#rating-changes .delta.up")).to_have_count(1)
            expect(p.locator("#rating-changes .delta.down")).to_have_count(1)
        expect(page.locator("#result #replay-link")).to_have_attribute("href", f"#/replay/{tid}?seat=0")
        page.click("#rematch-btn")
        expect(page.locator("#rematch-btn")).to_be_disabled()
        expect(page.locator("#rematch-btn")).to_have_text("Waiting for the others…")
        offer = bob.locator("#rematch-offer")
        expect(offer).to_contain_text("Rematch offered by Ada")
        expect(offer.locator(".clock")).to_have_text(re.compile(r"^(5\d|60)$"))  # the 60 s countdown
        expect(bob.locator("#rematch-btn")).to_have_text("Accept the rematch")
        bob.click("#rematch-btn")
        # Both are moved to the new table, seated as before, and it plays.
        for p in (page, bob):
            expect(p).not_to_have_url(re.compile(f"{tid}$"))
            expect(p.locator(".mine .seat.me")).to_be_visible()
        new = page.url.split("#/t/")[1]
        assert new != tid and bob.url.endswith(f"#/t/{new}")
        expect(page.locator(".mine .seat.me")).to_have_attribute("data-seat", "0")
        expect(bob.locator(".mine .seat.me")).to_have_attribute("data-seat", "1")


def test_a_profile_lists_ratings_and_games_with_their_replays(page: Page, browser: Browser, base_url: str,
                                                               finished: dict[str, str]) -> None:
    # The finished games' player: its id from a replay's seats (the record names every seat's player).
    _, rep = get_json(f"{base_url}/api/games/{finished['cribbage']}/replay?count=1")
    player = rep["seats"][0]["player"]
    assert player and rep["seats"][1]["player"] == "bot:random"
    page.goto(f"/#/p/{player}")
    expect(page.locator("#profile-name")).to_contain_text("Replayer")
    ratings = page.locator("#ratings tbody tr")
    expect(ratings).to_have_count(4)  # one finished game of each game: provisional ratings
    expect(ratings.first).to_contain_text("?")
    expect(page.locator("#games tbody tr")).to_have_count(4)
    row = page.locator(f'#games tbody tr[data-table="{finished["krypkasino"]}"]')
    expect(row).to_contain_text("Replayer")
    row.locator("[data-replay]").click()
    expect(page.locator(".replay-screen")).to_be_visible()
    expect(page.locator("#replay-seat")).to_have_value("0")  # the player's own seat
    expect(page.locator(".replay-table .mine .seat.me")).to_be_visible()
    # Seat names link to profiles: the bot's leads to the bot level's page.
    page.locator('.replay-table .seat[data-seat="1"] a.plink').click()
    expect(page.locator("#profile-name")).to_contain_text("random bot")
    expect(page.locator("#ratings tbody tr")).not_to_have_count(0)
    with other_page(browser, base_url, "404") as other:
        other.goto("/#/p/0000000000000000")
        expect(other.locator("#page-state")).to_have_text("No such player.")


@pytest.fixture(scope="module")
def ladder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A room of its own where one person (by stand-in) played 10 Cribbage games against the random
    bot: both have the 10 rated games a leaderboard asks for. Its URL and the person's id."""
    with Served(tmp_path_factory.mktemp("ladder") / "room.sqlite", Limits(new_tables_per_hour=100)) as served:
        url = f"http://127.0.0.1:{served.port}"
        with Peer(served.port, "Laddie") as ann:
            for batch in range(2):  # at most 8 unfinished tables per player
                options = SHORT_TABLES["cribbage"][1]
                tids = [create_table(ann, "cribbage", 2, options, bots={1: "random"}) for _ in range(5)]
                for tid in tids:
                    assert ann.request({"type": "leave", "table": tid})["type"] == "table"
                for tid in tids:
                    eventually(lambda tid=tid: get_json(f"{url}/api/games/{tid}/record")[0] == 200, 60, f"game {batch}")
            assert ann.player is not None
            yield url, ann.player


def test_the_leaderboard_ranks_players_with_ten_games(page: Page, ladder: tuple[str, str]) -> None:
    url, player = ladder
    open_lobby(page)
    page.goto(f"{url}/#/top/cribbage")
    rows = page.locator("#board tbody tr")
    expect(rows).to_have_count(2)
    me = page.locator(f'#board tbody tr[data-player="{player}"]')
    expect(me).to_contain_text("Laddie")
    expect(me.locator("td").nth(3)).to_have_text("10")
    expect(me.locator("td").nth(2)).not_to_contain_text("?")  # 10 games: no longer provisional
    expect(page.locator('#board tbody tr[data-player="bot:random"]')).to_contain_text("random bot")
    # The other games have nobody with 10 games yet; the tabs switch games.
    page.click("text=Crisp")
    expect(page.locator("#page-state")).to_have_text("Nobody has played 10 rated games of this yet.")
    page.click("text=Cribbage")
    page.locator(f'#board a[data-player="{player}"]').click()
    expect(page.locator("#profile-name")).to_contain_text("Laddie")
    expect(page.locator("#games tbody tr")).to_have_count(10)
    expect(page.locator('#ratings tr[data-game="cribbage"]')).to_contain_text("10")
    # The header links to the leaderboard, and the name to one's own profile.
    page.click("#top-link")
    expect(page.locator("#leaderboard h1")).to_contain_text("Crisp")
