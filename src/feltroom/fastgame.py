"""Games whose hot path runs in a compiled core, with the pure-Python engine as the reference.

Simulations and bots play millions of moves through four members: ``to_act``, ``is_over``,
``legal_actions`` and ``apply``. A compiled core (a Cython ``cdef class``, e.g.
``feltroom.games._cribbage_core.CribbageCore``) keeps the state in C and answers those, plus
``scores`` and ``winners``. Everything else — the events, views, error messages, audits — is
the business of the pure-Python engine of the same game (``reference``), which is not
duplicated: a ``FastGame`` keeps a *shadow* reference game that replays the applied actions
only when somebody asks for something the core does not know. ``apply`` therefore returns
an ``Events`` sequence that is built when read, not when the action is applied.

``new_game`` returns a ``FastGame`` when the game's core is compiled and supports the
options (``Core.supports``), for the current dealing only (``feltroom.dealing``: a record of
an older ``format`` replays on the reference); constructing the rules class directly (``Cribbage(...)``)
always gives the reference engine. Set ``FELTROOM_PURE=1`` to run without any core.

The two must agree exactly: ``tests/differential.py`` plays thousands of seeded games with
both side by side and compares every hot member, every event and every rejection.

The contract with a core (Cython), which owns the fields ``actions`` and ``core_active``:

- ``_core_setup()`` sets up the state and deals from ``self.rng`` (a ``Pcg32Dealer``: the
  cores run its generator in C on its ``state``) exactly as the reference's ``_setup`` does
  (the same draws, so the shadow replays the same cards);
- ``apply(seat, action)`` applies a legal action, appends ``[seat, action]`` to ``actions``
  and returns ``feltroom._fastcore.new_events(self, index)``; an action not in the legal list goes through
  ``_slow_verify`` (the reference's exact error, or the canonical spelling); an action the
  core does not implement (e.g. a timeout) through ``_degrade``, after which the shadow is
  the game and the core's members delegate to ``_ref_now()``;
- ``_core_copy(other)`` copies the core's fields into a new instance;
- after set-up and after every action it applies, the core writes ``to_act`` and
  ``is_over`` into the instance's slots (``_degrade`` does it for the shadow).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from .dealing import CURRENT_FORMAT
from .game import CLOCK, Event, Game, Seat

__all__ = ["FastGame", "attach_core", "fast_class"]


class FastGame(Game):
    """A game driven by a compiled core; the reference engine supplies everything else.

    The core class comes first in the method resolution order (``class FastX(XCore,
    FastGame)``), so its members win; this class fills in the rest.
    """

    reference: ClassVar[type[Game]]
    #: the shadow reference game (None until first needed), the length of its log after its
    #: set-up, and after each action it has applied
    _ref: Game | None
    _start: int
    _ends: list[int]
    core_active: bool

    def __init__(
        self,
        players: int,
        *,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        deck: Sequence[Any] | None = None,
        format: int = CURRENT_FORMAT,
    ) -> None:
        if format != CURRENT_FORMAT:
            raise ValueError(f"the compiled cores deal format {CURRENT_FORMAT} only, not {format!r}")
        self._configure(players, seed, options, deck, format)
        self._ref = None
        self._start = 0
        self._ends = []
        self.actions = []
        self._core_setup()

    # ------------------------------------------------------------------ the core's side

    @staticmethod
    def supports(players: Any, options: Mapping[str, Any] | None) -> bool:
        """Whether the core covers a table with these (raw) options; the core overrides it."""
        return True

    def _core_setup(self) -> None:
        raise NotImplementedError  # the core's

    def _core_copy(self, other: FastGame) -> None:
        raise NotImplementedError  # the core's

    # ------------------------------------------------------------------ the shadow

    def _ref_now(self) -> Game:
        """The reference game, caught up with every applied action."""
        ref = self._ref
        if ref is None:
            ref = self._ref = self.reference(self.players, seed=self.seed, options=self.options, deck=self.deck_spec,
                                             format=self.format)
            self._start = len(ref.log)
            self._ends = []
        actions = self.actions
        done = len(ref.actions)
        if done < len(actions):
            ends = self._ends
            log = ref.log
            for seat, action in actions[done:]:
                ref.apply(seat, action)
                ends.append(len(log))
        return ref

    def _events_of(self, index: int) -> list[Event]:
        """The events of the action ``index`` (what ``apply`` returned for it)."""
        ref = self._ref_now()
        start = self._ends[index - 1] if index else self._start
        return ref.log[start:self._ends[index]]

    def _slow_verify(self, seat: Seat, action: Any) -> str:
        """For an action not in the legal list: the reference's exact error, or the canonical spelling."""
        ref = self._ref_now()
        if type(seat) is not int and seat != CLOCK:
            ref.check_seat(seat)
        return ref.verify(seat, action)

    def _degrade(self, seat: Seat, action: Any) -> list[Event]:
        """Apply an action the core does not implement on the shadow, which is the game from now on."""
        ref = self._ref_now()
        events = ref.apply(seat, action)
        self.actions.append(list(ref.actions[-1]))
        self._ends.append(len(ref.log))
        self.core_active = False
        self.to_act = ref.to_act  # type: ignore[misc]
        self.is_over = ref.is_over  # type: ignore[misc]
        return events

    # ------------------------------------------------------------------ the rest of the API

    @property
    def sides(self) -> list[list[int]]:
        return self._ref_now().sides

    @property
    def log(self) -> list[Event]:  # type: ignore[override]
        return self._ref_now().log

    def check_options(self) -> None:
        self.reference.check_options(self)

    def pack(self) -> tuple[int, ...]:
        return self.reference.pack(self)

    def verify(self, seat: Seat, action: str) -> str:
        if action in self.legal_actions(seat):
            return action
        return self._slow_verify(seat, action)

    def canonical(self, seat: Seat, action: str) -> str:
        return self._ref_now().canonical(seat, action)

    def illegal(self, seat: Seat, action: str) -> Any:
        return self._ref_now().illegal(seat, action)

    def view(self, seat: int | None) -> dict[str, Any]:
        return self._ref_now().view(seat)

    def public_view(self) -> dict[str, Any]:
        return self._ref_now().public_view()

    def own_view(self, seat: int | None) -> dict[str, Any]:
        return self._ref_now().own_view(seat)

    def audit_cards(self) -> list[int]:
        return self._ref_now().audit_cards()

    def audit_hidden(self, seat: int | None) -> list[int]:
        return self._ref_now().audit_hidden(seat)

    def audit_view_hidden(self, seat: int | None) -> list[int]:
        return self._ref_now().audit_view_hidden(seat)

    def copy(self) -> FastGame:
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.options = dict(self.options)
        new.meta = dict(self.meta)
        new.rng = self.rng.copy()
        new._ref = None if self._ref is None else self._ref.copy()
        new._ends = list(self._ends)
        self._core_copy(new)
        return new


