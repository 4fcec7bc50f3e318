"""The rules pages' texts (src/feltroom/web/static/rules/<game>.<lang>.txt) and the rules
specification they must cover (../shared/rules/<game>.md, every ``**ID**``), for the tests.

The specification lives beside the repository, in ``../shared/rules``; a clone anywhere else (the
README's ``make test`` in a fresh clone) reads the copy in ``tests/spec/``, which
``test_rules_pages`` holds equal to the shared one wherever both exist."""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEXTS = ROOT / "src" / "feltroom" / "web" / "static" / "rules"
#: the specification beside the repository (README: ``../shared/rules/``)
SHARED_SPEC = ROOT.parent / "shared" / "rules"
#: its copy in the repository, for a clone that has no ``../shared``
SPEC_COPY = ROOT / "tests" / "spec"
#: the specification the tests read: FELTROOM_RULES, else the shared one, else the copy
SPEC = Path(os.environ.get("FELTROOM_RULES") or (SHARED_SPEC if SHARED_SPEC.is_dir() else SPEC_COPY))
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
