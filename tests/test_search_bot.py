"""The search bot level (feltroom.bots.search, issue #15): legal play in every game that has a
knowledge tracker, determinism, the budget, the lobby's levels, and the gate that keeps the
heuristic's choice unless the search's best beats it significantly."""

from __future__ import annotations

import collections
import dataclasses
import random
from typing import Any

import pytest

import feltroom
from feltroom.bots import Bot, levels_for, make_bot, search_games
from feltroom.bots import search as search_module
from feltroom.bots.runner import play_out
from feltroom.bots.search import SPECS, Branch, SearchBot, gate, halve, infoset_values, mean
from feltroom.catalog import fixed_options, lobby_fields
from feltroom.game import CLOCK, Game
from feltroom.games.craits_knowledge import CraitsKnowledge
from feltroom.games.crisp import VALUE as CRISP_VALUE
from feltroom.games.crisp import Crisp
from feltroom.knowledge import KNOWLEDGE, NoHistory
from feltroom.views import events_for

from .conformance import check_bot_game
from .helpers import SHORT_GAMES, bench_module, seat_to_act

SEARCHED = sorted(KNOWLEDGE)
#: issue #15: the search bots play 200 random-option games per game with the conformance checks
#: on, in the slow tier, in CHUNKS parametrised runs per game (so that pytest-xdist spreads them)
GAMES_EACH = 200
CHUNKS = 8


def random_table(name: str, rng: random.Random) -> tuple[int, dict[str, Any]]:
    """A seat count and options a lobby could set, at random."""
    cls = feltroom.GAMES[name]
    players = rng.randint(cls.min_players, cls.max_players)
    options = {f["key"]: rng.choice(f["values"]) for f in lobby_fields(cls, players)}
    short = {k: v for k, v in SHORT_GAMES.get(name, {}).items() if k in options}
    return players, {**options, **short, **fixed_options(cls)}  # what the lobby sets itself (Crisp's clock)


@pytest.fixture(autouse=True)
def _strict_craits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Craits samples are replayed with ``apply``: a sampled world that replays an action its cards do
    not allow fails the test instead of going on as a wrong world (issue #15)."""
    monkeypatch.setattr(CraitsKnowledge, "strict", True)


def searched_table(name: str, g: int, budget: int, players: int | None = None
                   ) -> tuple[int, dict[str, Any], int, list[Bot], int]:
    """Random-option game ``g`` of the suite (its number seeds it): seats, options, the search bot's
    seat (rotating), the bots (one search bot at ``budget`` against heuristic and random bots) and the
    game's seed. ``bench/search_suite_cost.py`` times the same games."""
    rng = random.Random(15 * 100_003 + g)
    table = random_table(name, rng)
    while players is not None and table[0] != players:
        table = random_table(name, rng)
    seats, options = table
    seat = g % seats
    bots = [make_bot("search", name, s, seats, options, g, budget=budget) if s == seat
            else make_bot("heuristic" if s % 2 else "random", name, s, seats, options, g)
            for s in range(seats)]
    return seats, options, seat, bots, rng.randrange(2**53)


def two_deck_craits(name: str, seats: int, options: dict[str, Any]) -> bool:
    """Whether the table plays Craits on two decks (CRAITS-SETUP-1: 7–10 players, or 6 with decks 2)."""
    return name == "craits" and (seats >= 7 or options.get("decks") == 2)


def play_searched(name: str, games: range, budget: int, players: int | None = None) -> None:
    """Random-option games ``games`` with one search bot at ``budget`` (``searched_table``); the state
    and every view are checked at each of its decisions and at the end, every bot's choice is legal,
    and the record replays."""
    for g in games:
        seats, options, seat, bots, seed = searched_table(name, g, budget, players)
        # every table but a two-deck Craits one has a sampler (its sampler is off): no other falls back
        searcher = bots[seat]
        assert isinstance(searcher, SearchBot), (name, seats, options)
        assert (searcher.knowledge is None) == two_deck_craits(name, seats, options), (name, seats, options)
        check_bot_game(name, seats, seed, options, bots, checked=seat.__eq__)


@pytest.mark.parametrize("name", SEARCHED)
def test_search_plays_a_heads_up_game_legally(name: str) -> None:
    """The fast tier's check: one heads-up random-option game per game, a search bot at budget 1."""
    play_searched(name, range(1), budget=1, players=2)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("name", SEARCHED)
def test_search_plays_legally_with_random_options(name: str, chunk: int) -> None:
    """Issue #15: search bots at budget 2 play GAMES_EACH random-option games (short ones) per game,
    CHUNKS runs of GAMES_EACH / CHUNKS, with the conformance checks on: no illegal action, no view
    or event showing a card the seat may not know, every record replays."""
    per = GAMES_EACH // CHUNKS
    play_searched(name, range(chunk * per, (chunk + 1) * per), budget=2)


@pytest.mark.parametrize("name", SEARCHED)
def test_search_is_offered_where_there_is_knowledge(name: str) -> None:
    assert "search" in levels_for(name)


def test_search_is_deterministic_for_a_seed() -> None:
    """The same seed, the same budget, the same game: the same actions (the budget counts playouts)."""
    records = []
    for _ in range(2):
        game = feltroom.new_game("cribbage", players=2, seed=4, options={"target": 61})
        bots = [make_bot("search", "cribbage", 0, 2, game.options, 9, budget=3),
                make_bot("heuristic", "cribbage", 1, 2, game.options, 9)]
        play_out(game, bots)
        records.append(game.record["actions"])
    assert records[0] == records[1]


def test_the_budget_is_for_searching_levels_only() -> None:
    bot = make_bot("search", "krypkasino", 0, 2, {}, 1, budget=7)
    assert bot.budget == 7  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="takes no budget"):
        make_bot("heuristic", "krypkasino", 0, 2, {}, 1, budget=7)
    with pytest.raises(ValueError, match="budget"):
        make_bot("search", "krypkasino", 0, 2, {}, 1, budget=0)


