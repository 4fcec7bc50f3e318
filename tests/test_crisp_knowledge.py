"""Crisp knowledge sampling (#15): samples agree with what the seat saw, never with what it did not.

(a) a sample's view, legal actions (the clock's too) and history for the seat are the real
ones, and its record replays to it; (b) games that differ only in cards the seat never saw
give the same samples; (c) the hidden cards are placed uniformly (chi-square, fixed seeds).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

import feltroom
from feltroom.bots import make_bot
from feltroom.cards import NAMES, parse_card
from feltroom.game import Game
from feltroom.games.crisp import DECK_SRC, RANK, VALUE, Crisp
from feltroom.games.crisp_knowledge import CrispKnowledge
from feltroom.knowledge import sample_state, tracker
from feltroom.views import events_for

from .helpers import seat_to_act
from .knowledge_helpers import check_sample, chi2, chi2_critical, knowing, random_points, same_sample

OPTIONS: list[dict[str, Any]] = [
    {},
    {"draw_from_discard": True},
    {"clock": True, "draw_time": 30},
    {"clock": True, "draw_from_discard": True, "draw_time": 45},
    {"clock": True, "end_limit": 50, "first_dealer": 1},
]


def _check_game(players: int, options: dict[str, Any], seed: int, every: int) -> int:
    seat = seed % players
    game = feltroom.new_game("crisp", players=players, seed=seed, options=options)
    k = tracker("crisp", seat, players, options)
    seen, checked = 0, 0
    for g in random_points(game, random.Random(seed), every):
        k.observe(events_for(g.log[seen:], seat))
        seen = len(g.log)
        s = sample_state("crisp", players, options, k, random.Random(checked))
        check_sample(g, s, seat)
        again = feltroom.replay(s.record)  # a sample is a legal game: its record replays to it
        assert again.audit_cards() == s.audit_cards() and again.log == s.log
        checked += 1
    return checked


def test_tracker_is_registered_on_import() -> None:
    """`import feltroom` is enough for feltroom.knowledge.tracker("crisp", ...)."""
    assert isinstance(feltroom.knowledge.tracker("crisp", 1, 3, {}), CrispKnowledge)


@pytest.mark.parametrize(("players", "options"), [(2, OPTIONS[0]), (3, OPTIONS[1]), (4, OPTIONS[2])])
def test_samples_agree_with_the_seat(players: int, options: dict[str, Any]) -> None:
    """(a) CRISP-CONV-5, CRISP-DEAL-6, CRISP-SPEC-5/6, CRISP-ONL-DISC-1, CRISP-ONL-TIME-4: the sampled
    view, legal actions (CLOCK included) and public and seat history are the real ones."""
    assert sum(_check_game(players, {**options, "end_limit": 100}, seed=s, every=4) for s in range(3)) > 15


@pytest.mark.slow
@pytest.mark.parametrize("players", range(2, 9))
def test_samples_agree_with_the_seat_over_many_games(players: int) -> None:
    """(a) over whole games at every table size and every option set, often."""
    for i, options in enumerate(OPTIONS):
        _check_game(players, {"end_limit": 60, **options}, seed=100 * players + i, every=3)


def _twin_games(players: int, seed: int, seat: int) -> tuple[Crisp, Crisp, list[list[Any]]]:
    """Two games whose first deals differ in two cards the seat never sees in the actions played."""
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    hidden = [3 * players + 10, 3 * players + 20]  # deep in the deck
    twin = list(deck)
    twin[hidden[0]], twin[hidden[1]] = twin[hidden[1]], twin[hidden[0]]
    opts = {"first_dealer": 0}
    a = feltroom.new_game("crisp", players, seed=seed, options=opts, deck=[NAMES[c] for c in deck])
    b = feltroom.new_game("crisp", players, seed=seed, options=opts, deck=[NAMES[c] for c in twin])
    assert isinstance(a, Crisp) and isinstance(b, Crisp)
    return a, b, [[NAMES[c] for c in deck], [NAMES[c] for c in twin]]


def test_cards_the_seat_never_saw_do_not_change_the_samples() -> None:
    """(b) two games differing only in hidden cards give equal samples for equal rng seeds, while a
    sampler that copied the true state would not."""
    players, seat = 3, 1
    compared = 0
    for seed in range(6):
        a, b, _ = _twin_games(players, seed, seat)
        rng = random.Random(seed)
        while not a.is_over and a.round_no == 1 and compared < 200:
            if events_for(a.log, seat) != events_for(b.log, seat):
                break
            ka, kb = knowing(a, seat, {"first_dealer": 0}), knowing(b, seat, {"first_dealer": 0})
            sa, sb = ka.sample(random.Random(5)), kb.sample(random.Random(5))
            assert same_sample(sa, sb)
            assert not same_sample(a.copy(), b.copy())  # the real games differ: a copying sampler fails
            compared += 1
            seats = a.to_act
            mover = rng.choice(seats)
            action = rng.choice(a.legal_actions(mover))
            if action not in b.legal_actions(mover):
                break
            a.apply(mover, action)
            b.apply(mover, action)
    assert compared > 30


def _scenario() -> tuple[Crisp, int, list[int]]:
    """4 players, dealer P0, seat P2 watching: P1 draws from the deck and swaps the card in (an A–10,
    CRISP-SPEC-1), P2 draws and discards, P3 uses a Queen on P1, P0 takes a Jack's peek."""
    deck = ["5H", "KD", "2C", "9S", "AH", "7D", "QC", "3S", "10H", "4C", "JS", "8D", "4S", "2H", "QH", "JD", "6D"]
    rest = [NAMES[c] for c in range(52) if NAMES[c] not in deck]
    g = feltroom.new_game("crisp", 4, seed=3, options={"first_dealer": 0}, deck=deck + rest)
    assert isinstance(g, Crisp)
    for seat, action in [(1, "draw"), (1, "swap C"), (2, "draw"), (2, "discard"), (3, "draw"), (3, "queen L 1 R"),
                         (0, "draw"), (0, "jack"), (1, "draw"), (1, "discard")]:
        g.apply(seat, action)
    return g, 2, [12]  # deal position 12 (the card P1 drew and swapped in) must be an A–10


