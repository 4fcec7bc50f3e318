"""The registry of games, and the two ways to get a game: ``new_game`` and ``replay``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .game import CLOCK, Game

GAMES: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: make a rules module's game available by its ``name``."""
    GAMES[cls.name] = cls
    return cls


def new_game(
    name: str,
    players: int,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    deck: Sequence[Any] | None = None,
) -> Game:
    """A new game of ``name`` (a key of ``GAMES``).

    >>> import feltroom
    >>> game = feltroom.new_game("crisp", players=3, seed=1)
    >>> game.to_act
    (1,)
    """
    cls = GAMES.get(name)
    if cls is None:
        raise ValueError(f"unknown game {name!r}: the games are {', '.join(sorted(GAMES))}")
    fast = cls.fast_class
    if fast is not None and fast.supports(players, options):  # type: ignore[attr-defined]
        return fast(players, seed=seed, options=options, deck=deck)
    return cls(players, seed=seed, options=options, deck=deck)


def replay(record: Mapping[str, Any]) -> Game:
    """Rebuild a game from its record (notation.md §6), applying every action again."""
    if record.get("format") != 1:
        raise ValueError(f"unknown record format {record.get('format')!r} (expected 1)")
    game = new_game(
        record["name"], players=record["players"], seed=record["seed"],
        options=record.get("options"), deck=record.get("deck"),
    )
    for seat, action in record["actions"]:
        game.apply(CLOCK if seat == CLOCK else seat, action)
    game.meta = dict(record.get("meta") or {})
    return game
