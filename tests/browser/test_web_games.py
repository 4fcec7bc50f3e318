"""A person plays each game to the end through the web client, against bots, in chromium."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from .driver import create_table, fill_bots, open_lobby, play_to_end, start

pytestmark = pytest.mark.browser

SHORT: dict[str, dict[str, str | bool]] = {
    "crisp": {"end_limit": "50"},
    "cribbage": {"target": "61"},
    "craits": {"short_game": True},
    "krypkasino": {"dealer_rounds": "1"},
}


@pytest.mark.parametrize("game", ["crisp", "cribbage", "craits", "krypkasino"])
def test_whole_game_against_bots(page: Page, game: str) -> None:
    open_lobby(page)
    table = create_table(page, game, 2, SHORT[game])
    # The host settings are shown on the table.
    expect(page.locator(".thead .chips")).not_to_be_empty()
    fill_bots(page)
    start(page)
    clicks = play_to_end(page, limit=110 if game == "craits" else 75)
    assert clicks > 0
    result = page.locator("#result")
    expect(result).to_contain_text("Winner")
    link = page.locator("#result #record-link")
    expect(link).to_have_attribute("href", f"/api/games/{table}/record")
    record = page.request.get(link.get_attribute("href") or "")
    assert record.ok
    data = json.loads(record.text())
    assert data["name"] == game and data["players"] == 2 and data["actions"]
