"""The sources name games only where a game lives, and the browser's modules import without a circle.

A game's name may appear in its own modules (``games/``, ``bots/``, ``cli/games/``,
``web/static/js/games/<game>.js``) and in the import lines of their indexes; everything else
reads the metadata (``feltroom.catalog``, ``GET /api/games``). Docstrings may name games in
examples; CSS and HTML are styling and text, not tables, and are not checked.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import feltroom

SRC = Path(feltroom.__file__).resolve().parent
JS = SRC / "web" / "static" / "js"
GAME_NAMES = re.compile("|".join(sorted(feltroom.GAMES)), re.IGNORECASE)
PY_HOMES = ("games", "bots", "cli/games")
# one-line imports and re-exports of relative modules (the client writes no other kind)
IMPORT = re.compile(r"""^(?:import\s+(?:[^'"\n;]*?\s+from\s+)?|export\s+[^'"\n;]*?\s+from\s+)['"](\.[^'"]+)['"]""",
                    re.MULTILINE)


def docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def names_in_python(path: Path) -> list[str]:
    """Game names in the code of ``path``: strings (not docstrings), names, attributes, imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = docstrings(tree)
    words: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            words.append(node.value)
        elif isinstance(node, ast.Name):
            words.append(node.id)
        elif isinstance(node, ast.Attribute):
            words.append(node.attr)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef | ast.alias):
            words.append(node.name)
        elif isinstance(node, ast.ImportFrom):
            words.append(node.module or "")
    return [w for w in words if GAME_NAMES.search(w)]


def test_python_names_games_only_in_their_own_modules() -> None:
    checked = 0
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith(tuple(h + "/" for h in PY_HOMES)):
            continue
        assert names_in_python(path) == [], rel
        checked += 1
    assert checked > 20
    assert names_in_python(SRC / "games" / "crisp.py")  # the check sees a game where there is one


def test_javascript_names_games_only_in_their_own_modules() -> None:
    modules = sorted(JS.rglob("*.js"))
    own = {JS / "games" / f"{name}.js" for name in feltroom.GAMES}
    assert own <= set(modules)
    index = JS / "games" / "index.js"
    for path in modules:
        if path in own:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            registry = path == index and (line.startswith("import ") or line.startswith("export const GAMES = {"))
            assert registry or not GAME_NAMES.search(line), f"{path.relative_to(JS)}:{number}: {line}"


def test_the_browser_modules_import_each_other_without_a_circle() -> None:
    graph: dict[Path, set[Path]] = {}
    for path in JS.rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        graph[path] = {(path.parent / target).resolve() for target in IMPORT.findall(text)}
        assert graph[path] <= {p.resolve() for p in JS.rglob("*.js")}, path
    assert JS / "main.js" in graph and graph[JS / "main.js"], "the import lines were not found"
    done: set[Path] = set()

    def visit(path: Path, trail: list[Path]) -> None:
        if path in trail:
            circle = [*trail[trail.index(path):], path]
            raise AssertionError("import circle: " + " → ".join(p.name for p in circle))
        if path in done:
            return
        for target in graph.get(path, ()):
            visit(target, [*trail, path])
        done.add(path)

    for path in graph:
        visit(path, [])