def fast_class(reference: type[Game], core_cls: type) -> type[FastGame]:
    """The class ``new_game`` uses for ``reference``'s game on the core ``core_cls``."""
    fast: type[FastGame] = type(
        "Fast" + reference.__name__,
        (core_cls, FastGame),
        {
            "__module__": reference.__module__,
            "__doc__": f"{reference.__name__} on the compiled {core_cls.__name__} (see feltroom.fastgame).",
            "reference": reference,
            "name": reference.name,
            "min_players": reference.min_players,
            "max_players": reference.max_players,
            "OPTIONS": reference.OPTIONS,
            # the core writes these two after every action; a slot is the fastest attribute to
            # read (CPython specialises it), and both are read after every action
            "__slots__": ("to_act", "is_over"),
        },
    )
    return fast


def attach_core(reference: type[Game], module: str, core: str) -> type[FastGame] | None:
    """Make ``new_game`` use the compiled ``module.core`` for ``reference``'s game, if it is built.

    Without the compiled module (no C compiler at install time) or with ``FELTROOM_PURE=1``,
    the reference engine serves alone.
    """
    if os.environ.get("FELTROOM_PURE"):
        return None
    try:
        core_cls = getattr(importlib.import_module(module), core)
    except ImportError:
        return None
    fast = reference.fast_class = fast_class(reference, core_cls)
    return fast
