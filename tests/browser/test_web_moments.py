"""The reveal and result moments (docs/web.md, "Moments"), in a real browser.

Crisp shows every hand face up with its total and the ±5, Cribbage each counted hand with its
combinations, Krypkasino each player's card points and sweeps, Craits each hand's points and
the cards its threes cancelled. A moment goes by itself or when dismissed, and never puts the
own hand, the status or the actions off screen."""

from __future__ import annotations

import contextlib
import re
import time

from playwright.sync_api import Page, expect

from .driver import PICK, create_table, fill_bots, open_lobby, start
from .layout import layout_failures
from .test_web_tutorial import play_tutorial

SIZES = {"390x844": (390, 844), "1366x768": (1366, 768), "360x640": (360, 640)}


def tutorial(page: Page, game: str) -> None:
    page.set_viewport_size({"width": 1366, "height": 768})
    open_lobby(page)
    page.click(f'.tutorial-links [data-tutorial="{game}"]')
    expect(page.locator("#coach-intro")).to_be_visible()
    play_tutorial(page, game)


def test_crisp_reveals_every_hand_then_the_moment_goes_by_itself(page: Page) -> None:
    page.set_viewport_size({"width": 1366, "height": 768})
    open_lobby(page)
    create_table(page, "crisp", 3, {"end_limit": "150"})
    fill_bots(page)
    start(page)
    deadline = time.monotonic() + 90
    while not page.locator("#moment").count():
        assert time.monotonic() < deadline, "no round ended"
        what = page.evaluate(PICK)
        if what and what not in ("busy", "result", "claim"):
            with contextlib.suppress(Exception):
                page.click("[data-pick]", timeout=500)
        page.wait_for_timeout(20)
    moment = page.locator("#moment")
    expect(moment.locator("h2")).to_have_text(re.compile(r"Round \d+: the reveal"))
    rows = moment.locator(".reveal-row")
    expect(rows).to_have_count(3)
    for i in range(3):
        expect(rows.nth(i).locator(".rv-cards .card")).to_have_count(3)
        expect(rows.nth(i).locator(".rv-total")).to_contain_text("Total")
    if page.locator("#result").count() == 0:
        expect(moment.locator(".rv-bonus")).to_have_text(re.compile(r"[−+]5"))
        assert layout_failures(page, SIZES) == {}
        page.set_viewport_size({"width": 1366, "height": 768})
        expect(page.locator(".moment-host #moment")).to_have_count(0, timeout=12_000)  # gone by itself (8 s)


def test_craits_shows_the_points_and_the_cancelled_cards(page: Page) -> None:
    tutorial(page, "craits")
    moment = page.locator(".moment-host #moment")
    expect(moment).to_be_visible()
    expect(moment.locator("h2")).to_have_text("Hand 1: the points")
    bot = moment.locator('.reveal-row[data-seat="1"]')
    expect(bot.locator(".card.cancelled")).to_have_count(2)
    expect(bot.locator(".card.three")).to_have_count(2)
    expect(bot.locator(".rv-cancel")).to_contain_text("cancelled by threes")
    expect(bot.locator(".rv-round")).to_contain_text("+61")
    expect(moment.locator('.reveal-row[data-seat="0"] .badge')).to_have_text("went out")
    assert layout_failures(page, SIZES) == {}
    page.set_viewport_size({"width": 1366, "height": 768})
    page.keyboard.press("Escape")
    expect(moment).to_have_count(0)


def test_cribbage_shows_each_counted_hand_with_its_combinations(page: Page) -> None:
    tutorial(page, "cribbage")
    moment = page.locator(".moment-host #moment")
    expect(moment).to_be_visible()
    expect(moment.locator("h2")).to_have_text("Hand 1: the show")
    sets = moment.locator(".reveal-row")
    expect(sets).to_have_count(3)  # the bot's hand, yours, your crib
    expect(sets.nth(1).locator(".rv-pts")).to_have_text("21")
    nobs = sets.nth(1).locator('.combo[data-kind="nobs"]')
    nobs.hover()
    expect(sets.nth(1).locator(".card.lit")).to_have_count(2)  # the J♣ and the starter 5♣
    expect(moment).to_have_class(re.compile("pinned"))  # pointing at it keeps it open
    assert layout_failures(page, SIZES) == {}
    page.set_viewport_size({"width": 1366, "height": 768})
    page.click("#moment-close")
    expect(moment).to_have_count(0)


def test_krypkasino_shows_card_points_and_sweeps_for_the_deal(page: Page) -> None:
    tutorial(page, "krypkasino")
    page.click("#coach-close")
    deadline = time.monotonic() + 120
    while not page.locator("#moment").count():
        assert time.monotonic() < deadline, "the deal did not end"
        # a card whose maximal captures tie (8 on A♥ A♣ 7♦) has no action of its own: it opens the picker
        loc = page.locator(".mine .hand [data-act], .picker [data-act]")
        if not loc.count():
            loc = page.locator(".mine .hand button.card.playable")
        with contextlib.suppress(Exception):
            if loc.count():
                loc.first.click(timeout=500)
        page.wait_for_timeout(30)
    moment = page.locator("#moment")
    expect(moment.locator("h2, h3").first).to_have_text("Deal 1: the count")
    mine = moment.locator('.reveal-row[data-seat="0"]')
    # the tutorial's 7♣ on 7♣; after its script the bots play freely, so more may follow
    expect(mine.locator(".sweep-chip.double").first).to_be_visible()
    assert mine.locator(".sweep-chip").count() >= 3
    expect(mine.locator(".rv-sums")).to_contain_text("card points")
    if page.locator("#result").count() == 0:
        assert layout_failures(page, SIZES) == {}
