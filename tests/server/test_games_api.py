"""GET /api/games: every game's metadata from the engine, and one default per fact.

The browser's lobby reads only this (tests/test_web_modules.py checks it holds no game table;
tests/browser/test_web_client.py checks the form it draws), the server's lobby and the CLI read
the same ``Game``/``Option`` declarations: here the three are compared.
"""

from __future__ import annotations

import io
import re
from typing import Any

from rich.console import Console

from feltroom import GAMES, new_game
from feltroom.bots import LEVELS, levels_for
from feltroom.catalog import catalog
from feltroom.cli import play
from feltroom.cli.main import build_parser
from feltroom.knowledge import KNOWLEDGE
from feltroom.server.lobby_options import lobby_options

from .conftest import Room_


def cli_players(game: str) -> int:
    """The seats ``feltroom play <game>`` starts without ``--players`` (it says so, then quits)."""
    out = io.StringIO()
    args = build_parser().parse_args(["play", game, "--seed", "1"])
    assert play.run(args, Console(file=out, width=200, color_system=None), lambda prompt: "q") == 0
    found = re.search(r"for (\d+) —", out.getvalue())
    assert found, out.getvalue()
    return int(found[1])


def engine_options(game: str, seats: int, options: dict[str, Any]) -> dict[str, Any]:
    return new_game(game, players=seats, seed=0, options=lobby_options(game, seats, options)).options


def test_the_api_serves_every_game_from_the_engine(room: Room_) -> None:
    served = room.tc.get("/api/games").json()["games"]
    assert [{k: v for k, v in g.items() if k != "bot_levels"} for g in served] == catalog()
    assert sorted(g["name"] for g in served) == sorted(GAMES)
    for g in served:
        cls = GAMES[g["name"]]
        assert (g["title"], g["min_players"], g["max_players"]) == (cls.title, cls.min_players, cls.max_players)
        assert set(g["lobby"]) == {str(n) for n in range(cls.min_players, cls.max_players + 1)}
        labelled = {o["key"] for o in g["options"]}
        for fields in g["lobby"].values():
            assert {f["key"] for f in fields} <= labelled and not labelled & set(g["fixed"])


def test_lobby_cli_and_browser_agree_on_every_default(room: Room_) -> None:
    served = room.tc.get("/api/games").json()["games"]
    hosts = [room.client("ann"), room.client("bob")]
    for i, g in enumerate(served):
        name, seats = g["name"], g["default_players"]
        assert cli_players(name) == seats == GAMES[name].default_players
        assert g["min_players"] <= seats <= g["max_players"]
        for n, fields in g["lobby"].items():
            form = {f["key"]: f["default"] for f in fields}  # the browser's form, untouched
            assert all(f["default"] in f["values"] for f in fields), (name, n)
            # the browser's defaults are the engine's, and the lobby's fixed values hold
            assert engine_options(name, int(n), form) == engine_options(name, int(n), {})
            assert engine_options(name, int(n), {}) | g["fixed"] == engine_options(name, int(n), {})
        # once through the room: the untouched form creates the table no options create
        form = {f["key"]: f["default"] for f in g["lobby"][str(seats)]}
        host = hosts[i % 2]
        made = [host.request({"type": "create", "game": name, "seats": seats, "options": o}) for o in (form, {})]
        assert made[0]["type"] == "table" and made[0]["options"] == made[1]["options"]


def test_the_lobby_refuses_what_it_does_not_offer_at_that_seat_count(room: Room_) -> None:
    ann = room.client("ann")
    refused = 0
    for g in room.tc.get("/api/games").json()["games"]:
        offered: dict[str, set[str]] = {n: {f["key"] for f in fields} for n, fields in g["lobby"].items()}
        everywhere = set.intersection(*offered.values())
        for n, keys in offered.items():
            for key in keys - everywhere:  # offered at some seat counts only (Craits decks, Cribbage teams)
                other = next(m for m, k in offered.items() if key not in k)
                value = next(f["default"] for f in g["lobby"][n] if f["key"] == key)
                err = ann.request({"type": "create", "game": g["name"], "seats": int(other),
                                   "options": {key: value}})
                assert err["code"] == "bad_message" and f"not offered for {g['name']} with {other} seats" \
                    in err["message"]
                refused += 1
    assert refused >= 2  # Craits' decks and Cribbage's teams, at least


def test_the_api_serves_each_games_bot_levels_with_what_they_are(room: Room_) -> None:
    """One source (feltroom.bots.LEVELS): the levels a table offers, weakest first, each with a strength and a line."""
    served = room.tc.get("/api/games").json()["games"]
    for g in served:
        levels = g["bot_levels"]
        assert [d["level"] for d in levels] == levels_for(g["name"])
        assert all((d["strength"], d["about"]) == LEVELS[d["level"]] for d in levels)
        assert levels[0]["level"] == "random" and "heuristic" in [d["level"] for d in levels]
    by_name = {g["name"]: [d["level"] for d in g["bot_levels"]] for g in served}
    assert by_name["cribbage"][-1] == by_name["krypkasino"][-1] == "search"
    assert {name for name, levels in by_name.items() if "search" in levels} == set(KNOWLEDGE)
