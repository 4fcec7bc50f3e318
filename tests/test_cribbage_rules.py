"""Cribbage rules engine: every worked scenario (CRIB-SCN-*) on a stacked deck, and the rules
of shared/rules/cribbage.md by ID."""

from __future__ import annotations

import json
from typing import Any

import pytest

import feltroom
from feltroom import CLOCK, InvalidAction
from feltroom.cards import parse_card
from feltroom.games.cribbage import Cribbage, cut_for_dealer, score_hand

from .cribbage_helpers import discard, names_in, new, play, play_lowest, play_points, scores_by, stacked_deck
from .helpers import assert_rejected

SCN2 = ["4C", "5H", "5S", "5D", "6D", "JC", "JH", "5C", "KS", "2D", "QS", "3C", "4H"]


def scn2(**options: Any) -> Cribbage:
    return Cribbage(2, seed=11, options={"first_dealer": 0, "counting": "automatic", **options}, deck=SCN2)


def malformed(game: Cribbage, seat: Any, action: str) -> None:
    n = len(game.log)
    with pytest.raises(InvalidAction):
        game.apply(seat, action)
    assert len(game.log) == n


def peg_parts(events: list[dict[str, Any]]) -> list[list[list[Any]]]:
    return [e["parts"] for e in events if e["type"] == "score" and e["reason"] == "play"]


def count_events(game: Cribbage, start: int = 0) -> list[dict[str, Any]]:
    return [e for e in game.log[start:] if e["type"] == "count"]


# ------------------------------------------------------------------ setup, options, teams


def test_players_and_options() -> None:
    """CRIB-SETUP-1 (2–6 players), CRIB-OPT-1..5 (allowed values and defaults), CRIB-OPT-3 teams fit."""
    for n in (1, 7):
        with pytest.raises(ValueError):
            Cribbage(n, seed=1)
    g = Cribbage(2, seed=1)
    assert g.options == {"target": 121, "counting": "manual", "teams": "none", "crib_flush": "hand",
                         "turn_time": None, "first_dealer": None}
    bad: list[dict[str, Any]] = [{"target": 100}, {"target": "121"}, {"counting": "auto"}, {"crib_flush": "six"},
                                 {"turn_time": 20}, {"turn_time": 0}, {"first_dealer": 2}]
    for opts in bad:
        with pytest.raises(ValueError):
            Cribbage(2, seed=1, options=opts)
    for n, teams in [(3, "2x2"), (5, "2x2"), (2, "2x2"), (4, "2x3"), (6, "2x2"), (4, "3x2")]:
        with pytest.raises(ValueError):  # CRIB-SCN-6, CRIB-AMB-1
            Cribbage(n, seed=1, options={"teams": teams})
    for target in (61, 91, 121, 241):
        assert Cribbage(2, seed=1, options={"target": target}).view(0)["target"] == target


@pytest.mark.parametrize(("players", "teams", "sides"), [
    (2, "none", [[0], [1]]),  # CRIB-TEAM-1
    (3, "none", [[0], [1], [2]]),
    (4, "none", [[0], [1], [2], [3]]),
    (4, "2x2", [[0, 2], [1, 3]]),  # CRIB-TEAM-2
    (6, "2x3", [[0, 2, 4], [1, 3, 5]]),  # CRIB-TEAM-3
    (6, "3x2", [[0, 3], [1, 4], [2, 5]]),
])
def test_sides(players: int, teams: str, sides: list[list[int]]) -> None:
    """CRIB-CONV-3: a side (a player, or a team) owns a score: one score per side."""
    g = Cribbage(players, seed=2, options={"teams": teams, "first_dealer": 0})
    assert g.view(None)["sides"] == sides
    assert len(g.view(None)["side_scores"]) == len(sides)


def test_team_rotation_and_shared_score_scn6() -> None:
    """CRIB-SCN-6: CRIB-TEAM-4 (crib and play alternate between teams), CRIB-TEAM-5 (one score),
    CRIB-TEAM-6 (no partner's cards in a view), CRIB-DEALER-2."""
    g = Cribbage(4, seed=5, options={"teams": "2x2", "first_dealer": 0, "counting": "automatic", "target": 241})
    starts = [e for e in g.log if e["type"] == "hand_start"]
    totals = [0, 0]
    seen = 0
    while len(starts) < 6 and not g.is_over:
        seat = g.to_act[0]
        if g.phase == "play":
            now1, now3 = g.view(1), g.view(3)
            del now1["last_hand"], now3["last_hand"]  # history: earlier hands' public counts
            assert not names_in(now1) & {feltroom.cards.card_str(c) for c in g.hands[3]}  # CRIB-TEAM-6
            assert not names_in(now3) & {feltroom.cards.card_str(c) for c in g.hands[1]}
        g.apply(seat, g.legal_actions(seat)[0])
        for e in g.log[seen:]:
            if e["type"] == "score":
                totals[e["seat"] % 2] += e["points"]
                assert e["side"] == e["seat"] % 2
        seen = len(g.log)
        assert g.side_scores == totals  # CRIB-TEAM-5: partners' points go to one total
        assert g.scores == [totals[0], totals[1], totals[0], totals[1]]
        starts = [e for e in g.log if e["type"] == "hand_start"]
    assert [e["dealer"] for e in starts[:5]] == [0, 1, 2, 3, 0]
    assert [e["crib_side"] for e in starts[:5]] == [0, 1, 0, 1, 0]
    # turn order in the play alternates B, A, B, A from the dealer's left (first hand)
    plays = [e["seat"] for e in g.log[: g.log.index(starts[1])] if e["type"] == "play"]
    assert plays[:4] == [1, 2, 3, 0]


def test_six_players_three_teams() -> None:
    """CRIB-TEAM-3 / CRIB-TEAM-4: 3x2, the crib goes to teams 1, 2, 3, 1 …"""
    g = Cribbage(6, seed=3, options={"teams": "3x2", "first_dealer": 0, "counting": "automatic", "target": 241})
    while len([e for e in g.log if e["type"] == "hand_start"]) < 4:
        seat = g.to_act[0]
        g.apply(seat, g.legal_actions(seat)[0])
    assert [e["crib_side"] for e in g.log if e["type"] == "hand_start"][:4] == [0, 1, 2, 0]