def _placements(k: CrispKnowledge, samples: list[Game]) -> dict[int, Counter[int]]:
    """Per hidden deal position of the current round, how often each card was there."""
    hidden = k.hidden()[0]
    out: dict[int, Counter[int]] = {p: Counter() for p in hidden}
    for s in samples:
        deck = s._stacks[-1]
        for p in hidden:
            out[p][deck[p]] += 1
    return out


def _uniformity(k: CrispKnowledge, counts: dict[int, Counter[int]], n: int, nonface: list[int]) -> list[float]:
    """Per position and per card: chi-square over n samples divided by its critical value (>1: rejected)."""
    hidden, _, unseen = k.hidden()
    faces_ok = [c for c in unseen if RANK[c] <= 10]
    free = [p for p in hidden if p not in nonface]
    def expect(p: int, c: int) -> float:
        if p in nonface:
            return n / len(faces_ok) if RANK[c] <= 10 else 0.0
        left = 1 - len(nonface) / len(faces_ok) if RANK[c] <= 10 else 1.0
        return n * left / len(free)
    ratios = []
    for p in hidden:
        exp = [expect(p, c) for c in unseen]
        obs = [counts[p][c] for c in unseen]
        ratios.append(chi2(obs, exp) / chi2_critical(sum(e > 0 for e in exp) - 1))
    for c in unseen:
        exp = [expect(p, c) for p in hidden]
        obs = [counts[p][c] for p in hidden]
        ratios.append(chi2(obs, exp) / chi2_critical(sum(e > 0 for e in exp) - 1))
    return ratios


