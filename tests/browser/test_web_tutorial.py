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
from .layout import layout_failures

PHONE_AND_DESKTOP = {"390x844": (390, 844), "1366x768": (1366, 768)}


def play_tutorial(page: Page, game: str, limit: float = 60.0) -> list[str]:
    """Click what the coach asks for until it says "complete"; returns the words it said."""
    tut = tutorial_for(game)
    assert tut is not None
    said: list[str] = []
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
        except Exception:  # the table re-rendered under the click: look again
            continue
        # the coach moves on when the room has applied the move; a click lost to a re-render, or a slow
        # room, leaves it on this step: look again (the overall deadline bounds the whole tutorial)
        with contextlib.suppress(AssertionError):
            expect(page.locator(f'#coach:not([data-step="{step}"])')).to_have_count(1, timeout=3000)
    raise AssertionError(f"the {game} tutorial did not end in {limit} s; coach: {page.locator('#coach').inner_text()}")


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
