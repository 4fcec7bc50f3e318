"""The web client's promises beyond playing: memory-game peeks, errors, rejoin, lobby, keys."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

import feltroom
from feltroom.catalog import catalog, lobby_fields

from .driver import create_table, fill_bots, open_lobby, start

pytestmark = pytest.mark.browser


def crisp_game(page: Page) -> str:
    open_lobby(page)
    table = create_table(page, "crisp", 2, {"end_limit": "50"})
    fill_bots(page)
    start(page)
    return table


def test_crisp_peek_shown_then_removed_from_the_page(page: Page) -> None:
    """CRISP-DEAL-6 / CRISP-AMB-4: the peek shows L and R once, then they leave the DOM."""
    page.add_init_script("localStorage.setItem('feltroom.peekMs', '4000')")
    crisp_game(page)
    peeks = page.locator(".seat.me [data-peek]")
    expect(peeks).to_have_count(2)  # the initial peek: L and R, face up
    cards = [peeks.nth(i).get_attribute("data-card") for i in range(2)]
    assert all(re.fullmatch(r"(10|[2-9AJQK])[SHDC]", c or "") for c in cards)
    # Hidden after the time limit (here shortened): face down again, and gone from the page.
    expect(peeks).to_have_count(0, timeout=8000)
    slots = page.locator(".seat.me .slots")
    for c in cards:
        expect(slots.locator(f'[data-card="{c}"]')).to_have_count(0)
        assert f"({c}" not in slots.inner_html()
    # The history never repeats a peeked card either.
    assert "You look at your left card." in page.locator("#history").inner_text()


def test_crisp_peek_dismissed_by_the_player(page: Page) -> None:
    crisp_game(page)
    expect(page.locator(".seat.me [data-peek]")).to_have_count(2)
    page.click("#hide-peek")
    expect(page.locator(".seat.me [data-peek]")).to_have_count(0)
    expect(page.locator(".seat.me .slots .card.back")).to_have_count(3)


def test_rejected_action_shows_the_server_reason(page: Page) -> None:
    crisp_game(page)
    expect(page.locator('[data-act="draw"]').first).to_be_visible(timeout=10_000)
    # Swapping before drawing is against the rules: the server's message is shown.
    page.fill("#notation", "swap L")
    page.press("#notation", "Enter")
    err = page.locator("#act-error")
    expect(err).to_be_visible()
    expect(err).to_contain_text("CRISP-TURN-3")
    # A malformed action is rejected too, with the server's explanation.
    page.fill("#notation", "fly away")
    page.press("#notation", "Enter")
    expect(err).not_to_contain_text("CRISP-TURN-3")
    expect(err).not_to_be_empty()


def test_rejoin_after_reload_keeps_the_seat(page: Page) -> None:
    open_lobby(page, "Rejoiner")
    table = create_table(page, "cribbage", 2, {"target": "61"})
    fill_bots(page)
    start(page)
    hand = page.locator(".mine .hand .card")
    expect(hand).to_have_count(6)
    before = sorted(hand.nth(i).get_attribute("data-card") or "" for i in range(6))
    token = page.evaluate("localStorage.getItem('feltroom.token')")
    page.reload(wait_until="commit")
    expect(page.locator("#topbar .me-name")).to_have_text("Rejoiner")
    assert page.evaluate("localStorage.getItem('feltroom.token')") == token
    assert page.url.endswith(f"#/t/{table}")
    expect(page.locator(".mine .seat.me")).to_contain_text("Rejoiner")
    expect(hand).to_have_count(6)
    assert sorted(hand.nth(i).get_attribute("data-card") or "" for i in range(6)) == before
    # Still playable: pick two cards and the confirm button offers the discard.
    hand.nth(0).click()
    hand.nth(1).click()
    expect(page.locator('.actionbar [data-act^="discard "]')).to_be_enabled()


def test_lobby_lists_the_table_with_its_settings(page: Page, new_context: Callable[..., BrowserContext]) -> None:
    open_lobby(page, "Lobbyhost")  # names are one per room: other tests take "Host"
    table = create_table(page, "craits", 4, {"short_game": True, "idiot_card": True, "turn_time": "45"})
    other = new_context().new_page()
    open_lobby(other, "Guest")
    row = other.locator(f'.trow[data-table="{table}"]')
    expect(row).to_contain_text("Craits")
    expect(row).to_contain_text("1/4")
    expect(row).to_contain_text("Short game")
    expect(row).to_contain_text("Idiot card")
    expect(row).to_contain_text("Turn timer: 45 s")
    row.locator("[data-join]").click()
    expect(other.locator(".waiting")).to_be_visible()
    expect(page.locator(".wseat.taken")).to_have_count(2)  # the host sees the guest arrive
    expect(page.locator("#start-btn")).to_be_disabled()   # two seats still free


# The lobby form as the page shows it: seats and every option field, by key, as JSON values.
FORM = """() => Object.fromEntries([...document.querySelectorAll('#create-form [id^="opt-"]')]
  .map(e => [e.id.slice(4), e.type === 'checkbox' ? e.checked : JSON.parse(e.value)]))"""


def test_the_lobby_form_starts_from_the_engine_defaults(page: Page) -> None:
    """The browser's lobby draws its form from GET /api/games: for every game and seat count it
    offers what the server's lobby offers, preset to the engine's defaults, at the game's default seats."""
    open_lobby(page)
    games = catalog()
    expect(page.locator(f"#pick-{games[0]['name']}")).to_have_attribute("aria-checked", "true")
    for meta in games:
        name, cls = meta["name"], feltroom.GAMES[meta["name"]]
        page.click(f"#pick-{name}")
        expect(page.locator("#opt-seats")).to_have_value(str(cls.default_players))
        for seats in range(cls.min_players, cls.max_players + 1):
            page.select_option("#opt-seats", str(seats))
            engine = feltroom.new_game(name, players=seats, seed=0).options
            offered = [f["key"] for f in lobby_fields(cls, seats)]
            assert page.evaluate(FORM) == {"seats": seats} | {key: engine[key] for key in offered}, (name, seats)


