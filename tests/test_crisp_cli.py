"""The Crisp terminal renderer: render, describe and sim_stats."""

from __future__ import annotations

import feltroom
from feltroom.bots import make_bot
from feltroom.bots.runner import play_out
from feltroom.cards import NAMES
from feltroom.cli.games.crisp import describe, render, sim_stats
from feltroom.views import events_for

from .crisp_helpers import act, new, round_deck, std


def test_render_shows_seats_slots_scores_piles_and_turn_but_no_slot_card() -> None:
    g = std(3, "KS 4D", clock=True, draw_time=30)
    act(g, "1 draw", "1 king", "1 draw")
    text = render(g.view(1))
    assert text.count("[?] [?] [?]") == 3 and "P1 (you)" in text and "score" in text
    assert "Kings in use: KS" in text and "You hold 4D" in text and "Deck 41" in text
    for hand in g.hands:
        for c in hand:
            assert f" {NAMES[c]} " not in f" {text} ".replace("\n", " ")
    other = render(g.view(0))
    assert "P1 holds a card from the deck" in other and "4D" not in other
    act(g, "1 discard", "1 draw", "1 discard")
    text = render(g.view(2))
    assert "Crisp window open: P1" in text and "waits 2 s" in text and "Discard KS" in text


def test_render_last_turns_and_game_over() -> None:
    g = new(2, round_deck(2, 0, {1: "AS 2S 3S", 0: "4S 5S 6S"}), dealer=0, end_limit=10)
    act(g, "1 draw", "1 discard", "1 crisp")
    assert "P1 declared crisp · last turns: P0" in render(g.view(None))
    act(g, "0 draw", "0 discard")
    text = render(g.view(None))
    assert "Game over — winner: P1" in text and "WINNER" in text and "round scores [15, 1]" in text


def test_describe_one_line_per_event() -> None:
    assert describe({"type": "swap", "to": "all", "seat": 2, "slot": "L", "out": "9S"}, 0) == \
        "P2 swapped L: 9S goes to the pile"
    assert describe({"type": "reveal", "to": [1], "seat": 1, "cards": ["4H"], "slot": "L", "why": "deal"}, 1) == \
        "You see your L card: 4H"
    assert describe({"type": "reveal", "to": [1], "seat": 1, "cards": ["4H"], "slot": None, "why": "draw"}, 1) == \
        "You drew 4H"
    q = {"type": "queen", "to": "all", "seat": 0, "card": "QD", "slot": "C", "target": 1, "target_slot": "L"}
    assert describe(q, 1) == "P0 used QD: P0’s C ↔ your L"
    assert describe(q, 0) == "You used QD: your C ↔ P1’s L"
    assert describe({"type": "timer", "to": "all", "action": "timeout", "seconds": 30, "seat": 1}, 1) is None
    assert "CRISP" in (describe({"type": "crisp", "to": "all", "seat": 0, "last_turns": [1]}, 1) or "")


def test_describe_every_event_of_real_games() -> None:
    for seed in range(3):
        game = feltroom.new_game("crisp", players=3, seed=seed,
                                 options={"clock": True, "draw_time": 30, "draw_from_discard": True, "end_limit": 40})
        play_out(game, [make_bot("random", "crisp", s, 3, seed=s) for s in range(3)])
        for seat in (0, None):
            for e in events_for(game.log, seat):
                line = describe(e, seat)
                assert line is None or (line and "\n" not in line)
        render(game.view(0))


def test_sim_stats_per_seat() -> None:
    g = new(2, [round_deck(2, 0, {1: "AS 2S 3S", 0: "4S 5S 6S"}), round_deck(2, 1, {0: "AD 2D 3D",
                                                                                  1: "4D 5D 6D"})],
            dealer=0, end_limit=30)
    from .crisp_helpers import simple_round
    simple_round(g, 1)  # P1 declares and wins: 1, P0 15
    simple_round(g, 1)  # P1 declares with 15 vs 6: 20
    stats = sim_stats(g, ["random", "random"])
    assert stats["crisp success"] == [None, 0.5]
    assert stats["mean round score"][0] == (15 + 6) / 2 and stats["mean round score"][1] == (1 + 20) / 2
