"""The compiled-core machinery (``feltroom.fastgame``), tested with a stand-in core in Python.

The stand-in keeps its state in a private reference game of its own, so every difference
the differential harness finds is the machinery's: lazy events, the hand-over of rejected
and unimplemented actions to the shadow, copies, attribute fallback, the registry hook.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

import feltroom
from feltroom import CLOCK, IllegalAction, InvalidAction
from feltroom._fastcore import Events, lazy_events
from feltroom.fastgame import FastGame, fast_class
from feltroom.game import Game
from feltroom.games.krypkasino import Krypkasino
from tests.differential import check_differential


class MirrorCore:
    """A core that is only a second reference game: the plumbing around it is under test."""

    actions: list[list[Any]]
    core_active: bool
    reference: type[Game]
    rng: Any
    to_act: Any
    is_over: Any
    _mirror: Game

    def _core_setup(self) -> None:
        self.core_active = True
        self._mirror = self.reference(self.players, seed=self.seed, options=self.options,  # type: ignore[attr-defined]
                                      deck=self.deck_spec)  # type: ignore[attr-defined]
        self.rng = self._mirror.rng  # the game's chance is the mirror's
        self._publish()

    def _core_copy(self, other: Any) -> None:
        other._mirror = self._mirror.copy()
        other.rng = other._mirror.rng
        other.to_act, other.is_over = self.to_act, self.is_over
        other.actions = [list(a) for a in self.actions]
        other.core_active = self.core_active

    def _publish(self) -> None:
        self.to_act = self._mirror.to_act  # type: ignore[misc]
        self.is_over = self._mirror.is_over  # type: ignore[misc]

    @property
    def scores(self) -> list[int]:
        return self._mirror.scores if self.core_active else self._ref_now().scores  # type: ignore[attr-defined]

    @property
    def winners(self) -> list[int]:
        return self._mirror.winners if self.core_active else self._ref_now().winners  # type: ignore[attr-defined]

    def legal_actions(self, seat: Any) -> list[str]:
        return (self._mirror if self.core_active else self._ref_now()).legal_actions(seat)  # type: ignore[attr-defined]

    def apply(self, seat: Any, action: Any) -> Any:
        if not self.core_active:
            return self._degrade(seat, action)  # type: ignore[attr-defined]
        legal = self._mirror.legal_actions(seat) if type(seat) is int or seat == CLOCK else []
        if not (type(action) is str and action in legal):
            action = self._slow_verify(seat, action)  # type: ignore[attr-defined]
        if seat == CLOCK:
            return self._degrade(seat, action)  # type: ignore[attr-defined]
        self._mirror.apply(seat, action)
        self.actions.append([seat, action])
        self._publish()
        return lazy_events(self, len(self.actions) - 1)


@pytest.fixture
def mirrored(monkeypatch: pytest.MonkeyPatch) -> type[FastGame]:
    fast = fast_class(Krypkasino, MirrorCore)
    monkeypatch.setattr(Krypkasino, "fast_class", fast)
    return fast


@pytest.mark.parametrize("players", [2, 3, 4])
def test_machinery_agrees_with_the_reference(mirrored: type[FastGame], players: int) -> None:
    for seed in range(6):
        options = {"turn_time": 30} if seed % 2 else None
        check_differential("krypkasino", players, seed, options, clock_rate=0.02 * (seed % 2),
                           copy_at=20 if seed % 3 == 0 else None)


def test_events_are_built_only_when_read(mirrored: type[FastGame]) -> None:
    game = feltroom.new_game("krypkasino", 2, seed=3)
    assert isinstance(game, FastGame) and game._ref is None
    seat = game.to_act[0]
    events = game.apply(seat, game.legal_actions(seat)[0])
    assert isinstance(events, Events)
    assert game._ref is None  # nothing built yet
    assert events[0]["type"] == "play" and len(events) == len(list(events))
    combined: list[Any] = []
    combined += events
    assert events == game.log[-len(events):] and combined == list(events)
    assert game._ref is not None


def test_rejections_change_nothing_and_name_the_rule(mirrored: type[FastGame]) -> None:
    game = feltroom.new_game("krypkasino", 2, seed=3)
    before = game.record
    with pytest.raises(InvalidAction):
        game.apply(True, "x")
    other = 1 - game.to_act[0]
    with pytest.raises(IllegalAction) as info:
        game.apply(other, feltroom.GAMES["krypkasino"](2, seed=3).legal_actions(game.to_act[0])[0])
    assert info.value.rule
    assert game.record == before


def test_views_come_from_the_reference_and_internals_stay_there(mirrored: type[FastGame]) -> None:
    """A FastGame has the Game API only (a __getattr__ fallback would slow every attribute read)."""
    game = feltroom.new_game("krypkasino", 2, seed=3)
    ref = Krypkasino(2, seed=3)
    assert game.view(0) == ref.view(0) and game.audit_cards() == ref.audit_cards()
    assert ref.hands  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        game.hands  # type: ignore[attr-defined]  # noqa: B018


def test_pure_engine_without_a_core() -> None:
    assert Krypkasino.fast_class is None
    assert type(feltroom.new_game("krypkasino", 2, seed=1)) is Krypkasino


def test_the_cores_are_built() -> None:
    """``make test`` builds the compiled cores; the suite must not pass on the reference engines alone."""
    from feltroom.games.craits import Craits
    from feltroom.games.cribbage import Cribbage

    if os.environ.get("FELTROOM_PURE"):
        assert Cribbage.fast_class is None and Craits.fast_class is None
        return
    assert Cribbage.fast_class is not None and Craits.fast_class is not None
    assert type(feltroom.new_game("cribbage", 2, seed=1)) is Cribbage.fast_class
    assert type(Cribbage(2, seed=1)) is Cribbage  # direct construction: the reference engine