def test_language_switch_and_keyboard_help(page: Page) -> None:
    open_lobby(page)
    page.click("#lang-ru")
    expect(page.locator("#create-btn")).to_have_text("Создать стол")
    page.click("#lang-en")
    expect(page.locator("#create-btn")).to_have_text("Create table")
    create_table(page, "cribbage", 2, {"target": "61"})
    fill_bots(page)
    start(page)
    expect(page.locator(".mine .hand .card")).to_have_count(6)
    # Hotkeys answer from the view, by phase (discard phase here).
    seq = seq_of(page)
    page.keyboard.press("c")
    expect(page.locator("#hotkey-answer")).to_contain_text("No count yet")  # CRIB-KEY-1
    page.keyboard.press("f")
    expect(page.locator("#hotkey-answer")).to_contain_text("Starter not turned yet")  # CRIB-KEY-3
    page.keyboard.press("v")
    expect(page.locator("#hotkey-answer")).to_contain_text("Only during the play")  # CRIB-KEY-4
    page.keyboard.press("s")
    expect(page.locator("#hotkey-answer")).to_contain_text("target 61")  # CRIB-KEY-5
    page.keyboard.press("t")
    expect(page.locator("#hotkey-answer")).to_contain_text("To discard")  # CRIB-KEY-6
    page.keyboard.press("b")
    expect(page.locator("#hotkey-answer")).to_contain_text("Crib:")  # CRIB-KEY-2
    # CRIB-KEY-7: hotkeys only read; nothing was sent or changed.
    assert seq_of(page) == seq
    expect(page.locator(".mine .hand .card")).to_have_count(6)
    # Digits pick cards, Enter confirms the discard.
    page.keyboard.press("1")
    page.keyboard.press("2")
    page.keyboard.press("Enter")
    expect(page.locator(".mine .hand .card")).to_have_count(4)


