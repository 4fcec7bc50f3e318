"""The worked scenarios KRYP-SCN-1..23 of rules/krypkasino.md, each from a stacked deck."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import feltroom
from feltroom import CLOCK
from feltroom.games.krypkasino import POINTS, Krypkasino

from .helpers import assert_rejected
from .krypkasino_helpers import Script, game, play, sweep_of

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestDeprecationWarning")


def play_out(g: feltroom.Game, seed: int) -> None:
    """Random legal play to the end of the match."""
    rng = random.Random(seed)
    while not g.is_over:
        seat = g.to_act[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))


def card_points(g: Krypkasino, seat: int) -> int:
    return sum(POINTS[c] for c in g.piles[seat])


# ---------------------------------------------------------------------------- SCN-1


@pytest.mark.parametrize(("players", "plays", "table"), [(2, 50, 4), (3, 33, 5), (4, 25, 4), (5, 20, 4), (6, 17, 2)])
def test_scn1_deal_sizes_use_all_104_cards(players: int, plays: int, table: int) -> None:
    """KRYP-SCN-1, KRYP-SETUP-1, KRYP-SETUP-2, KRYP-DEAL-2, KRYP-DEAL-6, KRYP-PACKET-1, KRYP-PACKET-5,
    KRYP-CONV-6: every packet, the stock empties exactly, and the 104 cards are conserved."""
    g = feltroom.new_game("krypkasino", players=players, seed=players)
    assert isinstance(g, Krypkasino)
    assert len(g.pack()) == 104 and Counter(g.pack()) == Counter(dict.fromkeys(range(52), 2))  # KRYP-SETUP-2
    laid = next(e for e in g.log if e["type"] == "table")
    assert len(laid["cards"]) == table
    hand = {2: 6, 3: 5, 4: 5, 5: 4, 6: 5}[players]
    assert g.view(0)["hand_sizes"] == [hand] * players
    assert g.view(0)["stock_size"] == 104 - players * hand - table
    played = Counter[int]()
    rng = random.Random(players)
    while not g.deal_scores:
        seat = g.to_act[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))
        played[seat] += 1
        assert sorted(g.audit_cards()) == sorted(g.pack())  # KRYP-PACKET-5
    assert played == Counter(dict.fromkeys(range(players), plays))
    packets = [e for e in g.log if e["type"] == "packet" and e["packet"] > 1]
    assert len(packets) == {2: 11, 3: 7, 4: 5, 5: 4, 6: 3}[players]
    assert packets[-1]["last"] and packets[-1]["stock"] == 0 and not any(p["last"] for p in packets[:-1])
    assert all(p["sizes"] == [4] * players for p in packets)  # 4 new cards each


@pytest.mark.parametrize("players", [0, 1, 7, 8, "2", 2.0])
def test_scn1_player_count_is_2_to_6(players: object) -> None:
    """KRYP-SCN-1, KRYP-SETUP-1: 1 or 7 players are rejected."""
    with pytest.raises(ValueError):
        feltroom.new_game("krypkasino", players=players, seed=1)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- SCN-2, SCN-3

SCN2_DECK = ["10C", "2S", "7H", "5D", "8C", "QH", "AS", "3H", "9D", "2C", "6S", "KD",
             "4D", "9S", "10D", "3C", "7C", "5S", "AH", "8D", "4H", "6C", "JD", "KS"]


def scn2(**options: object) -> Krypkasino:
    g = feltroom.new_game("krypkasino", players=4, seed=11, options={"first_dealer": 0, **options}, deck=SCN2_DECK)
    assert isinstance(g, Krypkasino)
    return g


def test_scn2_initial_deal_face_removal_and_preparation_bonus() -> None:
    """KRYP-SCN-2: KRYP-DEAL-1 (explicit first dealer), KRYP-DEAL-2, KRYP-DEAL-3 (3+2 rounds from the
    dealer's left, then the table), KRYP-DEAL-4, KRYP-DEAL-5, KRYP-FACE-1, KRYP-FACE-3, KRYP-TURN-1,
    KRYP-SWEEP-2, KRYP-SWEEP-3, KRYP-SWEEP-4, KRYP-SWEEP-5 (KRYP-AMB-10: the dealer gets -5)."""
    g = scn2()
    assert g.dealer == 0
    hands = {1: "2S 4D 7H 9S 10C", 2: "3C 5D 8C 10D QH", 3: "AS 3H 5S 7C 9D", 0: "AH 2C 6S 8D KD"}
    for seat, cards in hands.items():
        assert " ".join(g.view(seat)["hand"]) == cards
        reveal = next(e for e in g.log if e["type"] == "reveal" and e["seat"] == seat)
        assert reveal["to"] == [seat] and " ".join(reveal["cards"]) == cards
    laid = next(e for e in g.log if e["type"] == "table")
    assert laid["cards"] == ["4H", "6C", "JD", "KS"]
    removal = next(e for e in g.log if e["type"] == "remove")
    assert removal["spades"] == ["KS"] and removal["dead"] == ["JD"]
    v = g.view(None)
    assert v["table"] == ["4H", "6C"] and v["spade_faces"] == ["KS"] and v["dead"] == ["JD"]
    assert v["stock_size"] == 80 and v["scores"] == [0, 0, 0, 0] and "hand" not in v
    assert g.to_act == (1,)  # KRYP-TURN-1: dealer's left leads
    assert g.legal_actions(1) == ["play 10C"]  # KRYP-SWEEP-2
    assert_rejected(g, 1, "play 4D", "KRYP-SWEEP-2")
    assert_rejected(g, 1, "play 2S", "KRYP-SWEEP-2")
    events = g.apply(1, "play 10C")
    assert events[0] == {"type": "play", "to": "all", "seat": 1, "card": "10C", "taken": ["4H", "6C"]}
    assert sweep_of(events) == {"type": "sweep", "to": "all", "seat": 1, "previous": 0, "markers": ["10C"],
                                "points": 5, "double": False}
    v = g.view(2)
    assert v["table"] == [] and v["scores"] == [-5, 5, 0, 0]  # KRYP-SWEEP-5: the dealer's preparation bonus
    assert v["last_capturer"] == 1 and v["piles"][1] == {"size": 3, "markers": ["10C"]}
    assert v["ledger"] == [{"seat": 1, "previous": 0, "cards": ["10C"], "points": 5, "double": False}]


def test_scn3_previous_player_is_the_right_hand_neighbour() -> None:
    """KRYP-SCN-3: KRYP-TRAIL-3 (trail onto an empty table is no sweep), KRYP-SWEEP-2, KRYP-SWEEP-4."""
    g = scn2()
    g.apply(1, "play 10C")
    assert g.legal_actions(2) == ["play 3C", "play 5D", "play 8C", "play 10D", "play QH"]  # KRYP-TRAIL-3
    events = g.apply(2, "play 3C")
    assert sweep_of(events) is None and g.view(0)["table"] == ["3C"] and g.scores == [-5, 5, 0, 0]
    for card in ("AS", "9D", "7C", "5S"):
        assert_rejected(g, 3, f"play {card}", "KRYP-SWEEP-2")
    events = g.apply(3, "play 3H")
    sweep = sweep_of(events)
    assert sweep is not None and sweep["previous"] == 2 and not sweep["double"] and sweep["points"] == 5
    assert g.scores == [-5, 5, -5, 5] and sum(g.scores) == 0


# ---------------------------------------------------------------------------- SCN-4..SCN-9


def test_scn4_equal_single_and_single_plus_group() -> None:
    """KRYP-SCN-4: KRYP-CAPTURE-1 (an equal single is a group), KRYP-CAPTURE-2 (every further group),
    KRYP-CAPTURE-3 (taking only the single is rejected)."""
    g = game(6, 0, {1: ["5D", "2C", "3C", "4C", "6C"]}, ["5H", "9C"])
    assert play(g, 1, "play 5D")["taken"] == ["5H"]
    assert g.view(1)["table"] == ["9C"] and g.scores == [0] * 6
    g = game(4, 0, {1: ["5C", "9H", "9D", "7H", "7D"]}, ["2H", "3C", "5D", "8S"])
    assert_rejected(g, 1, "play 5C take 5D", "KRYP-CAPTURE-3")
    assert_rejected(g, 1, "play 5C take 2H 3C", "KRYP-CAPTURE-3")
    assert g.canonical(1, "play 5c take 5d 3c 2h") == "play 5C"  # the unique capture: take dropped
    assert play(g, 1, "play 5C take 2H 3C 5D")["taken"] == ["2H", "3C", "5D"]
    assert g.view(1)["table"] == ["8S"] and g.view(1)["piles"][1]["size"] == 4 and g.scores == [0] * 4


def test_scn5_overlapping_groups_the_largest_set() -> None:
    """KRYP-SCN-5, KRYP-CAPTURE-3: 2+4 and A+2+3 overlap; the 3-card set is the only legal capture."""
    g = game(4, 0, {1: ["6H", "9H", "8D", "7H", "7D"]}, ["AC", "2D", "3H", "4S"])
    assert "play 6H" in g.legal_actions(1) and not any("take" in a for a in g.legal_actions(1))
    assert_rejected(g, 1, "play 6H take 2D 4S", "KRYP-CAPTURE-3")
    assert play(g, 1, "play 6H")["taken"] == ["AC", "2D", "3H"]
    assert g.view(1)["table"] == ["4S"]


def _scn6(hand1: list[str]) -> Krypkasino:
    # Dealer P1 lays AS (+ a dead QD); P2, P3, P4, P5 and P0 trail 6H 5S 4H 3D 2C; then P1 acts.
    hands = {2: ["6H", "KC", "KD", "QC", "JC"], 3: ["5S", "KC", "KD", "QC", "JC"], 4: ["4H", "KH", "JD", "KS", "JH"],
             5: ["3D", "KH", "JD", "QH", "JH"], 0: ["2C", "10C", "10D", "10H", "10S"], 1: hand1}
    g = game(6, 1, hands, ["AS", "QD"])
    for seat, card in ((2, "6H"), (3, "5S"), (4, "4H"), (5, "3D"), (0, "2C")):
        assert play(g, seat, f"play {card}")["taken"] == []
    assert g.view(1)["table"] == ["AS", "2C", "3D", "4H", "5S", "6H"]
    return g


def test_scn6_non_extendable_capture_still_too_small() -> None:
    """KRYP-SCN-6, KRYP-CAPTURE-3 (KRYP-AMB-6: maximal by number of cards): 8H must take 5 cards."""
    g = _scn6(["8H", "9S", "9C", "8S", "8C"])
    assert_rejected(g, 1, "play 8H take 2C 3D 5S 6H", "KRYP-CAPTURE-3")  # leaves A 4: no further 8, still too small
    assert play(g, 1, "play 8H")["taken"] == ["AS", "2C", "3D", "4H", "6H"]
    assert g.view(1)["table"] == ["5S"] and g.view(1)["ledger"] == []
    g = _scn6(["7D", "9S", "9C", "8S", "8C"])
    assert g.legal_actions(1) == ["play 7D"]  # A+6, 2+5, 3+4: the sweep is compulsory
    events = g.apply(1, "play 7D")
    assert len(events[0]["taken"]) == 6 and sweep_of(events) is not None


def test_scn7_tie_between_largest_sets_player_chooses() -> None:
    """KRYP-SCN-7, KRYP-CAPTURE-4 (KRYP-AMB-7: the player chooses among tied largest captures)."""
    hand = ["6C", "10H", "8D", "7H", "7D"]  # no 3 and no 9: nothing sweeps
    g = game(4, 0, {1: hand}, ["AC", "2D", "3H", "3S"])
    assert g.legal_actions(1)[:2] == ["play 6C take AC 2D 3S", "play 6C take AC 2D 3H"]
    assert_rejected(g, 1, "play 6C", "KRYP-CAPTURE-4")
    assert_rejected(g, 1, "play 6C take 3H 3S", "KRYP-CAPTURE-3")
    other = g.copy()
    play(g, 1, "play 6C take 3H 2D AC")
    assert g.view(1)["table"] == ["3S"]  # 1 point left on the table
    play(other, 1, "play 6C take AC 2D 3S")
    assert other.view(1)["table"] == ["3H"]


def test_scn8_ace_from_the_hand_counts_14() -> None:
    """KRYP-SCN-8: KRYP-VAL-1 (hand ace 14), KRYP-VAL-2 (table ace 1, K 13), KRYP-CAPTURE-3, KRYP-SWEEP-1."""
    g = game(3, 0, {1: ["KC", "QS", "QD", "9C", "9D"], 2: ["AS", "7C", "7D", "6C", "6D"]},
             ["10S", "4H", "AH", "QH", "JD"])
    assert play(g, 1, "play KC")["taken"] == []  # 13 ≠ 10+4, 10+1, 4+1, 10+4+1
    assert g.view(2)["table"] == ["AH", "4H", "10S", "KC"]
    assert g.legal_actions(2) == ["play AS"]
    events = g.apply(2, "play AS")
    assert events[0]["taken"] == ["AH", "4H", "10S", "KC"]  # 10+4 and K+A(1)
    assert sweep_of(events) is not None and g.scores == [0, -5, 5]
    g = game(6, 0, {1: ["JH", "9C", "9D", "8C", "8D"], 2: ["AD", "7C", "7D", "6C", "6D"]}, ["3C", "KD"])
    play(g, 1, "play JH")
    assert g.legal_actions(2) == ["play AD"]
    assert sweep_of(g.apply(2, "play AD")) is not None and g.scores == [0, -5, 5, 0, 0, 0]


def test_scn9_lone_ace_and_aces_on_the_table() -> None:
    """KRYP-SCN-9: KRYP-VAL-3 (an ace cannot take a lone ace), KRYP-TRAIL-1, KRYP-SWEEP-1."""
    g = game(6, 0, {1: ["AD", "9C", "6H", "7H", "8H"], 2: ["2C", "9S", "9D", "10S", "10D"]}, ["AD", "QH"])
    assert g.view(1)["table"] == ["AD"]
    assert g.legal_actions(1) == ["play AD", "play 6H", "play 7H", "play 8H", "play 9C"]
    events = g.apply(1, "play AD")
    assert events[0]["taken"] == [] and sweep_of(events) is None  # trailed, not a double sweep
    assert g.view(1)["table"] == ["AD", "AD"]
    assert g.legal_actions(2) == ["play 2C"]
    events = g.apply(2, "play 2C")
    assert events[0]["taken"] == ["AD", "AD"] and sweep_of(events) is not None
    assert g.scores == [0, -5, 5, 0, 0, 0]
    g = game(6, 0, {1: ["AC", "9C", "9H", "8C", "8H"], 2: ["6H", "9S", "9D", "10S", "10D"]}, ["5D", "QS"])
    assert play(g, 1, "play AC")["taken"] == []  # 14 matches nothing on 5D
    assert g.view(2)["table"] == ["AC", "5D"] and g.legal_actions(2) == ["play 6H"]
    assert sweep_of(g.apply(2, "play 6H")) is not None


def test_scn10_source_example_mandatory_sweep() -> None:
    """KRYP-SCN-10: KRYP-SWEEP-2, KRYP-SWEEP-3, KRYP-SWEEP-4, KRYP-CAPTURE-6, KRYP-SCORE-1, KRYP-CONV-5."""
    g = game(2, 0, {1: ["9D", "4C", "3H", "3D", "6H", "6D"]}, ["2H", "7S", "JH", "QD"])
    assert g.view(1)["table"] == ["2H", "7S"]
    assert_rejected(g, 1, "play 4C", "KRYP-SWEEP-2")
    assert g.legal_actions(1) == ["play 9D"]
    play(g, 1, "play 9D")
    assert sorted(g.piles[1]) == sorted(feltroom.cards.parse_cards("9D 2H 7S"))
    assert card_points(g, 1) == 1  # 7S
    assert card_points(g, 1) + g.transfers[1] == 6 and g.transfers[0] == -5
    assert g.view(0)["piles"][1] == {"size": 3, "markers": ["9D"]}


def test_scn11_free_trail_and_a_capturing_card_cannot_trail() -> None:
    """KRYP-SCN-11: KRYP-TRAIL-2, KRYP-CAPTURE-3, KRYP-CAPTURE-5, KRYP-CAPTURE-7, KRYP-TURN-2, KRYP-TURN-3;
    KRYP-AMB-8: a capturing card always captures."""
    g = game(6, 0, {1: ["5S", "2D", "9C", "9H", "4S"], 2: ["10H", "9S", "9D", "4C", "4D"]}, ["5H", "8C"])
    assert g.legal_actions(1) == ["play 2D", "play 4S", "play 5S", "play 9H", "play 9C"]  # KRYP-TRAIL-2
    other = g.copy()
    assert play(other, 1, "play 5S")["taken"] == ["5H"]  # KRYP-CAPTURE-5: 'play 5S' captures
    with pytest.raises(feltroom.InvalidAction):
        g.apply(1, "play 5S take")  # an empty take is malformed
    assert play(g, 1, "play 2D")["taken"] == []
    assert g.view(2)["table"] == ["2D", "5H", "8C"]
    assert play(g, 2, "play 10H")["taken"] == ["2D", "8C"]  # KRYP-CAPTURE-7: no build, P2 takes 8+2


def test_scn12_double_sweep() -> None:
    """KRYP-SCN-12: KRYP-SWEEP-7 (the other copy of a lone non-ace), KRYP-SWEEP-6 (both markers)."""
    g = game(6, 1, {2: ["3D", "9H", "8C", "8H", "7C"]}, ["3D", "KH"])
    assert g.view(2)["table"] == ["3D"]
    assert_rejected(g, 2, "play 9H", "KRYP-SWEEP-2")
    events = g.apply(2, "play 3D")
    assert sweep_of(events) == {"type": "sweep", "to": "all", "seat": 2, "previous": 1, "markers": ["3D", "3D"],
                                "points": 10, "double": True}
    assert g.scores == [0, -10, 10, 0, 0, 0] and g.view(2)["piles"][2]["markers"] == ["3D", "3D"]
    # KRYP-AMB-11: a face card too: a lone trailed JH taken by the other JH.
    g = game(6, 0, {1: ["JH", "9C", "9D", "8C", "8D"], 2: ["JH", "9S", "9H", "8S", "8H"]}, ["QH", "KH"])
    assert g.view(1)["table"] == []
    play(g, 1, "play JH")
    sweep = sweep_of(g.apply(2, "play JH"))
    assert sweep is not None and sweep["double"] and sweep["points"] == 10
    assert g.scores == [0, -10, 10, 0, 0, 0]


def test_scn13_choosing_not_to_double() -> None:
    """KRYP-SCN-13: KRYP-SWEEP-2, KRYP-SWEEP-9 (free choice between sweeping cards), KRYP-SWEEP-7."""
    g = game(6, 1, {2: ["3D", "3C", "9H", "8C", "8H"]}, ["3D", "KH"])
    assert_rejected(g, 2, "play 9H", "KRYP-SWEEP-2")
    assert g.legal_actions(2) == ["play 3D", "play 3C"]
    other = g.copy()
    g.apply(2, "play 3D")
    assert g.scores == [0, -10, 10, 0, 0, 0]
    other.apply(2, "play 3C")
    assert other.scores == [0, -5, 5, 0, 0, 0]


def test_scn14_exact_copy_inside_a_larger_table() -> None:
    """KRYP-SCN-14, KRYP-SWEEP-8: the twin plus other cards is a normal sweep."""
    g = game(3, 1, {2: ["3D", "9H", "9C", "8C", "8H"]}, ["3D", "AC", "2H", "QH", "JD"])
    assert g.legal_actions(2) == ["play 3D"]
    events = g.apply(2, "play 3D")
    assert events[0]["taken"] == ["AC", "2H", "3D"]
    assert sweep_of(events) == {"type": "sweep", "to": "all", "seat": 2, "previous": 1, "markers": ["3D"],
                                "points": 5, "double": False}


def test_scn15_face_cards_on_the_table() -> None:
    """KRYP-SCN-15: KRYP-FACE-4 (a trailed face card stays), KRYP-VAL-2 (J 11, Q 12 on the table;
    KRYP-AMB-5: same as in the hand), KRYP-CAPTURE-3."""
    g = game(3, 2, {0: ["JH", "9C", "9D", "7C", "7D"], 1: ["KH", "9S", "9H", "7S", "7H"]},
             ["2C", "6S", "QD", "KD", "JC"])
    assert play(g, 0, "play JH")["taken"] == []
    assert g.view(1)["table"] == ["2C", "6S", "JH"]
    assert play(g, 1, "play KH")["taken"] == ["2C", "JH"]
    assert g.view(1)["table"] == ["6S"] and g.scores == [0, 0, 0]
    g = game(3, 2, {0: ["QC", "9C", "9D", "7C", "7D"], 1: ["QS", "9S", "9H", "7S", "7H"]},
             ["5H", "KD", "KH", "JD", "JC"])
    play(g, 0, "play QC")
    assert play(g, 1, "play QS")["taken"] == ["QC"]
    assert g.view(1)["table"] == ["5H"]


# ---------------------------------------------------------------------------- SCN-16..SCN-18: whole deals


def scn16_script() -> Script:
    s = Script(["QD", "QC", "JD", "JC"])  # all dead: the table starts empty
    s.reserve("7C", "QH", "AH", "JS", "2H", "6D", "9S", "2D", "9H", "4S", "5C", "6D", "8D", "KC", "10H", "3S")
    s.pairs_packet(6)
    for _ in range(5):
        s.pairs_packet()
    # Packet 7 ends with the table 7C QH JS 2D and P1 as last capturer (9S takes AH 2H 6D).
    s.packets.append([(1, "7C"), (0, "QH"), (1, "AH"), (0, "JS"), (1, "2H"), (0, "6D"), (1, "9S"), (0, "2D")])
    s.packets.append([(1, "9H"), (1, "4S"), (1, "5C"), (1, "6D"), (0, "8D"), (0, "KC"), (0, "10H"), (0, "3S")])
    return s


def test_scn16_between_packets() -> None:
    """KRYP-SCN-16: KRYP-FACE-2, KRYP-FACE-3, KRYP-PACKET-1, KRYP-PACKET-2, KRYP-PACKET-3,
    KRYP-SWEEP-5 (KRYP-AMB-9: the dealer is the previous player)."""
    s = scn16_script()
    g = s.game()
    s.run(g, 6)
    for seat, card in s.packets[6][:-1]:
        g.apply(seat, "play " + card)
    assert g.view(0)["table"] == ["7C", "JS", "QH"]
    assert g.last_capturer == 1 and g.view(0)["stock_size"] == 40 and g.view(0)["packet"] == 7
    top = [feltroom.cards.NAMES[c] for c in reversed(g.stock)][:8]
    assert " ".join(top) == "9H 4S 8D KC 5C 6D 10H 3S"
    scores, dead, spades = list(g.scores), list(g.dead), list(g.spade_faces)
    events = g.apply(0, "play 2D")
    kinds = [e["type"] for e in events]
    assert kinds[:4] == ["play", "remove", "packet", "reveal"]
    assert events[1]["spades"] == ["JS"] and events[1]["dead"] == ["QH"]  # KRYP-FACE-2
    v = g.view(1)
    assert v["table"] == ["2D", "7C"] and v["scores"] == scores  # KRYP-FACE-3: no score
    assert v["last_capturer"] == 1 and v["stock_size"] == 32 and v["packet"] == 8  # KRYP-PACKET-2: not refilled
    assert g.dead == sorted([*dead, 45]) and g.spade_faces == sorted([*spades, 40])
    assert v["hand"] == ["4S", "5C", "6D", "9H"] and g.view(0)["hand"] == ["3S", "8D", "10H", "KC"]  # KRYP-PACKET-1
    assert g.to_act == (1,)  # KRYP-PACKET-3
    assert g.legal_actions(1) == ["play 9H"]
    g.apply(1, "play 9H")
    assert [a - b for a, b in zip(g.scores, scores, strict=True)] == [-5, 5]  # KRYP-SWEEP-5: the dealer again


def scn17_script() -> Script:
    s = Script(["KS", "JS", "QH", "JD"])  # KS JS to the spade-face pile, QH JD dead
    s.reserve("7S", "QS", "2H", "5D", "4C", "4H", "9H", "8C")
    # Odd rank counts are evened out by two three-card sweeps: 2+7 by a 9, and 5+8 by a K.
    s.take("2S", "7H", "9S", "5S", "8S", "KH")
    s.pairs_packet(6)
    s.packets.append([(1, "2S"), (0, "7H"), (1, "9S"), (0, "5S"), (1, "8S"), (0, "KH"), *s.pair()])
    s.ace_packet()
    s.ace_packet()
    for _ in range(7):
        s.pairs_packet()
    s.packets.append([(1, "7S"), (0, "QS"), (1, "2H"), (0, "5D"), (1, "4C"), (0, "4H"), (1, "9H"), (0, "8C")])
    assert sum(s.pool.values()) == 0 and len(s.deck) == 104
    return s


def test_scn17_end_of_the_deal_last_capture() -> None:
    """KRYP-SCN-17: KRYP-PACKET-4, KRYP-END-1, KRYP-END-2, KRYP-END-3, KRYP-END-4, KRYP-FACE-5,
    KRYP-SCORE-1, KRYP-INFO-1, KRYP-INFO-2; KRYP-AMB-12: the QS left on the table is awarded, not removed."""
    s = scn17_script()
    g = s.game()
    s.run(g, 11)
    last = [e for e in g.log if e["type"] == "packet"][-1]
    assert last["packet"] == 12 and last["last"] and g.view(None)["last_packet"]  # KRYP-PACKET-4
    for seat, card in s.packets[11][:6]:
        g.apply(seat, "play " + card)
    v = g.view(1)
    assert v["table"] == ["2H", "5D", "7S", "QS"] and v["spade_faces"] == ["JS", "KS"]
    assert v["dead"] == ["JD", "QH"] and g.last_capturer == 0 and v["hand"] == ["9H"]
    transfers = list(g.transfers)
    points_before = [card_points(g, s) for s in (0, 1)]
    assert play(g, 1, "play 9H")["taken"] == ["2H", "7S"] and g.last_capturer == 1
    assert "card_points" not in str(g.view(0)) and all("points" not in e for e in g.view(0)["piles"])  # KRYP-INFO-2
    events = g.apply(0, "play 8C")
    kinds = [e["type"] for e in events]
    assert kinds[:4] == ["play", "award", "deal_end", "deal_start"]
    assert events[0]["taken"] == []
    award = events[1]
    assert award == {"type": "award", "to": "all", "seat": 1, "cards": ["5D", "8C", "QS"], "spade_faces": ["JS", "KS"]}
    end = events[2]
    assert end["transfers"] == transfers  # KRYP-END-2: the award is no sweep
    assert end["card_points"][1] - points_before[1] == 4  # 7S, QS, KS, JS; QH JD score nothing (KRYP-END-3)
    assert end["card_points"][0] == points_before[0] and sum(end["card_points"]) == 42
    assert end["deal_scores"] == [p + t for p, t in zip(end["card_points"], transfers, strict=True)]  # KRYP-END-4
    assert g.view(0)["deal_scores"] == [end["deal_scores"]] and g.view(0)["deal_no"] == 2  # KRYP-INFO-1


def test_scn18_sweep_with_the_last_card_of_the_deal() -> None:
    """KRYP-SCN-18: KRYP-SWEEP-10, KRYP-END-1, KRYP-END-2.

    The scenario's "last capturer so far P1" with an empty table before P1's last card cannot
    happen in play (P0's card just before either trails onto the table or captures), so here P0
    captured last before P1 trails 5D; what is checked is the last-card sweep and the empty award."""
    s = Script(["KS", "KD", "JD", "JH"])
    s.reserve("5D", "5C")
    s.pairs_packet(6)
    s.ace_packet()
    s.ace_packet()
    for _ in range(8):
        s.pairs_packet()
    s.packets.append([*s.pair(), *s.pair(), *s.pair(), (1, "5D"), (0, "5C")])
    assert sum(s.pool.values()) == 0
    g = s.game()
    s.run(g, 11)
    for seat, card in s.packets[11][:6]:
        g.apply(seat, "play " + card)
    assert g.view(1)["table"] == [] and g.view(1)["spade_faces"] == ["KS"]
    play(g, 1, "play 5D")
    transfers = list(g.transfers)
    points = card_points(g, 0)
    events = g.apply(0, "play 5C")
    sweep = sweep_of(events)
    assert sweep is not None and not sweep["double"] and sweep["points"] == 5  # KRYP-SWEEP-10
    award = next(e for e in events if e["type"] == "award")
    assert award == {"type": "award", "to": "all", "seat": 0, "cards": [], "spade_faces": ["KS"]}
    assert sum(1 for e in events if e["type"] == "sweep") == 1  # KRYP-END-2: the award is not a second sweep
    end = next(e for e in events if e["type"] == "deal_end")
    assert end["transfers"] == [transfers[0] + 5, transfers[1] - 5]
    assert end["card_points"][0] == points + 1  # KS


# ---------------------------------------------------------------------------- SCN-19..SCN-23


def test_scn19_42_points_in_a_deal() -> None:
    """KRYP-SCN-19, KRYP-SCORE-1, KRYP-SCORE-2: the point table and its total."""
    names = feltroom.cards.NAMES
    by_name = {names[c]: POINTS[c] for c in range(52)}
    assert by_name["10D"] == 3 and by_name["2S"] == 2 and by_name["AS"] == 2
    assert all(by_name[f"{r}S"] == 1 for r in ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"))
    assert by_name["AH"] == by_name["AD"] == by_name["AC"] == 1
    assert sum(1 for c in range(52) if POINTS[c] == 0) * 2 == 70
    assert 2 * sum(POINTS) == 42


def test_scn20_full_deal_scoring_two_players() -> None:
    """KRYP-SCN-20: KRYP-SCORE-3 (only card points), KRYP-SCORE-4, KRYP-SCORE-5 (points + transfers)."""
    parse = feltroom.cards.parse_cards
    p0 = parse("10D 2S 2S 3S 5S 6S 7S 8S 9S 10S JS AH AC 5H 6C KD")  # 5H 6C KD score 0
    p1 = parse("10D AS AS 3S 4S 4S 5S 6S 7S 8S 9S 10S JS QS QS KS KS AH AD AD AC")
    assert sum(POINTS[c] for c in p0) == 17 and sum(POINTS[c] for c in p1) == 25
    # The same arithmetic in a real deal: deal scores are card points plus the sweep balance.
    g = feltroom.new_game("krypkasino", players=2, seed=20, options={"first_dealer": 0})
    assert isinstance(g, Krypkasino)
    play_out(g, 1)
    for e in (e for e in g.log if e["type"] == "deal_end"):
        assert [p + t for p, t in zip(e["card_points"], e["transfers"], strict=True)] == e["deal_scores"]
        assert sum(e["deal_scores"]) == 42 and sum(e["transfers"]) == 0
        sweeps = [s for s in g.log if s["type"] == "sweep"]
        assert sweeps  # random play sweeps in every match of this length
    assert g.scores == [sum(d[s] for d in g.deal_scores) for s in (0, 1)]


def test_scn21_match_result_ties_and_negative_totals() -> None:
    """KRYP-SCN-21: KRYP-OPT-1, KRYP-MATCH-1, KRYP-MATCH-2 (KRYP-AMB-14: ties share), KRYP-MATCH-3,
    KRYP-SCORE-6, KRYP-SETUP-3."""
    g = feltroom.new_game("krypkasino", players=3, seed=21, options={"first_dealer": 1})
    play_out(g, 2)
    assert [e["dealer"] for e in g.log if e["type"] == "deal_start"] == [1, 2, 0]
    assert sum(g.scores) == 126 and g.is_over  # KRYP-MATCH-3
    assert g.winners == [s for s in range(3) if g.scores[s] == min(g.scores)]
    g2 = feltroom.new_game("krypkasino", players=3, seed=22, options={"first_dealer": 1, "dealer_rounds": 2})
    play_out(g2, 3)
    assert [e["dealer"] for e in g2.log if e["type"] == "deal_start"] == [1, 2, 0, 1, 2, 0]
    assert sum(g2.scores) == 252
    with pytest.raises(ValueError, match="dealer_rounds"):
        feltroom.new_game("krypkasino", players=3, seed=1, options={"dealer_rounds": 5})
    assert isinstance(g, Krypkasino)
    for totals, winners in (([58, 34, 34], [1, 2]), ([-4, 60, 70], [0])):
        g.totals = totals  # the result rule alone, on the scenario's totals
        assert g.winners == winners and g.scores == totals  # lowest wins; ties share; negatives allowed


def test_scn22_empty_table_after_face_removal() -> None:
    """KRYP-SCN-22: KRYP-FACE-3 (KRYP-AMB-4: never refilled), KRYP-TRAIL-3."""
    g = game(6, 0, {1: ["AS", "3D", "9C", "10H", "QC"]}, ["QD", "KS"])
    v = g.view(1)
    assert v["table"] == [] and v["spade_faces"] == ["KS"] and v["dead"] == ["QD"]
    assert g.legal_actions(1) == ["play AS", "play 3D", "play 9C", "play 10H", "play QC"]
    events = g.apply(1, "play AS")
    assert events[0]["taken"] == [] and sweep_of(events) is None and g.scores == [0] * 6


def test_scn23_turn_timer() -> None:
    """KRYP-SCN-23: KRYP-ONL-1, KRYP-ONL-2, KRYP-OPT-2, KRYP-CAPTURE-4, KRYP-SWEEP-2."""
    g = game(5, 0, {1: ["6C", "10D", "KS", "KS"]}, ["AC", "2D", "3H", "3S"], turn_time=30)
    assert g.log[-1] == {"type": "timer", "to": "all", "action": "timeout", "seconds": 30, "seat": 1}
    assert g.legal_actions(1) == ["play 6C take AC 2D 3S", "play 6C take AC 2D 3H", "play 10D", "play KS"]
    assert g.legal_actions(CLOCK) == ["timeout"] and g.to_act == (1,)
    events = g.apply(CLOCK, "timeout")
    assert events[0] == {"type": "timeout", "to": "all", "seats": [1]}
    assert events[1]["card"] == "6C" and events[1]["taken"] == ["AC", "2D", "3S"]
    assert events[-1] == {"type": "timer", "to": "all", "action": "timeout", "seconds": 30, "seat": 2}
    assert g.view(1)["table"] == ["3H"] and g.record["actions"] == [["CLOCK", "timeout"]]
    g = scn2(turn_time=30)
    events = g.apply(CLOCK, "timeout")
    assert events[1]["card"] == "10C" and sweep_of(events) is not None  # not 2S, the first card


def test_scn23_no_timer_without_turn_time() -> None:
    """KRYP-ONL-1, KRYP-OPT-2 (KRYP-AMB-16): unlimited by default; CLOCK has nothing to do."""
    g = scn2()
    assert g.options["turn_time"] is None and g.legal_actions(CLOCK) == []
    assert not any(e["type"].startswith("timer") for e in g.log)
    assert_rejected(g, 1, "timeout", "KRYP-ONL-1")
    with pytest.raises(feltroom.IllegalAction) as e:
        g.apply(CLOCK, "timeout")
    assert e.value.rule == "KRYP-ONL-1"