@pytest.mark.slow
def test_hidden_cards_are_placed_uniformly() -> None:
    """(c) CRISP-SPEC-1: each hidden card's placement frequencies match the uniform law over what is
    possible (the swapped-in card an A–10), chi-square at p = 0.0001 (tests/knowledge_helpers.py)."""
    g, seat, nonface = _scenario()
    k = knowing(g, seat, {"first_dealer": 0})
    assert isinstance(k, CrispKnowledge)
    assert sorted(k.hidden()[1]) == nonface
    n = 4000
    rng = random.Random(2026)
    samples = [k.sample(rng) for _ in range(n)]
    for s in samples[:50]:
        check_sample(g, s, seat)
    assert max(_uniformity(k, _placements(k, samples), n, nonface)) < 1
    # the test has teeth: the true deal every time, or no A–10 rule, is rejected
    assert max(_uniformity(k, _placements(k, [g] * n), n, nonface)) > 1
    assert max(_uniformity(k, _placements(k, samples), n, [])) > 1


def test_own_memory_and_others_discard_draws_are_kept() -> None:
    """CRISP-DEAL-6, CRISP-SPEC-4/6, CRISP-ONL-DISC-2: what the seat peeked at, and what another seat
    took from the pile, are where they are in every sample."""
    g, seat, _ = _scenario()
    k = knowing(g, seat, {"first_dealer": 0})
    for i in range(20):
        s = k.sample(random.Random(i))
        assert isinstance(s, Crisp)
        assert s.hands[seat][0] == g.hands[seat][0] and s.hands[seat][2] == g.hands[seat][2]  # the peek
        assert s.discard == g.discard and s.deck_spec != g.deck_spec
        assert RANK[s.hands[1][1]] <= 10  # P1's C, drawn from the deck and swapped in, is an A–10
    p3_left = Counter(NAMES[k.sample(random.Random(i)).hands[3][0]] for i in range(200))  # type: ignore[attr-defined]
    assert len(p3_left) > 10  # P3's Queen took P1's R, which P2 never saw: it could be anything unseen
    assert "KD" not in p3_left and "AH" not in p3_left


ROUNDS = 3


def _stacked_rounds(players: int, seed: int) -> Crisp:
    """A game whose first ``ROUNDS`` rounds are dealt from stacked, shuffled decks (``deck=``)."""
    decks = []
    for r in range(ROUNDS):
        deck = list(NAMES)
        random.Random(seed * 100 + r).shuffle(deck)
        decks.append(deck)
    game = feltroom.new_game("crisp", players=players, seed=seed, deck=decks)
    assert isinstance(game, Crisp)
    return game


Step = tuple[Crisp, CrispKnowledge, int, int, list[str], str]


def _stacked_play(seed: int) -> Iterator[Step]:
    """Four heuristic players through the first ``ROUNDS`` rounds of ``_stacked_rounds``, seat ``seed % 4``
    watched by a tracker: before each action is applied, (the game, the tracker, the watched seat, the seat
    to act, its legal actions, the action it chose); the tracker has been shown everything whenever the
    watched seat has a choice."""
    players, me = 4, seed % 4
    game = _stacked_rounds(players, seed)
    bots = [make_bot("heuristic", "crisp", s, players, seed=s) for s in range(players)]
    fed = [0] * players
    k = tracker("crisp", me, players, {})
    assert isinstance(k, CrispKnowledge)
    seen = 0
    while game.round_no <= ROUNDS and not game.is_over:
        seat, legal = seat_to_act(game, bots, fed)
        action = bots[seat].choose(game.view(seat), legal)
        if seat == me and len(legal) > 1:
            k.observe(events_for(game.log[seen:], me))
            seen = len(game.log)
        yield game, k, me, seat, legal, action
        game.apply(seat, action)


