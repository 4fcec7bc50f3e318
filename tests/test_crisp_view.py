"""Crisp views: what each seat may see now, and the memory rule (notation.md Crisp View, CRISP-CONV-5)."""

from __future__ import annotations

import json

import pytest

from feltroom.cards import NAMES

from .crisp_helpers import act, new, round_deck, simple_round, std

KEYS = {"game", "seat", "players", "options", "phase", "to_act", "scores", "over", "winners", "round", "dealer",
        "turn", "last_turn", "pending", "held", "deck_size", "discard_top", "discard_size", "kings_in_use",
        "crisp", "last_turns", "windows", "hold", "last_round"}


def test_view_has_exactly_the_documented_keys() -> None:
    g = std(3)
    for seat in (0, 1, 2, None):
        v = g.view(seat)
        assert set(v) == KEYS and v["seat"] == seat and v["game"] == "crisp"
        json.dumps(v)


def test_no_slot_card_in_any_view_until_round_end() -> None:
    """CRISP-DEAL-6 / CRISP-CONV-5: the seat's own peeked, jack-seen or queen-received cards never reappear."""
    g = std(3, "JS QS 4D")
    act(g, "1 draw", "1 jack", "1 decline", "2 draw", "2 queen L 1 L", "2 decline", "0 draw", "0 swap C")
    for seat in (0, 1, 2, None):
        text = json.dumps(g.view(seat))
        for hand in g.hands:
            for c in hand:
                assert f'"{NAMES[c]}"' not in text, (seat, NAMES[c])


def test_spectator_sees_no_held_card_from_the_deck() -> None:
    g = std(3, "5S")
    act(g, "1 draw")
    assert g.view(None)["held"] == {"source": "deck", "card": None}
    assert g.view(1)["held"]["card"] == "5S"


def test_a_held_pile_card_is_public() -> None:
    g = std(3, "5S", draw_from_discard=True)
    act(g, "1 draw", "1 discard", "1 decline", "2 draw discard")
    for seat in (0, 1, 2, None):
        assert g.view(seat)["held"] == {"source": "discard", "card": "5S"}


def test_kings_in_use_are_public_and_not_in_the_pile_counts() -> None:
    """CRISP-SPEC-8: kings_in_use, in use order; not in discard_top/discard_size."""
    g = std(3, "4S KS")
    act(g, "1 draw", "1 discard", "1 decline", "2 draw", "2 king")
    v = g.view(None)
    assert v["kings_in_use"] == ["KS"] and v["discard_top"] == "4S" and v["discard_size"] == 1
    assert v["pending"] == 2 and v["deck_size"] == 52 - 9 - 2


def test_last_round_summary() -> None:
    """last_round is the previous round_end without type and to, hands included (notation.md, Crisp view)."""
    g = new(2, round_deck(2, 0, {1: "AS 2S 3S", 0: "4S 5S 6S"}), dealer=0, end_limit=1000)
    assert g.view(0)["last_round"] is None
    simple_round(g, 1)
    lr = g.view(0)["last_round"]
    assert lr == {"round": 1, "hands": [["4S", "5S", "6S"], ["AS", "2S", "3S"]], "totals": [15, 6],
                  "declarer": 1, "round_scores": [15, 1], "scores": [15, 1]}
    g = new(2, round_deck(2, 0, {1: "AS 2S 3S", 0: "4S 5S 6S"}), dealer=0, end_limit=10)
    simple_round(g, 1)
    assert g.is_over and g.view(None)["last_round"]["hands"] == [["4S", "5S", "6S"], ["AS", "2S", "3S"]]
    assert g.view(None)["phase"] == "over" and g.view(None)["to_act"] == []


def test_audit_hooks() -> None:
    """audit_hidden: deck, others' slots, another's held deck card; audit_view_hidden adds own slots."""
    g = std(3, "5S")
    act(g, "1 draw")
    deck = set(g.deck)
    h = g.hands
    assert set(g.audit_hidden(0)) == deck | set(h[1]) | set(h[2]) | {g.held}
    assert set(g.audit_hidden(1)) == deck | set(h[0]) | set(h[2])
    assert set(g.audit_hidden(None)) == deck | set(h[0]) | set(h[1]) | set(h[2]) | {g.held}
    assert set(g.audit_view_hidden(1)) == deck | set(h[0]) | set(h[1]) | set(h[2])


@pytest.mark.parametrize("seat", [3, -1, "0", 1.5])
def test_view_of_an_unknown_seat_is_an_error(seat: object) -> None:
    with pytest.raises(ValueError):
        std(3).view(seat)  # type: ignore[arg-type]
