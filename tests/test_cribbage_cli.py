"""Cribbage in the terminal: hotkeys (CRIB-KEY-*, CRIB-SCN-27), render, describe, sim stats, the
distribution command."""

from __future__ import annotations

import argparse
import json

from feltroom.cli.games import cribbage as cli
from feltroom.games.cribbage import Cribbage

from .cribbage_helpers import discard, names_in, play, play_lowest

SCN2 = ["4C", "5H", "5S", "5D", "6D", "JC", "JH", "5C", "KS", "2D", "QS", "3C", "4H"]


def game(**options: object) -> Cribbage:
    return Cribbage(2, seed=3, options={"first_dealer": 0, **options}, deck=SCN2)


def keys(g: Cribbage, seat: int) -> dict[str, str | None]:
    view = g.view(seat)
    before = json.dumps(view)
    out = {k: cli.hotkey(view, k) for k in "CBFVST"}
    assert json.dumps(view) == before  # CRIB-KEY-7: hotkeys only read
    return out


def test_hotkeys_discard_phase_scn27() -> None:
    """CRIB-SCN-27, discard phase: CRIB-KEY-1 C, CRIB-KEY-2 B, CRIB-KEY-3 F, CRIB-KEY-4 V, CRIB-KEY-6 T."""
    g = game()
    k = keys(g, 1)
    assert k["C"] == "No count yet" and k["F"] == "Starter not turned yet" and k["B"] == "P0's crib"
    assert k["V"] == "Only during the play" and k["T"] == "Still to discard: P1, P0"
    assert cli.hotkey(g.view(1), "c") == k["C"] and cli.hotkey(g.view(1), "x") is None
    g.apply(1, "discard KS QS")
    assert keys(g, 1)["T"] == "Still to discard: P0"


def test_hotkeys_play_phase_scn27() -> None:
    """CRIB-SCN-27, play: C the count and goes (CRIB-KEY-1), V the cards played with seats and the current
    series marked (CRIB-KEY-4), T the seat to play (CRIB-KEY-6), F the starter (CRIB-KEY-3); CRIB-INFO-3."""
    dealt = {1: "10C AS 2C 3C KD KH", 0: "KD 4S 9H 8C QC QD".replace("KD", "KS")}
    from .cribbage_helpers import new

    g = new(2, dealt, "AD")
    discard(g, {1: "KD KH", 0: "QC QD"})
    play(g, "1:10C 0:KS 1:AS")
    k = keys(g, 1)
    assert k["C"] == "Count 21" and k["V"] == "10C(P1) KS(P0) AS(P1)" and k["T"] == "P0 to play"
    assert k["F"] == "Starter AD"
    assert not names_in(cli.hotkey(g.view(1), "V")) & {"4S", "9H", "8C"}  # CRIB-SCN-27: no P0 card leaks
    play(g, "0:9H")  # 30: P1 go (2C would make 32), P0 cannot play 4S or 8C: one for the go, reset
    k = keys(g, 0)
    assert k["V"] == "10C(P1) KS(P0) AS(P1) 9H(P0) |" and k["C"] == "Count 0" and k["T"] == "P1 to play"
    play(g, "1:2C")
    assert keys(g, 0)["V"] == "10C(P1) KS(P0) AS(P1) 9H(P0) | 2C(P1)" and keys(g, 0)["C"] == "Count 2"


def test_hotkeys_show_and_over_scn27() -> None:
    """CRIB-SCN-27, show (manual): C shows the set and no score before the claim (CRIB-KEY-1, CRIB-INFO-4),
    then the claim, C and breakdown; S totals and target (CRIB-KEY-5); T the pending claim; over."""
    g = game()
    discard(g, {1: "KS QS", 0: "2D 3C"})
    play_lowest(g)
    k = keys(g, 0)
    assert k["C"] is not None and "hand of P1: 4C 5S 6D JH + starter 4H" in k["C"] and "15" not in k["C"]
    assert k["V"] == "Only during the play" and k["T"] == "P1 to claim"
    assert k["S"] == f"P0 {g.scores[0]}, P1 {g.scores[1]} (target 121)"
    g.apply(1, "claim 15")
    c = keys(g, 0)["C"]
    assert c is not None and "claimed 15, worth 15" in c and "fifteen 4C 5S 6D (2)" in c
    g.side_scores[0] = 120
    g.apply(0, "claim 14")
    k = keys(g, 1)
    assert k["T"] == "Game over" and k["S"] is not None
    assert k["S"].startswith("Final: P0 134, P1") and k["S"].endswith("winner P0")
    assert k["F"] == "Starter 4H" and "hand of P0" in (k["C"] or "")


def test_hotkey_b_names_the_team() -> None:
    """CRIB-KEY-2 with teams."""
    g = Cribbage(4, seed=1, options={"first_dealer": 1, "teams": "2x2"})
    assert cli.hotkey(g.view(0), "B") == "P1's crib (team P1+P3)"


def test_render_describe_and_sim_stats() -> None:
    g = game(counting="automatic")
    text = cli.render(g.view(1))
    assert "Your hand: 4C 5S 6D JH QS KS" in text and "5H" not in text
    discard(g, {1: "KS QS", 0: "2D 3C"})
    play_lowest(g)
    lines = [cli.describe(e, 1) for e in g.log]
    assert "P1 plays 4C (count 4)" in lines and "Starter: 4H" in lines
    assert any(line and line.startswith("P1's hand is worth 15") for line in lines)
    stats = cli.sim_stats(g, ["random", "random"])
    assert stats["hand score"][1] == 15 and stats["crib score"][0] == 7


def test_distribution_command(capsys: object) -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    cli.add_commands(sub)
    args = parser.parse_args(["cribbage-distribution", "--by-pattern"])
    assert args.run(args) == 0
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "matches the published distribution" in out and "mean 4.7692" in out and "time " in out


def test_hotkey_c_when_the_game_ended_in_the_play() -> None:
    """CRIB-KEY-1 (over): the last counting set counted, from the hand before, if the game ended in the play."""
    for seed in range(40):
        g = Cribbage(2, seed=seed, options={"first_dealer": 0, "counting": "automatic", "target": 61})
        while not g.is_over:
            seat = g.to_act[0]
            g.apply(seat, g.legal_actions(seat)[0])
        last_score = [e for e in g.log if e["type"] == "score"][-1]
        if last_score["reason"] == "play" and g.hand_no > 1:
            c = cli.hotkey(g.view(0), "C")
            assert c is not None and c.startswith(f"crib of P{(g.dealer - 1) % 2}:") and "points" in c
            assert cli.hotkey(g.view(0), "T") == "Game over"
            return
    raise AssertionError("no game ended in the play")


def test_hotkeys_and_render_never_fail() -> None:
    """CRIB-KEY-7: every hotkey answers from any view, for any seat or a spectator, in every phase."""
    import random

    for players, options in ((2, {}), (3, {"turn_time": 30}), (4, {"teams": "2x2", "counting": "automatic"})):
        g = Cribbage(players, seed=players, options={"target": 61, **options})
        rng = random.Random(players)
        seen = set()
        while True:
            for seat in [*range(players), None]:
                view = g.view(seat)
                seen.add(view["phase"])
                assert all(isinstance(cli.hotkey(view, k), str) for k in "CBFVSTcbfvst")
                assert cli.render(view)
            if g.is_over:
                break
            seat = g.to_act[0] if g.to_act else "CLOCK"
            legal = g.legal_actions(seat)
            g.apply(seat, legal[rng.randrange(len(legal))])
        assert seen >= {"discard", "play", "over"}