def _fresh_truth(game: Crisp, me: int) -> dict[int, tuple[int, bool]]:
    """From the whole log (what no seat sees): in the current round, each card another seat drew from
    the deck and swapped in, at its deal position -> the card it replaced, whether that seat was shown it."""
    log = game.log
    first = max(i for i, e in enumerate(log) if e["type"] == "round_start")
    order = [parse_card(c) for c in game.deck_spec[game.round_no - 1]]  # stacked rounds: deal order, top first
    truth: dict[int, tuple[int, bool]] = {}
    drawn: dict[int, int] = {}
    for i in range(first, len(log)):
        e = log[i]
        if e["type"] == "reveal" and e["why"] == "draw":
            drawn[e["seat"]] = parse_card(e["cards"][0])
        elif e["type"] == "draw" and e["source"] == "discard":
            drawn.pop(e["seat"], None)
        elif e["type"] == "swap" and e["seat"] != me and e["seat"] in drawn:
            s, out = e["seat"], e["out"]
            shown = any(out in (x.get("card"), x.get("out")) or out in x.get("cards", ())
                        for x in events_for(log[first:i], s))
            truth[order.index(drawn.pop(s))] = (parse_card(out), shown)
    return truth


@pytest.mark.parametrize("seed", range(3))
def test_fresh_swaps_and_a_sample_held_below_them(seed: int) -> None:
    """The search's model of the others (``search_games._crisp_below``) reads from the tracker only facts:
    ``fresh_swaps()`` gives each hidden card another seat drew from the deck and swapped in (CRISP-TURN-3/5,
    CRISP-SPEC-1) the card it replaced, public once discarded, and whether that seat had been shown it in
    this round, as the whole log says, in three stacked rounds (a round after the first is dealt by another
    seat's last action: that action's cards are not the new round's positions). A sample held below
    bounds keeps every bound that the unseen cards allow, and agrees with the seat as any sample does;
    without bounds it is the uniform sample, draw for draw."""
    checked, bounded = 0, 0
    for game, k, me, seat, legal, _ in _stacked_play(seed):
        if seat == me and len(legal) > 1:
            fresh = k.fresh_swaps()
            truth = _fresh_truth(game, me)
            assert fresh.items() <= truth.items()
            hidden, nonface, unseen = k.hidden()
            assert all(p not in hidden for p in truth if p not in fresh)  # left out: the seat has seen them since
            assert nonface <= truth.keys()  # CRISP-SPEC-1 constrains no other position, in any round
            below = dict.fromkeys(fresh, 3)
            world = k.sample(random.Random(checked), below)
            check_sample(game, world, me)
            order = world.deal_order(game.round_no - 1)
            low = sum(1 for c in unseen if RANK[c] <= 3)
            if len(below) <= low:
                assert all(RANK[order[p]] <= 3 for p in below)
            bounded += len(below)
            plain = k.sample(random.Random(checked))
            assert plain.log == k.sample(random.Random(checked), None).log == k.sample(random.Random(checked), {}).log
            checked += 1
    assert checked > 3 and bounded > 3


def _shown_to(log: list[dict[str, Any]], seat: int) -> set[str]:
    """Every card the events of ``log`` name to ``seat``."""
    return {c for e in events_for(log, seat)
            for c in (e.get("card"), e.get("out"), *e.get("cards", ()), *e.get("kings", ())) if c}


