"""The Cribbage ``search`` level (issue #15): its weighted worlds (``feltroom.bots.search_games._crib_fit``):
a sampled world is weighed by how likely the other seat's choices this hand are in it, under the
heuristic as a model of that seat, and the weight reads nothing but the world; and a playout's value
over every starter (``_crib_starters_value``)."""

from __future__ import annotations

import dataclasses
import itertools
import random
from typing import Any

import pytest

import feltroom
from feltroom.bots import make_bot
from feltroom.bots.cribbage import CribbageBot
from feltroom.bots.runner import play_out
from feltroom.bots.search import SPECS, SearchBot
from feltroom.bots.search_games import (
    CRIB_MISS,
    CRIB_PLAIN,
    CribWorth,
    _crib_fit,
    _crib_margin,
    _crib_mark,
    _crib_redeal,
    _crib_starters_value,
    _crib_stop,
    _crib_value,
    _crib_view,
    _model_discard,
)
from feltroom.cards import NAMES, parse_card
from feltroom.game import CLOCK, Game
from feltroom.games.cribbage import Cribbage
from feltroom.views import events_for

from .cribbage_helpers import new
from .helpers import bench_module

#: seat 0 deals (CRIB-DEALER-3: the crib is its); seat 1 keeps 5H 5S JC QD in both worlds
SEAT0 = "AC 3D 7S 8H 9C KS"
HEURISTIC_DISCARD = "5H 5S 10D JC QD KC"  # the heuristic discards 10D KC (checked below)
ODD_DISCARD = "5H 5S JC QD 4C 6D"  # discarding 4C 6D breaks the 4-5-5-6 the heuristic keeps


def world(dealt1: str, **options: Any) -> Cribbage:
    return new(2, {0: SEAT0, 1: dealt1}, "2D", counting="automatic", **options)


def test_the_heuristic_keeps_what_the_worlds_assume() -> None:
    """The stacked hands below do what their names say (CRIB-DEAL-5)."""
    for dealt, keeps in ((HEURISTIC_DISCARD, "discard 10D KC"), (ODD_DISCARD, "discard JC QD")):
        g = world(dealt)
        assert CribbageBot(1, 2, g.options).choose(g.view(1), g.legal_actions(1)) == keeps


def test_the_remembered_model_discard_is_the_heuristics_choice() -> None:
    """``_model_discard`` (what a world's redeal and fit ask of the heuristic, remembered) names the
    cards the heuristic discards from its whole view, at 2 to 6 seats, with and without teams
    (CRIB-DEAL-5: the dealer's side owns the crib)."""
    r = random.Random(11)
    for n in range(120):
        players = 2 + n % 5
        options = {"teams": "2x2"} if players == 4 and n % 2 else {}
        g = feltroom.new_game("cribbage", players, seed=r.randrange(2**32), options=options)
        for seat in g.to_act:
            view = g.view(seat)
            legal = g.legal_actions(seat)
            choice = CribbageBot(seat, players, g.options, r.randrange(99)).choose(view, legal)
            remembered = _model_discard(seat, players, view["dealer"], tuple(map(tuple, view["sides"])),
                                        tuple(view["hand"]), len(legal[0].split()) - 1)
            assert remembered == frozenset(choice.split()[1:])


def test_a_world_consistent_with_the_opponents_choices_weighs_more() -> None:
    """Seat 1 keeps the same four cards in both worlds and seat 0 sees the same events (CRIB-DEAL-5:
    the discards are face down), but only in the first did the heuristic's discard leave them: the
    other world is ``CRIB_MISS`` as likely. A lead the heuristic would not make (CRIB-PEG-2: it does
    not lead a five while it holds a face card) costs one more factor in both; seat 0's own choices
    never count."""
    fits, odd = world(HEURISTIC_DISCARD), world(ODD_DISCARD)
    for g, out in ((fits, "10D KC"), (odd, "4C 6D")):
        g.apply(0, "discard 7S 8H")  # not the heuristic's (AC KS): seat 0's own choice
        g.apply(1, f"discard {out}")
    assert events_for(fits.log, 0) == events_for(odd.log, 0)
    assert _crib_fit(fits, 0) == 1.0
    assert _crib_fit(odd, 0) == pytest.approx(CRIB_MISS)
    assert _crib_fit(fits, 1) == pytest.approx(CRIB_MISS)  # seen from seat 1, only seat 0's choices count
    assert CribbageBot(1, 2, fits.options).choose(fits.view(1), fits.legal_actions(1)) != "play 5H"
    for g in (fits, odd):
        g.apply(1, "play 5H")
    assert _crib_fit(fits, 0) == pytest.approx(CRIB_MISS)
    assert _crib_fit(odd, 0) == pytest.approx(CRIB_MISS ** 2)
    assert _crib_fit(fits, 0) > _crib_fit(odd, 0)
    assert _crib_fit(odd, 0, miss=0.1) == pytest.approx(0.1 ** 2)  # a miss factor of its own