def test_spectator_sees_the_public_table_only(page: Page, new_context: Callable[..., BrowserContext]) -> None:
    open_lobby(page, "Player")
    table = create_table(page, "krypkasino", 2, {"dealer_rounds": "1"})
    fill_bots(page)
    start(page)
    expect(page.locator(".mine .hand .card")).not_to_have_count(0)
    watcher = new_context().new_page()
    open_lobby(watcher, "Onlooker")
    watcher.locator(f'.trow[data-table="{table}"] [data-watch]').click()
    expect(watcher.locator(".thead .spect")).to_be_visible()
    expect(watcher.locator(".opps .seat")).to_have_count(2)
    expect(watcher.locator(".kr-table")).to_be_visible()
    # No hand, no actions, no move box for a spectator.
    expect(watcher.locator(".mine .hand")).to_have_count(0)
    expect(watcher.locator("[data-act]")).to_have_count(0)
    expect(watcher.locator("#notation")).to_have_count(0)
    # Spectators may chat; the players see it in the history.
    watcher.fill(".chat input", "good luck")
    watcher.press(".chat input", "Enter")
    expect(page.locator("#history")).to_contain_text("good luck")


CURRENT = "window.feltroom.tables.get(window.feltroom.route.table)"


def seq_of(page: Page) -> int:
    return int(page.evaluate(f"{CURRENT}.upd.seq"))


def test_keyboard_play(page: Page) -> None:
    """Crisp by letters (D draws, then K, L/C/R or X resolves), Krypkasino by digits."""
    crisp_game(page)
    expect(page.locator('.actionbar [data-act="draw"]')).to_be_visible(timeout=10_000)
    page.locator(".seat.me").click()  # focus the page, not an input
    page.keyboard.press("d")
    expect(page.locator(".crisp-center .held")).to_be_visible()
    legal = page.evaluate(f"{CURRENT}.upd.legal")
    key = "k" if "king" in legal else "l" if "swap L" in legal else "x"
    before = seq_of(page)
    page.keyboard.press(key)
    page.wait_for_function(f"() => {CURRENT}.upd.seq > {before}")  # a function: CSP forbids eval

    open_lobby(page)
    create_table(page, "krypkasino", 2, {"dealer_rounds": "1"})
    fill_bots(page)
    start(page)
    expect(page.locator(".mine .seat.me.turn")).to_be_visible(timeout=10_000)
    page.wait_for_function("() => window.feltroom.renderPending === false")
    before = seq_of(page)
    # The first card that may be played now (with a sweep available, only sweeping cards may).
    cards = page.locator(".mine .hand .card")
    k = next(i for i in range(cards.count()) if "playable" in (cards.nth(i).get_attribute("class") or ""))
    played = cards.nth(k).get_attribute("data-card")
    page.keyboard.press(str(k + 1))
    if page.locator(".picker").count():  # several captures: digits choose one
        page.keyboard.press("1")
    page.wait_for_function(f"() => {CURRENT}.upd.seq > {before}")  # a function: CSP forbids eval
    expect(page.locator("#history")).to_contain_text(str(played)[:-1])


def test_crisp_button_counts_down_after_my_turn(page: Page) -> None:
    """CRISP-ONL-WIN-1: after my turn the CRISP! button shows the 3-second window running out.

    A bot may declare before my first turn (then my turn is a last turn, with no window:
    CRISP-CALL-5), so the test deals a new game until my turn opens a window.
    """
    button = page.locator('.crisp-btn[data-act="crisp"]')
    for _attempt in range(5):
        crisp_game(page)
        page.locator('.actionbar [data-act="draw"]').click(timeout=10_000)
        expect(page.locator(".crisp-center .held")).to_be_visible()
        for _ in range(8):  # resolve (a King draws again) until the turn ends
            if button.count() or page.locator(".crisp-call.done").count():
                break
            option = page.locator('.seat.me [data-act^="swap "], .actionbar [data-act="king"], '
                                  '.actionbar [data-act="draw"], .actionbar [data-act="discard"]').first
            with contextlib.suppress(Exception):
                option.click(timeout=1000)
            page.wait_for_timeout(150)
        if button.count():
            break
    expect(button).to_be_visible()
    left = float(button.locator(".clock").inner_text())
    assert 0 < left <= 3.0
    button.click()
    expect(page.locator("#history")).to_contain_text("calls CRISP!")
