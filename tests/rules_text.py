"""The rules pages' texts (src/feltroom/web/static/rules/<game>.<lang>.txt) and the rules
specification they must cover (../shared/rules/<game>.md, every ``**ID**``), for the tests."""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEXTS = ROOT / "src" / "feltroom" / "web" / "static" / "rules"
#: where the specification lives (README: ``../shared/rules/``); FELTROOM_RULES overrides it
SPEC = Path(os.environ.get("FELTROOM_RULES", ROOT.parent / "shared" / "rules"))
LANGS = ("en", "ru")

_SPEC_ID = re.compile(r"\*\*([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)\*\*")
_PARA_IDS = re.compile(r"^(?:- )?\[([A-Z0-9 -]+)\]")


def spec_ids(game: str) -> list[str]:
    """Every rule ID the specification marks in bold, in order, once each."""
    path = SPEC / f"{game}.md"
    assert path.is_file(), f"the rules specification {path} is missing (set FELTROOM_RULES)"
    return list(dict.fromkeys(_SPEC_ID.findall(path.read_text(encoding="utf-8"))))


def page_ids(game: str, lang: str) -> list[str]:
    """The rule IDs the page anchors, in order (duplicates kept, so a test can see them)."""
    out: list[str] = []
    for line in (TEXTS / f"{game}.{lang}.txt").read_text(encoding="utf-8").splitlines():
        m = _PARA_IDS.match(line.strip())
        if m:
            out += m[1].split()
    return out
