"""Which options the lobby offers per game (notation.md §3 and each game's options table).

The host picks exactly the options marked "host picks" or "offered"; the lobby fixes the
rest (Crisp ``clock: true``, ``first_dealer: null`` everywhere). The engine then validates
the values (``ValueError`` naming the allowed values).

>>> offered("crisp", 4)
{'end_limit': (50, 100, 150), 'draw_time': None, 'draw_from_discard': None}
>>> fixed("crisp")
{'clock': True, 'first_dealer': None}
>>> sorted(offered("cribbage", 3))
['counting', 'crib_flush', 'target', 'turn_time']
>>> "teams" in offered("cribbage", 4), "decks" in offered("craits", 6), "decks" in offered("craits", 5)
(True, True, False)
"""

from __future__ import annotations

from typing import Any

from ..registry import GAMES

CRAITS_VARIANTS = ("short_game", "dealer_follows_direction", "remove_kq_small", "one_card_on_one_card_deal",
                   "idiot_card", "count_out_continues", "threes_cancel_eights", "punitive_scoring",
                   "going_out_minus_10", "face_card_functions")


def offered(game: str, seats: int) -> dict[str, tuple[Any, ...] | None]:
    """The option keys the host may set, each with the lobby's own restriction of its values
    (``None``: whatever the engine accepts)."""
    if game == "crisp":
        return {"end_limit": (50, 100, 150), "draw_time": None, "draw_from_discard": None}
    if game == "craits":
        keys: dict[str, tuple[Any, ...] | None] = dict.fromkeys(CRAITS_VARIANTS)
        if seats == 6:
            keys["decks"] = None
        keys["turn_time"] = None
        return keys
    if game == "cribbage":
        keys = {"target": None, "counting": None}
        if seats in (4, 6):
            keys["teams"] = None
        keys["crib_flush"] = None
        keys["turn_time"] = None
        return keys
    if game == "krypkasino":
        return {"dealer_rounds": None, "turn_time": None}
    cls = GAMES.get(game)  # a game without a lobby table yet: every option but first_dealer
    return {o.name: None for o in cls.OPTIONS if o.name != "first_dealer"} if cls else {}


def fixed(game: str) -> dict[str, Any]:
    """The options the lobby sets itself."""
    cls = GAMES.get(game)
    names = {o.name for o in cls.OPTIONS} if cls else set()
    out: dict[str, Any] = {}
    if game == "crisp" or "clock" in names:
        out["clock"] = True
    if "first_dealer" in names or game in ("crisp", "craits", "cribbage", "krypkasino"):
        out["first_dealer"] = None
    return out


def lobby_options(game: str, seats: int, given: dict[str, Any]) -> dict[str, Any]:
    """The options to create the game with; ``ValueError`` naming what is allowed."""
    allowed = offered(game, seats)
    for key, value in given.items():
        if key not in allowed:
            names = ", ".join(allowed) or "none"
            raise ValueError(f"option {key!r} is not offered for {game} with {seats} seats: the options are {names}")
        choices = allowed[key]
        if choices is not None and not any(type(value) is type(c) and value == c for c in choices):
            raise ValueError(f"option {key!r} cannot be {value!r} here: allowed values are "
                             f"{', '.join(str(c) for c in choices)}")
    return {**given, **fixed(game)}
