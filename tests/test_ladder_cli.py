"""``feltroom ladder`` (cli/ladder.py): seat-rotated matches, Wilson intervals, OpenSkill ratings."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from feltroom.cli.ladder import plan, run_ladder, wilson
from feltroom.cli.main import build_parser, main


def test_matches_rotate_the_lone_level_and_deal_in_turn() -> None:
    deals = plan("crisp", 4, 8, ["heuristic", "random"], seed=3)
    assert [d.levels for d in deals[:4]] == [
        ["heuristic", "random", "random", "random"], ["random", "heuristic", "heuristic", "heuristic"],
        ["random", "heuristic", "random", "random"], ["heuristic", "random", "heuristic", "heuristic"]]
    assert plan("crisp", 4, 8, ["heuristic", "random"], seed=3) == deals  # the seed fixes every game


def test_the_interval_holds_the_rate_and_narrows() -> None:
    lo, hi = wilson(55, 100)
    assert lo < 0.55 < hi
    lo2, hi2 = wilson(550, 1000)
    assert lo < lo2 < 0.55 < hi2 < hi
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)


@pytest.mark.slow
def test_the_ladder_prints_rates_and_ratings_and_is_the_same_for_any_jobs() -> None:
    a = run_ladder("cribbage", 2, 6, ["heuristic", "random"], 7, {"target": 61}, None, 1)
    b = run_ladder("cribbage", 2, 6, ["heuristic", "random"], 7, {"target": 61}, None, 2)
    assert [t.lone for t in a.tallies] == [t.lone for t in b.tallies]
    assert a.ratings == b.ratings and a.ratings["heuristic"].mu > a.ratings["random"].mu
    out = io.StringIO()
    args = build_parser().parse_args(["ladder", "cribbage", "--games", "3", "--bots", "search,random",
                                      "--budget", "1", "--seed", "2", "-o", "target=61"])
    assert args.run(args, Console(file=out, width=160, color_system=None)) == 0
    text = out.getvalue()
    assert "search vs random" in text and "Wilson 95 %" in text and "OpenSkill" in text


def test_the_ladder_refuses_what_it_cannot_play(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", "cribbage", "--bots", "heuristic"]) == 2
    assert main(["ladder", "cribbage", "--bots", "heuristic,grandmaster"]) == 2
    assert "grandmaster" in capsys.readouterr().err
    # a level that would play a table only as another is not rated under its name (docs/bots.md):
    # search at two-deck Craits (CRAITS-SETUP-1), whose sampler is off
    assert main(["ladder", "craits", "--players", "8", "--bots", "search,heuristic"]) == 2
    assert "the levels are random, heuristic" in capsys.readouterr().err
