"""Tutorials: a stacked first deal and a scripted first hand, one data file per game.

A game has a tutorial when ``games/tutorials/{game}.json`` exists; this module is the one
generic reader (no game is named here). Decided here, beyond the spec:

- A tutorial fixes the seats (``players``), the learner's seat (``seat``), the options and the
  stacked deck (``deck``, notation.md §3). Its options must run no CLOCK action (no timers), so
  the script cannot be overtaken by a deadline: the step due is simply ``len(game.actions)``.
- ``steps`` is every action of the guided hand, in order, ``[seat, action]`` with the words for
  the learner (``en`` and ``ru``) on each of the learner's steps and on any other step worth
  saying something about. The other seats are scripted bots: they play exactly their steps, so
  the hand goes as the words say. After the last step the game goes on with ordinary bots.
- ``intro`` and ``outro`` are said before the first and after the last step.

``tests/test_tutorials.py`` replays every script on its engine: each step is legal when due.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

LANGS = ("en", "ru")


@dataclass(frozen=True, slots=True)
class Step:
    seat: int
    action: str
    text: dict[str, str] | None   # per language, or None: the step passes without a word


@dataclass(frozen=True, slots=True)
class Tutorial:
    game: str
    players: int
    seat: int                      # the learner's seat
    options: dict[str, Any]
    deck: list[Any]
    intro: dict[str, str]
    steps: tuple[Step, ...]
    outro: dict[str, str]

    def step_due(self, actions_done: int) -> Step | None:
        """The scripted step due after ``actions_done`` actions, or ``None`` once the script is over."""
        return self.steps[actions_done] if actions_done < len(self.steps) else None

    def public(self) -> dict[str, Any]:
        """What the client gets (the ``table`` message's ``tutorial``, docs/protocol.md): the words
        of every step and, for the learner's steps, the action asked for."""
        return {"seat": self.seat, "intro": self.intro, "outro": self.outro,
                "steps": [{"seat": s.seat, "action": s.action if s.seat == self.seat else None, "text": s.text}
                          for s in self.steps]}


def _words(obj: Any, where: str) -> dict[str, str]:
    if not isinstance(obj, dict) or any(not isinstance(obj.get(lang), str) or not obj[lang] for lang in LANGS):
        raise ValueError(f"{where}: words in {' and '.join(LANGS)} are required")
    return {lang: obj[lang] for lang in LANGS}


def _parse(game: str, data: dict[str, Any]) -> Tutorial:
    seat = data["seat"]
    steps = []
    for i, raw in enumerate(data["steps"]):
        text = raw.get("text")
        if raw["seat"] == seat and text is None:
            raise ValueError(f"tutorial {game}, step {i + 1}: the learner's steps say what to do")
        steps.append(Step(raw["seat"], raw["action"], _words(text, f"tutorial {game}, step {i + 1}") if text else None))
    return Tutorial(game, data["players"], seat, dict(data["options"]), list(data["deck"]),
                    _words(data["intro"], f"tutorial {game}: intro"), tuple(steps),
                    _words(data["outro"], f"tutorial {game}: outro"))


def _files() -> Any:
    return resources.files("feltroom.games").joinpath("tutorials")


@cache
def tutorial_for(game: str) -> Tutorial | None:
    """The tutorial of ``game``, or ``None`` if it has none."""
    if not game.isidentifier():
        return None
    path = _files().joinpath(f"{game}.json")
    if not path.is_file():
        return None
    return _parse(game, json.loads(path.read_text(encoding="utf-8")))


def tutorial_games() -> list[str]:
    """The games that have a tutorial."""
    return sorted(p.name.removesuffix(".json") for p in _files().iterdir() if p.name.endswith(".json"))
