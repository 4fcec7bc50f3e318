"""The tutorial of each game, played to its end through the page (docs/web.md, "Tutorial").

From the lobby's "Learn to play" (and the rules page), the learner is told each step, the
control that plays it is marked, and only that step is offered; at the end the coach says the
tutorial is complete. The hand, the status and the actions stay on screen meanwhile."""

from __future__ import annotations

import contextlib
import re
import time

import pytest
from playwright.sync_api import Page, expect

from feltroom.tutorial import tutorial_for, tutorial_games

from .driver import open_lobby
from .layout import SHOTS, layout_failures

PHONE_AND_DESKTOP = {"390x844": (390, 844), "1366x768": (1366, 768)}


def play_tutorial(page: Page, game: str, limit: float = 60.0) -> list[str]:
    """Click what the coach asks for until it says "complete"; returns the words it said."""
    tut = tutorial_for(game)
    assert tut is not None
    said: list[str] = []
    missed = ""  # why the last click did not land, for the failure message
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        coach = page.locator("#coach")
        if page.locator("#coach.done").count():
            return said
        if not coach.count():
            page.wait_for_timeout(30)
            continue
        asked = coach.get_attribute("data-asked") or ""
        text = page.locator("#coach-text").inner_text()
        if not said or said[-1] != text:
            said.append(text)
        if not asked:
            page.wait_for_timeout(30)
            continue
        step = int(coach.get_attribute("data-step") or "0")
        target = page.locator(f'.table-screen [data-act="{asked}"]')
        try:
            if target.count():
                expect(target.first).to_have_class(re.compile("coach-target"))
                target.first.click(timeout=1000)
            elif asked.startswith("discard "):  # Cribbage: pick the cards, then confirm
                for card in asked.split()[1:]:
                    page.click(f'.mine [data-select][data-card="{card}"]', timeout=1000)
                page.click(f'[data-act="{asked}"]', timeout=1000)
            else:
                page.wait_for_timeout(30)
                continue
        except Exception as e:  # the table re-rendered under the click: look again
            missed = f"{type(e).__name__}: " + " / ".join(str(e).splitlines()[-6:])
            continue
        # the coach moves on when the room has applied the move; a click lost to a re-render, or a slow
        # room, leaves it on this step: look again (the overall deadline bounds the whole tutorial)
        with contextlib.suppress(AssertionError):
            expect(page.locator(f'#coach:not([data-step="{step}"])')).to_have_count(1, timeout=3000)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"{int(time.time() * 1000)}-tutorial-{game}.png", full_page=True)
    raise AssertionError(f"the {game} tutorial did not end in {limit} s; coach: {page.locator('#coach').inner_text()}; "
                         f"last missed click: {missed or 'none'}")


@pytest.mark.parametrize("game", tutorial_games())
def test_the_tutorial_is_played_to_its_end(page: Page, game: str) -> None:
    page.set_viewport_size({"width": 1366, "height": 768})
    open_lobby(page)
    page.click(f'.tutorial-links [data-tutorial="{game}"]')
    expect(page.locator(f'.table-screen[data-game="{game}"]')).to_be_visible()
    expect(page.locator("#coach-intro")).to_be_visible()
    assert layout_failures(page, PHONE_AND_DESKTOP) == {}
    page.set_viewport_size({"width": 1366, "height": 768})
    said = play_tutorial(page, game)
    tut = tutorial_for(game)
    assert tut is not None
    learner = [s.text["en"] for s in tut.steps if s.seat == tut.seat and s.text]
    assert all(w in said for w in learner), set(learner) - set(said)
    expect(page.locator("#coach-text")).to_have_text(tut.outro["en"])
    if page.locator("#result").count():  # the tutorial ended the game: its last words are in the result
        expect(page.locator("#result #coach.done")).to_be_visible()
    else:
        page.click("#coach-close")
        expect(page.locator("#coach")).to_have_count(0)


def test_the_tutorial_speaks_russian_and_starts_from_the_rules_page(page: Page) -> None:
    page.add_init_script("localStorage.setItem('feltroom.lang', 'ru')")
    page.set_viewport_size({"width": 390, "height": 844})
    open_lobby(page)
    page.goto("/#/rules/krypkasino")
    page.click('.rules-nav [data-tutorial="krypkasino"]')
    expect(page.locator('.table-screen[data-game="krypkasino"]')).to_be_visible()
    tut = tutorial_for("krypkasino")
    assert tut is not None and tut.steps[0].text is not None
    expect(page.locator("#coach-text")).to_have_text(tut.steps[0].text["ru"])
    expect(page.locator("#coach .coach-head")).to_contain_text("Обучение")
    assert layout_failures(page, PHONE_AND_DESKTOP) == {}


def test_the_marked_card_holds_still_under_the_mouse_and_the_focus(page: Page) -> None:
    """With the tutorial's mark on a card of your hand, under the mouse and focused, a render (Escape
    asks for one) leaves the hand alone, and nothing rebuilds it while nothing happens: so a click
    lands. (It was once rebuilt for ever, a few hundred times a second, and the click was lost.)"""
    page.set_viewport_size({"width": 1366, "height": 768})
    open_lobby(page)
    page.click('.tutorial-links [data-tutorial="krypkasino"]')
    coach = page.locator("#coach")
    expect(coach).to_have_attribute("data-asked", re.compile("."))
    target = page.locator(f'.table-screen [data-act="{coach.get_attribute("data-asked")}"]').first
    expect(target).to_have_class(re.compile("coach-target"))
    target.hover()
    target.focus()
    expect(page.locator("#kr-preview")).to_be_visible()
    page.wait_for_timeout(300)  # the renders the hover and the focus ask for
    page.keyboard.press("Escape")
    rebuilt = page.evaluate("""() => new Promise((ok) => {
      let n = 0;
      const seen = new MutationObserver((ms) => { n += ms.filter((m) => m.type === 'childList').length; });
      seen.observe(document.querySelector('.mine'), { subtree: true, childList: true });
      setTimeout(() => { seen.disconnect(); ok(n); }, 1000);
    })""")
    assert rebuilt == 0, f"the hand was rebuilt {rebuilt} times in a second of stillness"
    step = coach.get_attribute("data-step")
    target.click()
    expect(page.locator(f'#coach:not([data-step="{step}"])')).to_have_count(1)
