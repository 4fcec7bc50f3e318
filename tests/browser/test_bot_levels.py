"""The waiting room offers each game's bot levels with what they are (GET /api/games ``bot_levels``,
feltroom.bots.LEVELS), in English and Russian, inside the viewport on a phone and a desktop."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .driver import create_table, open_lobby

pytestmark = pytest.mark.browser

#: where its pictures go on every run (git-ignored): a test run must not rewrite the committed
#: docs/screenshots/bot-levels-*.png, which differ by the table id and port each time
SHOTS = Path("test-results/bot-levels")

INSIDE = """() => [...document.querySelectorAll('[data-role="bot-levels"] li, select.botlevel')]
  .filter((e) => { const r = e.getBoundingClientRect();
                   return r.left < -0.5 || r.right > document.documentElement.clientWidth + 0.5; })
  .map((e) => e.textContent.slice(0, 40))"""


def test_the_waiting_room_says_what_each_bot_level_is(page: Page) -> None:
    open_lobby(page, "Host")
    create_table(page, "cribbage", 2, {"target": "61"})
    legend = page.locator('[data-role="bot-levels"] li')
    expect(legend).to_have_count(3)
    expect(legend.nth(0)).to_contain_text("random · beginner")
    expect(legend.nth(2)).to_contain_text("search · experimental")
    options = page.locator("select.botlevel").first.locator("option")
    expect(options).to_have_text(["random · beginner", "heuristic · casual", "search · experimental"])
    for width, height, name in ((390, 844, "phone"), (1366, 768, "desktop")):
        page.set_viewport_size({"width": width, "height": height})
        expect(legend.nth(2)).to_be_in_viewport()
        assert page.evaluate(INSIDE) == [], name
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "bot-levels-desktop.png"))
    page.click("#lang-ru")
    expect(legend.nth(2)).to_contain_text("поиск · экспериментальный")
    expect(legend.nth(2)).to_contain_text("ещё учится")
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate(INSIDE) == []
    page.screenshot(path=str(SHOTS / "bot-levels-phone-ru.png"))
    page.click("#lang-en")


def test_a_two_deck_craits_table_does_not_offer_search(page: Page) -> None:
    """The table's ``bot_levels`` (docs/bots.md): at 8 players Craits plays two decks (CRAITS-SETUP-1),
    whose sampler is off, so neither the seat's choice nor the legend offers ``search``."""
    open_lobby(page, "Crowdhost")  # names are one per room
    create_table(page, "craits", 8)
    options = page.locator("select.botlevel").first.locator("option")
    expect(options).to_have_text(["random · beginner", "heuristic · casual"])
    legend = page.locator('[data-role="bot-levels"] li')
    expect(legend).to_have_count(2)
    expect(legend.nth(1)).to_contain_text("heuristic · casual")
    for width, height, name in ((390, 844, "phone"), (1366, 768, "desktop")):
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate(INSIDE) == [], name