@pytest.mark.parametrize("seed", range(3))
def test_kept_over_and_a_sample_held_below_them(seed: int) -> None:
    """``kept_over()`` (the search's ``_crisp_below_kept`` reads it) gives each hidden card another seat had
    been shown and kept while it let a card go: its drawn card discarded (CRISP-TURN-5) or a card it had been
    shown swapped out (CRISP-TURN-4), as the whole log says, with the cards let go. A sample bounds such
    positions too, whether or not they must hold an A–10, and keeps every bound the unseen cards allow."""
    truth: dict[int, list[int]] = {}
    checked, bounded, round_no = 0, 0, 1
    for game, k, me, seat, legal, action in _stacked_play(seed):
        if game.round_no != round_no:  # the tracker's facts are of the current round only
            truth, round_no = {}, game.round_no
        if seat == me and len(legal) > 1:
            hidden, _, unseen = k.hidden()
            kept = k.kept_over()
            assert kept == {p: v for p, v in truth.items() if p in hidden}
            below = dict.fromkeys(kept, 2)
            world = k.sample(random.Random(checked), below)
            check_sample(game, world, me)
            if len(below) <= sum(1 for c in unseen if RANK[c] <= 2):
                assert all(RANK[world.deal_order(game.round_no - 1)[p]] <= 2 for p in below)
            bounded += len(below)
            checked += 1
        order = [parse_card(c) for c in game.deck_spec[game.round_no - 1]]
        first = max(i for i, e in enumerate(game.log) if e["type"] == "round_start")
        swap = action.startswith("swap")
        if seat != me and game.held >= 0 and (swap or (action == "discard" and game.held_src == DECK_SRC)):
            shown = _shown_to(game.log[first:], seat)
            hand = game.hands[seat]
            let_go = hand["LCR".index(action[-1])] if swap else game.held
            if not swap or NAMES[let_go] in shown:
                for c in hand:
                    if c != let_go and NAMES[c] in shown:
                        truth.setdefault(order.index(c), []).append(let_go)
    assert checked > 3 and bounded > 3


def test_declaration_and_a_sample_held_to_a_total() -> None:
    """``declaration()`` (the search's ``_crisp_below_declared`` reads it) gives another seat's declaration
    of the round (CRISP-CALL-1): the seat, its cards then (deal positions) with whether it had been shown
    each, and its turns ended in the round, as the whole log says. A sample held to a total (``most``)
    keeps it (here where it is loose enough for the draws to find it), leaves one it cannot keep to chance,
    and agrees with the seat as any sample does."""
    checked, held = 0, 0
    for seed in range(40):
        c, h = _check_declarations(seed)
        checked, held = checked + c, held + h
    assert checked > 10 and held > 5


def _check_declarations(seed: int) -> tuple[int, int]:
    """``test_declaration_and_a_sample_held_to_a_total`` on one game: how many samples checked, how many
    held to the total."""
    truth: tuple[int, list[tuple[int, bool]], int] | None = None
    checked, held, round_no = 0, 0, 1
    for game, k, me, seat, legal, action in _stacked_play(seed):
        if game.round_no != round_no:
            truth, round_no = None, game.round_no
        if seat == me and len(legal) > 1:
            assert k.declaration() == truth
            if truth is not None:
                positions = [p for p, _ in truth[1]]
                impossible = k.sample(random.Random(checked), None, (positions, 2))  # three cards are worth 3+
                assert impossible.log == k.sample(random.Random(checked)).log  # left to chance, no draw wasted
                world = k.sample(random.Random(checked), None, (positions, 12))
                check_sample(game, world, me)
                order = world.deal_order(game.round_no - 1)
                hidden, _, _ = k.hidden()
                # with 6 or more left for the hidden ones, the 50 draws find such a total in these games
                if sum(VALUE[order[p]] for p in positions if p not in hidden) <= 6:
                    assert sum(VALUE[order[p]] for p in positions) <= 12
                    held += 1
                checked += 1
        if action == "crisp" and seat != me:
            order_now = [parse_card(c) for c in game.deck_spec[game.round_no - 1]]
            first = max(i for i, e in enumerate(game.log) if e["type"] == "round_start")
            shown = _shown_to(game.log[first:], seat)
            turns = sum(1 for e in game.log[first:] if e["type"] == "turn_end" and e["seat"] == seat)
            truth = (seat, [(order_now.index(c), NAMES[c] in shown) for c in game.hands[seat]], turns)
    return checked, held
