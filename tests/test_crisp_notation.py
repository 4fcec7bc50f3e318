"""Crisp notation: parsing, canonical forms, sort order, and notation.md §6's record example."""

from __future__ import annotations

import json
from typing import Any

import pytest

import feltroom
from feltroom import CLOCK, IllegalAction, InvalidAction
from feltroom.games.crisp import Crisp

from .crisp_helpers import act, new, of, round_deck

RECORD: dict[str, Any] = {
    "format": 1, "name": "crisp", "players": 2,
    "options": {"end_limit": 100, "draw_time": 30, "draw_from_discard": False, "clock": True, "first_dealer": 0},
    "seed": 7,
    "deck": ["9S", "AD", "4H", "6C", "2C", "3S", "KS", "3D", "JH", "QD", "7C"],
    "actions": [
        [1, "draw"], [1, "king"], [1, "draw"], [1, "swap L"], [1, "draw"], [1, "jack"],
        ["CLOCK", "release"], [0, "draw"], ["CLOCK", "close 1"], [0, "queen C 1 L"],
        [0, "crisp"], ["CLOCK", "release"], [1, "draw"], ["CLOCK", "timeout"],
    ],
}

ALL = "all"


def ev(kind: str, to: Any = ALL, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "to": to, **fields}


def timer(action: str, seconds: int, seat: int) -> dict[str, Any]:
    return ev("timer", action=action, seconds=seconds, seat=seat)


def reveal(seat: int, card: str, slot: str | None, why: str) -> dict[str, Any]:
    return ev("reveal", [seat], seat=seat, cards=[card], slot=slot, why=why)


# The events of notation.md §6, steps 1–7, in order (round 2's opening comes after them).
EXPECTED = [
    # 1. new game
    ev("round_start", round=1, dealer=0, first=1),
    reveal(1, "9S", "L", "deal"), reveal(1, "2C", "R", "deal"),
    reveal(0, "AD", "L", "deal"), reveal(0, "3S", "R", "deal"),
    ev("turn_start", seat=1, last=False), timer("timeout", 30, 1),
    # 2. P1's turn
    ev("draw", seat=1, source="deck"), reveal(1, "KS", None, "draw"),
    ev("king", seat=1, card="KS", pending=2), timer("timeout", 30, 1),
    ev("draw", seat=1, source="deck"), reveal(1, "3D", None, "draw"),
    ev("swap", seat=1, slot="L", out="9S"), timer("timeout", 30, 1),
    ev("draw", seat=1, source="deck"), reveal(1, "JH", None, "draw"),
    reveal(1, "4H", "C", "jack"), ev("jack", seat=1, card="JH"),
    ev("timer_stop", action="timeout"),
    ev("turn_end", seat=1, why="done", lost=0, kings=["KS"]),
    ev("window_open", seat=1), timer("release", 2, 0), timer("close 1", 3, 1),
    # 3. the hold and the overlap
    ev("turn_start", seat=0, last=False), timer("timeout", 30, 0),
    ev("draw", seat=0, source="deck"), reveal(0, "QD", None, "draw"),
    ev("window_close", seat=1, why="clock"),
    # 4. P0's Queen
    ev("queen", seat=0, card="QD", slot="C", target=1, target_slot="L"),
    reveal(1, "6C", "L", "queen"),
    ev("timer_stop", action="timeout"),
    ev("turn_end", seat=0, why="done", lost=0, kings=[]),
    ev("window_open", seat=0), timer("release", 2, 1), timer("close 0", 3, 0),
    # 5. the declaration
    ev("crisp", seat=0, last_turns=[1]), ev("window_close", seat=0, why="crisp"),
    ev("timer_stop", action="close 0"),
    # 6. P1's last turn
    ev("turn_start", seat=1, last=True), timer("timeout", 30, 1),
    ev("draw", seat=1, source="deck"), reveal(1, "7C", None, "draw"),
    ev("discard", seat=1, card="7C", why="timeout"),
    ev("timer_stop", action="timeout"),
    ev("turn_end", seat=1, why="timeout", lost=0, kings=[]),
    # 7. round end
    ev("round_end", round=1, hands=[["AD", "3D", "3S"], ["6C", "4H", "2C"]], totals=[7, 12], declarer=0,
       round_scores=[2, 12], scores=[2, 12]),
    ev("round_start", round=2, dealer=1, first=0),
]

