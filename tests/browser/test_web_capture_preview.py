"""Krypkasino's capture preview (issue 14, item 5): hovering a card of your hand, or tapping it
once on a touch screen, lights up the table cards it would take (and says "sweep" when it takes
them all); a second tap plays it, a mouse click plays at once. The client finds the capture
from the table it sees: checked here against the engine's own ``largest_captures``. And the
small cards (sweep markers, spade faces) read on a phone."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from feltroom.cards import NAMES, parse_card
from feltroom.games.krypkasino import HAND_VALUE, largest_captures

from .driver import create_table, fill_bots, open_lobby, start
from .layout import off_screen

pytestmark = pytest.mark.browser

MODULE = "/static/js/games/krypkasino.js"
STATE = """() => { const st = window.feltroom.tables.get(window.feltroom.route.table);
  if (!st || !st.upd || window.feltroom.renderPending) return null;
  return { seq: st.upd.seq, legal: st.upd.legal, table: st.upd.view.table, hand: st.upd.view.hand }; }"""
SEQ_PAST = "seq => window.feltroom.tables.get(window.feltroom.route.table).upd.seq > seq"
LIT = "() => [...document.querySelectorAll('.kr-table .card.hl')].map((e) => e.dataset.card)"


def expected(card: str, table: list[str], legal: list[str]) -> tuple[list[str], bool]:
    """What playing ``card`` takes by the engine (the union of the choices when there are
    several), and whether that is a sweep."""
    takes = [a.split(" take ")[1].split() for a in legal if a.startswith(f"play {card} take ")]
    if takes:
        return sorted({c for t in takes for c in t}), False
    caps = largest_captures(HAND_VALUE[parse_card(card)], [parse_card(c) for c in table])
    take = sorted(NAMES[c] for c in caps[0]) if caps else []
    return take, bool(take) and len(take) == len(table)


def my_turn(page: Page, limit: float = 20.0) -> dict[str, Any]:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        state = page.evaluate(STATE)
        if state and state["legal"]:
            return dict(state)
        page.wait_for_timeout(20)
    raise AssertionError("never your turn")


def test_the_clients_largest_capture_is_the_engines(page: Page) -> None:
    """Random tables from a double deck (face cards too: a trailed one stays, KRYP-FACE-4)."""
    open_lobby(page)
    rng = random.Random(14)
    deck = list(NAMES) * 2
    cases = []
    for _ in range(400):
        picked = rng.sample(deck, rng.randint(0, 11))
        cases.append((picked[0] if picked else rng.choice(NAMES), picked[1:]))
    # the rules' own examples: KRYP-SCN-10's 9D takes 2H 7S; two 3H count once (notation.md)
    cases += [("9D", ["2H", "7S", "KD"]), ("6C", ["AC", "2D", "3H", "3H"]), ("AS", ["AH"]), ("AS", ["KD", "AH"]),
              ("2C", ["AH", "AD"]), ("5S", ["5S"]), ("10H", ["3C", "7D", "4S", "6H", "10C", "2S"])]
    got = page.evaluate("async ([url, cases]) => { const m = await import(url);"
                        " return cases.map(([c, t]) => m.largestCapture(c, t)); }", [MODULE, cases])
    for (card, table), take in zip(cases, got, strict=True):
        caps = largest_captures(HAND_VALUE[parse_card(card)], [parse_card(c) for c in table])
        assert Counter(take) <= Counter(table), (card, table, take)
        if not caps:
            assert take == [], (card, table, take)
        else:
            assert sorted(take) in [sorted(NAMES[c] for c in cap) for cap in caps], (card, table, take, caps)
    assert sum(1 for t in got if t) > 100  # the cases do capture


def test_hovering_previews_the_capture_and_a_click_plays_at_once(page: Page) -> None:
    open_lobby(page)
    create_table(page, "krypkasino", 2)
    fill_bots(page)
    start(page)
    previewed = sweeps = 0
    for _turn in range(3):
        state = my_turn(page)
        playable = sorted({a.split()[1] for a in state["legal"]})
        for card in playable:
            page.locator(f".mine .hand .card[data-card='{card}']").first.hover()
            line = page.locator(f"#kr-preview[data-card='{card}']")
            expect(line).to_be_visible()
            take, sweep = expected(card, state["table"], state["legal"])
            assert sorted(page.evaluate(LIT)) == take, (card, state)
            expect(line).to_have_attribute("data-sweep", "true" if sweep else "false")
            if sweep:
                expect(line).to_contain_text("sweep!")
                sweeps += 1
            elif not take:
                expect(line).to_contain_text("trails")
            previewed += 1
        page.mouse.move(0, 0)
        expect(page.locator("#kr-preview")).to_have_count(0)
        single = [a for a in state["legal"] if " take " not in a]
        card = (single or state["legal"])[0].split()[1]
        page.locator(f".mine .hand .card[data-card='{card}']").first.click()  # one click plays
        if not single:  # only cards with several captures: the click opens the picker
            page.locator(".picker .btn.take").first.click()
        page.wait_for_function(SEQ_PAST, arg=state["seq"])
    assert previewed >= 3


def test_on_a_phone_the_first_tap_previews_and_the_second_plays(new_context: Callable[..., BrowserContext]) -> None:
    phone = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    open_lobby(phone)
    create_table(phone, "krypkasino", 2)
    fill_bots(phone)
    start(phone)
    state = my_turn(phone)
    card = sorted({a.split()[1] for a in state["legal"] if " take " not in a})[0]
    hand_card = phone.locator(f".mine .hand .card[data-card='{card}']").first
    hand_card.tap()
    line = phone.locator(f"#kr-preview[data-card='{card}']")
    expect(line).to_be_visible()
    expect(line).to_contain_text("tap again to play")
    take, _ = expected(card, state["table"], state["legal"])
    assert sorted(phone.evaluate(LIT)) == take
    expect(hand_card).to_have_attribute("aria-pressed", "true")
    phone.wait_for_timeout(300)
    assert phone.evaluate(STATE)["seq"] == state["seq"], "the first tap played the card"
    # the preview and the lit cards are on screen, and nothing is pushed off it
    for el in [line, *[phone.locator(".kr-table .card.hl").nth(i) for i in range(len(take))]]:
        b = el.bounding_box()
        assert b and b["x"] >= 0 and b["x"] + b["width"] <= 390 and b["y"] >= 0 and b["y"] + b["height"] <= 844, b
    assert off_screen(phone, 390, 844) == []
    phone.locator(f".mine .hand .card[data-card='{card}']").first.tap()
    phone.wait_for_function(SEQ_PAST, arg=state["seq"])


READABLE = """async (url) => {
  const { cardEl } = await import(url);
  const out = [];
  const place = (box, card, cls) => { const el = cardEl(card, { cls }); box.append(el); return el; };
  const pile = document.querySelector('.seat .capture');
  const markers = document.createElement('div'); markers.className = 'markers'; pile.append(markers);
  const fan = document.createElement('div'); fan.className = 'fan';
  document.querySelector('.kr-center .piles').append(fan);
  const drawn = [place(markers, 'QS', 'mini marker'), place(markers, '10D', 'mini marker'), place(fan, 'KS', 'mini')];
  for (const el of drawn) {
    const idx = el.querySelector('.tl'), r = el.getBoundingClientRect();
    out.push({ card: el.dataset.card, font: parseFloat(getComputedStyle(idx).fontSize), width: r.width,
      fits: idx.scrollWidth <= r.width + 0.5, inside: r.left >= 0 && r.right <= innerWidth });
  }
  markers.remove(); fan.remove();
  return out;
}"""


@pytest.mark.parametrize("size", [(360, 640), (1366, 768)])
def test_sweep_markers_and_face_cards_read_on_a_phone(new_context: Callable[..., BrowserContext],
                                                       size: tuple[int, int]) -> None:
    """A sweep marker and a spade face as the table draws them (cards.js, the real style sheet)."""
    width, height = size
    page = new_context(viewport={"width": width, "height": height}).new_page()
    open_lobby(page)
    create_table(page, "krypkasino", 2)
    fill_bots(page)
    start(page)
    for card in page.evaluate(READABLE, "/static/js/cards.js"):
        assert card["font"] >= 13 and card["width"] >= 28 and card["fits"] and card["inside"], card


MANY_MARKERS = """async (url) => {
  const { cardEl } = await import(url);
  const pile = document.querySelector('.mine .capture');
  if (!pile) return null;
  const markers = document.createElement('div'); markers.className = 'markers'; pile.append(markers);
  const cards = ['2S', '4C', '7H', '7C', '8C', '10S', '10C', 'JS', 'QD', 'KH', 'KC', 'KS', '3D', '5D'];
  const drawn = cards.map(c => { const el = cardEl(c, { cls: 'mini marker' }); markers.append(el); return el; });
  const shown = drawn.map((el, i) => {
    const range = document.createRange(); range.selectNodeContents(el.querySelector('.tl'));
    const idx = range.getBoundingClientRect();  // the index's text, not its box (the whole card)
    const next = drawn[i + 1] ? drawn[i + 1].getBoundingClientRect().left : Infinity;
    return idx.left >= 0 && idx.right <= Math.min(next, innerWidth) + 0.5;
  });
  return { rows: new Set(drawn.map(el => Math.round(el.getBoundingClientRect().top))).size,
           indexes: shown.every(Boolean), page: document.documentElement.scrollWidth <= innerWidth };
}"""


def test_a_dozen_sweep_markers_keep_a_phones_own_hand_on_screen(new_context: Callable[..., BrowserContext]) -> None:
    """Fourteen markers on your own capture pile fan out in one row, every index uncovered: in two
    rows they pushed a 360×640 phone's hand below the screen at the last packet."""
    page = new_context(viewport={"width": 360, "height": 640}).new_page()
    open_lobby(page)
    create_table(page, "krypkasino", 2)
    fill_bots(page)
    start(page)
    page.locator(".mine .capture").first.wait_for()
    drawn = page.evaluate(MANY_MARKERS, "/static/js/cards.js")
    assert drawn == {"rows": 1, "indexes": True, "page": True}, drawn
    assert off_screen(page, 360, 640) == []
