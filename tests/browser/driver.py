"""Helpers that drive the web client like a person: create a table, seat bots, start, play."""

from __future__ import annotations

import time
from collections.abc import Mapping

from playwright.sync_api import Page, expect

# Picks the next thing a player would click, marks it with data-pick and returns a description.
# Order: the crisp button (ends Crisp rounds fast), then a card of the hand offering a legal action,
# then any element offering one (data-act), then Cribbage discard selection, then a playable card that opens a choice;
# a moment floating over the pick (on a phone) is closed first.
PICK = """() => {
  document.querySelectorAll('[data-pick]').forEach(e => e.removeAttribute('data-pick'));
  const scr = document.querySelector('.table-screen');
  if (!scr) return null;
  const vis = e => !e.disabled && e.offsetParent !== null;
  const mark = (e, what) => { e.setAttribute('data-pick', '1'); return what; };
  if (document.querySelector('#result')) return 'result';
  const app = window.feltroom;
  if (app.renderPending || performance.now() - (app.lastRender || 0) < 25) return 'busy';
  // On a phone a moment floats over the other seats and the table's centre (position: fixed): a person
  // closes it to play there (pointing at it would keep it open).
  const moment = document.querySelector('#moment');
  const inWay = moment && getComputedStyle(moment).position === 'fixed' ? moment.querySelector('#moment-close') : null;
  const pick = (e, what) => (inWay && !e.closest('.mine') ? mark(inWay, 'close moment') : mark(e, what));
  const claim = document.querySelector('#claim-input');
  if (claim && vis(claim)) return 'claim';
  const one = scr.querySelector('.actionbar .toggle[aria-pressed="false"]');  // Craits: say "one card"
  if (one && vis(one)) return pick(one, 'one card');
  const crisp = scr.querySelector('[data-act="crisp"]');
  if (crisp && vis(crisp)) return pick(crisp, 'crisp');
  // Crisp Queen: pick one of my slots first (then the other seats' slots offer `queen …`).
  const queens = [...scr.querySelectorAll('[data-act^="queen "]')].filter(vis);
  if (queens.length) return pick(queens[0], queens[0].dataset.act);
  const qslot = scr.querySelector('.seat.me .slots button[aria-pressed="false"]');
  if (qslot && vis(qslot)) return pick(qslot, 'queen slot');
  const acts = [...scr.querySelectorAll('[data-act]')].filter(vis);
  // Shed cards first (games end sooner), else any offered action.
  const plays = acts.filter(e => e.closest('.mine .hand'));
  const pool = plays.length ? plays : acts;
  if (pool.length) { const e = pool[Math.floor(Math.random() * pool.length)]; return pick(e, e.dataset.act); }
  const sel = [...scr.querySelectorAll('.mine [data-select][aria-pressed="false"]')].filter(vis);
  if (sel.length) return pick(sel[0], 'select ' + sel[0].dataset.card);
  const cards = [...scr.querySelectorAll('.mine button.card.playable')].filter(vis);
  if (cards.length) return pick(cards[0], 'open ' + cards[0].dataset.card);
  return null;
}"""


def open_lobby(page: Page, name: str | None = None) -> None:
    page.goto("/")
    expect(page.locator("#topbar .conn.online")).to_be_visible()
    if name:
        page.fill("#name-input", name)
        page.click("#name-save")
        expect(page.locator("#topbar .me-name")).to_have_text(name)


def create_table(page: Page, game: str, seats: int, options: Mapping[str, object] | None = None) -> str:
    """Create a table from the lobby form (a box for a yes/no option, else the choice whose value is
    the option's, written out); returns its id (from the URL)."""
    page.click(f"#pick-{game}")
    page.select_option("#opt-seats", str(seats))
    for key, value in (options or {}).items():
        if isinstance(value, bool):
            page.set_checked(f"#opt-{key}", value)
        else:
            page.select_option(f"#opt-{key}", str(value))
    page.click("#create-btn")
    expect(page.locator(".waiting")).to_be_visible()
    return page.url.split("#/t/")[1]


def fill_bots(page: Page) -> None:
    """Seat random bots in every free seat ("Fill with bots"; random is the default level)."""
    expect(page.locator("[data-addbot]").first).to_be_visible()
    page.click("#fill-bots")
    expect(page.locator("#start-btn")).to_be_enabled()
    expect(page.locator("[data-addbot]")).to_have_count(0)


def start(page: Page) -> None:
    page.click("#start-btn")
    expect(page.locator(".mine .seat.me")).to_be_visible()


def play_to_end(page: Page, limit: float = 60.0, claim: str = "0") -> int:
    """Click legal actions until the result screen shows; returns how many clicks it took."""
    deadline = time.monotonic() + limit
    clicks = 0
    while time.monotonic() < deadline:
        what = page.evaluate(PICK)
        if what == "result":
            expect(page.locator("#result")).to_be_visible()
            return clicks
        if what is None or what == "busy":
            page.wait_for_timeout(20)
            continue
        try:
            if what == "claim":
                page.fill("#claim-input", claim, timeout=500)
                page.press("#claim-input", "Enter", timeout=500)
            else:
                page.click("[data-pick]", timeout=500)
            clicks += 1
        except Exception:  # the table re-rendered under the click: pick again
            continue
        page.wait_for_timeout(10)
    raise AssertionError(f"no result screen after {limit} s ({clicks} clicks); status: "
                         f"{page.locator('#status').inner_text()}")