# ---------------------------------------------------------------- the gate over the guide's choice
# A search at the lobby budget plays a Cribbage discard's 15 options in about 3 worlds each in its
# first round: it must neither drop the heuristic's choice on that noise nor replace it with a
# lucky one (issue #15). Stub playouts make the values known.


class StubSearch(SearchBot):
    """A Cribbage search whose playouts are worth ``base[action]`` plus noise: ``shared`` × a draw
    common to every action of a world (the deal's luck), plus ``own`` × a draw of its own (an action
    not in ``base`` is worth 0 plus the noise)."""

    game = "cribbage"
    base: dict[str, float]
    shared = 0.0
    own = 0.0

    def __init__(self, seed: int, budget: int) -> None:
        super().__init__(0, 2, {}, seed, budget=budget)
        self.played: list[set[str]] = []  # the actions played in each world

    def playout(self, world: Game, action: str, rng: random.Random, lookahead: int = 0) -> float:
        luck = rng.random()
        if not self.played or action in self.played[-1]:
            self.played.append(set())
        self.played[-1].add(action)
        own = random.Random(f"{action} {luck}").random()
        return self.base.get(action, 0.0) + self.shared * luck + self.own * own


def discard_decision() -> tuple[Game, dict[str, Any], list[str], str]:
    """A heads-up Cribbage game at seat 0's discard; the heuristic's choice."""
    game = feltroom.new_game("cribbage", players=2, seed=3)
    while not game.to_act or 0 not in game.to_act:
        seat = game.to_act[0] if game.to_act else CLOCK
        game.apply(seat, game.legal_actions(seat)[0])
    legal = game.legal_actions(0)
    assert legal[0].startswith("discard") and len(legal) == 15
    first = make_bot("heuristic", "cribbage", 0, 2, game.options, 1).choose(game.view(0), legal)
    return game, game.view(0), legal, first


def stub_choice(base: dict[str, float], shared: float, own: float, budget: int = 180,
                seed: int = 5) -> tuple[str, StubSearch]:
    game, view, legal, _ = discard_decision()
    bot = StubSearch(seed, budget)
    bot.base, bot.shared, bot.own = base, shared, own
    bot.observe(events_for(game.log, 0))
    return bot.choose(view, legal), bot


def test_an_insignificant_advantage_keeps_the_heuristics_choice() -> None:
    """Another discard better by 0.01 on average but with world-to-world noise of ±0.5: the heuristic's stands."""
    _, _, legal, first = discard_decision()
    other = next(a for a in legal if a != first)
    choice, _ = stub_choice({first: 0.5, other: 0.51}, shared=0.3, own=0.5)
    assert choice == first


def test_a_significant_advantage_replaces_the_heuristics_choice() -> None:
    """Better by 0.2 in every world, whatever the deal's luck: the search plays it."""
    _, _, legal, first = discard_decision()
    other = legal[-1] if legal[-1] != first else legal[-2]
    choice, _ = stub_choice({first: 0.3, other: 0.5}, shared=0.4, own=0.02)
    assert choice == other


