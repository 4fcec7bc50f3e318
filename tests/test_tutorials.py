"""Every tutorial (games/tutorials/*.json, feltroom.tutorial) plays as its words say.

The script must be playable on its engine whatever the seed (the stacked deck fixes the cards
that matter), with no CLOCK action ever due (the step due is the number of actions applied)."""

from __future__ import annotations

import pytest

from feltroom.game import CLOCK
from feltroom.registry import GAMES, new_game
from feltroom.tutorial import LANGS, tutorial_for, tutorial_games


def test_every_game_has_a_tutorial() -> None:
    assert tutorial_games() == sorted(GAMES)


def test_an_unknown_game_has_none() -> None:
    assert tutorial_for("no-such-game") is None
    assert tutorial_for("../crisp") is None


@pytest.mark.parametrize("game", tutorial_games())
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_script_is_legal_step_by_step(game: str, seed: int) -> None:
    tut = tutorial_for(game)
    assert tut is not None
    g = new_game(game, players=tut.players, seed=seed, options=tut.options, deck=tut.deck)
    for i in range(len(tut.steps)):
        step = tut.step_due(len(g.actions))
        assert step is not None and step is tut.steps[i]
        assert g.legal_actions(CLOCK) == [], f"{game} step {i + 1}: a CLOCK action is due"
        assert step.seat in g.to_act, f"{game} step {i + 1}: seat {step.seat} is not to act ({g.to_act})"
        assert step.action in g.legal_actions(step.seat), f"{game} step {i + 1}: {step.action!r} is not legal"
        g.apply(step.seat, step.action)
    assert tut.step_due(len(g.actions)) is None
    assert g.legal_actions(CLOCK) == []


@pytest.mark.parametrize("game", tutorial_games())
def test_the_learner_is_told_every_step(game: str) -> None:
    tut = tutorial_for(game)
    assert tut is not None
    mine = [s for s in tut.steps if s.seat == tut.seat]
    assert mine and all(s.text and all(s.text[lang] for lang in LANGS) for s in mine)
    pub = tut.public()
    assert [s["action"] for s in pub["steps"] if s["seat"] == tut.seat] == [s.action for s in mine]
    assert all(s["action"] is None for s in pub["steps"] if s["seat"] != tut.seat)  # the bots' moves are not told
