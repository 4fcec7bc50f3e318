"""The Craits ``search`` level's spec (``feltroom.bots.search_games``): where its playouts stop."""

from __future__ import annotations

import feltroom
from feltroom.bots import make_bot
from feltroom.bots.search import SPECS
from feltroom.game import CLOCK
from feltroom.views import events_for


def test_a_craits_playout_runs_through_a_shuffle_penalty_to_the_hands_end() -> None:
    """A shuffle penalty adds to a total at once, mid-hand (CRAITS-SHUF-2): the playout goes on to the
    hand's end (with 4 players about half the hands have one), and the hand's value counts the penalty."""
    spec = SPECS["craits"]
    players = 4
    game = feltroom.new_game("craits", players=players, seed=3)
    bots = [make_bot("heuristic", "craits", s, players, game.options, s) for s in range(players)]
    seen = [0] * players
    mark = spec.mark(game, 0)
    checked = 0
    while not game.is_over and checked < 3:
        if not game.to_act:
            game.apply(CLOCK, game.legal_actions(CLOCK)[0])
            continue
        seat = game.to_act[0]
        bots[seat].observe(events_for(game.log[seen[seat]:], seat))
        seen[seat] = len(game.log)
        before = len(game.log)
        game.apply(seat, bots[seat].choose(game.view(seat), game.legal_actions(seat)))
        new = [e["type"] for e in game.log[before:]]
        if "hand_end" in new:
            assert spec.stop(game, mark)
            mark = spec.mark(game, 0)
        elif "shuffle_penalty" in new:
            assert game.scores != mark[1] and not spec.stop(game, mark)
            penalised = next(e["seat"] for e in game.log[before:] if e["type"] == "shuffle_penalty")
            worth = spec.value(game, penalised, mark)
            assert worth < 0.5  # the penalised seat's margin so far: its penalty, lower is better
            checked += 1
        else:
            assert not spec.stop(game, mark)
    assert checked == 3


def test_a_craits_hands_value_tells_ordinary_margins_apart() -> None:
    """A card is worth 1 to 50 points (CRAITS-SCORE-1), so a hand's margin against the others' mean runs to
    tens of points (median 35 with 4 heuristic players). At Crisp's scale (20 points to 0 or 1) seven hands in
    ten were worth exactly 0 or 1, a hand lost by 25 points the same as one lost by 100, and the search
    could not tell its actions apart by them; at ``CRAITS_SCALE`` few are."""
    spec = SPECS["craits"]
    players = 4
    values: list[float] = []
    for seed in range(4):
        game = feltroom.new_game("craits", players=players, seed=seed)
        bots = [make_bot("heuristic", "craits", s, players, game.options, s) for s in range(players)]
        mark = spec.mark(game, 0)
        while not game.is_over:
            if not game.to_act:
                game.apply(CLOCK, game.legal_actions(CLOCK)[0])
                continue
            seat = game.to_act[0]
            game.apply(seat, bots[seat].choose(game.view(seat), game.legal_actions(seat)))
            if spec.stop(game, mark) and not game.is_over:
                values += [spec.value(game, s, mark) for s in range(players)]
                mark = spec.mark(game, 0)
    clipped = sum(1 for v in values if v in (0.0, 1.0))
    assert len(values) > 100 and clipped < len(values) / 4, (clipped, len(values))
