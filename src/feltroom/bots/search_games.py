"""Where a ``search`` playout stops, and what it is worth, per game (``feltroom.bots.search``).

Playing every playout to the end of a whole game would spend the budget on deals the
decision hardly touches. Decided here:

- **Cribbage**: to the end of the current hand (the next deal), worth the hand's margin —
  the seat's side's points minus the mean of the other sides', scaled by ``CRIB_SCALE`` around
  0.5 (``_crib_margin``) — or 1/0 if the game is won or lost within it (pegging out comes first,
  CRIB-END-1). What a hand's end is worth is a parameter of the values (``CribWorth``): heads-up,
  the chance to win from the scores reached with the next dealer (``bench/cribbage_odds.py``, the
  variant bench's ``odds``) won no more games than the margin on the same 1,000 (57.8 % against
  58.6 %, −0.8 points, standard error 0.9; 4 December 2026), so the margin stays.
- **Cribbage** reads the other seats as the heuristic would play (4 December 2026; until then its
  worlds were uniform and each playout worth the hand as played, ``CRIB_PLAIN``):
  - a playout from a decision before the cut (a discard) is worth the hand's value averaged over
    every starter the world could cut (``_crib_starters_value``: his heels and the show, exactly);
  - each world's hidden discards of the others are the heuristic's choice from their dealt cards
    (``_crib_redeal``, the spec's ``refine``): the sampler splits them at random;
  - heads-up, the worlds are weighted by the other seat's plays and discard under the heuristic
    fed that world's view (``_crib_fit``, ``CRIB_MISS`` 0.02 a miss: nearly a hard condition,
    people are not the heuristic but a world that explains their choices is far likelier), drawn
    from a pool of 1,024 (256 until 6 December 2026), with the gate by world (``cluster_gate``). A
    go needs no weight: the sampler already holds it as the hard limit it is (CRIB-PEG-3).
  Together, on the same 137 heads-up games, they won 7.3 points more than ``CRIB_PLAIN`` (standard
  error 3.5); over 1,000 games they won 58.6 % (Wilson 95 % 55.5–61.6 %), 9.7 points (1.2) more than
  ``heuristic`` in the same seat on the same deals (docs/bots.md, "Where the search stands"); each
  alone moved nothing measurable. The weights at 0.25 a miss from a pool of 64, tried before, did
  not win more (−9.1 ± 4.7, then −1.4 ± 5.3 with the gate by world). The pool of 1,024 keeps a
  median of 440 effective worlds (256 kept 111) and won 60.4 % of 1,000 fresh deals (seed 2043;
  Wilson 95 % 57.3–63.4 %), its rule set before the first game (docs/bots.md).
- **Krypkasino**: to the end of the current packet (the next deal of cards, or the end of
  the deal), worth the packet's margin in penalty points — card points taken (KRYP-SCORE-1)
  plus sweep transfers (KRYP-SWEEP-4), the seat's minus the mean of the others' (lower is
  better, KRYP-CONV-5) — scaled by ``KRYP_SCALE``; 1/0 if the match ends within it.

- **Crisp** and **Craits**: to the end of the round (hand), worth the round's margin of points
  (lower is better, CRISP-SCORE-*, CRAITS-SCORE-*) scaled by ``ROUND_SCALE`` (Crisp, 20 points) or
  ``CRAITS_SCALE`` (80); 1/0 if the game ends in it. The scales follow the games' margins: a Crisp
  round's margin against the others' mean is 4 points at the median with 4 heuristic players (p90
  11), a Craits hand's 35 (p75 62, p90 97; heads-up 40), its cards being worth 1 to 50 points
  (CRAITS-SCORE-1). Craits had Crisp's 20 until 3 December 2026, which made 7 hands in 10 worth
  exactly 0 or 1: a hand lost by 25 points the same as one lost by 100. Crisp's round ends at the
  first change of the scores, which it adds only then. Craits' does not: a shuffle penalty adds to a
  total at once, mid-hand (CRAITS-SHUF-2), so its playouts stop when the next hand is dealt
  (``_hand_ended``) and the hand's margin counts the penalties taken in it. With 4 players 43 % of
  the heuristic's hands have a shuffle penalty (2 % heads-up), and 54 % of the search's playouts
  (8 % heads-up) used to stop at one, worth that penalty alone, the hand's card points unseen (one-off
  counts over 20 heuristic games and 2–3 search games, not a bench).
- **Craits**' budget stays 60 playouts: more was not shown to win more, and at the old scale (±20)
  no variant tried reached the issue's 4-player figure; the figures below are all at that scale
  (with ±80, docs/bots.md, "Where the search stands"). One search seat against three heuristics,
  seat-rotated (an even share is 25 %), ``nice -n 19 python bench/search_strength.py craits
  --players 4 --games 1000 --jobs 1 --seed 2026 --paired --every 10 --budget B`` (the variants
  set through the spec, load 3–8): at 60 with the old horizon 33.7 % of 208 (Wilson 95 %
  27.6–40.3 %); at 150 with it 31.7 % of 41 (19.6–47.0 %); at 150 with the hand's end 34.0 % of
  50 (22.4–47.8 %); at 300, 10 games only. Heads-up (the same without ``--players``, seed 2026,
  the same deals): at 60, old horizon, 71.5 % of 135 (63.4–78.4 %); hand's end 64.4 % of 87
  (53.9–73.6 %); at 150, hand's end, 67.0 % of 100 (57.3–75.4 %): no variant apart, and the
  two horizons at 60 differ only in a twelfth of the playouts, so those runs' spread is the
  bench's noise. Decision CPU with 4 players at 60 (old horizon) p95 0.099 s; at 150 old
  horizon p50 0.149, p95 0.260, max 0.441 s; at 150 hand's end p50 0.223, p95 0.472, max
  0.990 s (the hand's end is further); at 300 old horizon p95 0.513, max 0.856 s. Heads-up at
  60, hand's end, p50 0.040, p95 0.066, max 0.122 s.
- **Crisp** besides: the playout bots remember from the round's ``round_start`` (the heuristic
  forgets the past rounds there) and read a two-key view (``_crisp_view``), which leaves the
  playouts as they were at two thirds of the CPU; and the worlds are weighted by how well the
  heuristic explains the other seats' choices this round (``_crisp_fit``): the uniform
  sampler does not read them as evidence, and so overstated a heads-up opponent's total at our
  crisp windows by 2.7 points on average (0.4 weighted). Budget 400 playouts (decision CPU
  p95 well under 1 s, ``bench/search_decisions.py crisp``).
- **Crisp** weighs its worlds heads-up only (``weigh_players=2``); with more players it draws
  them from a model of the others' cards instead (``_crisp_below_declared``: the cards they swapped
  in, kept and declared with held to what the heuristic would have; since 5 December 2026, when on
  1,000 fresh four-player deals it won 31.5 % against the uniform worlds' 28.3 %, +3.2 points,
  standard error 1.1; docs/bots.md). Before that, uniform from the knowledge. With 4 players (one
  search seat against three heuristics, seat-rotated, an even share 25 %; ``bench/search_variants.py
  crisp``, seed 2027, games 0–178), on the same 178 games, the weighted search won 22.2 % (Wilson
  95 % 16.7–28.8 %), the unweighted one 25.6 % (19.7–32.4 %), and ``heuristic`` in the same seat on the same deals
  19.1 % (14.0–25.5 %): unweighted − weighted +3.4 ± 6.5 points (21 games better, 15 worse:
  not significant), unweighted − heuristic +6.5 ± 4.7, weighted − heuristic +3.1 ± 5.6
  (before, ``bench/search_strength.py``: weighted, 23.2 % of 155 games, 17.3–30.5 %).
  Why: three other seats make three times the choices, so at 0.2 a miss a 4-player decision
  kept a median of 23 effective worlds of its 64 (p10 5; heads-up 37), and the 200 worlds of
  a two-action decision held a median of 44 distinct ones, while the gate counts 200
  independent pairs: too bold a test. Weighted, the search overrode the heuristic in 69 % of
  its Queen decisions (28 choices) and 19 % of its swaps; unweighted 37 % and 7 %. Decision
  CPU unweighted p50 0.177 s, p95 0.264 s, max 0.313 s (3,012 decisions; weighted 0.184 /
  0.277 / 0.350). A milder miss (0.5) kept more worlds (median 48 of 64) but won 19.3 % of
  70 games of seed 2027 (heuristic 20.0 %). Valuing the round against the other seat that
  gained least, by the change of the deficit to the lowest other total, or by a win
  probability from the totals won 26.0 %, 25.0 % and 31.0 % of the first 50 games of seed
  2026 (heuristic 28.0 %, unweighted 34.0 %): none beat the margin against the others' mean,
  which stays. Not the issue's 35 %.

Games without an entry play to the end (``SearchSpec()``).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import random
from collections.abc import Callable, Hashable
from typing import Any

from ..cards import NAMES, card_list, parse_card
from ..game import Game
from ..games.craits import _DIRS
from ..games.cribbage import _public_show
from ..games.cribbage_scoring import JACK, RANK, VALUE
from ..games.crisp import VALUE as CRISP_VALUE
from ..games.crisp import queen_actions
from ..games.crisp_knowledge import CrispKnowledge
from ..games.krypkasino import POINTS
from ..knowledge import Knowledge
from ..views import events_for
from .base import Bot
from .cribbage import CribbageBot, fast_total
from .crisp import CrispHeuristic
from .search import SPECS, SearchSpec, win_value

#: points of margin that move a playout's value from 0.5 to 0 or 1
CRIB_SCALE = 30.0
KRYP_SCALE = 20.0
ROUND_SCALE = 20.0
#: Craits: a hand's margin runs to tens of points, a card being worth 1 to 50 (CRAITS-SCORE-1; module docstring)
CRAITS_SCALE = 80.0


def _clip(x: float) -> float:
    return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x


def _margin(gains: list[float], seat: int, sides: list[list[int]]) -> float:
    mine = next(i for i, side in enumerate(sides) if seat in side)
    others = [gains[i] for i in range(len(sides)) if i != mine]
    return gains[mine] - sum(others) / len(others)


#: a Cribbage playout's mark: the hand's number, the sides' scores, whether the starter is still to
#: be cut, and where the playout's events begin in the world's log
CribMark = tuple[int, list[int], bool, int]


def _crib_mark(game: Game, seat: int) -> CribMark:
    g: Any = game
    return g.hand_no, list(g.side_scores), g.starter is None, len(g.log)


def _crib_stop(game: Game, mark: CribMark) -> bool:
    return bool(game.hand_no != mark[0])  # type: ignore[attr-defined]


#: what the sides' scores after a hand are worth to a seat: (game, seat, scores, scores at the mark, next dealer)
CribWorth = Callable[[Game, int, list[int], list[int], int], float]


def _crib_margin(game: Game, seat: int, scores: list[int], start: list[int], dealer: int) -> float:
    """The hand's margin: the seat's side's points minus the mean of the others', ``CRIB_SCALE`` around 0.5."""
    gains = [float(a - b) for a, b in zip(scores, start, strict=True)]
    return _clip(0.5 + _margin(gains, seat, game.sides) / (2 * CRIB_SCALE))


def _crib_value(game: Game, seat: int, mark: CribMark, worth: CribWorth = _crib_margin) -> float:
    if game.is_over:
        return win_value(game, seat, mark)
    g: Any = game
    return worth(game, seat, g.side_scores, mark[1], g.dealer)  # the next hand is dealt: its dealer


#: the reasons of the score events a starter decides: his heels at the cut (CRIB-START-2) and the show's counts
_SHOWN = frozenset(("heels", "hand", "crib", "muggins"))


def _crib_starters_value(game: Game, seat: int, mark: CribMark, worth: CribWorth = _crib_margin) -> float:
    """``_crib_value`` averaged over every starter the world could have cut, when the decision came
    before the cut (a discard): the world's hands, crib and pegging as played, then for each card
    that no hand or crib holds, his heels and the show counted in order with that card as the
    starter (CRIB-START-2, CRIB-SHOW-1/2; the first side to the target wins, CRIB-END-1).

    The playout's starter is one draw of a chance node whose every outcome is cheap to score, and
    it swings the show by many points: averaging over them takes that noise out of the comparison
    of two discards in the same world (the pegging stays as played with the world's starter, which
    it hardly depends on). A decision after the cut, or a playout that ended before the show (a
    game won in the pegging or at the cut), is worth ``_crib_value``."""
    g: Any = game
    if not mark[2]:
        return _crib_value(game, seat, mark, worth)
    pegged = list(mark[1])  # the sides' scores at the show, but for his heels
    sets: list[tuple[int, bool, list[int]]] = []
    dealer = -1
    for e in g.log[mark[3]:]:
        kind = e["type"]
        if kind == "score" and e["reason"] not in _SHOWN:
            pegged[e["side"]] += e["points"]
        elif kind == "show":
            sets.append((e["owner"], e["crib"], [parse_card(name) for name in e["cards"]]))
        elif kind == "hand_start":
            break  # the next hand
    if g.is_over:
        if not g.show_order:
            return win_value(game, seat, mark)  # won in the pegging or at the cut
        dealer = g.show_order[-1][0]  # the crib's owner; the sets the game ended before showing are still held
        sets = [(owner, crib, list(g.crib if crib else g.kept[owner])) for owner, crib in g.show_order]
    elif sets:
        dealer = next(owner for owner, crib, _ in sets if crib)
    if len(sets) != g.players + 1:
        return _crib_value(game, seat, mark, worth)
    held = {c for _, _, cards in sets for c in cards}
    side_of = g.side_of
    mine = side_of[seat]
    target = g.target
    crib_five = g.crib_five
    next_dealer = (dealer + 1) % g.players
    score = fast_total  # the compiled core's scorer where built
    total = 0.0
    starters = [c for c in range(52) if c not in held]
    for starter in starters:
        scores = list(pegged)
        won = -1
        if RANK[starter] == JACK:
            scores[side_of[dealer]] += 2
            if scores[side_of[dealer]] >= target:
                won = side_of[dealer]
        for owner, crib, cards in sets:
            if won >= 0:
                break
            side = side_of[owner]
            scores[side] += score(cards, starter, crib and crib_five)
            if scores[side] >= target:
                won = side
        if won >= 0:
            total += 1.0 if won == mine else 0.0
        else:
            total += worth(game, seat, scores, mark[1], next_dealer)
    return total / len(starters)


def _kryp_cost(game: Any) -> list[int]:
    points = POINTS.__getitem__
    return [sum(map(points, pile)) + t for pile, t in zip(game.piles, game.transfers, strict=True)]


def _kryp_mark(game: Game, seat: int) -> tuple[int, int, list[int]]:
    g: Any = game
    return g.deal_no, g.packet, _kryp_cost(g)


def _kryp_stop(game: Game, mark: tuple[int, int, list[int]]) -> bool:
    g: Any = game
    return bool(g.deal_no != mark[0] or g.packet != mark[1])


def _kryp_value(game: Game, seat: int, mark: tuple[int, int, list[int]]) -> float:
    g: Any = game
    if g.is_over:
        return win_value(game, seat, mark)
    if g.deal_no != mark[0]:  # the deal ended: its scores are final (the piles are the next deal's)
        gains = [float(s - b) for s, b in zip(g.deal_scores[-1], mark[2], strict=True)]
    else:
        gains = [float(a - b) for a, b in zip(_kryp_cost(g), mark[2], strict=True)]
    return _clip(0.5 - _margin(gains, seat, game.sides) / (2 * KRYP_SCALE))


def _crib_claims(legal: list[str]) -> bool:
    return legal[0].startswith("claim")  # the heuristic claims the exact count: nothing to search (CRIB-COUNT-3)


def _crib_observed(game: Game, seat: int, log_since: int) -> Hashable:
    """What ``seat`` saw of a Cribbage hand since ``log_since``, for a search that chooses by information
    set (``SearchSpec.observed``): the events it received, a play by its rank alone (suits make no
    difference to the play, CRIB-PEG-2..6: worlds where the other seat played a 5 of either suit are
    one group), the points scored dropped (they follow from the ranks, CRIB-PEG-4..6)."""
    seen: list[Hashable] = []
    for e in events_for(game.log[log_since:], seat):
        if e["type"] == "play":
            seen.append(("play", e["seat"], RANK[parse_card(e["card"])]))
        elif e["type"] != "score":
            seen.append(repr(e))
    return tuple(seen)


#: how much less likely a Cribbage world is for each choice of another seat that the model would not have made
CRIB_MISS = 0.02


@functools.lru_cache(maxsize=4096)
def _model_discard(seat: int, players: int, dealer: int, sides: tuple[tuple[int, ...], ...],
                   hand: tuple[str, ...], n: int) -> frozenset[str]:
    """The ``n`` cards the heuristic discards from ``hand`` (dealt, in the engine's order) at
    ``seat``: all it reads is whether its side owns the crib (CRIB-DEAL-5). A world's redeal and its
    fit ask it for the same hand (``_crib_redeal``, ``_crib_fit``), so the second answer is remembered."""
    legal = ["discard " + " ".join(cs) for cs in itertools.combinations(hand, n)]
    view = {"sides": [list(members) for members in sides], "dealer": dealer, "hand": list(hand)}
    return frozenset(CribbageBot(seat, players, {}, 0)._discard(view, legal).split()[1:])


def _crib_fit(game: Game, seat: int, miss: float | None = None) -> float:
    """How likely the other seats' choices this hand are in the world ``game``, under the heuristic as
    a model of them: ``miss`` (default ``CRIB_MISS``) to the power of the choices it would have made
    otherwise.

    The knowledge sampler places the hidden cards uniformly among the placements that fit what the
    seat saw: it reads a go (CRIB-PEG-3) as the hard limit it is, but not a seat's choices as
    evidence. In a world, each other seat's dealt cards (its ``reveal``) and discards are the
    world's own, so the model is asked, with the view that seat had in that world, which cards it
    would have discarded (CRIB-DEAL-5: hidden from us, but fixed in each world) and which card it
    would have played at each of its turns with more than one playable card (CRIB-PEG-2); the
    choices read back from the world's log are what it did. A go is no choice (CRIB-PEG-3: the
    engine says it), nor are the clock's discards and plays (CRIB-ONL-2/3). A miss is only less
    likely, never impossible: people are not the heuristic. The weight reads the sampled world
    only (the seat's own imagination), never the true state.
    """
    g: Any = game if hasattr(game, "discards") else game._ref_now()  # type: ignore[attr-defined]  # a compiled game
    log = g.log
    start = _last(g, "hand_start")
    players = g.players
    sides = g.sides
    side_key = tuple(tuple(members) for members in sides)
    dealer = log[start]["dealer"]
    sizes = list(log[start]["sizes"])
    held: dict[int, list[str]] = {}  # every seat's cards in hand, in the engine's order
    discards: dict[int, list[str]] = {}
    played: list[list[Any]] = []
    series_start = count = misses = 0
    starter: str | None = None
    clock: set[int] = set()  # seats whose next discard or play is the clock's (CRIB-ONL-2/3)
    models: dict[int, CribbageBot] = {}
    for e in log[start:]:
        kind = e["type"]
        if kind == "reveal" and e.get("why") == "deal":
            held[e["seat"]] = list(e["cards"])
        elif kind == "timeout":
            clock.update(e["seats"])
        elif kind == "starter":
            starter = e["card"]
        elif kind == "reset":
            count, series_start = 0, len(played)
        elif kind in ("discard", "play"):
            who = e["seat"]
            hand = held[who]
            if kind == "discard":
                out = sorted(NAMES[c] for c in g.discards[who])
                # a discard always has a choice (CRIB-DEAL-5)
                if who != seat and who not in clock \
                        and _model_discard(who, players, dealer, side_key, tuple(hand), e["n"]) != frozenset(out):
                    misses += 1
            else:
                legal = ["play " + c for c in hand if count + VALUE[parse_card(c)] <= 31]
                if who != seat and who not in clock and len(legal) > 1:
                    model = models.get(who) or models.setdefault(who, CribbageBot(who, players, g.options))
                    view = {"players": players, "sides": sides, "dealer": dealer, "hand": hand,
                            "discards": discards.get(who, []), "starter": starter, "count": count,
                            "played": played, "series_start": series_start, "hand_sizes": sizes}
                    if model.choose(view, legal) != "play " + e["card"]:
                        misses += 1
            clock.discard(who)
            if kind == "discard":
                discards[who] = out
                held[who] = [c for c in hand if c not in out]
                sizes[who] -= len(out)
            else:
                held[who] = [c for c in hand if c != e["card"]]
                played.append([who, e["card"]])
                sizes[who] -= 1
                count = e["count"]
    return float((CRIB_MISS if miss is None else miss) ** misses)


def _crib_redeal(game: Game, seat: int) -> None:
    """Each other seat's discard this hand, hidden from ``seat`` (CRIB-DEAL-5, CRIB-DEAL-6), made in
    the world ``game`` the heuristic's choice from that seat's dealt cards, in place.

    The knowledge sampler splits another seat's hidden cards between its hand and the crib uniformly,
    as if it had discarded at random; a seat that discards for its own hand and crib keeps cards
    that score and throws others, so a uniform crib misjudges what our discard adds to it, and the
    hand our pegging meets. The discard is not seen, so the posterior of its dealt cards is the
    prior times the model's choice: drawing them uniformly (the sampler) and letting the model
    discard is drawing from it (the model deterministic). A seat that has played a card the model
    would have discarded keeps the world's split (the model does not explain it); a clock's discard
    (CRIB-ONL-2) is the rule's, not a choice; after the crib is shown nothing is hidden. Reads the
    world only (the seat's own imagination), never the true state."""
    g: Any = game if hasattr(game, "discards") else None
    if g is None or g.crib_shown:
        return
    log = g.log
    start = _last(g, "hand_start")
    head = log[start]
    dealt: dict[int, list[str]] = {}
    chosen: list[int] = []  # the seats whose discard was their own choice, in order
    clocked: set[int] = set()
    for e in log[start:]:
        kind = e["type"]
        if kind == "reveal" and e.get("why") == "deal":
            dealt[e["seat"]] = list(e["cards"])
        elif kind == "timeout":
            clocked.update(e["seats"])
        elif kind == "discard":
            who = e["seat"]
            if who not in clocked and who != seat:
                chosen.append(who)
            clocked.discard(who)
        elif kind == "starter":
            break
    started = g.starter is not None
    players = g.players
    side_key = tuple(tuple(members) for members in g.sides)
    for q in chosen:
        hand = dealt[q]
        chosen_out = _model_discard(q, players, head["dealer"], side_key, tuple(hand), len(g.discards[q]))
        out = [parse_card(c) for c in hand if c in chosen_out]  # in the hand's order, as the model names them
        old = g.discards[q]
        if set(out) == set(old):
            continue
        kept = [c for c in map(parse_card, hand) if c not in out]
        if started:
            played = set(g.kept[q]) - set(g.hands[q])
            if played & set(out):
                continue  # it played a card the model would have thrown: the world's split stands
            g.kept[q] = kept
            g.hands[q] = [c for c in kept if c not in played]
        else:
            g.hands[q] = kept
        g.discards[q] = out
        g.crib = [c for c in g.crib if c not in old] + out


def _crib_view(game: Game, seat: int) -> dict[str, Any]:
    """The part of ``seat``'s view the Cribbage heuristic reads (the whole view rebuilds the last
    hand's and this hand's counted sets, with their breakdowns, every time)."""
    g: Any = game
    started = bool(g.show_order)
    starter = None if g.starter is None else NAMES[g.starter]
    return {"seat": seat, "players": g.players, "dealer": g.dealer, "sides": g.sides,
            "options": {"crib_flush": g.options["crib_flush"]},
            "hand": [NAMES[c] for c in (g.kept[seat] if started else g.hands[seat])],
            "discards": [NAMES[c] for c in sorted(g.discards[seat])], "starter": starter, "count": g.count,
            "played": [] if started else [list(p) for p in g.played],
            "series_start": len(g.played) - len(g.series),
            "hand_sizes": [len(g.kept[s]) if started else len(g.hands[s]) for s in range(g.players)],
            "show": None if g.show is None else _public_show(g.show, starter)}


def crib_shortlist(size: int) -> Callable[[Bot, dict[str, Any], list[str]], list[str]]:
    """A spec's ``shortlist``: at a discard, the ``size`` best of the legal discards by the guide's own
    count (``CribbageBot.discard_values``: the kept cards' mean show and the crib's share over every
    starter), in the order of ``legal``; every option elsewhere. Fifteen discards halved from six
    worlds each drop good ones on a few worlds' noise; the guide's count orders them well enough to
    leave the search its few contenders, each in more worlds."""
    def shortlist(guide: Bot, view: dict[str, Any], legal: list[str]) -> list[str]:
        if len(legal) <= size or not legal[0].startswith("discard") or not isinstance(guide, CribbageBot):
            return legal
        values = guide.discard_values(view, legal)
        best = sorted(range(len(legal)), key=lambda i: -values[i])[:size]  # stable: ties in the order of legal
        return [legal[i] for i in sorted(best)]
    return shortlist


#: the lobby's Cribbage spec until 4 December 2026 (benches compare with it: ``search_variants.py cribbage plain``):
#: uniform worlds, each playout worth the hand as played. 400 playouts: p95 0.58 s of CPU a decision
#: (bench/search_decisions.py, load 5.7); on the same positions its overrides gain more than 180's
CRIB_PLAIN = SearchSpec(budget=400, mark=_crib_mark, stop=_crib_stop, value=_crib_value, trust=_crib_claims,
                        view=_crib_view, observed=_crib_observed)
#: the lobby's Cribbage spec since 4 December 2026: the others read as the heuristic would play (the module docstring);
#: its pool 1,024 since 6 December 2026. Heads-up decision CPU p50 0.355 s, p95 0.512 s, max 1.453 s over 39,765
#: decisions (bench/search_variants.py, two jobs, load ~2); the pool's draws and fits cost most of it
CRIB_READ = dataclasses.replace(CRIB_PLAIN, value=_crib_starters_value, refine=_crib_redeal, weigh=_crib_fit,
                                pool=1024, weigh_players=2, cluster_gate=True)
SPECS["cribbage"] = CRIB_READ


def _last(game: Game, kind: str) -> int:
    """Where the latest event of type ``kind`` is in ``game.log`` (0 if none)."""
    log = game.log
    for i in range(len(log) - 1, -1, -1):
        if log[i]["type"] == kind:
            return i
    return 0


def _kryp_history(game: Game) -> int:
    """Where the current deal begins: the Krypkasino heuristic keeps only the deal's public events."""
    return _last(game, "deal_start")


def _kryp_view(game: Game, seat: int) -> dict[str, Any]:
    """The part of ``seat``'s view the Krypkasino heuristic reads (the whole view copies the ledger
    and every pile: a seventh of a playout)."""
    g: Any = game
    return {"seat": seat, "players": g.players, "hand": [NAMES[c] for c in sorted(g.hands[seat])],
            "table": [NAMES[c] for c in sorted(g.table)], "hand_sizes": [len(h) for h in g.hands],
            "last_packet": g.last_packet, "spade_faces": [NAMES[c] for c in sorted(g.spade_faces)]}


SPECS["krypkasino"] = SearchSpec(budget=140, mark=_kryp_mark, stop=_kryp_stop, value=_kryp_value,
                                 history=_kryp_history, view=_kryp_view)


def _scores_mark(game: Game, seat: int) -> list[int]:
    return list(game.scores)


def _scores_changed(game: Game, mark: list[int]) -> bool:
    return game.scores != mark


def _low_margin_value(game: Game, seat: int, scores: list[int], scale: float) -> float:
    """The margin of the points gained since ``scores`` (lower is better), ±``scale`` ↦ 1..0; 1/0 if the game ended."""
    if game.is_over:
        return win_value(game, seat, scores)
    gains = [float(a - b) for a, b in zip(game.scores, scores, strict=True)]
    return _clip(0.5 - _margin(gains, seat, game.sides) / (2 * scale))


def _low_round_value(game: Game, seat: int, mark: list[int]) -> float:
    return _low_margin_value(game, seat, mark, ROUND_SCALE)


def _hand_no(game: Game) -> int:
    """Craits' hand number: the sampled worlds are reference games; a compiled one (``FastCraits``,
    e.g. a bench's true state) keeps it in its reference."""
    g: Any = game
    return int(g.hand_no if hasattr(g, "hand_no") else g._ref_now().hand_no)


def _hand_mark(game: Game, seat: int) -> tuple[int, list[int]]:
    return _hand_no(game), list(game.scores)


def _hand_ended(game: Game, mark: tuple[int, list[int]]) -> bool:
    """Craits: the hand is over (the next one dealt); a shuffle penalty within it is not its end (CRAITS-SHUF-2)."""
    return _hand_no(game) != mark[0]


def _low_hand_value(game: Game, seat: int, mark: tuple[int, list[int]]) -> float:
    return _low_margin_value(game, seat, mark[1], CRAITS_SCALE)


def _craits_view(game: Game, seat: int) -> dict[str, Any]:
    """The part of ``seat``'s view the Craits heuristic reads (the whole view copies the last
    hand's record every time)."""
    g: Any = game
    return {"hand": card_list(g.hands[seat]), "count": g.count or None, "turn": g.turn,
            "direction": _DIRS[g.direction], "hand_sizes": [len(h) for h in g.hands], "scores": list(g.totals),
            "options": {"face_card_functions": g.options["face_card_functions"]}}


SPECS["craits"] = SearchSpec(budget=60, mark=_hand_mark, stop=_hand_ended, value=_low_hand_value, view=_craits_view)


def _round_history(game: Game) -> int:
    """Where the current round begins in ``game.log`` (its ``round_start``): a playout ends with
    the round, and the Crisp heuristic forgets everything at a ``round_start`` anyway."""
    return _last(game, "round_start")


def _crisp_view(game: Game, seat: int) -> dict[str, Any]:
    """The part of ``seat``'s view the Crisp heuristic reads: the card in hand and the discard top."""
    g: Any = game
    return {"held": g.own_view(seat)["held"], "discard_top": NAMES[g.discard[-1]] if g.discard else None}


#: how much less likely a Crisp world is for each choice of another seat that the model would not have made
CRISP_MISS = 0.2


def _crisp_fit(game: Game, seat: int) -> float:
    """How likely the other seats' choices this round are in the world ``game``, under the heuristic
    as a model of them: ``CRISP_MISS`` to the power of the choices it would have made otherwise.

    The knowledge sampler is uniform over what is possible: it does not read the others' choices
    as evidence (a seat that swapped a drawn card in probably drew a low one; one that declined
    its crisp window probably holds more than its declaring limit). Weighting the worlds by this
    fit lets the search read them so. Each other seat's heuristic is fed that seat's events of
    the world's round, and asked, before each of its resolutions (CRISP-TURN-4, CRISP-SPEC-*)
    and crisp windows (CRISP-CALL-1), what it would do; the actions read back from the events
    are what the seat did. A miss is only less likely, never impossible: people are not the
    heuristic.
    """
    log = game.log
    start = _round_history(game)
    players = len(game.scores)
    models: dict[int, tuple[CrispHeuristic, int]] = {}
    source: dict[int, str] = {}
    misses = 0
    for i in range(start, len(log)):
        e = log[i]
        kind = e["type"]
        who = e.get("seat")
        if who is None or who == seat:
            continue
        if kind == "draw":
            source[who] = e["source"]
            continue
        if kind == "swap" or (kind == "discard" and e["why"] == "play") or kind == "queen" or kind == "crisp" \
                or (kind == "reveal" and e["why"] == "jack") or (kind == "window_close" and e["why"] == "decline"):
            if kind == "crisp" or kind == "window_close":
                legal, did = ["crisp", "decline"], "decline" if kind == "window_close" else "crisp"
            elif source.get(who) == "discard":
                legal, did = ["swap L", "swap C", "swap R"], f"swap {e['slot']}"
            else:
                legal, did = _crisp_resolutions(e, kind, players, who)
                if not legal:
                    continue
            model, fed = models.get(who) or (CrispHeuristic(who, players, {}), start)
            model.observe([x for x in log[fed:i] if x["to"] == "all" or who in x["to"]])
            models[who] = (model, i)
            if model.choose(None, legal) != did:
                misses += 1
    return float(CRISP_MISS ** misses)


def _crisp_resolutions(e: dict[str, Any], kind: str, players: int, who: int) -> tuple[list[str], str]:
    """The legal resolutions of the card a seat drew from the deck, and the one its event shows."""
    if kind == "swap":
        return ["swap L", "swap C", "swap R", "discard"], f"swap {e['slot']}"
    if kind == "queen":
        return ["discard", *queen_actions(players, who)], f"queen {e['slot']} {e['target']} {e['target_slot']}"
    if kind == "reveal":
        return ["discard", "jack"], "jack"
    rank = e["card"][:-1]
    if rank == "J":
        return ["discard", "jack"], "discard"
    if rank == "Q":
        return ["discard", *queen_actions(players, who)], "discard"
    if rank == "K":
        return [], ""  # a King from the deck is discarded only by the clock
    return ["swap L", "swap C", "swap R", "discard"], "discard"


#: what a seat's card is taken to be worth at most when it drew it from the deck and swapped it in for a card it
#: had not seen: the heuristic swaps such a slot (valued at the mean of the cards it cannot place, about 6.5) only
#: for a card below that mean by half a point
CRISP_UNSEEN_BOUND = 6


def _crisp_below(knowledge: Knowledge, rng: random.Random) -> Game:
    """A Crisp world whose cards the others drew from the deck and swapped in are each below the card it
    replaced, when that seat had seen it (``CRISP_UNSEEN_BOUND`` when not): the heuristic swaps a drawn
    card only into its worst slot, and only for a lower card (``CrispHeuristic.choose``). A model of the
    others, as ``_crisp_fit`` is, drawn directly instead of weighed, so no distinct world is lost: in 300
    four-player heuristic games such a card was worth 3.8 on average, 4.0 held to these bounds, 5.5 in the
    uniform worlds (docs/bots.md). Where the spec weighs its worlds (heads-up, by ``_crisp_fit``, which
    reads the same swaps and more), the search draws them uniform instead (``SearchSpec.draw``)."""
    assert isinstance(knowledge, CrispKnowledge)
    return knowledge.sample(rng, _crisp_swap_bounds(knowledge))


def _crisp_swap_bounds(knowledge: CrispKnowledge) -> dict[int, int]:
    """``_crisp_below``'s bounds: deal position -> the value its card is held to at most."""
    return {p: (CRISP_VALUE[out] - 1 if saw else CRISP_UNSEEN_BOUND)
            for p, (out, saw) in knowledge.fresh_swaps().items()}


def _crisp_below_kept(knowledge: Knowledge, rng: random.Random) -> Game:
    """``_crisp_below``, and each card another seat had been shown and kept while it let a card go at most
    the card let go: the heuristic discards a drawn card only if it is no lower than its worst slot, and swaps
    out its worst slot (``CrispHeuristic.choose``), so the cards it had seen and kept are no higher."""
    assert isinstance(knowledge, CrispKnowledge)
    return knowledge.sample(rng, _crisp_kept_bounds(knowledge))


def _crisp_kept_bounds(knowledge: CrispKnowledge) -> dict[int, int]:
    """``_crisp_below_kept``'s bounds: ``_crisp_below``'s, and each kept card's lowest card let go."""
    below = _crisp_swap_bounds(knowledge)
    for p, let_go in knowledge.kept_over().items():
        below[p] = min([below.get(p, 10), *(CRISP_VALUE[c] for c in let_go)])
    return below


#: what the heuristic takes a card it has not seen to be worth when it declares (the mean of the cards it cannot
#: place: 6.1 on average at 2,366 declarations of 300 four-player heuristic games, a scratch count)
CRISP_DECLARER_MEAN = 6


def _crisp_below_declared(knowledge: Knowledge, rng: random.Random) -> Game:
    """``_crisp_below_kept``, and the cards another seat declared with (CRISP-CALL-1) worth at most what the
    heuristic declares at: its seen cards' total at most ``CrispHeuristic.DECLARE`` (with its ``BOLDER``
    for each turn past the sixth) less ``CRISP_DECLARER_MEAN`` for each card it had not seen. In 98 % of
    those declarations the heuristic had seen all three of its cards."""
    assert isinstance(knowledge, CrispKnowledge)
    below = _crisp_kept_bounds(knowledge)
    declared = knowledge.declaration()
    if declared is None:
        return knowledge.sample(rng, below)
    _, hand, turns = declared
    limit = CrispHeuristic.DECLARE.get(knowledge.players, 6.0) + CrispHeuristic.BOLDER * max(0, turns - 6)
    seen = [p for p, shown in hand if shown]
    total = int(limit) - CRISP_DECLARER_MEAN * (len(hand) - len(seen))
    return knowledge.sample(rng, below, (seen, total))


# weighted heads-up only: with 4 players the weights left fewer distinct worlds than the gate counts; there the
# worlds are drawn from the model of the others' cards instead (module docstring)
SPECS["crisp"] = SearchSpec(budget=400, mark=_scores_mark, stop=_scores_changed, value=_low_round_value,
                            history=_round_history, view=_crisp_view, weigh=_crisp_fit, pool=64, weigh_players=2,
                            draw=_crisp_below_declared)
