"""The Craits heuristic bot and terminal support."""

from __future__ import annotations

import pytest

import feltroom
from feltroom.bots import make_bot
from feltroom.bots.runner import play_out
from feltroom.cli.games import craits as cli
from feltroom.views import events_for

SHORT = {"short_game": True}


@pytest.mark.slow
def test_heuristic_beats_random() -> None:
    """Heuristic in one seat against three random bots, short games: well above the 25% even share."""
    wins = 0.0
    games = 40
    for i in range(games):
        seat = i % 4
        game = feltroom.new_game("craits", players=4, seed=500 + i, options=SHORT)
        bots = [make_bot("heuristic" if s == seat else "random", "craits", s, 4, SHORT, seed=i * 7 + s)
                for s in range(4)]
        play_out(game, bots)
        wins += (seat in game.winners) / len(game.winners)
    assert wins / games > 0.5


def test_heuristic_always_calls_one_card_and_plays_every_variant() -> None:
    """CRAITS-ONE-1: the bot never forgets the flag (no idiot events for its seats)."""
    opts = {v: True for v in ("one_card_on_one_card_deal", "face_card_functions", "idiot_card", "short_game")}
    game = feltroom.new_game("craits", players=3, seed=8, options={**opts, "turn_time": 30})
    bots = [make_bot("heuristic", "craits", s, 3, game.options, seed=s) for s in range(3)]
    play_out(game, bots)
    assert game.is_over and not [e for e in game.log if e["type"] == "idiot"]


def test_render_and_describe_every_event() -> None:
    opts = {"face_card_functions": True, "one_card_on_one_card_deal": True, "short_game": True, "turn_time": 30}
    game = feltroom.new_game("craits", players=3, seed=3, options=opts)
    bots = [make_bot("random", "craits", s, 3, game.options, seed=s) for s in range(3)]
    play_out(game, bots)
    kinds = set()
    for seat in (0, None):
        for event in events_for(game.log, seat):
            line = cli.describe(event, seat)
            if event["type"] not in ("timer", "timer_stop"):
                assert isinstance(line, str) and line, event
            kinds.add(event["type"])
        assert "Craits — hand 8/8" in cli.render(game.view(seat)) and "Game over" in cli.render(game.view(seat))
    assert {"cut", "hand_start", "play", "draw", "hand_end", "game_end", "count", "idiot"} <= kinds
    stats = cli.sim_stats(game, ["random"] * 3)
    assert set(stats) == {"went out", "pts/hand", "shuffle pts", "idiot calls"}
    assert sum(filter(None, stats["went out"])) >= 1 and all(len(v) == 3 for v in stats.values())
