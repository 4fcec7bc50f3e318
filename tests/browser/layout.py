"""The layout check: at a window size, your hand, the status line and every enabled action
control lie inside the viewport (by their bounding boxes, scrolled to the top, once the moves
about to end have ended), and nothing overflows the page horizontally."""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Page

SIZES: dict[str, tuple[int, int]] = {
    "360x640": (360, 640), "390x844": (390, 844), "768x1024": (768, 1024),
    "1366x768": (1366, 768), "1920x1080": (1920, 1080),
}

# Returns what is off screen: "hand", "status", "action <act or label>", "overflow …" (empty if all is well).
OFF_SCREEN = """() => {
  const vw = document.documentElement.clientWidth, vh = window.innerHeight, out = [];
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const check = (e, what) => {
    const r = e.getBoundingClientRect();
    if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5)
      out.push(`${what} [${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.right)}x${Math.round(r.bottom)}]`);
  };
  const scr = document.querySelector('.table-screen');
  if (!scr) return ['no table'];
  for (const role of ['hand', 'status']) {
    const e = scr.querySelector(`[data-role="${role}"]`);
    if (!e || !shown(e)) out.push(`no ${role}`); else check(e, role);
  }
  // the action bar, every control of a legal action, and the Cribbage show's claim keypad
  const controls = scr.querySelectorAll(
    '[data-role="actions"] button, [data-role="actions"] input, [data-act], .keypad button, .keypad input');
  for (const e of controls) if (!e.disabled && shown(e)) check(e, `action ${e.dataset.act || e.textContent.trim()}`);
  const wide = document.documentElement.scrollWidth;
  if (wide > vw + 0.5) {
    const name = (e) => e.tagName.toLowerCase() + (typeof e.className === 'string' && e.className.trim()
      ? '.' + e.className.trim().split(/\\s+/).join('.') : '');
    const culprits = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > vw + 0.5 && shown(e)).slice(0, 3).map(name);
    out.push(`overflow ${wide}>${vw}: ${culprits.join(' ')}`);
  }
  return out;
}"""


# Scrolls to the top and waits until the moves about to end have ended (a card flying to a pile, a
# moment sliding in: under a second left; not a moment's countdown bar, nor a pulse that never ends),
# then two frames: the layout a person sees once it has settled.
SETTLED = """() => new Promise((ok) => {
  window.scrollTo(0, 0);
  const left = (a) => (a.effect?.getComputedTiming().endTime ?? Infinity) - (a.currentTime ?? 0);
  const ending = document.getAnimations().filter((a) => left(a) <= 1000);
  Promise.race([Promise.all(ending.map((a) => a.finished.catch(() => null))), new Promise((r) => setTimeout(r, 1500))])
    .then(() => requestAnimationFrame(() => requestAnimationFrame(ok)));
})"""


def off_screen(page: Page, width: int, height: int) -> list[str]:
    """At ``width``×``height``, scrolled to the top: what of the hand, status and actions is off screen."""
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate(SETTLED)
    return list(page.evaluate(OFF_SCREEN))


#: where a failing size's screenshot goes (git-ignored), to see what did not fit
SHOTS = Path("test-results/layout")


def layout_failures(page: Page, sizes: dict[str, tuple[int, int]] = SIZES) -> dict[str, list[str]]:
    """Every size whose check fails, with what is off screen there (and a screenshot in ``SHOTS``)."""
    out = {}
    for name, (w, h) in sizes.items():
        bad = off_screen(page, w, h)
        if bad:
            out[name] = bad
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=SHOTS / f"{int(time.time() * 1000)}-{name}.png", full_page=True)
    return out
