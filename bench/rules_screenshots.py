"""Screenshots of a rules page, opened at one rule: phone (Russian) and desktop (English).

Writes ``docs/screenshots/rules-{phone,desktop}.png``, with the server and browser set-up of
``bench/screenshots.py``.

    .venv/bin/python bench/rules_screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from playwright.sync_api import sync_playwright

from screenshots import ARGS, CHROMIUM, SIZES, server

RULE = "krypkasino#KRYP-SWEEP-7"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="docs/screenshots")
    out = Path(ap.parse_args().out)
    out.mkdir(parents=True, exist_ok=True)
    with server() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for size, lang in (("phone", "ru"), ("desktop", "en")):
            w, h = SIZES[size]
            context = browser.new_context(viewport={"width": w, "height": h}, device_scale_factor=1,
                                          is_mobile=size == "phone", has_touch=size == "phone")
            context.add_init_script(f"localStorage.setItem('feltroom.lang', '{lang}')")
            page = context.new_page()
            page.goto(f"{url}/#/rules/{RULE}")
            page.wait_for_selector(".rules .rule.target")
            page.wait_for_timeout(300)
            page.screenshot(path=str(out / f"rules-{size}.png"))
            print("wrote", out / f"rules-{size}.png")
            context.close()
        browser.close()


if __name__ == "__main__":
    main()
