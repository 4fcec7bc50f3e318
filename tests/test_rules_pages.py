"""The rules pages cover every rule of the specification, and every lobby option has a hint."""

from __future__ import annotations

import re

import pytest

from feltroom.catalog import catalog
from feltroom.registry import GAMES

from .rules_text import LANGS, ROOT, SHARED_SPEC, SPEC_COPY, TEXTS, page_ids, spec_ids


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_rule_of_the_spec_has_an_anchor(game: str, lang: str) -> None:
    spec = spec_ids(game)
    anchors = page_ids(game, lang)
    assert len(spec) > 50
    assert not set(spec) - set(anchors), f"rules missing from {game}.{lang}.txt"
    assert not set(anchors) - set(spec), f"IDs in {game}.{lang}.txt that the spec lacks"
    assert len(anchors) == len(set(anchors)), "an ID anchored twice"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_spec_copy_is_the_shared_spec(game: str) -> None:
    """tests/spec/ lets a clone without ../shared test its rules pages; it must not drift."""
    copy = (SPEC_COPY / f"{game}.md").read_bytes()
    if not SHARED_SPEC.is_dir():
        pytest.skip(f"no {SHARED_SPEC} beside this clone to compare tests/spec/ with")
    shared = SHARED_SPEC / f"{game}.md"
    assert copy == shared.read_bytes(), f"tests/spec/{game}.md differs from {shared}: make spec"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_both_languages_have_the_same_sections(game: str) -> None:
    heads = {lang: [line for line in (TEXTS / f"{game}.{lang}.txt").read_text(encoding="utf-8").splitlines()
                    if line.startswith("## ")] for lang in LANGS}
    assert len(heads["en"]) == len(heads["ru"]) >= 8
    assert page_ids(game, "en") == page_ids(game, "ru"), "the same rules in the same order"


def test_every_lobby_option_has_a_one_line_hint() -> None:
    for game in catalog():
        for opt in game["options"]:
            hint = opt["hint"]
            assert hint and "\n" not in hint and len(hint) <= 100, (game["name"], opt["key"], hint)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_rule_an_engine_rejects_with_is_on_the_page(game: str) -> None:
    """An error's rule link always lands on a rule: the IDs the engine raises are all anchored."""
    prefix = spec_ids(game)[0].split("-")[0]
    source = (ROOT / "src" / "feltroom" / "games" / f"{game}.py").read_text(encoding="utf-8")
    raised = set(re.findall(rf'"({prefix}-[A-Z0-9-]+)"', source))
    assert raised, "the engine names the rules it enforces"
    assert not raised - set(page_ids(game, "en")), sorted(raised - set(page_ids(game, "en")))
