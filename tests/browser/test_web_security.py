"""The page under its Content-Security-Policy: an injected inline script or handler does not run
(and the console says why: the other browser tests fail on such an error), and it cannot be framed."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, expect

from .driver import open_lobby

pytestmark = pytest.mark.browser


def test_injected_inline_script_does_not_run(browser: Browser, base_url: str) -> None:
    context = browser.new_context(base_url=base_url)  # not the guarded one: this test provokes the errors
    errors: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(message.text)

    context.on("console", on_console)
    page = context.new_page()
    try:
        open_lobby(page)
        page.evaluate("""() => {
          const s = document.createElement('script'); s.textContent = 'window.injected = 1'; document.body.append(s);
          const d = document.createElement('div');
          d.innerHTML = '<img src="/static/favicon.svg" onload="window.handler = 1">';
          document.body.append(d);
        }""")
        page.wait_for_timeout(300)
        assert page.evaluate("() => [window.injected, window.handler]") == [None, None]
        assert any("Content Security Policy" in e for e in errors), errors
        # And another site cannot frame the room.
        page.set_content(f'<iframe id="f" src="{base_url}/"></iframe>')
        for _ in range(100):
            if any("frame-ancestors" in e for e in errors):
                break
            page.wait_for_timeout(50)
        assert any("frame-ancestors" in e for e in errors), errors
        expect(page.frame_locator("#f").locator("#topbar")).to_have_count(0)
    finally:
        context.close()


def test_a_taken_name_is_refused_and_the_player_keeps_its_old_one(page: Page,
                                                                  new_context: Callable[..., BrowserContext]) -> None:
    open_lobby(page, "Taken")
    other = new_context().new_page()
    open_lobby(other)
    before = other.evaluate("window.feltroom.me.name")
    other.fill("#name-input", "t\u0430ken")  # Cyrillic а: a look-alike
    other.click("#name-save")
    expect(other.locator(".toast.error")).to_contain_text("is taken")
    expect(other.locator("#topbar .conn.online")).to_be_visible()
    expect(other.locator("#topbar .me-name")).to_have_text(before)
    expect(other.locator("#name-input")).to_have_value(before)
    other.fill("#name-input", "bot:heuristic")
    other.click("#name-save")
    expect(other.locator(".toast.error", has_text="reserved")).to_be_visible()
    expect(other.locator("#topbar .me-name")).to_have_text(before)
    open_lobby(other, "Someone else")  # a free name is taken up at once
    # An automatic guest name that happens to be taken is replaced without a word.
    third = new_context().new_page()
    third.add_init_script("localStorage.setItem('feltroom.name', 'Taken');"
                          "localStorage.setItem('feltroom.autoname', '1')")
    third.goto("/")
    expect(third.locator("#topbar .conn.online")).to_be_visible()
    expect(third.locator("#topbar .me-name")).to_have_text(re.compile(r"^guest\d{6}$"))
    expect(third.locator(".toast.error")).to_have_count(0)
