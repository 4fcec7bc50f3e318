"""Rules in the page: a rules page per game in both languages with every rule ID as an anchor,
reachable from the lobby, the table and an error's rule link; a hint for every lobby option."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from feltroom.catalog import catalog
from feltroom.registry import GAMES

from ..rules_text import spec_ids
from .driver import create_table, fill_bots, open_lobby, start

pytestmark = pytest.mark.browser

CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
MISSING_ANCHORS = "ids => ids.filter(id => !document.getElementById(id)?.closest('.rules .rule'))"
IN_VIEW = """id => { const r = document.getElementById(id).closest('.rule').getBoundingClientRect();
  return r.top >= 0 && r.top < innerHeight && r.bottom > 0; }"""


@pytest.mark.parametrize("game", sorted(GAMES))
def test_rules_page_in_english_and_russian_anchors_every_rule(page: Page, game: str) -> None:
    ids = spec_ids(game)
    open_lobby(page)
    page.click("#lang-en")
    page.goto(f"/#/rules/{game}")
    rules = page.locator(f'.rules[data-game="{game}"][data-lang="en"]')
    expect(rules.locator("h1")).to_be_visible()
    assert rules.locator("section h2").count() >= 8
    assert page.evaluate(MISSING_ANCHORS, ids) == []
    english = rules.locator("h1").inner_text()
    page.click("#lang-ru")
    rules = page.locator(f'.rules[data-game="{game}"][data-lang="ru"]')
    expect(rules.locator("h1")).to_be_visible()
    assert rules.locator("h1").inner_text() != english
    assert CYRILLIC.search(rules.locator("section").first.inner_text())
    assert page.evaluate(MISSING_ANCHORS, ids) == []


def test_rejected_action_links_to_its_rule(page: Page) -> None:
    open_lobby(page)
    page.click("#lang-en")
    table = create_table(page, "crisp", 2, {"end_limit": "50"})
    fill_bots(page)
    start(page)
    expect(page.locator('[data-act="draw"]').first).to_be_visible(timeout=10_000)
    page.fill("#notation", "swap L")  # a swap before the draw (CRISP-TURN-3)
    page.press("#notation", "Enter")
    link = page.locator("#act-error a.rule-ref")
    expect(link).to_have_text("CRISP-TURN-3")
    expect(page.locator(".toast a.rule-ref")).to_have_text("CRISP-TURN-3")  # the toast links too
    link.click()
    expect(page).to_have_url(re.compile(r"#/rules/crisp#CRISP-TURN-3$"))
    target = page.locator(".rules .rule.target")
    expect(target).to_have_count(1)
    expect(target.locator("#CRISP-TURN-3")).to_have_count(1)
    page.wait_for_function(IN_VIEW, arg="CRISP-TURN-3")
    # Back to the table, which is still there, with its Rules button.
    page.go_back()
    expect(page).to_have_url(re.compile(f"#/t/{table}$"))
    expect(page.locator(".mine .seat.me")).to_be_visible()
    page.click("#rules-btn")
    expect(page.locator('.rules[data-game="crisp"] h1')).to_be_visible()
    assert page.evaluate("() => scrollY") == 0


def test_lobby_links_every_game_to_its_rules(page: Page) -> None:
    open_lobby(page)
    for game in sorted(GAMES):
        page.click(f'.rules-links a[data-rules="{game}"]')
        expect(page.locator(f'.rules[data-game="{game}"] h1')).to_be_visible()
        page.go_back()
        expect(page.locator("#create-form")).to_be_visible()


def test_lobby_explains_every_option_in_one_line(page: Page) -> None:
    """Every option field at every seat count has its hint, in English and in Russian."""
    open_lobby(page)
    for lang in ("en", "ru"):
        page.click(f"#lang-{lang}")
        for game in catalog():
            english = {o["key"]: o["hint"] for o in game["options"]}
            page.click(f"#pick-{game['name']}")
            for seats, fields in game["lobby"].items():
                page.select_option("#opt-seats", seats)
                for field in fields:
                    hint = page.locator(f"#hint-{field['key']}")
                    expect(hint).to_be_visible()
                    text = hint.inner_text().strip()
                    if lang == "en":
                        assert text == english[field["key"]]
                    else:
                        assert text != english[field["key"]] and CYRILLIC.search(text), (game["name"], field["key"])
                assert page.locator(".opts .field:not(:first-child)").count() == len(fields)
