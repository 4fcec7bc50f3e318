"""The two ways an action can be rejected (architecture.md: both are ``ValueError``).

Decided here beyond the spec: an ``IllegalAction`` may carry ``params``, the values its message
names (a seat, a card, a count …), so that a client can word the message itself, in its own
language and with the players' names (docs/protocol.md, "Error parameters"). With params,
the message given is a template with ``{key}`` fields; ``message`` is that template filled in
the engine's own English (a seat is ``P1``, a card its notation ``10H``), so the text stays
what it was without them. The kind of a value follows its key:

- ``seat`` or a key ending in ``_seat``: a seat number;
- ``card`` or ending in ``_card``: a card (notation); ``cards`` or ending in ``_cards``: a list;
- ``suit``: a suit letter (``S H D C``); ``rank``: a rank (``A 2 … 10 J Q K``);
- anything else: a number or a string shown as it is (an action string stays notation).

>>> e = IllegalAction("KRYP-TURN-2", "you do not hold {card}", {"card": "7H"})
>>> str(e), e.template, e.params
('you do not hold 7H (KRYP-TURN-2)', 'you do not hold {card}', {'card': '7H'})
>>> IllegalAction("X-1", "it is {seat}'s turn", {"seat": 2}).message
"it is P2's turn"
>>> IllegalAction("X-1", "no {braces} without params").message
'no {braces} without params'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

#: A parameter value: a seat or a count, a card, rank, suit or word, or a list of cards.
Param = int | str | Sequence[str]

_FIELD = re.compile(r"\{(\w+)\}")
_RANK_WORDS = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}


def english(key: str, value: Param) -> str:
    """``value`` of parameter ``key`` as the engine's English messages write it."""
    if key == "seat" or key.endswith("_seat"):
        return f"P{value}"
    if key == "rank" and isinstance(value, str):
        return _RANK_WORDS.get(value, value)
    if isinstance(value, str | int):
        return str(value)
    return " ".join(value)


def fill(template: str, params: Mapping[str, Param]) -> str:
    """The template with every ``{key}`` replaced by its English value (unknown keys stay)."""
    return _FIELD.sub(lambda m: english(m[1], params[m[1]]) if m[1] in params else m[0], template)


class InvalidAction(ValueError):
    """The string is not in the game's action grammar (a malformed action)."""


class IllegalAction(ValueError):
    """A well-formed action that the rules forbid now; ``rule`` names the rule ID.

    ``template`` is the message before filling (equal to ``message`` without params) and
    ``params`` the values it names (``{}`` without): see the module docstring."""

    def __init__(self, rule: str, message: str, params: Mapping[str, Param] | None = None) -> None:
        self.params: dict[str, Param] = {k: v if isinstance(v, str | int) else list(v)
                                         for k, v in (params or {}).items()}
        self.template = message
        self.message = fill(message, self.params) if self.params else message
        self.rule = rule
        super().__init__(f"{self.message} ({rule})")
