"""The two ways an action can be rejected (architecture.md: both are ``ValueError``)."""

from __future__ import annotations


class InvalidAction(ValueError):
    """The string is not in the game's action grammar (a malformed action)."""


class IllegalAction(ValueError):
    """A well-formed action that the rules forbid now; ``rule`` names the rule ID."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.message = message
