"""The Krypkasino terminal module: every view renders and every event has a line (no secrets)."""

from __future__ import annotations

import random

import pytest

import feltroom
from feltroom.cli.games.krypkasino import describe, render, sim_stats
from feltroom.views import events_for

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestDeprecationWarning")


@pytest.mark.parametrize("players", [2, 5])
def test_render_and_describe_a_whole_match(players: int) -> None:
    g = feltroom.new_game("krypkasino", players=players, seed=players, options={"turn_time": 45})
    rng = random.Random(players)
    while not g.is_over:
        seat = g.to_act[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))
        for s in (seat, None):
            text = render(g.view(s))
            assert "Table:" in text and ("Your hand" in text) == (s is not None)
    kinds = set()
    for e in events_for(g.log, 0):
        line = describe(e, 0)
        kinds.add(e["type"])
        assert (line is None) == (e["type"] in ("timer", "timer_stop")), e
    assert {"deal_start", "reveal", "table", "play", "sweep", "packet", "award", "deal_end", "game_end"} <= kinds
    assert "WINNER" in render(g.view(g.winners[0]))
    stats = sim_stats(g, ["random"] * players)
    assert sum(filter(None, stats["pts/deal"])) == pytest.approx(42)  # KRYP-SCORE-2
    assert sum(filter(None, stats["sweeps"])) == pytest.approx(sum(filter(None, stats["swept on"])))


def test_spectator_lines_never_show_a_hand() -> None:
    g = feltroom.new_game("krypkasino", players=3, seed=1)
    assert all(e["type"] != "reveal" for e in events_for(g.log, None))
    assert "Your hand" not in render(g.view(None))