P1_VIEW = json.loads("""
{"game": "crisp", "seat": 1, "players": 2, "phase": "play", "to_act": [1],
 "scores": [0, 0], "over": false, "winners": [], "round": 1, "dealer": 0,
 "turn": 1, "last_turn": true, "pending": 1, "held": {"source": "deck", "card": "7C"},
 "deck_size": 41, "discard_top": "QD", "discard_size": 4, "kings_in_use": [],
 "crisp": 0, "last_turns": [1], "windows": [], "hold": false, "last_round": null,
 "options": {"end_limit": 100, "draw_time": 30, "draw_from_discard": false,
             "clock": true, "first_dealer": 0}}
""")


def test_record_example_events_match_notation_section_6() -> None:
    """notation.md §6, step by step (CRISP-DEAL-6, CRISP-SPEC-4/5/6/8, CRISP-ONL-WIN-1/2, CRISP-ONL-TIME-4/5,
    CRISP-SCORE-2)."""
    game = feltroom.replay(RECORD)
    assert isinstance(game, Crisp)
    assert game.log[: len(EXPECTED)] == EXPECTED
    rest = game.log[len(EXPECTED):]
    # round 2: the peeks, turn_start {0} and the timer; nothing else
    assert [e["type"] for e in rest] == ["reveal"] * 4 + ["turn_start", "timer"]
    assert [e["to"] for e in rest[:4]] == [[0], [0], [1], [1]]
    assert rest[-2:] == [ev("turn_start", seat=0, last=False), timer("timeout", 30, 0)]
    assert game.scores == [2, 12] and not game.is_over and game.turn == 0 and game.dealer == 1


def test_record_example_p1_view_before_the_timeout() -> None:
    """notation.md §6: P1's view just before step 6 ends, the legal lists, and the memory rule."""
    record = dict(RECORD, actions=RECORD["actions"][:-1])
    game = feltroom.replay(record)
    assert game.view(1) == P1_VIEW
    assert game.legal_actions(1) == ["swap L", "swap C", "swap R", "discard"]
    assert game.legal_actions(0) == [] and game.legal_actions(CLOCK) == ["timeout"]
    text = json.dumps(game.view(1))
    assert all(card not in text for card in ("6C", "4H", "2C"))  # the memory rule (CRISP-CONV-5)


def test_record_example_replays_bit_for_bit_and_is_its_own_record() -> None:
    game = feltroom.replay(json.loads(json.dumps(RECORD)))
    rec = game.record
    assert rec["actions"] == RECORD["actions"] and rec["options"] == RECORD["options"]
    assert rec["deck"] == RECORD["deck"] and rec["seed"] == 7
    again = feltroom.replay(rec)
    assert again.log == game.log and again.view(0) == game.view(0)


@pytest.mark.parametrize(("text", "canon"), [
    ("draw", "draw"), ("DRAW deck", "draw"), ("  draw   Deck ", "draw"), ("Draw Discard", "draw discard"),
    ("swap r", "swap R"), ("SWAP c", "swap C"), ("discard", "discard"), ("DISCARD", "discard"),
    ("Jack", "jack"), ("KING", "king"), ("queen r p3 c", "queen R 3 C"), ("queen L 2 R", "queen L 2 R"),
    ("QUEEN c P0 l", "queen C 0 L"), ("CRISP", "crisp"), (" Decline ", "decline"), ("timeout", "timeout"),
    ("Release", "release"), ("close P1", "close 1"), ("close 0", "close 0"),
])
def test_canonical_forms(text: str, canon: str) -> None:
    """notation.md §2.1 and the Crisp action table's examples."""
    game = new(4, None)
    assert game.canonical(1, text) == canon


@pytest.mark.parametrize("text", [
    "", "   ", "fly", "draw draw", "draw pile", "swap", "swap X", "swap L C", "swap 1", "discard now",
    "queen L 2", "queen L 9 R", "queen L -1 R", "queen L x R", "queen 2 L 0 L", "queen L 2 L 0", "close",
    "close 7", "close 1 2", "crisp now", "king KS", "take 3D", "\x00", "x" * 300, "queen L ２ R",
])
def test_malformed_actions_are_invalid_and_change_nothing(text: str) -> None:
    """notation.md §2.2 step 1: InvalidAction, with a message a player understands."""
    game = new(4, None)
    before = (list(game.log), game.view(1), game.legal_actions(1))
    with pytest.raises(InvalidAction) as info:
        game.apply(1, text)
    assert str(info.value) and len(str(info.value)) < 200
    assert (list(game.log), game.view(1), game.legal_actions(1)) == before


def test_unknown_seats_are_invalid_and_have_no_legal_actions() -> None:
    game = new(3, None)
    for seat in (3, -1, "1", None, 1.0):
        assert game.legal_actions(seat) == []  # type: ignore[arg-type]
        with pytest.raises(InvalidAction):
            game.apply(seat, "draw")  # type: ignore[arg-type]
    with pytest.raises(InvalidAction):
        game.apply(1, 5)  # type: ignore[arg-type]