# ------------------------------------------------------------------ dealer and the cut


def test_cut_scn1() -> None:
    """CRIB-SCN-1: CRIB-DEALER-1 (lowest deals, ties re-draw) and CRIB-DEALER-2 (deal passes left)."""
    script = iter([[parse_card(c) for c in ["7H", "3C", "3D"]], [parse_card(c) for c in ["9S", "AH"]]])
    draws, dealer = cut_for_dealer(3, lambda k: next(script))
    assert dealer == 2
    assert draws == [[[0, "7H"], [1, "3C"], [2, "3D"]], [[1, "9S"], [2, "AH"]]]
    g = Cribbage(3, seed=4, options={"first_dealer": 2, "counting": "automatic", "target": 241})
    while len([e for e in g.log if e["type"] == "hand_start"]) < 3:
        seat = g.to_act[0]
        g.apply(seat, g.legal_actions(seat)[0])
    assert [e["dealer"] for e in g.log if e["type"] == "hand_start"] == [2, 0, 1]


def test_cut_in_the_engine() -> None:
    """CRIB-DEALER-1: without first_dealer the engine cuts (public event); lowest rank deals, ties re-draw."""
    ties = 0
    for seed in range(60):
        g = Cribbage(4, seed=seed)
        cut = g.log[0]
        assert cut["type"] == "cut" and cut["to"] == "all"
        contenders = [0, 1, 2, 3]
        for rnd in cut["draws"]:
            assert [s for s, _ in rnd] == contenders
            low = min(parse_card(c) // 4 for _, c in rnd)
            contenders = [s for s, c in rnd if parse_card(c) // 4 == low]
        assert contenders == [cut["dealer"]] == [g.dealer]
        ties += len(cut["draws"]) > 1
    assert ties  # some seed needed a re-draw
    assert Cribbage(4, seed=1, options={"first_dealer": 3}).log[0]["type"] == "hand_start"


# ------------------------------------------------------------------ deal, discard, starter


def test_two_player_deal_scn2() -> None:
    """CRIB-SCN-2: CRIB-DEAL-1/2/5/6, CRIB-START-1, CRIB-DEALER-3, CRIB-INFO-2, CRIB-SHOW-1/2/3,
    CRIB-SCORE-7/8; CRIB-CONV-4 (the deck listed top card first, dealt from the top) and CRIB-CONV-5
    (a hand: deal, discard, starter, play, show)."""
    g = scn2()
    assert g.view(1)["hand"] == ["4C", "5S", "6D", "JH", "QS", "KS"]
    assert g.view(0)["hand"] == [*["5H", "5D", "5C", "JC", "2D", "3C"][:0], "2D", "3C", "5H", "5D", "5C", "JC"]
    assert g.view(0)["stock_size"] == 40 and g.to_act == (0, 1)
    assert len(g.legal_actions(0)) == 15 and g.legal_actions(0)[0] == "discard 2D 3C"
    g.apply(1, "discard KS QS")
    assert g.view(1)["discards"] == ["QS", "KS"] and g.to_act == (0,)
    assert g.view(0)["starter"] is None  # CRIB-START-1: turned after all discards
    g.apply(0, "discard 3c 2d")
    v0 = g.view(0)
    assert v0["discards"] == ["2D", "3C"] and v0["crib_size"] == 4  # CRIB-DEAL-6 / CRIB-INFO-2
    assert not names_in(v0) & {"KS", "QS"} and not names_in(g.view(1)) & {"2D", "3C"}
    assert v0["starter"] == "4H" and v0["stock_size"] == 39
    assert not [e for e in g.log if e["type"] == "score"]  # no his heels
    start = len(g.log)
    play_lowest(g)
    shows = [(e["owner"], e["crib"], e["cards"]) for e in g.log[start:] if e["type"] == "show"]
    assert shows == [(1, False, ["4C", "5S", "6D", "JH"]), (0, False, ["5H", "5D", "5C", "JC"]),
                     (0, True, ["2D", "3C", "QS", "KS"])]  # CRIB-SHOW-2, CRIB-DEALER-3
    assert scores_by(g.log[start:], "hand") + scores_by(g.log[start:], "crib") == [
        (1, 15, "hand"), (0, 14, "hand"), (0, 7, "crib")]
    # CRIB-SHOW-3: each count is recorded before the next set is shown
    kinds = [e["type"] for e in g.log[start:] if e["type"] in ("show", "count")]
    assert kinds == ["show", "count"] * 3


def test_show_view_holds_the_counting_hand() -> None:
    """CRIB-SHOW-1: after the play each player has their 4 cards back (manual: the show waits)."""
    g = scn2(counting="manual")
    discard(g, {1: "KS QS", 0: "2D 3C"})
    play_lowest(g)
    assert g.phase == "show" and g.view(1)["hand"] == ["4C", "5S", "6D", "JH"]
    assert g.view(0)["hand"] == ["5H", "5D", "5C", "JC"] and g.view(0)["hand_sizes"] == [4, 4]


def test_three_player_deal_scn3() -> None:
    """CRIB-SCN-3: CRIB-DEAL-1/2/4, CRIB-START-1, CRIB-SHOW-2 with 3 players."""
    deck = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AH", "2H", "3H", "4H"]
    g = Cribbage(3, seed=1, options={"first_dealer": 0, "counting": "automatic"}, deck=deck)
    assert g.view(1)["hand"] == ["AS", "4S", "7S", "10S", "KS"]
    assert g.view(2)["hand"] == ["AH", "2S", "5S", "8S", "JS"]
    assert g.view(0)["hand"] == ["2H", "3S", "6S", "9S", "QS"]
    assert g.view(0)["crib_size"] == 1 and [e for e in g.log if e["type"] == "crib_card"]
    assert all("3H" not in names_in(g.view(s)) for s in (0, 1, 2, None))  # CRIB-DEAL-4: nobody sees it
    discard(g, {1: "KS", 2: "JS", 0: "QS"})
    assert g.view(0)["starter"] == "4H" and g.view(0)["crib_size"] == 4 and g.view(0)["stock_size"] == 35
    assert g.view(1)["hand_sizes"] == [4, 4, 4]
    start = len(g.log)
    play_lowest(g)
    shows = [(e["owner"], e["crib"]) for e in g.log[start:] if e["type"] == "show"][:4]
    assert shows == [(1, False), (2, False), (0, False), (0, True)]
    crib = next(e for e in g.log[start:] if e["type"] == "show" and e["crib"])
    assert crib["cards"] == ["3H", "JS", "QS", "KS"]


def test_five_player_deal_scn4() -> None:
    """CRIB-SCN-4: CRIB-DEAL-2/3: the dealer gets 4 cards and discards nothing."""
    g = Cribbage(5, seed=9, options={"first_dealer": 0, "counting": "automatic", "target": 241})
    assert [len(g.view(s)["hand"]) for s in range(5)] == [4, 5, 5, 5, 5]
    assert g.to_act == (1, 2, 3, 4) and g.legal_actions(0) == []
    card = g.view(0)["hand"][0]
    assert_rejected(g, 0, f"discard {card}", "CRIB-DEAL-3")
    for s in (1, 2, 3, 4):
        g.apply(s, g.legal_actions(s)[0])
    assert g.view(0)["crib_size"] == 4 and g.view(0)["stock_size"] == 27
    assert [len(h) for h in g.hands] == [4] * 5
    start = len(g.log)
    play_lowest(g)
    assert len([e for e in g.log[start:] if e["type"] == "play"]) == 20


def test_five_player_starter_is_the_25th_card() -> None:
    """CRIB-SCN-4 / CRIB-START-1 with a stacked deck: 24 cards dealt, the 25th is the starter."""
    deck = [feltroom.cards.NAMES[c] for c in range(25)]
    g = Cribbage(5, seed=1, options={"first_dealer": 0}, deck=deck)
    for s in (1, 2, 3, 4):
        g.apply(s, g.legal_actions(s)[0])
    assert g.view(0)["starter"] == deck[24]


def test_six_player_deal_and_crib_flush_scn5() -> None:
    """CRIB-SCN-5: CRIB-DEAL-2/3 with 6 players; CRIB-SCORE-5/6 and CRIB-OPT-5 on a 5-card crib."""
    dealt = {1: "2H 3C 3D 3S 4C 4D", 2: "4H 5C 5D 6C 6D 7C", 3: "6H 7D 8C 8D 9C 9D", 4: "8H 10C 10D QC QD KC",
             5: "10H KD AC AD 2C 2D", 0: "AS 2S 4S 5S 6S"}
    for flush, expected in (("hand", 5), ("five", 0)):
        g = new(6, dealt, "KS", crib_flush=flush)
        assert [len(g.view(s)["hand"]) for s in range(6)] == [5, 6, 6, 6, 6, 6]
        assert g.legal_actions(0) == []
        discard(g, {1: "2H", 2: "4H", 3: "6H", 4: "8H", 5: "10H"})
        assert g.view(0)["starter"] == "KS" and g.view(0)["stock_size"] == 16 and g.view(0)["crib_size"] == 5
        assert [len(h) for h in g.hands] == [5] * 6
        start = len(g.log)
        play_lowest(g)
        assert len([e for e in g.log[start:] if e["type"] == "play"]) == 30
        crib = next(e for e in g.log[start:] if e["type"] == "count" and e["crib"])
        assert crib["score"] == expected
    assert stacked_deck(6, 0, dealt, "KS")[35] == "KS"  # the 36th card
    for flush in ("hand", "five"):  # crib and starter all hearts: 6 either way
        g = new(6, dealt, "KH", crib_flush=flush)
        discard(g, {1: "2H", 2: "4H", 3: "6H", 4: "8H", 5: "10H"})
        start = len(g.log)
        play_lowest(g)
        crib = next(e for e in g.log[start:] if e["type"] == "count" and e["crib"])
        assert crib["score"] == 6 and ["flush", ["2H", "4H", "6H", "8H", "10H", "KH"], 6] in crib["breakdown"]


def test_action_notation() -> None:
    """notation.md: lenient input, canonical output, legal lists sorted (discards in card order, claims by number)."""
    g = scn2(counting="manual")
    assert g.canonical(1, "  DISCARD ks   q♠ ") == "discard QS KS" and g.canonical(1, "Play t♥") == "play 10H"
    assert g.canonical(1, "claim 07") == "claim 7"
    legal = g.legal_actions(1)
    assert legal == sorted(legal, key=lambda a: [parse_card(c) for c in a.split()[1:]])
    discard(g, {1: "KS QS", 0: "2D 3C"})
    play_lowest(g)
    assert g.legal_actions(1) == [f"claim {i}" for i in range(30)]


def test_discard_rejections() -> None:
    """CRIB-DEAL-5: wrong number of cards, cards not held, a second time (rejection table)."""
    g = scn2()
    assert_rejected(g, 1, "discard KS", "CRIB-DEAL-5")
    assert_rejected(g, 1, "discard KS 2D", "CRIB-DEAL-5")
    assert_rejected(g, 1, "play 4C", "CRIB-PEG-2")
    malformed(g, 1, "discard KS QS 4C")
    malformed(g, 1, "discard")
    g.apply(1, "discard KS QS")
    assert_rejected(g, 1, "discard 4C 5S", "CRIB-DEAL-5")
    g3 = Cribbage(3, seed=1, options={"first_dealer": 0})
    hand = g3.view(1)["hand"]
    assert_rejected(g3, 1, f"discard {hand[0]} {hand[1]}", "CRIB-DEAL-5")


# ------------------------------------------------------------------ his heels and the end


def test_his_heels_scn7() -> None:
    """CRIB-SCN-7: CRIB-START-2 (2 to the dealer at once), CRIB-SCORE-1 (no nobs on a jack starter)."""
    dealt = {1: "JH 3C 7S 9D KS QS", 0: "2C 4C 6C 8C 10C AC"}
    g = new(2, dealt, "JD")
    discard(g, {1: "KS QS"})
    events = g.apply(0, "discard 10C AC")
    assert scores_by(events) == [(0, 2, "heels")] and g.scores == [2, 0]
    start = len(g.log)
    play_lowest(g)
    p1 = next(e for e in g.log[start:] if e["type"] == "count" and e["owner"] == 1)
    assert p1["score"] == 2 and [k for k, _, _ in p1["breakdown"]] == ["pair"]


def test_his_heels_can_end_the_game_scn7() -> None:
    """CRIB-SCN-7 variant: CRIB-END-1 at his heels; CRIB-END-2: the total may pass the target."""
    g = new(2, {1: "JH 3C 7S 9D KS QS", 0: "2C 4C 6C 8C 10C AC"}, "JD", counting="manual")
    discard(g, {1: "KS QS"})
    g.side_scores[0] = 120
    events = g.apply(0, "discard 10C AC")
    assert g.is_over and g.winners == [0] and g.scores == [122, 0]
    assert [e["type"] for e in events][-2:] == ["score", "game_end"]
    assert not [e for e in g.log if e["type"] == "play"] and g.to_act == () and g.legal_actions(1) == []


def test_pegging_out_scn20() -> None:
    """CRIB-SCN-20: CRIB-PEG-11 and CRIB-END-1 (the game ends at once in the play), CRIB-END-3
    (just the win), CRIB-SETUP-5, CRIB-OPT-1."""
    for target, before in ((121, 119), (61, 59)):
        dealt = {1: "10C 2C 9S 5D 3D 3H", 0: "JS KH QH 10H 4C 4H"}
        g = new(2, dealt, "AD", target=target)
        discard(g, {1: "3D 3H", 0: "4C 4H"})
        events = play(g, "1:10C 0:JS 1:2C")
        assert [e["seat"] for e in events if e["type"] == "go"] == [0]
        events = play(g, "1:9S")
        assert [e["type"] for e in events] == ["play", "score", "reset"]
        play(g, "0:KH")
        g.side_scores[1] = before
        events = play(g, "1:5D")
        assert g.is_over and g.winners == [1] and g.scores[1] == target
        assert events[-1] == {"type": "game_end", "to": "all", "scores": [g.scores[0], target],
                              "side_scores": [g.scores[0], target], "winners": [1]}
        assert not [e for e in g.log if e["type"] in ("show", "count")] and g.legal_actions(0) == []


def test_pegging_out_in_the_show_scn21() -> None:
    """CRIB-SCN-21: CRIB-SHOW-2 order decides; CRIB-END-1: nothing is counted after the win."""
    g = scn2()
    discard(g, {1: "KS QS", 0: "2D 3C"})
    end_play = g._end_play

    def before_show() -> None:
        g.side_scores[:] = [115, 110]
        end_play()

    g._end_play = before_show  # type: ignore[method-assign]
    play_lowest(g)
    assert g.is_over and g.winners == [1] and g.scores == [115, 125]
    assert [(e["owner"], e["score"]) for e in count_events(g)] == [(1, 15)]


# ------------------------------------------------------------------ the play


def test_source_pegging_example_scn8() -> None:
    """CRIB-SCN-8: CRIB-PEG-1 (dealer's left leads), CRIB-PEG-7, CRIB-PEG-8, CRIB-PEG-9, CRIB-PEG-12."""
    g = new(2, {1: "5C 6H 2C 3C KD KH", 0: "4D 6S 8C 9C QD QH"}, "AD")
    discard(g, {1: "KD KH", 0: "QD QH"})
    assert g.to_act == (1,)  # CRIB-PEG-1
    events = play(g, "1:5C 0:4D 1:6H")
    assert [e for e in events if e["type"] == "score"][-1]["parts"] == [["fifteen", 2], ["run", 3]]
    events += play(g, "0:6S")
    assert [e for e in events if e["type"] == "score"][-1]["parts"] == [["pair", 2]]
    events += play(g, "1:2C 0:8C 1:3C 0:9C")
    assert play_points(events, 2) == [5, 5]


def test_runs_out_of_order_scn9() -> None:
    """CRIB-SCN-9: CRIB-PEG-4 (31 is 2), CRIB-PEG-5 (reset; left of the last card leads),
    CRIB-PEG-6 (last card), CRIB-PEG-9 (runs in any order)."""
    g = new(2, {1: "3C 4D 2H 10S KD KH", 0: "5S 6C 7H 4C QD QH"}, "AD")
    discard(g, {1: "KD KH", 0: "QD QH"})
    events = play(g, "1:3C 0:5S 1:4D 0:6C 1:2H 0:7H")
    assert [e["points"] for e in events if e["type"] == "score"] == [3, 4, 5, 6]
    assert g.to_act == (0,) and [e["seat"] for e in g.log if e["type"] == "go"] == [1]
    more = play(g, "0:4C")
    assert peg_parts(more) == [[["thirty_one", 2]]]
    assert g.count == 0 and g.to_act == (1,)
    more += play(g, "1:10S")
    assert peg_parts(more)[-1] == [["last", 1]]
    assert play_points(events + more, 2) == [12, 9]  # P0 12, P1 9


def test_31_and_go_scn10() -> None:
    """CRIB-SCN-10: CRIB-PEG-3 (go is automatic; playing twice in a row; a seat without cards is
    skipped), CRIB-PEG-4 (31 is 2 not 3), CRIB-PEG-5, CRIB-PEG-9."""
    g = new(2, {1: "10C 9S 2D 6H QC QH", 0: "KD 5H 7C 3S 8D 8H"}, "AD")
    discard(g, {1: "QC QH", 0: "8D 8H"})
    events = play(g, "1:10C 0:KD 1:9S")
    assert events[-1] == {"type": "go", "to": "all", "seat": 0} and g.to_act == (1,)
    events += play(g, "1:2D")
    assert [e for e in events if e["type"] == "score"][-1]["points"] == 2
    events += play(g, "0:5H 1:6H 0:7C")
    assert g.to_act == (0,)  # P1 has no cards: skipped, no go event
    events += play(g, "0:3S")
    assert len([e for e in events if e["type"] == "go"]) == 1
    assert play_points(events, 2) == [4, 2]


def test_one_for_the_go_scn11() -> None:
    """CRIB-SCN-11: CRIB-PEG-3, CRIB-PEG-4 (one for the go), CRIB-PEG-5, CRIB-PEG-6."""
    g = new(2, {1: "KS 7D 3S 9C 2C 2D", 0: "QH 5C 8H 6D 4C 4D"}, "AD")
    discard(g, {1: "2C 2D", 0: "4C 4D"})
    events = play(g, "1:KS 0:QH 1:7D")
    assert events[-1]["type"] == "go" and g.to_act == (1,)
    more = play(g, "1:3S")
    assert [e["type"] for e in more] == ["play", "score", "reset"] and more[1]["parts"] == [["go", 1]]
    assert g.to_act == (0,)
    more += play(g, "0:5C 1:9C 0:8H 0:6D")
    assert play_points(events + more, 2) == [1, 1]


def test_pair_royal_three_players_scn12() -> None:
    """CRIB-SCN-12: CRIB-PEG-7, CRIB-PEG-8 (2, 6, 12, whoever played them), CRIB-PEG-10 (one event)."""
    dealt = {1: "5H 5S KC KD QC", 2: "5C 9C 9D 8C QD", 0: "5D 2C 2D 3C QH"}
    g = new(3, dealt, "AS", crib_card="AH")
    discard(g, {1: "QC", 2: "QD", 0: "QH"})
    events = play(g, "1:5H 2:5C 0:5D 1:5S")
    assert play_points(events, 3) == [8, 12, 2]
    p0 = [e for e in events if e["type"] == "score" and e["seat"] == 0]
    assert len(p0) == 1 and p0[0]["parts"] == [["fifteen", 2], ["pair", 6]]


def test_go_with_three_players_scn13() -> None:
    """CRIB-SCN-13: CRIB-PEG-3, CRIB-PEG-4, CRIB-PEG-5 with three players."""
    dealt = {1: "10S 9D KC 8D AC", 2: "8C 4S 2C 2H AD", 0: "6H 3H QS QD AH"}
    g = new(3, dealt, "7C", crib_card="AS")
    discard(g, {1: "AC", 2: "AD", 0: "AH"})
    events = play(g, "1:10S 2:8C 0:6H")
    assert events[-1] == {"type": "go", "to": "all", "seat": 1} and g.to_act == (2,)
    events += play(g, "2:4S 0:3H")
    assert [e["points"] for e in events if e["type"] == "score"] == [2]
    assert g.count == 0 and g.to_act == (1,)


def test_31_pair_royal_no_pair_across_reset_scn14() -> None:
    """CRIB-SCN-14: CRIB-PEG-4, CRIB-PEG-5, CRIB-PEG-8, CRIB-PEG-9, CRIB-PEG-10, CRIB-SETUP-2/4."""
    g = new(2, {1: "10H 7D 7H 2C KC KD", 0: "7S 7C 3D 4D QC QD"}, "AD")
    discard(g, {1: "KC KD", 0: "QC QD"})
    events = play(g, "1:10H 0:7S 1:7D 0:7C")
    assert peg_parts(events)[-1] == [["thirty_one", 2], ["pair", 6]]
    more = play(g, "1:7H")
    assert not [e for e in more if e["type"] == "score"]  # no pair with 7C across the reset
    more += play(g, "0:3D 1:2C 0:4D")
    assert peg_parts(more) == [[["run", 3], ["last", 1]]]
    assert play_points(events + more, 2) == [12, 2]  # P0 12, P1 2


def test_no_go_by_choice_scn15() -> None:
    """CRIB-SCN-15: CRIB-PEG-3 (go is no action), CRIB-PEG-2 (the count never passes 31)."""
    g = new(2, {1: "10C 7H 2C 3C KC KD", 0: "KD 4S 9H 8C QC QD".replace("KD", "KH")}, "AD")
    discard(g, {1: "KC KD", 0: "QC QD"})
    play(g, "1:10C 0:KH 1:7H")
    assert g.count == 27 and g.to_act == (0,) and g.legal_actions(0) == ["play 4S"]
    malformed(g, 0, "go")
    assert_rejected(g, 0, "play 9H", "CRIB-PEG-2")
    assert_rejected(g, 1, "play 2C", "CRIB-PEG-2")  # out of turn
    assert_rejected(g, 0, "play 5S", "CRIB-PEG-2")  # not held
    events = play(g, "0:4S")
    assert peg_parts(events) == [[["thirty_one", 2]]]


# ------------------------------------------------------------------ counting: automatic and manual


def test_automatic_counting_scn26() -> None:
    """CRIB-SCN-26: CRIB-COUNT-1, CRIB-OPT-2: no claim is ever legal; breakdowns are shown."""
    g = scn2()
    discard(g, {1: "KS QS", 0: "2D 3C"})
    start = len(g.log)
    while g.phase == "play":
        assert not any(a.startswith("claim") for s in (0, 1) for a in g.legal_actions(s))
        play_lowest(g)
    counts = count_events(g, start)
    assert [(e["owner"], e["crib"], e["score"]) for e in counts] == [(1, False, 15), (0, False, 14), (0, True, 7)]
    assert all("claim" not in e and sum(p for _, _, p in e["breakdown"]) == e["score"] for e in counts)
    assert ["fifteen", ["5S", "JH"], 2] in counts[0]["breakdown"]
    assert ["nobs", ["4H", "JH"], 1] in counts[0]["breakdown"]
    assert_rejected(g, 1, "claim 3", "CRIB-COUNT-1")


def manual_show(dealt: dict[int, str], starter: str, discards: dict[int, str], players: int = 2,
                **options: Any) -> Cribbage:
    g = new(players, dealt, starter, counting="manual", **options)
    discard(g, discards)
    play_lowest(g)
    assert g.phase == "show"
    return g


def test_muggins_under_claim_scn22() -> None:
    """CRIB-SCN-22: CRIB-COUNT-2, CRIB-COUNT-4 (under-claim), CRIB-COUNT-8 (all see claim, C, breakdown),
    CRIB-COUNT-9 (play points were automatic), CRIB-INFO-4 (C hidden until the claim)."""
    g = manual_show({1: "4C 5S 6D JH KS QS", 0: "5H 5D JC 5C 2D 3C"}, "4H",
                    {1: "KS QS", 0: "2D 3C"})
    assert scores_by(g.log, "play")  # CRIB-COUNT-9: pegging scored with no claim
    assert g.to_act == (1,) and g.legal_actions(1)[0] == "claim 0" and len(g.legal_actions(1)) == 30
    assert g.view(0)["show"]["score"] is None and g.view(1)["show"]["breakdown"] is None  # CRIB-INFO-4
    assert not count_events(g)
    assert_rejected(g, 0, "claim 14", "CRIB-COUNT-2")
    before = list(g.scores)
    events = g.apply(1, "claim 11")
    count = next(e for e in events if e["type"] == "count")
    assert (count["claim"], count["score"], count["by"]) == (11, 15, 1)
    assert count["muggins"] == {"seat": 0, "side": 0, "points": 4}
    assert ["fifteen", ["4C", "5S", "6D"], 2] in count["breakdown"]
    assert scores_by(events)[:2] == [(1, 11, "hand"), (0, 4, "muggins")]
    assert g.scores[1] - before[1] == 11 and g.view(0)["counted"][0]["score"] == 15


def test_muggins_over_claim_scn23() -> None:
    """CRIB-SCN-23: CRIB-COUNT-5: the owner gets C, the excess goes to the opponent."""
    g = manual_show({1: "7C 8D KS QH 3S 4S", 0: "9H 9D 6C 6S AH AD"}, "2C", {1: "3S 4S", 0: "AH AD"})
    events = g.apply(1, "claim 4")
    assert scores_by(events)[:2] == [(1, 2, "hand"), (0, 2, "muggins")]


def test_nineteen_and_claim_limits_scn24() -> None:
    """CRIB-SCN-24: CRIB-COUNT-2 (0–29, else malformed), CRIB-COUNT-3, CRIB-COUNT-10 (19 is 19),
    CRIB-SCORE-10."""
    dealt = {1: "2C 7D 9S KH 3S 4S", 0: "9H 9D 6C 6S AH AD"}
    g = manual_show(dealt, "AC", {1: "3S 4S", 0: "9H 9D"})
    for bad in ("claim 30", "claim -1", "claim x", "claim 1 2", "claim +3", "claim"):
        malformed(g, 1, bad)
    events = g.apply(1, "claim 19")
    assert scores_by(events)[:1] == [(0, 19, "muggins")]
    assert next(e for e in events if e["type"] == "count")["score"] == 0
    g = manual_show(dealt, "AC", {1: "3S 4S", 0: "9H 9D"})
    events = g.apply(1, "claim 00")
    count = next(e for e in events if e["type"] == "count")
    assert count["claim"] == 0 and count["muggins"] is None
    assert not [e for e in events if e["type"] == "score" and e["seat"] == 1]  # nobody scores
    assert g.actions[-1] == [1, "claim 0"]
    # CRIB-COUNT-3: a correct claim scores C for the owner and nothing else
    g = manual_show({1: "5H 5D 10C KS 3S 4S", 0: "9H 9D 6C 6S AH AD"}, "2C", {1: "3S 4S", 0: "9H 9D"})
    events = g.apply(1, "claim 10")
    assert scores_by(events)[:1] == [(1, 10, "hand")] and next(e for e in events if e["type"] == "count")[
        "muggins"] is None


def test_six_player_claims_go_to_46() -> None:
    """CRIB-COUNT-2: with 6 players a claim may be 0–46."""
    g = Cribbage(6, seed=2, options={"first_dealer": 0})
    assert g.canonical(1, "claim 46") == "claim 46"
    with pytest.raises(InvalidAction):
        g.canonical(1, "claim 47")
    with pytest.raises(InvalidAction):
        Cribbage(2, seed=2).canonical(1, "claim 30")


def test_muggins_recipient_three_players_scn25a() -> None:
    """CRIB-SCN-25 (a): CRIB-COUNT-6: the first opponent to the owner's left."""
    dealt = {1: "QS AC AD 2S 9H", 2: "2D 6C 6D 7S 10H", 0: "3C 8C 8D 9S 10D"}
    g = manual_show(dealt, "4H", {1: "QS", 2: "2D", 0: "3C"}, players=3, crib_card="KS")
    for _ in range(3):
        owner = g.to_act[0]
        show = g.view(owner)["show"]
        g.apply(owner, f"claim {score_hand(show['cards'], '4H').total}")
    assert g.view(0)["show"]["crib"] and g.view(0)["show"]["cards"] == ["2D", "3C", "QS", "KS"]
    events = g.apply(0, "claim 5")
    assert next(e for e in events if e["type"] == "count")["score"] == 7
    assert scores_by(events)[:2] == [(0, 5, "crib"), (1, 2, "muggins")]


def test_muggins_recipient_teams_scn25b() -> None:
    """CRIB-SCN-25 (b): CRIB-COUNT-6 and CRIB-TEAM-5: team B +6, team A +3 (P0, left of P3)."""
    dealt = {1: "AC AD AH 4S 9C", 2: "2S 2H 3H 3S 9D", 3: "5H 5D 10C AS 9H", 0: "6C 6D 7H 7S 9S"}
    g = manual_show(dealt, "2C", {1: "9C", 2: "9D", 3: "9H", 0: "9S"}, players=4, teams="2x2")
    for _ in range(2):
        owner = g.to_act[0]
        g.apply(owner, f"claim {score_hand(g.view(owner)['show']['cards'], '2C').total}")
    assert g.to_act == (3,) and score_hand("5H 5D 10C AS", "2C").total == 6
    before = list(g.side_scores)
    events = g.apply(3, "claim 9")
    assert next(e for e in events if e["type"] == "count")["muggins"] == {"seat": 0, "side": 0, "points": 3}
    assert g.side_scores == [before[0] + 3, before[1] + 6] and g.scores[1] == g.scores[3]


def test_owner_wins_before_muggins_scn25c() -> None:
    """CRIB-SCN-25 (c): CRIB-COUNT-7: the owner's points first; the target reached, muggins is not applied."""
    g = new(2, {1: "5H 5D 10C KS 3S 4S", 0: "9H 9D 6C 6S AH AD"}, "2C", counting="manual")
    discard(g, {1: "3S 4S", 0: "9H 9D"})
    end_play = g._end_play

    def before_show() -> None:
        g.side_scores[:] = [50, 113]
        end_play()

    g._end_play = before_show  # type: ignore[method-assign]
    play_lowest(g)
    events = g.apply(1, "claim 8")
    count = next(e for e in events if e["type"] == "count")
    assert count["score"] == 10 and count["muggins"] is None
    assert g.is_over and g.scores == [50, 121] and scores_by(events) == [(1, 8, "hand")]


# ------------------------------------------------------------------ the turn timer


def test_turn_timer_scn28() -> None:
    """CRIB-SCN-28: CRIB-ONL-1 (one timer per decision), CRIB-ONL-2 (discard the highest cards),
    CRIB-ONL-3 (play the lowest playable card), CRIB-ONL-4 (claim 0, muggins), CRIB-OPT-4, CRIB-COUNT-4."""
    g = scn2(counting="manual", turn_time=30)
    assert g.log[-1] == {"type": "timer", "to": "all", "action": "timeout", "seconds": 30}
    assert g.legal_actions(CLOCK) == ["timeout"]
    events = g.apply(0, "discard 2D 3C")
    assert not [e for e in events if e["type"].startswith("timer")]  # a discard does not restart it
    events = g.apply(CLOCK, "timeout")
    assert events[0] == {"type": "timeout", "to": "all", "seats": [1]}
    assert events[1] == {"type": "discard", "to": "all", "seat": 1, "n": 2}
    assert g.view(1)["discards"] == ["QS", "KS"] and g.actions[-1] == ["CLOCK", "timeout"]
    assert events[-1] == {"type": "timer", "to": "all", "action": "timeout", "seconds": 30, "seat": 1}
    events = g.apply(CLOCK, "timeout")
    assert next(e for e in events if e["type"] == "play")["card"] == "4C"
    play_lowest(g)
    assert g.to_act == (1,) and g.log[-1]["type"] == "timer" and g.log[-1]["seat"] == 1
    events = g.apply(CLOCK, "timeout")
    count = next(e for e in events if e["type"] == "count")
    assert (count["claim"], count["by"], count["score"]) == (0, "CLOCK", 15)
    assert scores_by(events)[:1] == [(0, 15, "muggins")]
    assert sorted(g.crib) == sorted(parse_card(c) for c in ["KS", "QS", "2D", "3C"])  # as in CRIB-SCN-2


def test_timer_play_timeout_picks_lowest_playable() -> None:
    """CRIB-ONL-3: the lowest card that fits, not merely the lowest card."""
    g = new(2, {1: "10C 9S 2D 6H QC QH", 0: "KD 5H 7C 3S 8D 8H"}, "AD", turn_time=45)
    discard(g, {1: "QC QH", 0: "8D 8H"})
    play(g, "1:10C 0:KD")
    events = g.apply(CLOCK, "timeout")
    assert [e["card"] for e in events if e["type"] == "play"] == ["2D"]


def test_no_clock_without_turn_time() -> None:
    """CRIB-ONL-1 / CRIB-OPT-4: with no limit there is no timeout; automatic steps are never timed."""
    g = scn2()
    assert g.legal_actions(CLOCK) == []
    assert_rejected(g, CLOCK, "timeout", "CRIB-ONL-1")
    assert not [e for e in g.log if e["type"].startswith("timer")]
    g = scn2(turn_time=60)  # automatic counting: the show has no timer
    discard(g, {1: "KS QS", 0: "2D 3C"})
    start = len(g.log)
    play_lowest(g)
    timers = [e for e in g.log[start:] if e["type"] == "timer"]
    assert all("seat" in e for e in timers[:-1]) and "seat" not in timers[-1]  # the next discard phase


def test_timer_stops_at_the_end() -> None:
    g = new(2, {1: "JH 3C 7S 9D KS QS", 0: "2C 4C 6C 8C 10C AC"}, "JD", turn_time=30)
    discard(g, {1: "KS QS"})
    g.side_scores[0] = 119
    events = g.apply(0, "discard 10C AC")
    assert events[-1] == {"type": "timer_stop", "to": "all", "action": "timeout"}
    assert g.legal_actions(CLOCK) == []


# ------------------------------------------------------------------ information


def test_information_rules() -> None:
    """CRIB-INFO-1 (own hand only), CRIB-INFO-2 (crib hidden, own discards known), CRIB-INFO-3 (public
    facts in every view), CRIB-DEAL-6."""
    g = scn2()
    discard(g, {1: "KS QS", 0: "2D 3C"})
    play(g, "1:4C 0:5H")
    spectator = g.view(None)
    assert spectator["hand"] == [] and spectator["discards"] == []
    assert spectator["starter"] == "4H" and spectator["count"] == 9 and spectator["played"] == [[1, "4C"], [0, "5H"]]
    assert spectator["hand_sizes"] == [3, 3] and spectator["dealer"] == 0 and spectator["scores"] == g.scores
    assert names_in(spectator) == {"4H", "4C", "5H"}
    assert names_in(g.view(1)) == {"4H", "4C", "5H", "5S", "6D", "JH", "QS", "KS"}
    assert names_in(g.view(0)) == {"4H", "4C", "5H", "5D", "5C", "JC", "2D", "3C"}


# ------------------------------------------------------------------ records


def test_record_example_of_notation() -> None:
    """notation.md §6: the Cribbage record example (SCN-2 cards, turn_time 60, manual), replayed."""
    g = Cribbage(2, seed=90210, options={"first_dealer": 0, "turn_time": 60}, deck=SCN2)
    g.apply(1, "discard QS KS")
    g.apply(0, "discard 2D 3C")
    g.apply(1, "play 4C")
    g.apply(0, "play 5H")
    play_lowest(g)
    g.apply(1, "claim 15")
    events = g.apply(CLOCK, "timeout")
    assert next(e for e in events if e["type"] == "count")["by"] == "CLOCK"
    assert scores_by(events)[:1] == [(1, 14, "muggins")]
    g.apply(0, "claim 7")
    rec = g.record
    assert rec["options"] == {"target": 121, "counting": "manual", "teams": "none", "crib_flush": "hand",
                              "turn_time": 60, "first_dealer": 0}
    assert rec["actions"][:4] == [[1, "discard QS KS"], [0, "discard 2D 3C"], [1, "play 4C"], [0, "play 5H"]]
    assert rec["actions"][-3:] == [[1, "claim 15"], ["CLOCK", "timeout"], [0, "claim 7"]]
    again = feltroom.replay(json.loads(json.dumps(rec)))
    assert again.log == g.log and again.scores == g.scores


def test_copy_is_independent() -> None:
    g = scn2()
    c = g.copy()
    c.apply(1, "discard KS QS")
    assert g.to_act == (0, 1) and c.to_act == (0,) and len(g.log) < len(c.log)
    assert c.copy().view(1) == c.view(1)
    g.apply(1, "discard KS QS")
    assert g.view(1) == c.view(1)


def test_bad_seats_are_malformed() -> None:
    g = scn2()
    assert g.legal_actions(1)  # cached for seat 1: True == 1 must still not be a seat
    for seat in (2, -1, True, 1.0, "1", [1], None):
        assert g.legal_actions(seat) == []  # type: ignore[arg-type]
        malformed(g, seat, "discard KS QS")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_scores_add_up_and_counts_match_the_scorer(players: int) -> None:
    """CRIB-TEAM-5, CRIB-COUNT-1, CRIB-SCORE-7, CRIB-END-1/2: over whole random games every point is a
    score event of its seat's side, each count equals score_hand of the set shown, nothing follows the end."""
    import random

    from feltroom.cards import NAMES

    for seed in range(3):
        options: dict[str, Any] = {"counting": "automatic", "target": 61}
        if players == 4:
            options["teams"] = "2x2"
        g = Cribbage(players, seed=seed, options=options)
        rng = random.Random(seed)
        while not g.is_over:
            seat = g.to_act[0]
            legal = g.legal_actions(seat)
            g.apply(seat, legal[rng.randrange(len(legal))])
        totals = [0] * len(g.side_scores)
        shown: dict[str, Any] = {}
        for e in g.log:
            if e["type"] == "score":
                assert e["side"] == g.side_of[e["seat"]] and e["points"] > 0
                assert e["points"] == sum(p for _, p in e["parts"])
                totals[e["side"]] += e["points"]
            elif e["type"] == "show":
                shown = e
            elif e["type"] == "count":
                crib_five = e["crib"] and g.options["crib_flush"] == "five"
                assert e["score"] == score_hand(shown["cards"], shown["starter"], crib=crib_five).total
        assert totals == g.side_scores and g.log[-1]["type"] == "game_end"
        assert max(totals) >= 61 and sorted(t for t in totals if t >= 61) == [totals[g.win_side or 0]]
        assert all(isinstance(c, str) and c in NAMES for e in g.log if e["type"] == "play" for c in [e["card"]])


def test_view_series_show_and_last_hand() -> None:
    """The view's play and show keys (notation.md: series, played, show, counted) and the history key."""
    g = new(2, {1: "10C 9S 2D 6H QC QH", 0: "KD 5H 7C 3S 8D 8H"}, "AD", counting="manual")
    discard(g, {1: "QC QH", 0: "8D 8H"})
    play(g, "1:10C 0:KD 1:9S 1:2D")  # 31: reset
    v = g.view(None)
    assert v["series"] == [] and v["series_start"] == 4 and len(v["played"]) == 4
    play(g, "0:5H 1:6H")
    v = g.view(None)
    assert v["series"] == [[0, "5H"], [1, "6H"]] and v["played"][v["series_start"]:] == v["series"]
    play(g, "0:7C 0:3S")
    v = g.view(0)
    assert v["phase"] == "show" and v["series"] == [] and v["played"] == []
    assert v["show"] == {"owner": 1, "crib": False, "cards": ["2D", "6H", "9S", "10C"], "starter": "AD",
                         "claim": None, "score": None, "breakdown": None}
    g.apply(1, "claim 4")
    v = g.view(0)
    assert (v["counted"][0]["score"], v["counted"][0]["claim"], v["counted"][0]["starter"]) == (2, 4, "AD")
    assert v["show"]["owner"] == 0 and v["last_hand"] is None
    g.apply(0, "claim 2")
    g.apply(0, f"claim {score_hand(g.view(0)['show']['cards'], 'AD').total}")
    v = g.view(0)
    assert v["hand_no"] == 2 and v["last_hand"]["dealer"] == 0 and v["last_hand"]["starter"] == "AD"
    assert [c["owner"] for c in v["last_hand"]["counted"]] == [1, 0, 0] and v["show"] is None
