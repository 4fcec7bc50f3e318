"""The terminal client: ``feltroom play`` against bots and ``feltroom sim``."""

from __future__ import annotations

import argparse
import io
import itertools
import subprocess
import sys

import pytest
from rich.console import Console

import feltroom
from feltroom.cli import play, sim
from feltroom.cli.main import build_parser, main


def console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=100, force_terminal=False, color_system=None), out


def play_args(game: str, **kw: object) -> argparse.Namespace:
    return build_parser().parse_args(["play", game, *itertools.chain.from_iterable(
        (f"--{k}", str(v)) for k, v in kw.items())])


@pytest.mark.parametrize(
    "game", [pytest.param(g, marks=pytest.mark.slow) if g == "craits" else g for g in sorted(feltroom.GAMES)]
)
def test_a_person_plays_a_whole_game_by_numbers(game: str) -> None:
    con, out = console()
    answers = iter(["?", "x-not-an-action", *["1"] * 100_000])
    code = play.run(play_args(game, seed=3, bots="random"), con, lambda prompt: next(answers))
    text = out.getvalue()
    assert code == 0 and "game over" in text and "Final scores" in text
    assert "Not understood" in text or "Not allowed" in text   # the bad input was answered
    assert "Type an action" in text                             # the help


def test_quitting_leaves_the_game() -> None:
    con, out = console()
    assert play.run(play_args("crisp", seed=1), con, lambda prompt: "q") == 0
    assert "Left the game." in out.getvalue()


def test_the_human_seat_is_listed_and_bots_fill_the_rest() -> None:
    assert play.bot_levels("heuristic,random", 4, 1) == ["heuristic", "human", "random", "random"]
    assert sim.seat_levels("heuristic,random", 4) == ["heuristic", "random", "random", "random"]
    with pytest.raises(ValueError, match="3 bot levels for 2 seats"):
        sim.seat_levels("a,b,c", 2)


def test_sim_prints_a_summary_per_bot_level(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "crisp", "--players", "4", "--games", "8", "--seed", "5",
                 "--bots", "heuristic,random", "-o", "end_limit=30"]) == 0
    text = capsys.readouterr().out
    assert "heuristic" in text and "random" in text and "win rate" in text and "8 games" in text


def test_sim_is_reproducible_from_its_seed() -> None:
    a = sim.simulate("crisp", 3, 4, ["random"] * 3, seed=11, options={"end_limit": 20})
    b = sim.simulate("crisp", 3, 4, ["random"] * 3, seed=11, options={"end_limit": 20})
    assert (a.actions, dict(a.score)) == (b.actions, dict(b.score))


def test_bad_options_give_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "crisp", "--games", "1", "-o", "end_limit=0"]) == 2
    assert "allowed values" in capsys.readouterr().err


def test_a_level_that_would_play_as_another_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """As the room (docs/bots.md): ``search`` at two-deck Craits (CRAITS-SETUP-1: 8 players) would play
    as ``heuristic`` while its sampler is off, so neither a simulation (whose win rates and ratings name
    the level) nor a terminal game seats it; at 4 players (one deck) it is seated."""
    assert main(["sim", "craits", "--players", "8", "--games", "1", "--bots", "search,heuristic"]) == 2
    assert "no 'search' bot for craits at 8 players" in capsys.readouterr().err
    assert main(["play", "craits", "--players", "8", "--bots", "search"]) == 2
    assert "the levels are random, heuristic" in capsys.readouterr().err
    con, out = console()
    assert play.run(play_args("craits", seed=1, players=4, bots="search"), con, lambda prompt: "q") == 0
    assert "P1: search bot" in out.getvalue()


def test_the_console_script_runs() -> None:
    done = subprocess.run([sys.executable, "-m", "feltroom.cli.main", "sim", "crisp", "--games", "2",
                           "--seed", "1", "-o", "end_limit=10"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "win rate" in done.stdout