def test_legal_actions_are_canonical_unique_and_sorted() -> None:
    """notation.md §2.2: verb order of the table, then slots L C R, seats ascending."""
    game = new(3, round_deck(3, 0, {0: "2S 3S 4S", 1: "5S 6S 7S", 2: "8S 9S 10S"}, "QH JH"), dealer=0)
    act(game, "1 draw")
    legal = game.legal_actions(1)
    assert legal[0] == "discard" and len(legal) == 1 + 9 * 2
    assert legal[1:] == [f"queen {s} {o} {t}" for s in "LCR" for o in (0, 2) for t in "LCR"]
    assert all(game.canonical(1, a) == a for a in legal)
    act(game, "1 discard")
    assert game.legal_actions(1) == ["crisp", "decline"] and game.legal_actions(2) == ["draw"]
    assert game.to_act == (1, 2)  # the window's owner first
    act(game, "2 draw")
    assert game.legal_actions(2) == ["discard", "jack"]


def test_clock_actions_are_sorted_and_exist_only_with_the_clock() -> None:
    """notation.md §2.3: legal_actions(CLOCK) is [] without the clock; timeout, release, close S in order."""
    assert new(3, None).legal_actions(CLOCK) == []
    game = new(3, round_deck(3, 0, {0: "2S 3S 4S", 1: "5S 6S 7S", 2: "8S 9S 10S"}), dealer=0, clock=True,
               draw_time=60)
    assert game.legal_actions(CLOCK) == ["timeout"]
    act(game, "1 draw", "1 discard")
    assert game.legal_actions(CLOCK) == ["release", "close 1"]
    act(game, "CLOCK release", "2 draw", "2 discard")
    assert game.legal_actions(CLOCK) == ["release", "close 1", "close 2"]
    act(game, "CLOCK release")  # P1's window had to close in real time before this release
    assert game.legal_actions(CLOCK) == ["timeout", "close 2"] and game.windows == [2]


def test_an_illegal_action_names_its_rule_in_the_message() -> None:
    game = new(3, None)
    with pytest.raises(IllegalAction) as info:
        game.apply(0, "draw")
    assert info.value.rule == "CRISP-TURN-1" and "CRISP-TURN-1" in str(info.value)
    assert "P1" in info.value.message


@pytest.mark.parametrize(("options", "message"), [
    ({"end_limit": 0}, "end_limit"), ({"end_limit": 1001}, "end_limit"), ({"end_limit": "100"}, "end_limit"),
    ({"end_limit": True}, "end_limit"), ({"draw_time": 20}, "draw_time"), ({"draw_time": 30}, "clock"),
    ({"draw_time": 30.0, "clock": True}, "draw_time"), ({"draw_from_discard": 1}, "draw_from_discard"),
    ({"clock": "yes"}, "clock"), ({"first_dealer": 3}, "first_dealer"), ({"first_dealer": -1}, "first_dealer"),
    ({"colour": "red"}, "colour"),
])
def test_bad_options_raise_value_error_naming_allowed_values(options: dict[str, Any], message: str) -> None:
    """notation.md Crisp Options; CRISP-ONL-2, CRISP-END-1."""
    with pytest.raises(ValueError, match=message):
        feltroom.new_game("crisp", players=3, seed=1, options=options)


def test_options_are_normalised_with_defaults() -> None:
    """CRISP-ONL-2 (CRISP-AMB-17): defaults 100 / unlimited / off; clock off; dealer chosen by the RNG."""
    game = feltroom.new_game("crisp", players=3, seed=1)
    assert game.options == {"end_limit": 100, "draw_time": None, "draw_from_discard": False, "clock": False,
                            "first_dealer": None}
    for limit in (1, 50, 150, 1000):
        assert feltroom.new_game("crisp", 2, 1, {"end_limit": limit}).options["end_limit"] == limit
    for t in (30, 45, 60):
        assert feltroom.new_game("crisp", 2, 1, {"clock": True, "draw_time": t}).options["draw_time"] == t


def test_bad_decks_raise_value_error() -> None:
    for deck in (["AS", "AS"], ["1S"], ["AS", "ZZ"], [["AS"], ["H10"]], "AS KD"):
        with pytest.raises(ValueError):
            feltroom.new_game("crisp", players=2, seed=1, deck=deck)  # type: ignore[arg-type]
    game = feltroom.new_game("crisp", players=2, seed=1, deck=["t♥", "as"], options={"first_dealer": 0})
    assert game.record["deck"] == ["10H", "AS"]
    assert of(game.log, "reveal")[0]["cards"] == ["10H"]
