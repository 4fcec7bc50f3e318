"""The registry of games, and the two ways to get a game: ``new_game`` and ``replay``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .dealing import CURRENT_FORMAT, FORMATS
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
    format: int = CURRENT_FORMAT,
    *,
    compiled: bool = True,
) -> Game:
    """A new game of ``name`` (a key of ``GAMES``), dealt by the dealing of record ``format``
    (``feltroom.dealing``; the default is the current one, older ones replay old records).

    ``compiled=False`` gives the reference engine even where a compiled core is built: a
    caller that reads every view and event after every action (the room) does less work on
    it, since a core answers views and events from a reference shadow it keeps in step.

    >>> import feltroom
    >>> game = feltroom.new_game("crisp", players=3, seed=1)
    >>> game.to_act
    (2,)
    """
    cls = GAMES.get(name)
    if cls is None:
        raise ValueError(f"unknown game {name!r}: the games are {', '.join(sorted(GAMES))}")
    fast = cls.fast_class
    if compiled and fast is not None and format == CURRENT_FORMAT and fast.supports(players, options):  # type: ignore[attr-defined]
        return fast(players, seed=seed, options=options, deck=deck)
    return cls(players, seed=seed, options=options, deck=deck, format=format)


def replay(record: Mapping[str, Any], *, compiled: bool = True) -> Game:
    """Rebuild a game from its record (notation.md §6, docs/dealing.md), applying every action again.

    The record's ``format`` chooses the dealing: 1 (``random.Random``, the first records) or 2;
    ``compiled`` as for ``new_game``.
    """
    fmt = record.get("format")
    if type(fmt) is not int or fmt not in FORMATS:
        raise ValueError(f"unknown record format {fmt!r} (expected one of {', '.join(map(str, FORMATS))})")
    game = new_game(
        record["name"], players=record["players"], seed=record["seed"],
        options=record.get("options"), deck=record.get("deck"), format=fmt, compiled=compiled,
    )
    for seat, action in record["actions"]:
        game.apply(CLOCK if seat == CLOCK else seat, action)
    game.meta = dict(record.get("meta") or {})
    return game