def test_the_clocks_discard_is_no_evidence() -> None:
    """CRIB-ONL-2: a discard the clock made (the two highest cards) is not the seat's choice, so it
    costs nothing, although the heuristic would have discarded otherwise (10D KC)."""
    g = world(HEURISTIC_DISCARD, turn_time=30)
    g.apply(0, "discard AC KS")
    g.apply(CLOCK, "timeout")  # the clock discards seat 1's QD KC
    assert next(e for e in g.log if e["type"] == "timeout")["seats"] == [1]
    assert sorted(NAMES[c] for c in g.discards[1]) == ["KC", "QD"]
    assert _crib_fit(g, 0) == 1.0


@pytest.mark.parametrize("seed", [3, 4])
def test_the_true_world_of_heuristic_players_fits_fully(seed: int) -> None:
    """Fed the views it had in the world (rebuilt from the world's log), the model makes every discard
    (CRIB-DEAL-5) and play (CRIB-PEG-2) of a heuristic seat: no miss at any decision of a whole game."""
    game = feltroom.new_game("cribbage", players=2, seed=seed, options={"target": 61})
    bots = [make_bot("heuristic", "cribbage", s, 2, game.options, s) for s in range(2)]
    seen = [0, 0]
    checked = 0
    while not game.is_over:
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        if len(legal) > 1 and not legal[0].startswith("claim"):
            assert _crib_fit(game, 0) == 1.0
            assert _crib_fit(game, 1) == 1.0
            checked += 1
        bots[seat].observe(events_for(game.log[seen[seat]:], seat))
        seen[seat] = len(game.log)
        game.apply(seat, bots[seat].choose(game.view(seat), legal) if len(legal) > 1 else legal[0])
    assert checked > 20


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_the_true_world_of_heuristic_players_is_not_redealt(players: int) -> None:
    """The model the redeal asks, fed the view a seat had when it discarded (CRIB-DEAL-5), makes the
    discard a heuristic seat made: in the true game of heuristic players, at every decision of a whole
    game, redealing changes no seat's hand, discards or crib."""
    game: Any = Cribbage(players, seed=players, options={"counting": "automatic", "target": 61})
    bots = [make_bot("heuristic", "cribbage", s, players, game.options, s) for s in range(players)]
    checked = 0
    while not game.is_over:
        for seat in range(players):
            redealt: Any = game.copy()
            _crib_redeal(redealt, seat)
            assert (redealt.hands, redealt.kept, redealt.discards, redealt.crib) == \
                (game.hands, game.kept, game.discards, game.crib)
            checked += 1
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        game.apply(seat, bots[seat].choose(game.view(seat), legal) if len(legal) > 1 else legal[0])
    assert checked > 50


