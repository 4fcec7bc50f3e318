"""Sounds and the installable app (docs/web.md, "Sounds", "Installable app").

The mute toggle is remembered per browser and sound is off on a first visit until the user
interacts; events play their sounds; the manifest is served and valid, its icons load, the
service worker registers for the whole site and keeps only the static client."""

from __future__ import annotations

import json
import struct
import urllib.request

from playwright.sync_api import Page, expect

from .driver import open_lobby
from .test_web_tutorial import play_tutorial


def test_sound_is_off_until_the_first_interaction_and_the_mute_persists(page: Page) -> None:
    open_lobby(page)
    toggle = page.locator("#sound-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("localStorage.getItem('feltroom.sound')") is None
    page.click("#create-h")  # any interaction
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("localStorage.getItem('feltroom.sound')") == "on"
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    page.reload()
    expect(page.locator("#topbar .conn.online")).to_be_visible()
    page.click("#create-h")
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "false")  # muted stays muted
    assert page.evaluate("localStorage.getItem('feltroom.sound')") == "off"


def test_a_first_click_on_the_toggle_turns_sound_on(page: Page) -> None:
    open_lobby(page)
    page.click("#sound-toggle")
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")


def test_events_play_their_sounds(page: Page) -> None:
    open_lobby(page)
    page.click("#sound-toggle")
    page.click('.tutorial-links [data-tutorial="crisp"]')
    expect(page.locator("#coach-intro")).to_be_visible()
    play_tutorial(page, "crisp")
    expect(page.locator("#result")).to_be_visible()
    sounds = page.evaluate("window.feltroom.sounds.slice()")
    assert {"card", "turn", "call", "over"} <= set(sounds), sounds
    page.goto("/")
    page.click('.tutorial-links [data-tutorial="krypkasino"]')
    expect(page.locator("#coach-intro")).to_be_visible()
    page.click('[data-act="play 9D"]')
    page.wait_for_function("window.feltroom.sounds.includes('sweep')")
    page.click("#sound-toggle")
    before = page.evaluate("window.feltroom.sounds.length")
    page.click('[data-act="play 7C"]')
    page.wait_for_timeout(500)
    assert page.evaluate("window.feltroom.sounds.length") == before  # muted: nothing plays


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    w, h = struct.unpack(">II", data[16:24])
    return w, h


def test_the_manifest_is_served_and_valid(base_url: str) -> None:
    with urllib.request.urlopen(f"{base_url}/manifest.webmanifest") as r:
        assert r.headers["Content-Type"].startswith("application/manifest+json")
        man = json.loads(r.read())
    assert man["name"] and man["short_name"] == "feltroom"
    assert man["start_url"] == "/" and man["scope"] == "/" and man["display"] == "standalone"
    sizes = set()
    for icon in man["icons"]:
        with urllib.request.urlopen(base_url + icon["src"]) as r:
            body = r.read()
            assert r.headers["Content-Type"].split(";")[0] == icon["type"]
        if icon["type"] == "image/png":
            w, h = png_size(body)
            assert f"{w}x{h}" == icon["sizes"]
            sizes.add((w, icon.get("purpose", "any")))
    assert {(192, "any"), (512, "any"), (512, "maskable")} <= sizes  # what browsers ask to install
    with urllib.request.urlopen(base_url) as r:
        assert b'rel="manifest" href="/manifest.webmanifest"' in r.read()


def test_the_service_worker_registers_and_keeps_only_the_static_client(page: Page, base_url: str) -> None:
    open_lobby(page)
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == f"{base_url}/"
    page.reload()  # now controlled by the worker: the lobby fetches /api/games, the socket opens /ws
    expect(page.locator("#topbar .conn.online")).to_be_visible()
    assert page.evaluate("!!navigator.serviceWorker.controller")
    page.click('.tutorial-links [data-tutorial="cribbage"]')
    expect(page.locator("#coach-intro")).to_be_visible()
    page.goto("/#/rules/crisp")
    expect(page.locator(".rules h1")).to_be_visible()
    keys = page.evaluate("""async () => {
      const out = [];
      for (const name of await caches.keys()) for (const r of await (await caches.open(name)).keys()) out.push(r.url);
      return out;
    }""")
    paths = [k.removeprefix(base_url) for k in keys]
    assert "/" in paths and "/static/js/main.js" in paths and "/static/rules/crisp.en.txt" in paths
    assert all(p in ("/", "/manifest.webmanifest") or p.startswith("/static/") for p in paths), paths
    with urllib.request.urlopen(f"{base_url}/sw.js") as r:
        assert r.headers["Content-Type"].startswith("text/javascript")
        assert "content-security-policy" in {k.lower() for k in r.headers}
