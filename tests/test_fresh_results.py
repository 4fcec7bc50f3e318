"""What a game's public members return belongs to the caller: changing it changes nothing in the game.

Two twins play the same seeded random game, for every game on its reference engine and (where
built) on its compiled core. Everything one twin returns — legal lists for every seat and the
CLOCK, views for every seat and spectators, scores, winners, sides, ``to_act``, the record, the
audits, and the events ``apply`` returns — is scribbled over (every list and dict, however
deep) before the next step; the other twin is left alone. After every action both must still
agree on every legal list, view, score and record, and on the events of the next action.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import feltroom
from feltroom import CLOCK
from feltroom.fastgame import FastGame
from feltroom.game import Game

TABLES: list[tuple[str, int, dict[str, Any]]] = [
    *((name, game.default_players, {}) for name, game in sorted(feltroom.GAMES.items())),  # every game
    ("cribbage", 2, {"counting": "automatic", "target": 61}),
    ("cribbage", 3, {"counting": "manual", "target": 61, "turn_time": 30}),
    ("cribbage", 4, {"counting": "manual", "teams": "2x2", "target": 61}),
    ("craits", 4, {"short_game": True, "face_card_functions": True}),
    ("craits", 3, {"short_game": True, "one_card_on_one_card_deal": True, "turn_time": 30}),
    ("krypkasino", 4, {}),
]
STEPS = 250


def scribble(value: Any) -> None:
    """Change every list and dict inside ``value`` in place (tuples and strings cannot change)."""
    if isinstance(value, list):
        for item in value:
            scribble(item)
        value.append("scribbled")
        value.reverse()
    elif isinstance(value, dict):
        for item in value.values():
            scribble(item)
        value["scribbled"] = True
    elif isinstance(value, tuple):
        for item in value:
            scribble(item)


def answers(game: Game) -> tuple[Any, ...]:
    """Everything the public members say about the game now."""
    seats = [*range(game.players), CLOCK]
    return (
        game.to_act, game.is_over, game.scores, game.winners, game.sides,
        [game.legal_actions(s) for s in seats],
        [game.view(s) for s in [*range(game.players), None]],
        game.record, game.audit_cards(), [game.audit_hidden(s) for s in [*range(game.players), None]],
    )


def scribble_answers(game: Game) -> None:
    seats = [*range(game.players), CLOCK]
    for s in seats:
        scribble(game.legal_actions(s))
        scribble(game.legal_actions(s))  # a second call may come from a cache: change that too
    for v in [*range(game.players), None]:
        scribble(game.view(v))
        scribble(game.audit_hidden(v))
    for got in (game.scores, game.winners, game.sides, game.to_act, game.record, game.audit_cards()):
        scribble(got)


def engines(name: str, players: int, options: dict[str, Any], seed: int) -> list[tuple[Game, Game]]:
    reference = feltroom.GAMES[name]
    pairs = [(reference(players, seed=seed, options=options), reference(players, seed=seed, options=options))]
    fast = feltroom.new_game(name, players, seed=seed, options=options)
    if isinstance(fast, FastGame):
        pairs.append((fast, feltroom.new_game(name, players, seed=seed, options=options)))
    return pairs


@pytest.mark.parametrize(("name", "players", "options"), TABLES)
def test_changing_what_a_game_returns_changes_nothing(name: str, players: int, options: dict[str, Any]) -> None:
    for seed in (1, 2):
        for game, twin in engines(name, players, options, seed):
            rng = random.Random(seed)
            for _ in range(STEPS):
                scribble_answers(game)
                assert answers(game) == answers(twin)
                if twin.is_over:
                    break
                clock = twin.legal_actions(CLOCK)
                seat = CLOCK if clock and (not twin.to_act or rng.random() < 0.02) else rng.choice(twin.to_act)
                legal = twin.legal_actions(seat)
                action = legal[rng.randrange(len(legal))]
                events = game.apply(seat, action)
                want = twin.apply(seat, action)
                assert list(events) == list(want)
                for event in events:
                    scribble(event)
            assert answers(game) == answers(twin)
            assert feltroom.replay(game.record).record == twin.record


def test_a_changed_legal_list_still_applies_every_legal_action() -> None:
    """A caller that empties the list it got cannot make a legal action illegal (reference and core)."""
    for name, players, options in TABLES:
        for game, _ in engines(name, players, options, 3):
            seat = game.to_act[0] if game.to_act else CLOCK
            legal = game.legal_actions(seat)
            action = legal[-1]
            legal.clear()
            assert game.legal_actions(seat)[-1] == action
            game.apply(seat, action)
