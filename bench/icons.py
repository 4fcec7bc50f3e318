"""The installable app's PNG icons, drawn from its SVG icons by Debian's chromium.

Writes ``src/feltroom/web/static/icons/icon-{192,512}.png`` (from ``icon.svg``) and
``icon-maskable-512.png`` (from ``icon-maskable.svg``: full-bleed, the picture inside the safe
circle). The manifest (``static/manifest.webmanifest``) lists them.

    .venv/bin/python bench/icons.py
"""

from __future__ import annotations

import base64
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parent.parent / "src" / "feltroom" / "web" / "static" / "icons"
CHROMIUM = "/usr/bin/chromium"
OUT = [("icon.svg", 192, "icon-192.png"), ("icon.svg", 512, "icon-512.png"),
       ("icon-maskable.svg", 512, "icon-maskable-512.png")]


def main() -> None:
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for svg, size, png in OUT:
            page = browser.new_page(viewport={"width": size, "height": size})
            data = base64.b64encode((ICONS / svg).read_bytes()).decode()
            page.set_content(f'<html><body style="margin:0;background:transparent">'
                             f'<img src="data:image/svg+xml;base64,{data}" '
                             f'width="{size}" height="{size}" style="display:block"></body></html>')
            page.wait_for_timeout(100)
            page.screenshot(path=str(ICONS / png), omit_background=True)
            print("wrote", ICONS / png)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
