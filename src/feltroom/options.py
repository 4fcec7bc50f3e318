"""Declarative table options: validation and normalisation (notation.md §3).

An option also says how the lobby shows it (``label``, ``lobby_choices``, ``values_at``,
``fixed``); ``feltroom.catalog`` turns that into the lobby's form for every seat count.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

Default = Any | Callable[[int], Any]


class _NotFixed:
    def __repr__(self) -> str:
        return "NOT_FIXED"


#: ``Option.fixed`` when the lobby leaves the value to the host (or to the engine's default)
NOT_FIXED: Any = _NotFixed()


@dataclass(frozen=True, slots=True)
class Option:
    """One option key: its allowed values (``choices``, or the integer range ``lo..hi``).

    ``seat`` marks an option whose value is ``None`` or a seat ``0 … players-1``.
    ``default`` may be a function of the number of players.

    For the lobby: ``label`` names an option the host picks ("" : the host does not);
    ``lobby_choices`` are the values the lobby offers when it offers fewer than the engine
    accepts; ``values_at(players)`` the values the rules allow with that many players, when
    that depends on them (the game's ``check_options`` enforces it); ``fixed`` the value the
    lobby sets itself; ``unit`` follows a number (``s``: seconds, and ``None`` reads "none");
    ``hint`` explains the option to players in one line (English; clients translate it).
    The lobby offers a labelled option at the seat counts where it has more than one value.
    """

    name: str
    default: Default
    choices: tuple[Any, ...] = ()
    lo: int | None = None
    hi: int | None = None
    seat: bool = False
    label: str = ""
    lobby_choices: tuple[Any, ...] = ()
    values_at: Callable[[int], tuple[Any, ...]] | None = None
    fixed: Any = NOT_FIXED
    unit: str = ""
    hint: str = ""

    def allowed(self, players: int) -> str:
        if self.seat:
            return f"null or a seat 0–{players - 1}"
        if self.lo is not None:
            return f"an integer {self.lo}–{self.hi}"
        return format_values(self.choices)

    def check(self, value: Any, players: int) -> Any:
        if self.seat:
            if value is None or (type(value) is int and 0 <= value < players):
                return value
        elif self.lo is not None:
            if type(value) is int and self.lo <= value <= (self.hi or value):
                return value
        elif any(type(value) is type(c) and value == c for c in self.choices):
            return value
        raise ValueError(
            f"option {self.name!r} cannot be {_json(value)}: allowed values are {self.allowed(players)}"
        )

    def default_for(self, players: int) -> Any:
        return self.default(players) if callable(self.default) else self.default

    def lobby_values(self, players: int) -> tuple[Any, ...]:
        """The values the lobby offers with ``players`` seats (``()``: it does not offer this option)."""
        if not self.label or self.fixed is not NOT_FIXED:
            return ()
        if self.lobby_choices:
            values = self.lobby_choices
        elif self.values_at is not None:
            values = self.values_at(players)
        elif self.choices:
            values = self.choices
        else:
            raise ValueError(f"option {self.name!r} has a label but no values to list: give it lobby_choices")
        return values if len(values) > 1 else ()

    @property
    def kind(self) -> str:
        """How the lobby shows it: ``check`` (a yes/no box) or ``select``."""
        return "check" if [type(c) for c in self.choices] == [bool, bool] else "select"


def format_values(values: Iterable[Any]) -> str:
    """Values as an error message lists them: JSON, comma-separated."""
    return ", ".join(_json(v) for v in values)


def _json(value: Any) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


#: (id of spec, players, given items, their types) -> (spec, the normalised options):
#: simulations create millions of games with the same few option sets. The entry holds the
#: spec, so its id cannot be reused while the entry lives.
_DONE: dict[tuple[Any, ...], tuple[tuple[Option, ...], dict[str, Any]]] = {}
_DONE_LIMIT = 4096


def normalise(spec: tuple[Option, ...], given: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
    """Complete and check ``given`` against ``spec``; raise ``ValueError`` naming what is allowed.

    >>> spec = (Option("target", 121, choices=(61, 121)),)
    >>> normalise(spec, {"target": 61}, 2), normalise(spec, None, 2)
    ({'target': 61}, {'target': 121})
    >>> normalise(spec, {"target": True}, 2)  # True == 1, but a bool is no number here
    Traceback (most recent call last):
    ValueError: option 'target' cannot be true: allowed values are 61, 121
    """
    key: tuple[Any, ...] | None = None
    if given is None:
        key = (id(spec), players)
    elif type(given) is dict:  # the types are part of the key: True == 1 and hashes alike
        key = (id(spec), players, tuple(given.items()), tuple(map(type, given.values())))
    if key is not None:
        try:
            done = _DONE.get(key)
        except TypeError:  # an unhashable value: checked below, and refused
            key = done = None
        if done is not None and done[0] is spec:
            return dict(done[1])
    result = _normalise(spec, given, players)
    if key is not None:
        if len(_DONE) >= _DONE_LIMIT:
            _DONE.clear()
        _DONE[key] = (spec, dict(result))
    return result


def _normalise(spec: tuple[Option, ...], given: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
    if given is not None and not isinstance(given, Mapping):
        raise ValueError(f"options must be a dict, not {type(given).__name__}")
    given = dict(given or {})
    known = {o.name for o in spec}
    unknown = sorted(k for k in given if k not in known)
    if unknown:
        raise ValueError(f"unknown option {unknown[0]!r}: the options are {', '.join(o.name for o in spec)}")
    return {o.name: o.check(given[o.name], players) if o.name in given else o.default_for(players) for o in spec}