def test_weighted_search_reads_only_what_its_seat_saw(monkeypatch: pytest.MonkeyPatch) -> None:
    """The two worlds above differ only in seat 1's face-down discards (CRIB-DEAL-5, CRIB-DEAL-6), which
    seat 0 never sees: seat 0's weighted search draws the same pool, weighs it the same way and plays
    out the same values in both (the weights read sampled worlds only, never the true state)."""
    import feltroom.bots.search as search

    lobby = SPECS["cribbage"]  # heads-up it weighs its worlds
    seen: list[dict[str, list[float]]] = []
    weights: list[float] = []
    real_gate = search.gate

    def spy_gate(first: str, best: str, values: dict[str, list[float]], z: float, min_worlds: int,
                 worlds: list[int] | None = None) -> str:
        seen.append({a: list(v) for a, v in values.items()})
        return real_gate(first, best, values, z, min_worlds, worlds)

    def spy_weigh(w: Game, seat: int) -> float:
        weights.append(_crib_fit(w, seat))
        return weights[-1]

    monkeypatch.setattr(search, "gate", spy_gate)
    monkeypatch.setitem(SPECS, "cribbage", dataclasses.replace(lobby, weigh=spy_weigh))
    per_game = []
    for dealt, out in ((HEURISTIC_DISCARD, "10D KC"), (ODD_DISCARD, "4C 6D")):
        g = world(dealt)
        g.apply(1, f"discard {out}")
        g.apply(0, "discard AC KS")
        g.apply(1, "play JC")
        bot = make_bot("search", "cribbage", 0, 2, g.options, 5, budget=24)
        assert isinstance(bot, SearchBot)
        bot.observe(events_for(g.log, 0))
        weights.clear()
        bot.choose(g.view(0), g.legal_actions(0))
        per_game.append(list(weights))
    assert seen[0] == seen[1]
    assert per_game[0] == per_game[1]
    assert len(per_game[0]) == lobby.pool
    assert 0 < min(per_game[0]) < max(per_game[0])  # the worlds are told apart, none ruled out


