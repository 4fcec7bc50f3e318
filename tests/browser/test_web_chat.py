"""Chat in the web client: ignore a player (kept in the browser), the last 200 lines kept, and
chat never pushing game events out of the history."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from .driver import create_table, fill_bots, open_lobby, start

pytestmark = pytest.mark.browser

CURRENT = "window.feltroom.tables.get(window.feltroom.route.table)"


def say(page: Page, text: str) -> None:
    page.fill(".chat input", text)
    page.press(".chat input", "Enter")


def test_ignore_hides_a_players_chat_and_survives_a_reload(page: Page, new_context: Callable[..., BrowserContext],
                                                           output_path: str) -> None:
    open_lobby(page, "Quiet")
    table = create_table(page, "crisp", 2)
    loud = new_context().new_page()
    open_lobby(loud, "Loud")
    loud.goto(f"/#/t/{table}")
    expect(loud.locator(".waiting")).to_be_visible()
    say(loud, "first line")
    line = page.locator("#history li.chatmsg", has_text="first line")
    expect(line).to_be_visible()
    expect(page.locator("#history li.chatmsg .ignore")).to_have_count(1)
    expect(loud.locator("#history li.chatmsg", has_text="first line").locator(".ignore")).to_have_count(0)  # own line
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=f"{output_path}/chat-before-ignore.png")
    line.locator(".ignore").click()
    expect(page.locator("#history li.chatmsg")).to_have_count(0)
    expect(page.locator("#ignored .unignore")).to_have_text("Loud ✕")
    loud_id = loud.evaluate("window.feltroom.me.player")
    assert page.evaluate("JSON.parse(localStorage.getItem('feltroom.ignored'))") == {loud_id: "Loud"}

    say(loud, "second line")
    expect(loud.locator("#history li.chatmsg", has_text="second line")).to_be_visible()
    say(page, "my own line")  # arrives after Loud's second line: by then Quiet has dropped it
    expect(page.locator("#history li.chatmsg", has_text="my own line")).to_be_visible()
    expect(page.locator("#history")).not_to_contain_text("second line")
    page.screenshot(path=f"{output_path}/chat-after-ignore.png")
    page.set_viewport_size({"width": 1280, "height": 800})  # the history starts open on a wide screen

    page.reload(wait_until="commit")  # kept in the browser
    expect(page.locator(".waiting")).to_be_visible()
    expect(page.locator("#ignored .unignore")).to_have_text("Loud ✕")
    say(loud, "third line")
    say(page, "after the reload")
    expect(page.locator("#history li.chatmsg", has_text="after the reload")).to_be_visible()
    expect(page.locator("#history")).not_to_contain_text("third line")

    page.click("#ignored .unignore")
    expect(page.locator("#ignored .unignore")).to_have_count(0)
    say(loud, "fourth line")
    expect(page.locator("#history li.chatmsg", has_text="fourth line")).to_be_visible()


def test_the_client_keeps_200_chat_lines_and_every_game_event(page: Page, output_path: str) -> None:
    open_lobby(page, "Reader")
    create_table(page, "crisp", 2, {"end_limit": "50"})
    fill_bots(page)
    start(page)
    expect(page.locator("#history li.ev").first).to_be_visible()
    events = page.evaluate(f"{CURRENT}.history.length")
    shown = page.locator("#history li.ev").count()
    assert events > 0 and shown > 0
    # A flood of 300 lines, delivered as the server would deliver them (the server's own limit
    # would refuse them from one player: this checks what the client keeps).
    page.evaluate(f"""() => {{
      const st = {CURRENT}, conn = window.feltroom.conn;
      for (let i = 0; i < 300; i++)
        conn.onMessage({{ type: 'chat', table: st.id, from: 'Flood', player: 'f00d', text: `flood ${{i}}` }});
    }}""")
    expect(page.locator("#history li.chatmsg")).to_have_count(200)
    assert page.evaluate(f"{CURRENT}.chat.length") == 200
    assert page.evaluate(f"{CURRENT}.chat[0].text") == "flood 100"
    expect(page.locator("#history li.chatmsg").last).to_have_text("Flood: flood 299ignore")
    assert page.evaluate(f"{CURRENT}.history.length") >= events  # no event pushed out (the bot may add some)
    assert page.locator("#history li.ev").count() >= shown
    page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=f"{output_path}/chat-flood-desktop.png")
