"""Every string the browser client shows has its Russian words (i18n.js: the English text is the key).

The keys are read from the code: every literal given to ``t(…)`` or ``mark(…)`` and every
``tn(n, one, many)`` pair in the client's modules, every label, hint and title the server's game
metadata gives the lobby (``feltroom.catalog``), and every template an engine's rejection may
carry (``IllegalAction`` in ``feltroom/games/*.py``, which the client words itself:
``js/errors.js``). The dictionaries are ``js/ru.js`` and each game module's ``RU`` (its
``const RU = {…}`` and any ``Object.assign(RU, {…})`` after it), evaluated by Node, so the test
sees the words the browser gets. A translation names the same ``{fields}`` as
its English key.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import feltroom
from feltroom.catalog import catalog

SRC = Path(feltroom.__file__).resolve().parent
JS = SRC / "web" / "static" / "js"
FIELD = re.compile(r"\{(\w+)\}")
# a JS string literal in single or double quotes (the client writes no template literal keys)
LITERAL = r"""('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")"""
CALL = re.compile(rf"(?<![\w.])(?:t|mark)\(\s*{LITERAL}")
PLURAL = re.compile(rf"(?<![\w.])tn\([^,()]+,\s*{LITERAL},\s*{LITERAL}")
DYNAMIC = re.compile(r"(?<![\w.])(?:t|mark)\(\s*`")

# Node prints the merged dictionary: ru.js, then each game module's `const RU = {…};` block.
NODE = r"""
const fs = require('fs');
const dir = process.argv[1];
const out = {};
const block = (text, head) => {
  const m = text.match(new RegExp(head + ' = (\\{[\\s\\S]*?\\n\\});'));
  return m ? eval('(' + m[1] + ')') : {};
};
// a module's own block, then any words it adds later (`Object.assign(RU, {…});`)
const grab = (text) => {
  const words = block(text, 'const RU');
  for (const m of text.matchAll(/Object\.assign\(RU, (\{[\s\S]*?\n\})\);/g)) {
    Object.assign(words, eval('(' + m[1] + ')'));
  }
  return words;
};
Object.assign(out, block(fs.readFileSync(dir + '/ru.js', 'utf8'), 'export const RU'));
const games = {};
for (const f of fs.readdirSync(dir + '/games')) games[f] = grab(fs.readFileSync(dir + '/games/' + f, 'utf8'));
console.log(JSON.stringify({ shared: out, games }));
"""


def js_string(literal: str) -> str:
    """The value of a quoted JS string literal (the escapes the client uses)."""
    body = literal[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m[1], m[1]), body)


@pytest.fixture(scope="module")
def dictionaries() -> dict[str, dict[str, Any]]:
    node = shutil.which("node")
    assert node, "node is needed to read the client's dictionaries (make jscheck installs the JS tools)"
    out = subprocess.run([node, "-e", NODE, str(JS)], check=True, capture_output=True, text=True, timeout=60)
    data = json.loads(out.stdout)
    assert len(data["shared"]) > 100 and set(data["games"]) >= {f"{g}.js" for g in feltroom.GAMES}
    return data  # type: ignore[no-any-return]


def all_russian(d: dict[str, dict[str, Any]]) -> dict[str, object]:
    merged: dict[str, object] = dict(d["shared"])
    for words in d["games"].values():
        merged.update(words)  # type: ignore[call-overload]
    return merged


def keys_in_code() -> dict[str, str]:
    """Every key the client translates, with where it is (for the failure message)."""
    found: dict[str, str] = {}
    for path in sorted(JS.rglob("*.js")):
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(JS).as_posix()
        assert not DYNAMIC.search(text), f"{where}: a template literal given to t(): use a key and {{fields}}"
        for m in CALL.finditer(text):
            found.setdefault(js_string(m[1]), where)
        for m in PLURAL.finditer(text):
            found.setdefault(f"{js_string(m[1])}|{js_string(m[2])}", where)
    return found


def catalog_keys() -> dict[str, str]:
    found: dict[str, str] = {}
    for game in catalog():
        for text in (game["title"], game["blurb"]):
            found[text] = f"catalog {game['name']}"
        for opt in game["options"]:
            for text in (opt["label"], opt.get("hint")):
                if text:
                    found[text] = f"catalog {game['name']}.{opt['key']}"
        for fields in game["lobby"].values():
            for field in fields:
                for value in field["values"]:
                    if isinstance(value, str):
                        found[value] = f"catalog {game['name']}.{field['key']} value"
    return found


def engine_templates() -> dict[str, list[str]]:
    """Each game's rejection templates: the string constants of every ``IllegalAction(…)`` message."""
    out: dict[str, list[str]] = {}
    for name in feltroom.GAMES:
        tree = ast.parse((SRC / "games" / f"{name}.py").read_text(encoding="utf-8"))
        found: list[str] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "IllegalAction":
                message = node.args[1]
                fstring = any(isinstance(n, ast.JoinedStr) for n in ast.walk(message))
                assert not fstring, f"{name}.py:{node.lineno}: an f-string message: give its values as params"
                found += [n.value for n in ast.walk(message)
                          if isinstance(n, ast.Constant) and isinstance(n.value, str)]
        out[name] = found
    return out


def test_the_scan_finds_the_keys_it_should() -> None:
    """The check looks where the strings are: a key from each kind of place."""
    keys = keys_in_code()
    assert {"Waiting for players", "card|cards", "rule", "That is not allowed here."} <= set(keys)
    assert len(keys) > 300
    templates = engine_templates()
    assert all(len(t) >= 8 for t in templates.values()), templates
    assert "you do not hold {card}" in templates["krypkasino"]


def test_every_client_string_has_its_russian_words(dictionaries: dict[str, dict[str, Any]]) -> None:
    russian = all_russian(dictionaries)
    missing = {k: w for k, w in {**keys_in_code(), **catalog_keys()}.items() if k not in russian}
    assert missing == {}, f"{len(missing)} strings have no Russian words: {missing}"


def test_every_engine_rejection_has_its_russian_words(dictionaries: dict[str, dict[str, Any]]) -> None:
    """Each template is in the game's own module or in the shared ru.js, with the same fields."""
    shared = dictionaries["shared"]
    missing = []
    for game, templates in engine_templates().items():
        own = dictionaries["games"][f"{game}.js"]
        for template in templates:
            words = own[template] if template in own else shared.get(template)
            if not isinstance(words, str):
                missing.append((game, template))
                continue
            assert set(FIELD.findall(words)) == set(FIELD.findall(template)), (game, template, words)
    assert missing == [], missing


def test_a_translation_names_the_fields_of_its_key(dictionaries: dict[str, dict[str, Any]]) -> None:
    for key, words in all_russian(dictionaries).items():
        if isinstance(words, str):
            assert set(FIELD.findall(words)) == set(FIELD.findall(key)), (key, words)
        else:
            assert "|" in key and isinstance(words, list) and len(words) == 3, (key, words)