def test_the_heuristics_choice_survives_every_halving() -> None:
    """The heuristic's choice worst of all on average: still played in every world to the last round
    (and kept, when nothing beats it significantly), while the halving drops the others."""
    _, _, legal, first = discard_decision()
    base = {a: 0.5 for a in legal} | {first: 0.45}
    _, bot = stub_choice(base, shared=0.0, own=0.5)
    assert all(first in played for played in bot.played)
    assert len(bot.played[-1]) == 2 and len(bot.played[0]) == 15  # 15 → 8 → 4 → 2


class FadingSearch(StubSearch):
    """A stub whose ``fading`` action is worth 0.9 in the first ``early`` worlds and the same as the
    heuristic's choice after: a lead that its own early worlds made and fresh worlds do not show."""

    fading = ""
    early = 19

    def playout(self, world: Game, action: str, rng: random.Random, lookahead: int = 0) -> float:
        value = super().playout(world, action, rng, lookahead)
        return 0.9 if action == self.fading and len(self.played) <= self.early else value


@pytest.mark.parametrize("fresh", [False, True])
def test_the_fresh_gate_reads_the_last_rounds_worlds_only(fresh: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """At budget 180 a discard's worlds are 3, 5, 11 and 25 by round (15 → 8 → 4 → 2 actions); a
    challenger ahead in the first 19 only wins the gate over all 44 worlds, not over the last 25."""
    game, view, legal, first = discard_decision()
    other = legal[-1] if legal[-1] != first else legal[-2]
    monkeypatch.setitem(SPECS, "cribbage", dataclasses.replace(SPECS["cribbage"], fresh_gate=fresh))
    bot = FadingSearch(5, 180)
    bot.base, bot.fading = {first: 0.5, other: 0.5}, other
    bot.observe(events_for(game.log, 0))
    choice = bot.choose(view, legal)
    assert len(bot.played) == 44 and len(bot.played[-1]) == 2
    assert choice == (first if fresh else other)


class PooledSearch(StubSearch):
    """A stub whose ``other`` action beats the heuristic's choice by 0.3 in most worlds and loses
    0.6 in the rest, the same every time a world comes again (a deterministic playout)."""

    other = ""
    seen: dict[str, int]

    def playout(self, world: Game, action: str, rng: random.Random, lookahead: int = 0) -> float:
        key = repr(world.view(1))  # the opponent's hand names the world
        index = self.seen.setdefault(key, len(self.seen))
        self.played.append({action})
        if action != self.other:
            return 0.5
        return 0.8 if index < 8 else -0.1


@pytest.mark.parametrize("cluster", [False, True])
def test_the_cluster_gate_counts_a_pooled_world_once(cluster: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Weighted worlds are drawn, with repeats, from a pool of 10: at budget 180 the two finalists
    share 44 draws of at most 10 worlds. Counted as 44 pairs the advantage (+0.3 in 8 worlds, −0.6
    in 2) looks significant; counted by world (``cluster_gate``) it is about one standard error,
    and the heuristic's choice stands."""
    game, view, legal, first = discard_decision()
    other = legal[-1] if legal[-1] != first else legal[-2]
    spec = dataclasses.replace(SPECS["cribbage"], weigh=lambda world, seat: 1.0, pool=10, weigh_players=2,
                               cluster_gate=cluster)
    monkeypatch.setitem(SPECS, "cribbage", spec)
    bot = PooledSearch(5, 180)
    bot.base, bot.other, bot.seen = {}, other, {}
    bot.observe(events_for(game.log, 0))
    choice = bot.choose(view, legal)
    assert len(bot.seen) == 10
    assert choice == (first if cluster else other)


def test_the_gate_by_world_is_the_plain_gate_when_every_world_is_new() -> None:
    """With every world once, the cluster-robust error is exactly sd / √n: the same choices."""
    rng = random.Random(7)
    for _ in range(300):
        n = rng.randrange(2, 30)
        values = {"a": [rng.random() for _ in range(n)], "b": [rng.random() + 0.1 for _ in range(n)]}
        z, least = rng.uniform(0, 3), rng.randrange(1, 12)
        assert gate("a", "b", values, z, least) == gate("a", "b", values, z, least, worlds=list(range(n)))


def test_halve_and_gate() -> None:
    values = {"a": [0.1, 0.1], "b": [0.9, 0.8], "c": [0.7, 0.6], "d": [0.5, 0.2]}
    rank = {a: i for i, a in enumerate("abcd")}
    assert halve(["a", "b", "c", "d"], "a", values, rank) == ["a", "b"]
    assert halve(["b", "c", "d"], "a", values, rank) == ["b", "c"]  # without the guide's, the best half
    same = {"a": [0.5] * 10, "b": [0.6, 0.4] * 5}  # even on average: the guide's
    assert gate("a", "b", same, z=0.0, min_worlds=2) == "a"
    ahead = {"a": [0.5] * 10, "b": [0.6, 0.5] * 5}  # +0.05 ± 0.0527 (sd) over 10 worlds: 3.0 standard errors
    assert gate("a", "b", ahead, z=2.9, min_worlds=10) == "b"
    assert gate("a", "b", ahead, z=3.1, min_worlds=10) == "a"
    assert gate("a", "b", ahead, z=1.0, min_worlds=11) == "a"  # too few worlds


class GivingUp:
    """A knowledge stub whose samples raise ``error`` (its bounded search for a history gave up, or a bug)."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    def see(self, view: dict[str, Any]) -> None:
        pass

    def sample(self, rng: random.Random) -> Game:
        raise self.error


def test_a_decision_without_a_history_is_the_guides_and_other_errors_propagate() -> None:
    """Issue #15: where the knowledge's bounded search for a history gives up (``NoHistory``, two-deck
    Craits) the search bot plays its guide's choice for that decision and counts it; any other
    exception from the knowledge is a bug and is not swallowed."""
    game, view, legal, first = discard_decision()
    bot = make_bot("search", "cribbage", 0, 2, game.options, 1, budget=8)
    assert isinstance(bot, SearchBot)
    bot.observe(events_for(game.log, 0))
    bot.knowledge = GivingUp(NoHistory("gave up"))  # type: ignore[assignment]
    assert bot.choose(view, legal) == first and bot.fallbacks == 1
    assert bot.choose(view, legal) == first and bot.fallbacks == 2
    bot.knowledge = GivingUp(RuntimeError("a bug"))  # type: ignore[assignment]
    with pytest.raises(RuntimeError, match="a bug"):
        bot.choose(view, legal)
    assert bot.fallbacks == 2


def _to_seat0s_play(w: Game, policy: list[Bot], stop: Any = None) -> bool:
    """``policy`` plays until seat 0 has a play with options (False: the game or, with the playout's
    mark ``stop``, Cribbage's horizon came first), each seat reading the search's playout view."""
    spec = SPECS["cribbage"]
    view = spec.view or (lambda game, seat: game.view(seat))
    while not w.is_over and not (stop is not None and spec.stop(w, stop)):
        if not w.to_act:
            w.apply(CLOCK, w.legal_actions(CLOCK)[0])
            continue
        seat = w.to_act[0]
        legal = w.legal_actions(seat)
        if seat == 0 and len(legal) > 1 and legal[0].startswith("play"):
            return True
        w.apply(seat, policy[seat].choose(view(w, seat), legal) if len(legal) > 1 else legal[0])
    return False


def _each_option_played_on(bot: SearchBot, world: Game, mark: Any, start: int) -> tuple[list[str], list[float]]:
    """Seat 0's options in ``world`` and the value of each, played on by the policy (the same seed for each)."""
    options = world.legal_actions(0)
    values = []
    for option in options:
        here = world.copy()
        here.apply(0, option)
        values.append(bot._continue(here, mark, start, random.Random(0), 0))
    return options, values


def test_a_lookahead_playout_takes_the_seats_best_next_option_in_its_world() -> None:
    """``SearchSpec.lookahead``: at depth 1 a playout's value is the best, over the searching seat's
    next choice with options, of the playouts on from each option (the rest by the policy); at depth 0
    the policy's choice is played. A Cribbage playout draws nothing (the heuristic is deterministic), so
    each is exact; in some of these positions the policy's choice is not the best in the world."""
    spec = SPECS["cribbage"]
    view = spec.view or (lambda game, seat: game.view(seat))
    better = 0
    for seed in range(30):
        world = feltroom.new_game("cribbage", 2, seed=seed, options={"counting": "automatic"}, compiled=False)
        heuristic = [make_bot("heuristic", "cribbage", s, 2, world.options, 0) for s in range(2)]
        assert _to_seat0s_play(world, heuristic)
        bot = make_bot("search", "cribbage", 0, 2, world.options, 0)
        assert isinstance(bot, SearchBot)
        mark, start = spec.mark(world, 0), spec.history(world)
        action = world.legal_actions(0)[0]
        after = world.copy()
        after.apply(0, action)
        if not _to_seat0s_play(after, heuristic, mark):
            continue
        options, values = _each_option_played_on(bot, after, mark, start)
        chosen = heuristic[0].choose(view(after, 0), options)
        assert bot.playout(world.copy(), action, random.Random(0), 1) == max(values)
        assert bot.playout(world.copy(), action, random.Random(0), 0) == values[options.index(chosen)]
        better += max(values) > values[options.index(chosen)]
    assert better >= 3


# ------------------------------------------------------- the next decision by information set (infoset)


def _infoset_by_hand(entries: list[Branch | float], worlds: list[int], z: float, min_worlds: int,
                     cluster: bool = False, leave_out: str = "world", grouped: bool = True,
                     world_max: bool = False) -> list[float]:
    """``infoset_values`` written out entry by entry: a branch's group is every branch with its key and
    options, and it is worth its option chosen by the gate over the group's other worlds. The mutations
    it can make: ``leave_out`` "world" (every copy of its world out), "entry" (itself only) or "none",
    ``grouped`` False (an action's branches one group whatever their keys), ``world_max`` (the best
    option in each world: perfect-information lookahead)."""
    out: list[float] = []
    for i, e in enumerate(entries):
        if not isinstance(e, Branch):
            out.append(e)
            continue
        if world_max:
            out.append(max(e.values))
            continue
        others: list[Branch] = []
        ids: list[int] = []
        for j, f in enumerate(entries):
            if not isinstance(f, Branch) or f.options != e.options or (grouped and f.key != e.key):
                continue
            if (leave_out == "world" and worlds[j] == worlds[i]) or (leave_out == "entry" and j == i):
                continue
            others.append(f)
            ids.append(worlds[j])
        values = {o: [f.values[k] for f in others] for k, o in enumerate(e.options)}
        best = sorted(e.options, key=lambda o: (-mean(values[o]), o != e.first, e.options.index(o)))[0]
        chosen = gate(e.first, best, values, z, min_worlds, ids if cluster else None)
        out.append(e.values[e.options.index(chosen)])
    return out


@pytest.mark.parametrize("cluster", [False, True])
def test_infoset_values_choose_by_the_groups_other_worlds(cluster: bool) -> None:
    """A constructed action's playouts: three keys (what the seat saw), in one of which the second option
    is better by 0.15 and in another the third by 0.1, with noise; some playouts end before the decision.
    Without ``cluster`` every world is new; with it, worlds come again from a pool of 30 (the same branch:
    a deterministic playout). The values are the written-out rule's, and each mutation of the rule (no
    leave-one-out, leaving out the entry but not its world's copies, one group whatever the key, the
    per-world best) changes them: the case tells them apart."""
    rng = random.Random(11)
    options = ("play 2H", "play 5S", "play KD")
    edges = {"a": (0.0, 0.15, -0.1), "b": (0.0, 0.0, 0.0), "c": (0.0, -0.2, 0.1)}
    pool: list[Branch | float] = []
    for _ in range(30 if cluster else 90):
        if rng.random() < 0.15:
            pool.append(rng.random())
            continue
        key = rng.choice("abc")
        luck = rng.random()
        values = tuple(luck + edges[key][k] + rng.gauss(0, 0.1) for k in range(3))
        pool.append(Branch(key, options, options[0], values))
    worlds = [rng.randrange(len(pool)) for _ in range(90)] if cluster else list(range(90))
    entries = [pool[w] for w in worlds]
    z, least = 1.0, 4
    expected = _infoset_by_hand(entries, worlds, z, least, cluster)
    assert infoset_values(entries, worlds, z, least, cluster) == expected
    assert expected != [e if isinstance(e, float) else e.values[0] for e in entries]  # not the policy's alone
    assert expected != _infoset_by_hand(entries, worlds, z, least, cluster, leave_out="none")
    assert expected != _infoset_by_hand(entries, worlds, z, least, cluster, grouped=False)
    assert expected != _infoset_by_hand(entries, worlds, z, least, cluster, world_max=True)
    if cluster:
        assert expected != _infoset_by_hand(entries, worlds, z, least, cluster, leave_out="entry")
    # leave-one-out is not optimistic: the mean is below the per-world best's and the in-sample choice's
    assert mean(expected) < mean(_infoset_by_hand(entries, worlds, z, least, cluster, leave_out="none"))


class BranchRecorder(SearchBot):
    """A Cribbage search that keeps every branch it played, per root action, in the order of its worlds."""

    game = "cribbage"

    def __init__(self, options: dict[str, Any], seed: int, budget: int) -> None:
        super().__init__(0, 2, options, seed, budget=budget)
        self.branches: dict[str, list[Branch | float]] = {}

    def branch(self, world: Game, action: str, rng: random.Random) -> Branch | float:
        played = super().branch(world, action, rng)
        self.branches.setdefault(action, []).append(played)
        return played


def test_an_infoset_search_values_its_actions_by_every_world_so_far(monkeypatch: pytest.MonkeyPatch) -> None:
    """``SearchSpec.infoset`` on real Cribbage plays: a branch is the playout to seat 0's next play with
    options, keyed by what seat 0 saw since the root (the other's plays by rank), the heuristic's choice
    there and each option played on; the root's final gate reads each action's values recomputed from
    all its worlds (every halving round pooled), and the same seed makes the same choice."""
    spec = dataclasses.replace(SPECS["cribbage"], weigh=None, pool=0, cluster_gate=False, margin_z=0.5,
                               min_worlds=3, infoset=True, lookahead=lambda legal: int(legal[0].startswith("play")))
    monkeypatch.setitem(SPECS, "cribbage", spec)
    view = spec.view or (lambda game, seat: game.view(seat))
    finals: list[tuple[str, str, dict[str, list[float]]]] = []
    real_gate = search_module.gate

    def spy(first: str, best: str, values: dict[str, list[float]], *args: Any) -> str:
        finals.append((first, best, {a: list(v) for a, v in values.items()}))
        return real_gate(first, best, values, *args)

    monkeypatch.setattr(search_module, "gate", spy)
    checked = grouped = 0
    for seed in range(12):
        game = feltroom.new_game("cribbage", 2, seed=seed, options={"counting": "automatic"}, compiled=False)
        heuristic = [make_bot("heuristic", "cribbage", s, 2, game.options, 0) for s in range(2)]
        assert _to_seat0s_play(game, heuristic)
        legal = game.legal_actions(0)
        if len(legal) < 3:
            continue
        # one branch by hand
        bot = BranchRecorder(game.options, 1, 60)
        mark, start = spec.mark(game, 0), spec.history(game)
        after = game.copy()
        after.apply(0, legal[0])
        since = len(after.log)
        branch = bot.branch(game.copy(), legal[0], random.Random(0))
        if _to_seat0s_play(after, heuristic, mark):
            options, values = _each_option_played_on(bot, after, mark, start)
            key = search_games._crib_observed(after, 0, since)
            # the other's plays by rank: no card's suit in the key
            assert isinstance(key, tuple) and all(type(part) is not str or "'card'" not in part for part in key)
            first = heuristic[0].choose(view(after, 0), options)
            assert branch == Branch(key, tuple(options), first, tuple(values))
        else:
            assert not isinstance(branch, Branch)
        # a whole search: its final gate's values are every world's, by the rule written out
        choices = []
        for _ in range(2):
            bot = BranchRecorder(game.options, seed, 60)
            bot.observe(events_for(game.log, 0))
            finals.clear()
            choices.append(bot.choose(game.view(0), legal))
            first, best, final = finals[-1]
            for action in {first, best}:
                entries = bot.branches[action]
                worlds = list(range(len(entries)))
                assert final[action] == _infoset_by_hand(entries, worlds, spec.margin_z, spec.min_worlds)
                keys = collections.Counter(e.key for e in entries if isinstance(e, Branch))
                grouped += any(n >= spec.min_worlds + 1 for n in keys.values())
            assert min(len(entries) for entries in bot.branches.values()) < len(bot.branches[first])  # halved
        assert choices[0] == choices[1]
        checked += 1
        if checked == 3:
            break
    assert checked == 3 and grouped


@pytest.mark.parametrize("times", [1, 3])
def test_a_decision_spends_its_kinds_share_of_the_budget(times: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """``SearchSpec.spend``: a discard spent at ``times`` the budget plays that many times the playouts
    (all but what the halving's rounds leave over, less than one world of the 15 options), in more
    worlds; a kind that ``spend`` leaves at 1 plays the budget as before."""
    monkeypatch.setitem(SPECS, "cribbage", dataclasses.replace(
        SPECS["cribbage"], spend=lambda legal: times if legal[0].startswith("discard") else 1))
    _, bot = stub_choice({}, shared=0.0, own=0.5, budget=180)
    assert 180 * times - 15 < bot.playouts <= 180 * times
    assert len(bot.played) > 20 * times


@pytest.mark.parametrize("size", [1, 4])
def test_a_shortlist_leaves_the_search_its_few_contenders(size: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """``SearchSpec.shortlist`` with Cribbage's ``crib_shortlist``: a discard searches only the guide's
    ``size`` best discards by its own count (``discard_values``; its choice, the best, among them), each
    in more worlds than fifteen would leave it; the best of them by the playouts is played."""
    _, view, legal, first = discard_decision()
    guide = make_bot("heuristic", "cribbage", 0, 2, {}, 1)
    values = guide.discard_values(view, legal)  # type: ignore[attr-defined]
    assert legal[values.index(max(values))] == first
    shortlist = search_games.crib_shortlist(size)
    listed = shortlist(guide, view, legal)
    ranked = sorted(legal, key=lambda a: -values[legal.index(a)])
    assert listed == [a for a in legal if a in ranked[:size]] and first in listed
    monkeypatch.setitem(SPECS, "cribbage", dataclasses.replace(SPECS["cribbage"], shortlist=shortlist))
    best = ranked[size - 1]  # the shortlist's last: worth most in the playouts
    choice, bot = stub_choice({best: 0.9}, shared=0.0, own=0.02, budget=180)
    assert set().union(*bot.played) == set(listed)
    # fifteen options at budget 180 leave each 3 worlds in the first round (4 rounds: 45 // 15)
    assert min(sum(a in world for world in bot.played) for a in listed) > 3
    assert choice == best


def test_a_shortlist_keeps_every_play() -> None:
    """Cribbage's shortlist cuts discards only: a play (or a discard with fewer options) keeps every option."""
    guide = make_bot("heuristic", "cribbage", 0, 2, {}, 1)
    plays = ["play 5H", "play 10S", "play KD"]
    assert search_games.crib_shortlist(1)(guide, {}, plays) == plays
    _, view, legal, _ = discard_decision()
    assert search_games.crib_shortlist(15)(guide, view, legal) == legal


@pytest.mark.parametrize("plays", [False, True])
def test_the_guide_plays_the_searching_seat_in_the_playouts_when_asked(plays: bool,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """``SearchSpec.guide_plays``: the guide (Crisp's ``CrispGuide`` in the variant bench's ``guideplays``)
    also plays the searching seat in every playout, the other seats staying the policy level's; without
    it the guide only makes the choice the search must beat."""
    from feltroom.bots.crisp import CrispGuide

    made: list[int] = []

    class Recording(CrispGuide):
        def __init__(self, seat: int, players: int, options: dict[str, Any], seed: int | None = None) -> None:
            super().__init__(seat, players, options, seed)
            made.append(seat)

    monkeypatch.setitem(SPECS, "crisp", dataclasses.replace(SPECS["crisp"], guide=Recording, guide_plays=plays))
    game = feltroom.new_game("crisp", players=4, seed=5)
    bot = make_bot("search", "crisp", 0, 4, game.options, seed=1, budget=40)
    others = [make_bot("heuristic", "crisp", s, 4, game.options, seed=s) for s in range(4)]
    fed = [0] * 4
    while True:  # to seat 0's first choice with options
        seat, legal = seat_to_act(game, others, fed)
        if seat == 0 and len(legal) > 1:
            break
        game.apply(seat, others[seat].choose(game.view(seat), legal))
    bot.observe(events_for(game.log, 0))
    assert made == [0]  # the guide of the search bot itself
    assert bot.choose(game.view(0), legal) in legal
    if plays:
        assert len(made) > 20 and set(made) == {0}  # one for the seat in each playout, none for another seat
    else:
        assert made == [0]


@pytest.mark.parametrize("players", [2, 4])
def test_the_search_draws_its_worlds_with_the_specs_draw(monkeypatch: pytest.MonkeyPatch, players: int) -> None:
    """``SearchSpec.draw``: every world comes from it (Crisp's ``_crisp_below`` in the variant bench's
    ``below``), not from the knowledge's uniform sample; but not where the spec weighs its worlds (Crisp
    heads-up, ``weigh_players``): the weights read the others' choices already. The lobby's Crisp spec
    draws with ``_crisp_below_declared`` (docs/bots.md: adopted on its paired run of seed 7172)."""
    assert SPECS["crisp"].draw is search_games._crisp_below_declared
    drawn: list[int] = []

    def below(knowledge: Any, rng: random.Random) -> Game:
        drawn.append(1)
        return search_games._crisp_below(knowledge, rng)

    monkeypatch.setitem(SPECS, "crisp", dataclasses.replace(SPECS["crisp"], draw=below))
    assert SPECS["crisp"].weigh_players == 2
    game = feltroom.new_game("crisp", players=players, seed=3)
    bots = [make_bot("search", "crisp", 0, players, game.options, seed=1, budget=24),
            *(make_bot("heuristic", "crisp", s, players, game.options, seed=s) for s in range(1, players))]
    play_out(game, bots, max_actions=400)
    assert len(drawn) > 100 if players == 4 else not drawn


def test_crisp_below_holds_the_others_cards_below_what_they_let_go() -> None:
    """``_crisp_below`` and ``_crisp_below_kept`` draw bounded worlds, not uniform ones;
    ``_crisp_below_kept`` holds each card another seat kept at most the lowest card it let go."""
    from feltroom.games.crisp_knowledge import CrispKnowledge

    players = 4
    game = feltroom.new_game("crisp", players=players, seed=11)
    bots = [make_bot("heuristic", "crisp", s, players, game.options, seed=s) for s in range(players)]
    fed = [0] * players
    for _ in range(60):  # into the first round: the others have swapped cards in
        seat, legal = seat_to_act(game, bots, fed)
        game.apply(seat, bots[seat].choose(game.view(seat), legal))
    know = feltroom.knowledge.tracker("crisp", 0, players, game.options)
    assert isinstance(know, CrispKnowledge)
    know.observe(events_for(game.log, 0))
    fresh = know.fresh_swaps()
    assert fresh  # 60 actions: the others swapped cards in
    uniform = know.sample(random.Random(5))
    world = search_games._crisp_below(know, random.Random(5))
    assert world.log != uniform.log
    kept = know.kept_over()
    assert kept
    world = search_games._crisp_below_kept(know, random.Random(5))
    assert world.log != uniform.log
    order = world.deal_order(0)
    assert all(CRISP_VALUE[order[p]] <= min(CRISP_VALUE[c] for c in let_go) for p, let_go in kept.items())


@pytest.mark.slow
def test_the_kept_worlds_put_the_others_totals_nearest_the_truth() -> None:
    """bench/crisp_worlds.py: at a seat's crisp windows (CRISP-CALL-2) in 4-player heuristic games, the
    uniform worlds overstate the others' totals (CRISP-SCORE-1), and ``_crisp_below_kept``'s worlds put them
    nearer the truth than ``_crisp_below``'s, which are nearer than the uniform ones; in its last turns
    (CRISP-CALL-3), ``_crisp_below_declared``'s put the declarer's nearer than any (docs/bots.md)."""
    worlds = bench_module("crisp_worlds")
    pooled: dict[str, dict[str, list[float]]] = {m: {name: [] for name in worlds.MODELS} for m in worlds.MOMENTS}
    for i in range(24):
        for moment, models in worlds.errors(1000 + i, i % 4, 4, 6).items():
            for name, errs in models.items():
                pooled[moment][name] += errs
    windows, last = ({name: sum(abs(e) for e in errs) / len(errs) for name, errs in pooled[m].items()}
                     for m in worlds.MOMENTS)
    assert sum(pooled["windows"]["uniform"]) / len(pooled["windows"]["uniform"]) > 1
    assert windows["kept"] < windows["below"] < windows["uniform"]
    assert last["declared"] < min(last["kept"], last["below"], last["uniform"]) - 1


def test_crisp_below_declared_holds_the_declarers_cards_to_what_the_heuristic_declares_at() -> None:
    """``_crisp_below_declared``: after another seat's declaration (CRISP-CALL-1), in a last turn
    (CRISP-CALL-3), the cards it declared with that it had been shown are worth at most
    ``CrispHeuristic.DECLARE`` (with ``BOLDER``) less ``CRISP_DECLARER_MEAN`` for each it had not; the
    kept worlds, which do not read the declaration, often break that."""
    from feltroom.bots.crisp import CrispHeuristic
    from feltroom.games.crisp_knowledge import CrispKnowledge

    players, broken, checked = 4, 0, 0
    for seed in range(20):
        game = feltroom.new_game("crisp", players=players, seed=seed)
        assert isinstance(game, Crisp)
        bots = [make_bot("heuristic", "crisp", s, players, game.options, seed=s) for s in range(players)]
        fed = [0] * players
        while not game.is_over:
            seat, legal = seat_to_act(game, bots, fed)
            if seat == 0 and game.declarer not in (None, 0) and len(legal) > 1:
                break
            game.apply(seat, bots[seat].choose(game.view(seat), legal))
        else:
            continue
        know = feltroom.knowledge.tracker("crisp", 0, players, game.options)
        assert isinstance(know, CrispKnowledge)
        know.observe(events_for(game.log, 0))
        declared = know.declaration()
        assert declared is not None and declared[0] == game.declarer
        _, hand, turns = declared
        limit = CrispHeuristic.DECLARE[players] + CrispHeuristic.BOLDER * max(0, turns - 6)
        most = int(limit) - search_games.CRISP_DECLARER_MEAN * sum(1 for _, shown in hand if not shown)
        for i in range(5):
            order = search_games._crisp_below_declared(know, random.Random(i)).deal_order(game.round_no - 1)
            assert sum(CRISP_VALUE[order[p]] for p, shown in hand if shown) <= most
            order = search_games._crisp_below_kept(know, random.Random(i)).deal_order(game.round_no - 1)
            broken += sum(CRISP_VALUE[order[p]] for p, shown in hand if shown) > most
        checked += 1
    assert checked > 5 and broken > 5
