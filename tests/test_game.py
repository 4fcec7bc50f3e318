"""The shared model of every game: seats, seeds, stacked decks, records and copies."""

from __future__ import annotations

import json

import pytest

import feltroom

GAMES = sorted(feltroom.GAMES)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seat", [True, 1.0, "1", None, -1, 99])
def test_a_seat_must_be_a_seat(name: str, seat: object) -> None:
    game = feltroom.new_game(name, players=2, seed=4)
    mover = game.to_act[0] if game.to_act else feltroom.CLOCK
    legal = game.legal_actions(mover)
    before = len(game.log)
    with pytest.raises(feltroom.InvalidAction, match="no seat"):
        game.apply(seat, legal[0])  # type: ignore[arg-type]
    assert len(game.log) == before and game.actions == []


@pytest.mark.parametrize("name", GAMES)
def test_players_and_seed_are_checked(name: str) -> None:
    cls = feltroom.GAMES[name]
    for players in (cls.min_players - 1, cls.max_players + 1, 2.0, "2"):
        with pytest.raises(ValueError, match=f"{name} is for {cls.min_players}–{cls.max_players} players"):
            feltroom.new_game(name, players=players)  # type: ignore[arg-type]
    for seed in (-1, 2**53, 1.5, "7"):
        with pytest.raises(ValueError, match="seed must be an integer"):
            feltroom.new_game(name, players=2, seed=seed)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown game"):
        feltroom.new_game("poker", players=2)


@pytest.mark.parametrize("name", GAMES)
def test_a_seedless_game_draws_a_seed_and_records_it(name: str) -> None:
    game = feltroom.new_game(name, players=2)
    assert 0 <= game.record["seed"] < 2**53
    assert feltroom.replay(game.record).view(0) == game.view(0)


@pytest.mark.parametrize(("deck", "message"), [
    (["AS", "AS"], "AS appears 2 time"),
    (["1H"], "not a card"),
    (["AS", 7], "not a card"),
    ("AS KD", "deck must be null"),
    ([["AS"], "KD"], "deck list 2 must be a list"),
])
def test_bad_stacked_decks_are_value_errors(deck: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        feltroom.new_game("crisp", players=2, seed=1, deck=deck)  # type: ignore[arg-type]


def test_a_stacked_deck_is_recorded_canonically_and_replays() -> None:
    game = feltroom.new_game("crisp", players=2, seed=1, options={"first_dealer": 0},
                             deck=["9s", "A♦", "4H", "6C", "2C", "3S"])
    assert game.record["deck"] == ["9S", "AD", "4H", "6C", "2C", "3S"]
    game.apply(1, "draw")
    record = json.loads(json.dumps(game.record))
    assert feltroom.replay(record).log == game.log


def test_a_list_of_lists_stacks_one_deal_each() -> None:
    game = feltroom.new_game("crisp", players=2, seed=1, options={"first_dealer": 0},
                             deck=[["9S", "AD", "4H", "6C", "2C", "3S"], ["KH"]])
    assert game.record["deck"] == [["9S", "AD", "4H", "6C", "2C", "3S"], ["KH"]]
    assert game.deal_order(1)[0] == feltroom.Card.parse("KH")


@pytest.mark.parametrize("name", GAMES)
def test_a_copy_is_independent(name: str) -> None:
    game = feltroom.new_game(name, players=2, seed=9)
    twin = game.copy()
    seat = twin.to_act[0] if twin.to_act else feltroom.CLOCK
    twin.apply(seat, twin.legal_actions(seat)[-1])
    assert game.actions == [] and len(twin.actions) == 1
    assert game.view(None) == feltroom.new_game(name, players=2, seed=9).view(None)


def test_a_record_from_an_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown record format"):
        feltroom.replay({"format": 3, "name": "crisp"})