@pytest.mark.parametrize(("players", "weighed"), [(2, True), (3, False)])
def test_cribbage_worlds_are_weighted_heads_up_only(players: int, weighed: bool,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """As Crisp's: with more seats, more choices would leave too few effective worlds for the gate."""
    calls: list[int] = []

    def spy(w: Game, seat: int) -> float:
        calls.append(seat)
        return _crib_fit(w, seat)

    lobby = SPECS["cribbage"]
    monkeypatch.setitem(SPECS, "cribbage", dataclasses.replace(lobby, weigh=spy))
    game = feltroom.new_game("cribbage", players=players, seed=2, options={"first_dealer": 1})
    bot = make_bot("search", "cribbage", 0, players, game.options, 3, budget=16)
    rng = random.Random(0)
    for seat in range(1, players):  # the others discard first: there is a choice to read
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    bot.observe(events_for(game.log, 0))
    bot.choose(game.view(0), game.legal_actions(0))
    assert len(calls) == (lobby.pool if weighed else 0)


@pytest.mark.parametrize("weighed", [False, True])
def test_every_world_the_search_plays_is_refined_first(weighed: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """``SearchSpec.refine`` changes each world drawn before it is weighed or played: every world of
    a decision, drawn straight from the knowledge or into a weighted pool, goes through it once, and
    the playouts run in the refined worlds (the spy marks them: only marked worlds are played)."""
    refined: list[int] = []
    played: list[bool] = []

    def spy(w: Game, seat: int) -> None:
        refined.append(seat)
        _crib_redeal(w, seat)
        w.meta["refined"] = True

    base = SPECS["cribbage"] if weighed else CRIB_PLAIN
    monkeypatch.setitem(SPECS, "cribbage", dataclasses.replace(base, refine=spy))
    original = SearchBot.playout

    def playout(self: SearchBot, world: Game, action: str, rng: random.Random, lookahead: int = 0) -> float:
        played.append(bool(world.meta.get("refined")))
        return original(self, world, action, rng, lookahead)

    monkeypatch.setattr(SearchBot, "playout", playout)
    game = feltroom.new_game("cribbage", players=2, seed=2, options={"first_dealer": 1})
    bot = make_bot("search", "cribbage", 0, 2, game.options, 3, budget=30)
    assert isinstance(bot, SearchBot) and bot.knowledge is not None
    drawn: list[Game] = []
    sample = bot.knowledge.sample

    def counted(r: random.Random) -> Game:
        drawn.append(sample(r))
        return drawn[-1]

    monkeypatch.setattr(bot.knowledge, "sample", counted)
    game.apply(1, game.legal_actions(1)[0])
    bot.observe(events_for(game.log, 0))
    bot.choose(game.view(0), game.legal_actions(0))
    assert set(refined) == {0}
    assert len(refined) == len(drawn) == (base.pool if weighed else 4)  # 15 discards halved in 4 rounds
    assert 0 < len(played) <= 30 and all(played)


@pytest.mark.parametrize("worth", [_crib_margin, bench_module("cribbage_odds").odds_worth])
@pytest.mark.parametrize("seed", range(24))
def test_a_discard_is_valued_over_every_starter_the_world_could_cut(seed: int, worth: CribWorth) -> None:
    """A playout from a decision before the cut is worth the hand's value averaged over every
    starter: exactly the mean of ``_crib_value`` over the same actions replayed in the world with
    each card that no hand or crib holds turned as the starter (CRIB-START-1/2: his heels;
    CRIB-SHOW-1/2: the show's order; CRIB-END-1: a game won at the cut, in the pegging or midway
    through the show). The scores start near the target so that every way of ending comes up (these
24 worlds: 10 end in the show, 7 in the pegging or at the cut, 7 go on to the next hand), and a hand's
    end is worth its margin or, heads-up, the chance to win from its scores with the next dealer
    (``bench/cribbage_odds.py``; the replays read him from the game)."""
    rng = random.Random(seed)
    players = (2, 3, 4, 6)[seed % 4]
    start = Cribbage(players, seed=seed, options={"counting": "automatic", "target": 61})
    start.side_scores = [rng.randint(30, 58) for _ in start.side_scores]
    seat = start.to_act[0]
    world = start.copy()
    mark = _crib_mark(world, seat)
    bots = [make_bot("heuristic", "cribbage", s, players, world.options, seed) for s in range(players)]
    actions: list[tuple[int | str, str]] = []
    while not world.is_over and not _crib_stop(world, mark):
        who: int | str = world.to_act[0] if world.to_act else CLOCK
        legal = world.legal_actions(who)
        action = legal[0] if who == CLOCK else bots[int(who)].choose(world.view(int(who)), legal)
        world.apply(who, action)
        actions.append((who, action))
    averaged = _crib_starters_value(world, seat, mark, worth)

    held = {c for h in start.hands for c in h} | set(start.crib)
    values = []
    for starter in (c for c in range(52) if c not in held):
        replay = start.copy()
        replay.next_starter = starter
        for who, action in actions:
            if replay.is_over:
                break
            replay.apply(who, action)  # the plays are legal whatever the starter: none reads it
        assert replay.is_over or _crib_stop(replay, mark)
        values.append(_crib_value(replay, seat, mark, worth))
    assert averaged == pytest.approx(sum(values) / len(values), abs=1e-12)
    assert len(values) == 52 - (players + 1) * (5 if players == 6 else 4)  # CRIB-SHOW-1, CRIB-AMB-3


def test_a_decision_after_the_cut_is_valued_by_the_hand_as_played() -> None:
    """Once the starter is turned it is no longer chance: the value is the hand's as played."""
    g = world(HEURISTIC_DISCARD)
    g.apply(0, "discard AC 3D")
    g.apply(1, "discard 10D KC")
    mark = _crib_mark(g, g.to_act[0])
    assert not mark[2]
    while not _crib_stop(g, mark):
        g.apply(g.to_act[0], g.legal_actions(g.to_act[0])[0])
    assert _crib_starters_value(g, 0, mark) == _crib_value(g, 0, mark)


# ---------------------------------------------------------------- the other seats' hidden discards


def names(cards: list[int]) -> list[str]:
    return sorted(NAMES[c] for c in cards)


def test_a_worlds_hidden_discard_becomes_the_models_choice() -> None:
    """CRIB-DEAL-5/6: seat 1's discard is hidden from seat 0; in a world where it threw 4C 6D, the
    redeal makes it the heuristic's JC QD (keeping the 4-5-5-6), the crib and hand to match, and
    seat 0 sees nothing change."""
    g = world(ODD_DISCARD)
    g.apply(0, "discard AC 3D")
    g.apply(1, "discard 4C 6D")
    seen = g.view(0)
    _crib_redeal(g, 0)
    assert names(g.discards[1]) == ["JC", "QD"]
    assert names(g.kept[1]) == names(g.hands[1]) == ["4C", "5H", "5S", "6D"]
    assert names(g.crib) == ["3D", "AC", "JC", "QD"]
    assert g.view(0) == seen
    assert sorted(g.audit_cards()) == list(range(52))


def test_a_played_card_the_model_would_have_thrown_keeps_the_worlds_split() -> None:
    """Seat 1 (the pone, CRIB-PEG-1) played JC, which the heuristic would have discarded: the model
    does not explain that world, so its split stands."""
    g = world(ODD_DISCARD)
    g.apply(0, "discard AC 3D")
    g.apply(1, "discard 4C 6D")
    g.apply(1, "play JC")
    _crib_redeal(g, 0)
    assert names(g.discards[1]) == ["4C", "6D"]
    assert names(g.hands[1]) == ["5H", "5S", "QD"]


def test_the_clocks_discard_is_not_redealt() -> None:
    """CRIB-ONL-2: the clock discarded seat 1's two highest cards (QD KC), by the rule, not by choice."""
    g = world(HEURISTIC_DISCARD, turn_time=30)
    g.apply(0, "discard AC KS")
    g.apply(CLOCK, "timeout")
    _crib_redeal(g, 0)
    assert names(g.discards[1]) == ["KC", "QD"]


@pytest.mark.parametrize("seed", range(12))
def test_redealt_worlds_keep_what_the_seat_saw_and_play_on(seed: int) -> None:
    """Worlds sampled from a seat's knowledge at random points of random-size games: after the redeal
    the seat's view is its real one, the 52 cards are all there once, every other seat's own discard
    this hand is the heuristic's choice from its dealt cards or the world's split where a played card
    rules that out, and the world plays on to the end by legal actions."""
    rng = random.Random(seed)
    players = (2, 2, 3, 4, 5, 6)[seed % 6]
    g = feltroom.new_game("cribbage", players=players, seed=seed, options={"counting": "automatic"})
    bots = [make_bot("heuristic", "cribbage", s, players, g.options, seed) for s in range(players)]
    me = seed % players
    searcher = make_bot("search", "cribbage", me, players, g.options, seed)
    assert isinstance(searcher, SearchBot) and searcher.knowledge is not None
    seen = 0
    for _ in range(rng.randrange(2, 60)):
        searcher.observe(events_for(g.log[seen:], me))
        seen = len(g.log)
        if not g.to_act:
            g.apply(CLOCK, g.legal_actions(CLOCK)[0])
            continue
        s = g.to_act[0]
        g.apply(s, bots[s].choose(g.view(s), g.legal_actions(s)))
        if g.is_over:
            return
    searcher.observe(events_for(g.log[seen:], me))
    searcher.knowledge.see(g.view(me))
    for k in range(4):
        w: Any = searcher.knowledge.sample(random.Random(k))
        _crib_redeal(w, me)
        assert w.view(me) == g.view(me)
        assert sorted(w.audit_cards()) == list(range(52))
        start = max(i for i, e in enumerate(w.log) if e["type"] == "hand_start")
        for e in w.log[start:]:
            if e["type"] == "reveal" and e["seat"] != me and w.discards[e["seat"]] and not w.crib_shown:
                q = e["seat"]
                view = {**_crib_view(w, q), "hand": e["cards"], "discards": [], "starter": None, "count": 0,
                        "played": [], "series_start": 0, "show": None}
                legal = ["discard " + " ".join(cs) for cs in itertools.combinations(e["cards"], len(w.discards[q]))]
                model = CribbageBot(q, players, w.options).choose(view, legal).split()[1:]
                played = set(w.kept[q]) - set(w.hands[q]) if w.starter is not None else set()
                assert names(w.discards[q]) == sorted(model) or played & {parse_card(c) for c in model}
        assert play_out(w, [make_bot("random", "cribbage", s, players, w.options, 1) for s in range(players)]).is_over


@pytest.mark.parametrize("guided", [False, True])
def test_the_search_must_beat_its_specs_guide(guided: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """``SearchSpec.guide``: the choice the search keeps unless it finds a significantly better one is
    the guide's (``bench/cribbage_guide.py``, counting the whole crib), not the playout policy's; at
    budget 1 the search plays it. The pone keeps 3S 2S 5S 10S and throws a king where the heuristic
    throws a ten."""
    CribbageGuide = bench_module("cribbage_guide").CribbageGuide
    lobby = SPECS["cribbage"]
    monkeypatch.setitem(SPECS, "cribbage", dataclasses.replace(lobby, guide=CribbageGuide if guided else None))
    g = new(2, {0: "AC 3D 7S 8H 9C QH", 1: "3S 10S KS 2S 5S 2C"}, "2D")
    bot = make_bot("search", "cribbage", 1, 2, g.options, 3, budget=1)
    assert isinstance(bot, SearchBot)
    assert type(bot.guide) is (CribbageGuide if guided else CribbageBot)
    bot.observe(events_for(g.log, 1))
    assert bot.choose(g.view(1), g.legal_actions(1)) == ("discard 2C KS" if guided else "discard 2C 10S")
