"""The table screen: stable hooks (data-role, data-game, data-phase), presence of a disconnected
player and its stand-in, the layout at five window sizes, and the smaller fixes of issue 14."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Mapping

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from feltroom.registry import GAMES

from ..helpers import SHORT_GAMES
from .conftest import SHORT_GRACE
from .driver import PICK, create_table, fill_bots, open_lobby, start
from .layout import SIZES, layout_failures

pytestmark = pytest.mark.browser



def start_against_bots(page: Page, game: str, options: Mapping[str, object] | None = None) -> str:
    open_lobby(page)
    table = create_table(page, game, 2, options)
    fill_bots(page)
    start(page)
    return table


def play_until(page: Page, done: str, limit: float = 60.0) -> None:
    """Play legal actions (the driver's picks; claims of 0) until the script ``done`` is true."""
    deadline = time.monotonic() + limit
    # one evaluation, so that no render comes between the check and the pick: a claim box drawn just after
    # ``done`` was read false was claimed with 0 here before the test could look at it
    check_then_pick = f"() => ({done})() ? 'done' : ({PICK})()"
    while time.monotonic() < deadline:
        what = page.evaluate(check_then_pick)
        if what == "done":
            return
        if what in (None, "busy", "result"):
            page.wait_for_timeout(20)
            continue
        play_pick(page, what)
        page.wait_for_timeout(10)
    raise AssertionError(f"not reached in {limit} s: {done}")


def play_pick(page: Page, what: str) -> None:
    """Make the move PICK chose (a claim of 0, or a click on the marked control)."""
    try:
        if what == "claim":
            page.fill("#claim-input", "0", timeout=500)
            page.press("#claim-input", "Enter", timeout=500)
        else:
            page.click("[data-pick]", timeout=500)
    except Exception:  # the table re-rendered under the click: the caller picks again
        pass


@pytest.mark.parametrize("game", sorted(GAMES))
def test_hooks_and_layout_at_the_start_of_a_game(page: Page, game: str) -> None:
    start_against_bots(page, game)
    root = page.locator(".table-screen")
    expect(root).to_have_attribute("data-game", game)
    phase = page.evaluate("() => window.feltroom.tables.get(window.feltroom.route.table).upd.view.phase")
    expect(root).to_have_attribute("data-phase", phase)
    for role in ("hand", "status", "actions"):
        expect(root.locator(f"[data-role={role}]")).to_have_count(1)
    expect(root.locator("[data-role=hand] .card")).to_have_count(3 if game == "crisp" else len(
        page.evaluate("() => window.feltroom.tables.get(window.feltroom.route.table).upd.view.hand")))
    expect(root.locator("[data-role=status] #status-line")).not_to_be_empty()
    assert layout_failures(page) == {}


MY_TURN = """() => { const st = window.feltroom.tables.get(window.feltroom.route.table);
  return !!(st && st.upd && st.upd.legal.length && !window.feltroom.renderPending); }"""
# What the screen shows you now: the phase, and the kinds of move you have (their verbs).
SITUATION = """() => { const st = window.feltroom.tables.get(window.feltroom.route.table);
  const verbs = [...new Set(st.upd.legal.map((a) => a.split(' ')[0]))].sort().join(',');
  return `${st.upd.view.phase}:${verbs}:${document.querySelector('#round-result') ? 'result' : ''}`; }"""


# The result panel's buttons that, scrolled into view, still are not inside the viewport (none there: "none").
RESULT_BUTTONS_OFF_SCREEN = """() => {
  const buttons = [...document.querySelectorAll('#result .ractions > *')];
  if (!buttons.length) return ['none'];
  return buttons.filter((b) => {
    b.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    const r = b.getBoundingClientRect();
    return r.width === 0 || r.top < -0.5 || r.left < -0.5 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5;
  }).map((b) => b.textContent.trim());
}"""


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_game_against_bots_fits_every_screen_and_keeps_its_record(page: Page, game: str) -> None:
    """A person plays a whole game against bots to its result screen. At your turn, the first three
    times in each situation (phase, kinds of move, a result panel up or not) and every tenth turn
    after: at all five sizes, your hand, the status and every enabled move are on screen and
    nothing overflows. The host settings are on the table; the result names the winner, fits, and
    links to the game's record."""
    table = start_against_bots(page, game, SHORT_GAMES[game])
    expect(page.locator(".thead .chips")).not_to_be_empty()
    seen: dict[str, int] = {}
    turns = 0
    deadline = time.monotonic() + 240
    while not page.locator("#result").count():
        assert time.monotonic() < deadline, f"no result in 240 s; checked {seen}"
        if page.evaluate(MY_TURN):
            turns += 1
            situation = page.evaluate(SITUATION)
            if seen.get(situation, 0) < 3 or turns % 10 == 0:
                assert layout_failures(page) == {}, situation
                seen[situation] = seen.get(situation, 0) + 1
        what = page.evaluate(PICK)
        if what not in (None, "busy", "result"):
            play_pick(page, what)
        page.wait_for_timeout(15)
    assert len(seen) >= 2, seen
    # the result screen fits too: its dialog and its buttons (nothing is left to play); one script per
    # size, as the panel re-renders when a rematch offer or a rating arrives
    for width, height in SIZES.values():
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth"), (width, height)
        assert page.evaluate(RESULT_BUTTONS_OFF_SCREEN) == [], (width, height)
    expect(page.locator("#result")).to_contain_text("Winner")
    link = page.locator("#result #record-link")
    expect(link).to_have_attribute("href", f"/api/games/{table}/record")
    record = page.request.get(link.get_attribute("href") or "")
    assert record.ok
    data = json.loads(record.text())
    assert data["name"] == game and data["players"] == 2 and data["actions"]


# The fullest Krypkasino screen late in a deal: many cards on the table, four spade faces and seven dead
# cards beside it, sweep markers on both seats, the last packet. The client draws what it is given, so
# the view is filled in the page and drawn again (a language switch redraws everything).
FULL_KRYPKASINO = """(n) => { const v = window.feltroom.tables.get(window.feltroom.route.table).upd.view;
  v.table = ['2C','3D','4H','5S','6C','7D','8H','9S','10C','JD','QH','KS','AC','2D','3H','4S'].slice(0, n);
  v.spade_faces = ['KS','QS','JS','KS']; v.dead = ['KC','KD','KH','QC','QD','QH','JC'];
  v.piles = [{size: 47, markers: ['4D','5D','KH']}, {size: 38, markers: ['7H','10D']}];
  v.packet = 12; v.last_packet = true; v.stock_size = 0; }"""


def test_a_full_krypkasino_table_late_in_a_deal_leaves_the_hand_on_every_screen(page: Page) -> None:
    """The whole-game check found a late Krypkasino deal pushing the hand off a 360×640 screen: here
    the fullest table it can show (up to 16 cards) fits at every size."""
    start_against_bots(page, "krypkasino", SHORT_GAMES["krypkasino"])
    expect(page.locator(".table-screen [data-role=hand] .card").first).to_be_visible()
    for n in (4, 8, 12, 16):
        page.evaluate(FULL_KRYPKASINO, n)
        page.click("#lang-ru")
        page.click("#lang-en")
        expect(page.locator(".kr-table > .card")).to_have_count(n)
        assert layout_failures(page) == {}, n


# A card with several largest captures (KRYP-CAPTURE-4) late in a deal: a full table, the piles beside
# it, and three tied captures of four cards each; the chooser is then opened by a click on the card.
PICKING_KRYPKASINO = """() => { const st = window.feltroom.tables.get(window.feltroom.route.table);
  const v = st.upd.view;
  v.table = ['AS','AC','AH','8S','8C','8D','3C','4D','5H','6S','7C','10D','JH','QS'];
  v.hand = ['9C','KD','2H','6D']; v.to_act = [st.upd.seat];
  v.spade_faces = ['KS','QS','JS']; v.dead = ['KC','KH','QC','QD','JC'];
  v.piles = [{size: 37, markers: ['4D','5D']}, {size: 28, markers: ['7H']}];
  v.packet = 11; v.stock_size = 4;
  st.upd.legal = ['play 9C take AS AC 8S 8C', 'play 9C take AS AH 8S 8C', 'play 9C take AC AH 8S 8C',
                  'play KD', 'play 2H', 'play 6D']; }"""
MY_MOVES = "() => (window.feltroom.tables.get(window.feltroom.route.table).upd?.legal || []).length > 0"


def test_choosing_among_tied_captures_leaves_the_hand_and_the_moves_on_every_screen(page: Page) -> None:
    """The whole-game check met the capture chooser pushing the hand (360×640) and the move box
    (1366×768) below the screen: with the fullest such table, the chooser, your hand, the status and
    every move fit at every size."""
    start_against_bots(page, "krypkasino", SHORT_GAMES["krypkasino"])
    page.wait_for_function(MY_MOVES)
    page.evaluate(PICKING_KRYPKASINO)
    page.click("#lang-ru")
    page.click("#lang-en")
    page.locator(".table-screen [data-role=hand] [data-card='9C']").click()
    expect(page.locator(".picker .btn.take")).to_have_count(3)
    assert layout_failures(page) == {}


def test_the_waiting_room_hook_and_phases_follow_the_view(page: Page) -> None:
    open_lobby(page)
    create_table(page, "cribbage", 2)
    root = page.locator(".table-screen")
    expect(root).to_have_attribute("data-phase", "waiting")
    fill_bots(page)
    start(page)
    expect(root).to_have_attribute("data-phase", "discard")
    play_until(page, "() => document.querySelector('.table-screen').dataset.phase === 'play'")
    expect(root.locator("[data-role=actions]")).to_have_count(1)


def test_a_disconnected_player_shows_a_countdown_then_its_stand_in(
        new_context: Callable[..., BrowserContext], short_grace_server: str) -> None:
    ann = new_context().new_page()
    ann.goto(f"{short_grace_server}/")
    expect(ann.locator("#topbar .conn.online")).to_be_visible()
    table = create_table(ann, "cribbage", 2)
    bob_context = new_context()
    bob = bob_context.new_page()
    bob.goto(f"{short_grace_server}/")
    expect(bob.locator("#topbar .conn.online")).to_be_visible()
    bob.fill("#name-input", "Bob")
    bob.click("#name-save")
    expect(bob.locator("#topbar .me-name")).to_have_text("Bob")
    bob.goto(f"{short_grace_server}/#/t/{table}")
    bob.click("[data-sit='1']")
    expect(ann.locator("#start-btn")).to_be_enabled()
    start(ann)
    seat = ann.locator(".seat[data-seat='1']")
    expect(seat.locator("[data-role=presence]")).to_have_count(0)
    bob_context.close()
    presence = seat.locator("[data-role=presence]")
    expect(presence).to_contain_text("disconnected")
    expect(presence).to_contain_text("a bot takes over in")
    left = presence.locator(".clock").inner_text()
    # whole seconds, rounded up, against the server clock as the client estimates it
    assert re.fullmatch(r"\d+", left) and 0 <= int(left) <= SHORT_GRACE + 1, left
    expect(presence).to_contain_text("bot plays for Bob", timeout=3_000 + SHORT_GRACE * 1000)
    expect(presence.locator(".clock")).to_have_count(0)
    ann.click("#lang-ru")
    expect(seat.locator("[data-role=presence]")).to_have_text("за Bob играет бот")


def test_a_spectator_is_told_when_no_seat_is_free(page: Page, new_context: Callable[..., BrowserContext]) -> None:
    open_lobby(page)
    table = create_table(page, "krypkasino", 2)
    watcher = new_context().new_page()
    watcher.goto(f"/#/t/{table}")
    hint = watcher.locator("#spectator-hint")
    expect(hint).to_have_text("Pick a free seat, or watch.")
    fill_bots(page)
    expect(hint).to_have_text("Every seat is taken: you are watching this table.")
    expect(watcher.locator("[data-sit]")).to_have_count(0)


def test_phone_has_no_keyboard_hints_and_the_chips_fit(new_context: Callable[..., BrowserContext]) -> None:
    """The option chips fit a phone unclipped (at 360×640 they show until the start, then give
    way to the game: docs/web.md), and a phone has no keyboard hints."""
    for width, height in ((360, 640), (390, 844)):
        phone = new_context(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True).new_page()
        open_lobby(phone)
        create_table(phone, "craits", 2, {"short_game": True})
        fill_bots(phone)
        chips_fit(phone, width)
        start(phone)
        expect(phone.locator(".table-screen details.keys")).to_be_hidden()
        expect(phone.locator(".table-screen kbd:visible")).to_have_count(0)
        expect(phone.locator("#rules-btn")).to_be_visible()
        if height > 700:
            chips_fit(phone, width)
        else:
            expect(phone.locator(".thead .chip:visible")).to_have_count(0)


def chips_fit(phone: Page, width: int) -> None:
    chips = phone.locator(".thead .chip")
    assert chips.count() >= 3
    for i in range(chips.count()):
        box = chips.nth(i).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, chips.nth(i).inner_text()
        assert chips.nth(i).evaluate("e => e.scrollWidth <= e.clientWidth"), chips.nth(i).inner_text()


def test_desktop_keeps_the_keyboard_panel(page: Page) -> None:
    start_against_bots(page, "krypkasino")
    expect(page.locator(".table-screen details.keys")).to_be_visible()


def test_cribbage_hotkey_answer_and_its_close_button_do_not_overlap(page: Page) -> None:
    start_against_bots(page, "cribbage")
    page.set_viewport_size({"width": 360, "height": 640})
    page.locator("body").press("S")
    answer = page.locator("#hotkey-answer")
    expect(answer).to_be_visible()
    text, close = answer.locator(".hk-text").bounding_box(), answer.locator("button").bounding_box()
    assert text and close
    assert text["x"] + text["width"] <= close["x"] or close["y"] >= text["y"] + text["height"], (text, close)
    answer.locator("button").click()
    expect(answer).to_have_count(0)


def test_typing_a_claim_enables_the_claim_button(page: Page) -> None:
    start_against_bots(page, "cribbage", {"target": "61"})
    play_until(page, "() => !!document.querySelector('#claim-input')", limit=90)
    claim = page.locator("#claim-btn")
    expect(claim).to_be_disabled()
    page.locator("#claim-input").press_sequentially("2")
    expect(claim).to_be_enabled()
    expect(page.locator("#claim-input")).to_be_focused()
    claim.click()
    expect(page.locator("#history")).to_contain_text("claim 2")


def test_craits_shows_the_cut_cards_and_the_hand_result_has_headers(page: Page) -> None:
    start_against_bots(page, "craits", {"short_game": True})
    cut = page.locator("#history li", has_text="Cut for the deal")
    expect(cut).to_have_count(1)
    assert cut.locator(".ct").count() >= 2  # at least one card per seat
    play_until(page, "() => !!document.querySelector('#round-result')", limit=90)
    heads = page.locator("#round-result thead th")
    expect(heads.first).to_have_text("Player")
    expect(heads.last).to_have_text("score")


def test_on_a_phone_unread_chat_is_counted_on_the_closed_history(new_context: Callable[..., BrowserContext]) -> None:
    """The History (with the chat) starts closed on a phone: a line from someone else shows as
    "1 new" on it until it is opened."""
    phone = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    table = start_against_bots(phone, "krypkasino")
    hist = phone.locator("details.hist")
    expect(hist).not_to_have_attribute("open", "")
    watcher = new_context().new_page()
    open_lobby(watcher, "Watcher")
    watcher.goto(f"/#/t/{table}")
    expect(watcher.locator(".table-screen")).to_have_attribute("data-game", "krypkasino")
    watcher.fill(".chat input", "hello from the rail")
    watcher.press(".chat input", "Enter")
    unread = phone.locator("[data-role=unread]")
    expect(unread).to_have_text("1 new")
    box = unread.bounding_box()
    assert box and box["x"] + box["width"] <= 390
    phone.locator("details.hist > summary").tap()
    expect(phone.locator("#history .chatmsg")).to_contain_text("hello from the rail")
    expect(unread).to_have_text("")
    phone.locator("details.hist > summary").tap()  # closed again: the next line counts
    expect(hist).not_to_have_attribute("open", "")
    phone.click("#lang-ru")
    watcher.fill(".chat input", "и ещё")
    watcher.press(".chat input", "Enter")
    expect(unread).to_have_text("новых: 1")
