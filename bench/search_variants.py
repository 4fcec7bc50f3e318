"""``search`` spec variants against heuristics, one line per game (paired by seed across variants).

Usage: ``python bench/search_variants.py GAME VARIANT --out FILE.jsonl [--players N] [--games G]
[--start K] [--seed S] [--jobs J] [--minutes M]``, then ``python bench/search_variants.py --summary
FILE.jsonl ... [--against A]``.

Plays the games of ``bench/search_strength.py GAME --paired`` (the same seeds,
``--games``/``--start``, seat rotation and runner, and the twin: heuristic in the searcher's seat on
the same deals; one search seat among N − 1 heuristics, 4 players for Crisp unless ``--players``, 2
for the others) with ``SPECS[GAME]`` swapped in each worker for a variant, for any game with a
search spec (``feltroom.bots.search.SPECS``: Crisp, Cribbage, Krypkasino, Craits). It appends per
game the searcher's share, the twin's, the decision CPU times, how often the search overrode its
guide per decision kind (the action's first word; Crisp's ``crisp`` and ``queen`` decisions apart;
the guide asked again from a copy taken before the search asked it, as a heuristic that breaks ties
by its rng, Krypkasino's, chooses alike only from the same state) and, for a weighted variant, each
weighted decision's effective number of worlds in its pool ((Σw)² / Σw²). A line's fields: ``name``
(the game), ``variant``, ``players``, ``seed``, ``game`` (its number in the seed's sequence),
``share``, ``twin``, ``cpu``, ``decisions``, ``overrides`` (kind → [overridden, kept]) and ``ess``.
Per game, not only in aggregate, so that two variants can be compared on the same games.

``--summary`` prints per game, players, seed and variant the win rate with its Wilson 95 %
interval, the twin's, the paired difference, the decision CPU, the overrides and the pools'
effective sizes, and with ``--against A`` each variant minus variant ``A`` on the games both
played (the same deals and seats). It reads the lines of the two scripts this one replaced as
well (``crisp_variants.py``'s had ``players`` but no ``name``, ``cribbage_variants.py``'s,
heads-up Cribbage, neither).

A variant is parts joined by ``+``, applied in order:

- every game: ``base`` (the lobby's spec), ``noweigh`` (no weighting: worlds from the knowledge, or
  the spec's ``draw``), ``fresh`` (``fresh_gate``), ``cluster`` (``cluster_gate``: a pool's world
  drawn again counted once), ``zX`` (``margin_z``), ``bX`` (budget), ``lookN`` (``lookahead``: the
  searching seat's next N choices in a playout the best for it in that world), ``plookN`` (the same
  at decisions whose first legal action is a ``play``), ``ilook1`` (at those decisions, the seat's
  next choice in a playout made by information set, ``SearchSpec.infoset``: the option that the
  other worlds where it saw the same, by the spec's ``observed``, Cribbage's the other seat's plays
  by rank, choose by the gate over the policy's choice, each world left out of its own choice; 1
  only);
- Cribbage: ``plain`` (its spec until 4 December 2026, ``search_games.CRIB_PLAIN``: uniform worlds,
  the hand's value as played; the ``base`` of the result files before then), ``weigh`` (worlds
  weighted by the other seat's choices from a pool of 64, heads-up, as ``CRIB_WEIGHED`` was; its miss
  factor then was ``miss0.25``), ``redeal`` (each other seat's hidden discard made the heuristic's
  choice in every world, ``search_games._crib_redeal``, the spec's ``refine``) and the values
  ``hand`` (the hand's margin as played, ``_crib_value``) and ``starters`` (the same averaged over
  every starter the world could cut, for a decision before the cut, ``_crib_starters_value``), and
  ``odds`` (the same, a hand's end worth the chance to win from its scores heads-up,
  ``cribbage_odds.py``), ``guide`` (the search's guide ``cribbage_guide.CribbageGuide``, its heads-up
  discards counting the whole crib, instead of the heuristic);
- Crisp and Cribbage: ``guide`` (the search's guide: Crisp's ``CrispGuide``, Cribbage's above) and
  ``guideplays`` (the same guide, which also plays the searching seat in the playouts,
  ``SearchSpec.guide_plays``); Crisp: ``reader`` and ``readerplays`` (the same with ``CrispReader``,
  which reads the others' choices into bounds on their cards);
- a variant that weighs its worlds (Crisp's spec does, heads-up): ``weighN`` (worlds weighted at
  tables of up to N players, ``weigh_players``; ``weigh8`` is the Crisp spec before it was 2),
  ``poolN`` (the pool), and for Crisp and Cribbage ``missX`` (the weighting's miss factor,
  ``CRISP_MISS`` or ``CRIB_MISS``, for every table);
- Crisp: ``windowxN`` (its crisp windows, whether to declare, searched at N times the budget,
  ``SearchSpec.spend``) and ``queenxN`` (its Queen decisions, whom to swap with, likewise);
  ``trustqueen`` and ``trustswap`` (its Queen decisions, or its swaps: which slot a drawn card goes
  to, or whether to discard it; played as the guide chooses, unsearched, ``SearchSpec.trust``);
  ``below`` (its worlds' cards another seat drew and swapped in held below the cards they replaced,
  ``search_games._crisp_below``, ``SearchSpec.draw``); ``kept`` (the same, and the cards another seat
  had seen and kept while it let a card go held at most that card, ``search_games._crisp_below_kept``);
  ``declared`` (``kept``, and the cards another seat declared with worth at most what the heuristic
  declares at, ``search_games._crisp_below_declared``);
- any game: ``trustall`` (every decision the guide's, unsearched: with ``guide``, the guide alone on the
  same games);
- Cribbage: ``topN`` (at a discard, only the guide's N best discards by its own count searched,
  ``search_games.crib_shortlist``, ``SearchSpec.shortlist``);
- Crisp and Craits: ``scaleX``, the points of a round's (hand's) margin that move a playout's value
  from 0.5 to 0 or 1 (``ROUND_SCALE``, ``CRAITS_SCALE``);
- Crisp's values: ``mean`` (the round's margin against the others' mean, ``_low_round_value``),
  ``best`` (against the lowest round gain of the others), ``lead`` (the change of the deficit to
  the lowest other total), ``winp`` (a win probability from the totals after the round, each other
  seat's lead over the rounds left taken as normal).

A part that is unknown or does not apply to the game is refused, by name, before any game starts.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import copy
import dataclasses
import json
import math
import random
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cribbage_odds
import search_strength
from cribbage_guide import CribbageGuide
from feltroom.bots import search_games
from feltroom.bots.base import Bot
from feltroom.bots.crisp import CrispGuide, CrispReader
from feltroom.bots.search import SPECS, SearchBot, SearchSpec, win_value
from feltroom.cli.ladder import wilson
from feltroom.game import Game
from feltroom.knowledge import Knowledge

#: 4 heuristics: the standard deviation of two seats' round score difference, and the highest total's growth a round
PAIR_SD = 8.4
GROWTH = 12.0


def _others(values: list[int] | list[float], seat: int) -> list[float]:
    return [float(v) for i, v in enumerate(values) if i != seat]


def best_value(game: Game, seat: int, mark: list[int]) -> float:
    """The round's margin against the other seat that gained least (lower is better)."""
    if game.is_over:
        return win_value(game, seat, mark)
    gains = [float(a - b) for a, b in zip(game.scores, mark, strict=True)]
    return search_games._clip(0.5 - (gains[seat] - min(_others(gains, seat))) / (2 * search_games.ROUND_SCALE))


def lead_value(game: Game, seat: int, mark: list[int]) -> float:
    """How much the round changed the seat's deficit to the lowest other total."""
    if game.is_over:
        return win_value(game, seat, mark)
    scores = game.scores
    before = mark[seat] - min(_others(mark, seat))
    after = scores[seat] - min(_others(scores, seat))
    return search_games._clip(0.5 - (after - before) / (2 * search_games.ROUND_SCALE))


def winp_value(game: Game, seat: int, mark: list[int]) -> float:
    """A win probability from the totals after the round (each other seat's lead over the rounds left
    is normal, independently)."""
    if game.is_over:
        return win_value(game, seat, mark)
    scores = game.scores
    left = max(1.0, (game.end_limit - max(scores)) / GROWTH)  # type: ignore[attr-defined]
    sd = PAIR_SD * math.sqrt(left)
    p = 1.0
    for other in _others(scores, seat):
        p *= 0.5 * (1 + math.erf((other - scores[seat]) / sd / math.sqrt(2)))
    return p


#: game -> its value parts (Crisp's)
VALUES: dict[str, dict[str, Callable[[Game, int, Any], float]]] = {
    "crisp": {"mean": search_games._low_round_value, "best": best_value, "lead": lead_value, "winp": winp_value},
    "cribbage": {"hand": search_games._crib_value, "starters": search_games._crib_starters_value,
                 "odds": cribbage_odds.odds_value},
}
#: game -> its spec before the lobby's (``plain``: Cribbage's until 4 December 2026)
PLAIN: dict[str, SearchSpec] = {"cribbage": search_games.CRIB_PLAIN}
#: game -> a weighted alternative to its ``plain`` spec (``weigh``: as ``CRIB_WEIGHED`` was, 64 samples, heads-up)
WEIGHED: dict[str, SearchSpec] = {
    "cribbage": dataclasses.replace(search_games.CRIB_PLAIN, weigh=search_games._crib_fit, pool=64, weigh_players=2)}
#: game -> how its worlds are refined by the model (``redeal``: Cribbage's hidden discards the heuristic's)
REFINE: dict[str, Callable[[Game, int], None]] = {"cribbage": search_games._crib_redeal}
#: variant part -> game -> a guide stronger than its playout policy (``guide``: Cribbage's discards counting the
#: whole crib, Crisp's ``CrispGuide``; ``reader``: Crisp's ``CrispReader``); the part with ``plays`` appended
#: (``guideplays``, ``readerplays``) also plays the searching seat in the playouts
GUIDES: dict[str, dict[str, type[Bot]]] = {"guide": {"cribbage": CribbageGuide, "crisp": CrispGuide},
                                           "reader": {"crisp": CrispReader}}
#: Crisp's models of the others' cards (``SearchSpec.draw``), by variant part
CRISP_DRAWS: dict[str, Callable[[Knowledge, random.Random], Game]] = {
    "below": search_games._crisp_below, "kept": search_games._crisp_below_kept,
    "declared": search_games._crisp_below_declared}
#: game -> its shortlist of options for a size (``topN``: Cribbage's discards, the guide's best N by its count)
SHORTLISTS: dict[str, Callable[[int], Callable[[Bot, dict[str, Any], list[str]], list[str]]]] = {
    "cribbage": search_games.crib_shortlist}
#: game -> the name of its weighting's miss factor in ``search_games`` (``missX``)
MISS: dict[str, str] = {"crisp": "CRISP_MISS", "cribbage": "CRIB_MISS"}
#: game -> the name of its playout value's scale in ``search_games`` (``scaleX``)
SCALE: dict[str, str] = {"crisp": "ROUND_SCALE", "craits": "CRAITS_SCALE"}
#: game -> the players of a table unless ``--players`` (Crisp's script played 4)
PLAYERS: dict[str, int] = {"crisp": 4}

_NUMBER = r"(\d+(?:\.\d*)?|\.\d+)"
#: a part with a number: pattern -> the spec field it sets ("miss", "scale": a constant of ``search_games``), its type
_NUMBERED: list[tuple[re.Pattern[str], str, type]] = [
    (re.compile(r"weigh(\d+)"), "weigh_players", int),
    (re.compile(r"pool(\d+)"), "pool", int),
    (re.compile(r"miss" + _NUMBER), "miss", float),
    (re.compile(r"scale" + _NUMBER), "scale", float),
    (re.compile(r"z" + _NUMBER), "margin_z", float),
    (re.compile(r"b(\d+)"), "budget", int),
    (re.compile(r"look(\d+)"), "lookahead", int),
    (re.compile(r"plook(\d+)"), "play_lookahead", int),
    (re.compile(r"ilook(\d+)"), "infoset_lookahead", int),
    (re.compile(r"windowx(\d+)"), "window_spend", int),
    (re.compile(r"queenx(\d+)"), "queen_spend", int),
    (re.compile(r"top(\d+)"), "shortlist", int),
]


def _numbered(part: str) -> tuple[str, float] | None:
    """A part with a number: the spec field (or constant) it sets and its number; None if not one."""
    for pattern, field, kind in _NUMBERED:
        if match := pattern.fullmatch(part):
            return field, kind(match[1])
    return None


def _spend_at(kind: str, times: int) -> Callable[[list[str]], int]:
    """A spec's ``spend``: ``times`` the budget at Crisp's decisions of ``kind`` (``kind_of``: ``crisp``, a
    crisp window, or ``queen``), 1 elsewhere."""
    def spend(legal: list[str]) -> int:
        return times if kind_of("crisp", legal) == kind else 1
    return spend


def _trusting(kind: str) -> Callable[[list[str]], bool]:
    """A spec's ``trust``: Crisp's decisions of ``kind`` (``kind_of``: ``queen``, ``swap``) played as the guide
    chooses, unsearched."""
    def trust(legal: list[str]) -> bool:
        return kind_of("crisp", legal) == kind
    return trust


def _looking(depth: int, plays_only: bool) -> Callable[[list[str]], int]:
    """A spec's ``lookahead``: ``depth`` at every decision, or only at those whose first action is a ``play``."""
    def lookahead(legal: list[str]) -> int:
        return depth if not plays_only or legal[0].startswith("play") else 0
    return lookahead


class VariantError(ValueError):
    """A variant part that is unknown or does not apply to the game."""


def make(name: str, variant: str) -> tuple[SearchSpec, dict[str, float]]:
    """The spec of ``variant`` for game ``name``, and the constants of ``search_games`` it sets (the
    miss factor, the value's scale)."""
    if name not in SPECS:
        raise VariantError(f"no search spec for game {name!r}: {', '.join(sorted(SPECS))}")
    spec = SPECS[name]
    constants: dict[str, float] = {}
    weighing: list[str] = []  # the parts that need a weighted spec
    for part in variant.split("+"):
        if part == "base":
            continue
        if part == "plain":
            if name not in PLAIN:
                raise VariantError(f"variant part 'plain': only {', '.join(sorted(PLAIN))} has it, not {name}")
            spec = PLAIN[name]
            continue
        if part in VALUES.get(name, {}):
            spec = dataclasses.replace(spec, value=VALUES[name][part])
        elif any(part in values for values in VALUES.values()):
            games = ", ".join(g for g in VALUES if part in VALUES[g])
            raise VariantError(f"variant part {part!r} is a value of {games} only, not of {name}")
        elif part == "noweigh":
            spec = dataclasses.replace(spec, weigh=None, pool=0)
        elif part == "weigh":
            if name not in WEIGHED:
                already = " (its spec already weighs its worlds: weighN, poolN, missX or noweigh)" \
                    if SPECS[name].weigh is not None else ""
                raise VariantError(f"variant part 'weigh': {name} has no weighted alternative{already}; "
                                   f"only {', '.join(sorted(WEIGHED))} has")
            weighed = WEIGHED[name]
            spec = dataclasses.replace(spec, weigh=weighed.weigh, pool=weighed.pool,
                                       weigh_players=weighed.weigh_players)
        elif part == "redeal":
            if name not in REFINE:
                raise VariantError(f"variant part 'redeal': only {', '.join(sorted(REFINE))} has it, not {name}")
            spec = dataclasses.replace(spec, refine=REFINE[name])
        elif part.removesuffix("plays") in GUIDES:
            guides = GUIDES[part.removesuffix("plays")]
            if name not in guides:
                raise VariantError(f"variant part {part!r}: only {', '.join(sorted(guides))} has it, not {name}")
            spec = dataclasses.replace(spec, guide=guides[name], guide_plays=part.endswith("plays"))
        elif part in CRISP_DRAWS:
            if name != "crisp":
                raise VariantError(f"variant part {part!r}: Crisp's fresh cards only")
            spec = dataclasses.replace(spec, draw=CRISP_DRAWS[part])
        elif part == "trustall":
            spec = dataclasses.replace(spec, trust=lambda legal: True)
        elif part in ("trustqueen", "trustswap"):
            if name != "crisp":
                raise VariantError(f"variant part {part!r}: Crisp's Queens and swaps only")
            spec = dataclasses.replace(spec, trust=_trusting(part.removeprefix("trust")))
        elif part == "fresh":
            spec = dataclasses.replace(spec, fresh_gate=True)
        elif part == "cluster":
            spec = dataclasses.replace(spec, cluster_gate=True)
        else:
            numbered = _numbered(part)
            if numbered is None:
                raise VariantError(f"unknown variant part {part!r}" + (f" (of {variant!r})" if part != variant else ""))
            field, number = numbered
            if field in ("lookahead", "play_lookahead"):
                spec = dataclasses.replace(spec, lookahead=_looking(int(number), field == "play_lookahead"))
            elif field == "infoset_lookahead":
                if number != 1:
                    raise VariantError(f"variant part {part!r}: the lookahead by information set is one "
                                       "decision, ilook1")
                spec = dataclasses.replace(spec, lookahead=_looking(1, True), infoset=True)
            elif field == "shortlist":
                if name not in SHORTLISTS:
                    raise VariantError(f"variant part {part!r}: only {', '.join(sorted(SHORTLISTS))} has a shortlist")
                spec = dataclasses.replace(spec, shortlist=SHORTLISTS[name](int(number)))
            elif field in ("window_spend", "queen_spend"):
                if name != "crisp":
                    raise VariantError(f"variant part {part!r}: the crisp windows and the Queens are Crisp's")
                spec = dataclasses.replace(spec, spend=_spend_at("crisp" if field == "window_spend" else "queen",
                                                                 int(number)))
            elif field in ("miss", "scale"):
                names, what = (MISS, "miss factor") if field == "miss" else (SCALE, "value scale")
                if name not in names:
                    raise VariantError(f"variant part {part!r}: {name} has no {what}; "
                                       f"only {', '.join(sorted(names))} have")
                constants[names[name]] = number
            else:
                changes: dict[str, Any] = {field: number}
                spec = dataclasses.replace(spec, **changes)
            if field in ("miss", "weigh_players", "pool"):
                weighing.append(part)
    if weighing and (spec.weigh is None or spec.pool < 1):
        raise VariantError(f"variant part {weighing[0]!r}: variant {variant!r} of {name} weighs no worlds"
                           + (" (add weigh before it)" if name in WEIGHED else ""))
    return spec, constants


#: in a worker, since the last game: (kind, overridden) -> decisions; and the weighted pools' effective sizes
COUNTS: collections.Counter[tuple[str, bool]] = collections.Counter()
ESS: list[float] = []


def kind_of(name: str, legal: list[str]) -> str:
    """A decision's kind: the first word of its first legal action, Crisp's crisp and Queen decisions apart."""
    if name == "crisp":
        if "crisp" in legal:
            return "crisp"
        if any(a.startswith("queen") for a in legal):
            return "queen"
    return legal[0].split(" ", 1)[0]


def set_constants(constants: dict[str, float]) -> dict[str, float]:
    """Set ``search_games``' constants to a variant's (``make``'s second value); their values before."""
    before = {constant: getattr(search_games, constant) for constant in constants}
    for constant, number in constants.items():
        setattr(search_games, constant, number)
    return before


@contextlib.contextmanager
def constants_set(constants: dict[str, float]) -> Iterator[None]:
    """``search_games``' constants set to a variant's for a while (the weighting's miss factor)."""
    before = set_constants(constants)
    try:
        yield
    finally:
        set_constants(before)


def init(name: str, variant: str) -> None:
    """A worker: the variant's spec, the search's overrides counted and its pools' effective sizes kept."""
    spec, constants = make(name, variant)
    set_constants(constants)
    weigh = spec.weigh
    if weigh is not None:
        pool: list[float] = []

        def spy(world: Any, seat: int) -> float:
            w = weigh(world, seat)
            pool.append(w)
            if len(pool) == spec.pool:
                ESS.append(sum(pool) ** 2 / sum(x * x for x in pool) if any(pool) else 0.0)
                pool.clear()
            return w

        spec = dataclasses.replace(spec, weigh=spy)
    SPECS[name] = spec
    real = SearchBot.choose

    def choose(self: SearchBot, view: dict[str, Any] | None, legal: list[str]) -> str:
        if len(legal) == 1:
            return real(self, view, legal)
        # copied before the search asks it: a heuristic that breaks ties by its rng (Krypkasino's) chooses alike
        # only from the same state
        guide = copy.deepcopy(self.guide)
        action = real(self, view, legal)
        COUNTS[(kind_of(name, legal), action != guide.choose(view, legal))] += 1
        return action

    SearchBot.choose = choose  # type: ignore[method-assign]


#: one game's result, its overrides per kind ([overridden, kept]) and its pools' effective sizes
Played = tuple[search_strength.Result, dict[str, list[int]], list[float]]


def game(name: str, seed: int, hero: int, players: int) -> Played:
    result = search_strength.play(name, seed, hero, None, None, True, players)
    kinds: dict[str, list[int]] = {}
    for (kind, over), n in COUNTS.items():
        kinds.setdefault(kind, [0, 0])[0 if over else 1] += n
    COUNTS.clear()
    ess = list(ESS)
    ESS.clear()
    return result, kinds, ess


def _diff(d: list[float]) -> str:
    n = len(d)
    m, se = search_strength.mean_se(d)
    return f"{m:+.1%} (standard error {se:.1%}; 95 % ± {1.96 * se:.1%}; differ in {sum(1 for x in d if x)} of {n})"


def _guided(variant: str) -> bool:
    """Whether ``variant`` searches over a guide other than its policy level's (a ``GUIDES`` part, with or
    without ``plays``): then a game without overrides is the guide's, not its twin's."""
    return any(part.removesuffix("plays") in GUIDES for part in variant.split("+"))


def override_worth(rows: list[dict[str, Any]]) -> list[tuple[str, float, float, int]]:
    """What one override of each kind changed a game's result, on average: (kind, worth, its standard
    error, overrides), least squares over the games of share − twin = Σ worth_k · overrides_k.

    Through the origin: the twin is ``heuristic`` on the same deals, and a search that overrides
    nothing plays exactly its guide's game (every such game of the result files has share = twin), so
    a game's difference is what its overrides made of it. Kinds never overridden are left out. The
    worth is that of the overrides the search made (the gate's most confident), not of more of them.

    >>> rows = [{"share": 1.0, "twin": 0.0, "overrides": {"a": [2, 5], "b": [0, 3]}},
    ...         {"share": 0.0, "twin": 1.0, "overrides": {"a": [0, 5], "b": [1, 3]}},
    ...         {"share": 0.5, "twin": 0.0, "overrides": {"a": [1, 5], "b": [0, 3]}},
    ...         {"share": 0.0, "twin": 0.0, "overrides": {"a": [0, 5], "b": [0, 3], "c": [0, 1]}}]
    >>> [(k, round(w, 3), n) for k, w, _, n in override_worth(rows)]
    [('a', 0.5, 3), ('b', -1.0, 1)]
    """
    kinds = sorted({k for r in rows for k, (o, _) in r["overrides"].items() if o})
    x = [[float(r["overrides"].get(k, (0, 0))[0]) for k in kinds] for r in rows]
    y = [r["share"] - r["twin"] for r in rows]
    m = len(kinds)
    if not m or len(rows) <= m:
        return []
    gram = [[sum(row[i] * row[j] for row in x) for j in range(m)] for i in range(m)]
    inverse = _inverse(gram)
    if inverse is None:
        return []
    xy = [sum(row[i] * t for row, t in zip(x, y, strict=True)) for i in range(m)]
    worth = [sum(inverse[i][j] * xy[j] for j in range(m)) for i in range(m)]
    residual = sum((t - sum(w * v for w, v in zip(worth, row, strict=True))) ** 2 for row, t in zip(x, y, strict=True))
    variance = residual / (len(rows) - m)
    return [(k, worth[i], math.sqrt(max(0.0, variance * inverse[i][i])), int(sum(row[i] for row in x)))
            for i, k in enumerate(kinds)]


def _inverse(a: list[list[float]]) -> list[list[float]] | None:
    """The inverse of the square matrix ``a`` by Gauss–Jordan elimination (None if it is singular)."""
    n = len(a)
    work = [[*row, *(1.0 if i == j else 0.0 for j in range(n))] for i, row in enumerate(a)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(work[r][c]))
        if abs(work[pivot][c]) < 1e-12:
            return None
        work[c], work[pivot] = work[pivot], work[c]
        lead = work[c][c]
        work[c] = [v / lead for v in work[c]]
        for r in range(n):
            if r != c and work[r][c]:
                factor = work[r][c]
                work[r] = [v - factor * w for v, w in zip(work[r], work[c], strict=True)]
    return [row[n:] for row in work]


def _name(row: dict[str, Any]) -> str:
    """A line's game: written since this script; before, Crisp's lines alone had ``players``."""
    return str(row.get("name") or ("crisp" if "players" in row else "cribbage"))


def summary(paths: list[str], against: str | None) -> None:
    groups: dict[tuple[str, int, int, str], dict[int, dict[str, Any]]] = collections.defaultdict(dict)
    for path in paths:
        for line in Path(path).read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                groups[(_name(row), row.get("players", 2), row["seed"], row["variant"])][row["game"]] = row
    if against and not any(variant == against for *_, variant in groups):
        sys.exit(f"--against {against}: no such variant in {', '.join(paths)}")
    for (name, players, seed, variant), rows in sorted(groups.items()):
        n = len(rows)
        wins = sum(r["share"] for r in rows.values())
        lo, hi = wilson(wins, n)
        times = sorted(t for r in rows.values() for t in r["decisions"]) or [float("nan")]
        over: dict[str, list[int]] = {}
        for r in rows.values():
            for kind, (o, k) in r["overrides"].items():
                over.setdefault(kind, [0, 0])
                over[kind][0] += o
                over[kind][1] += o + k
        ess = sorted(x for r in rows.values() for x in r.get("ess", []))
        twin = sum(r["twin"] for r in rows.values()) / n
        line = (f"{name} {variant} ({players} players, seed {seed}): {n} games {wins / n:.1%} "
                f"(Wilson 95 % {lo:.1%}–{hi:.1%}); heuristic in its seat {twin:.1%}, "
                f"search − heuristic {_diff([r['share'] - r['twin'] for r in rows.values()])}; "
                f"decisions p50 {times[len(times) // 2]:.3f} s, p95 {times[int(0.95 * len(times))]:.3f} s, "
                f"max {times[-1]:.3f} s of CPU over {len(times)}; overrides "
                + ", ".join(f"{k} {o}/{t}" for k, (o, t) in sorted(over.items())))
        if ess:
            line += (f"; effective worlds per pool median {ess[len(ess) // 2]:.1f}, p10 {ess[len(ess) // 10]:.1f}, "
                     f"min {ess[0]:.1f} over {len(ess)} decisions")
        print(line)
        # the least squares reads a game without overrides as its twin's: only where the guide is the heuristic
        worth = override_worth(list(rows.values())) if not _guided(variant) else []
        if worth:
            print("  one override's worth to the game's result (least squares through 0 of search − heuristic): "
                  + ", ".join(f"{k} {w:+.1%} (standard error {se:.1%}; {n} overrides)" for k, w, se, n in worth))
        base = groups.get((name, players, seed, against)) if against else None
        if base and variant != against:
            both = sorted(set(rows) & set(base))
            if len(both) > 1:
                print(f"  {variant} − {against} on the same {len(both)} games: "
                      f"{_diff([rows[g]['share'] - base[g]['share'] for g in both])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", help=f"a game with a search spec: {', '.join(sorted(SPECS))}")
    parser.add_argument("variant", nargs="?", help="parts joined by + (the module's docstring)")
    parser.add_argument("--out")
    parser.add_argument("--players", type=int, default=None, help="one search seat among PLAYERS - 1 heuristics "
                        f"(default {', '.join(f'{p} for {g}' for g, p in PLAYERS.items())}, otherwise 2)")
    search_strength.run_arguments(parser)
    parser.add_argument("--summary", nargs="+", metavar="FILE")
    parser.add_argument("--against", help="with --summary: each variant minus this one on the same games")
    args = parser.parse_args()
    if args.summary:
        if args.game:
            parser.error("--summary takes files, not a game and variant")
        summary(args.summary, args.against)
        return
    if not args.game or not args.variant or not args.out:
        parser.error("a game, a variant and --out, or --summary")
    try:
        make(args.game, args.variant)  # fails here, not in a worker
    except VariantError as e:
        parser.error(str(e))
    players = args.players or PLAYERS.get(args.game, 2)
    seeds = search_strength.game_seeds(args.seed, args.games)
    with open(args.out, "a") as out:
        def ended(g: int, played: Played) -> None:
            (share, cpu, decisions, twin), kinds, ess = played
            out.write(json.dumps({"name": args.game, "variant": args.variant, "players": players,
                                  "seed": args.seed, "game": g, "share": share, "twin": twin,
                                  "cpu": round(cpu, 3), "decisions": [round(t, 4) for t in decisions],
                                  "overrides": kinds, "ess": [round(x, 1) for x in ess]}) + "\n")
            out.flush()

        search_strength.run_games(game, lambda g: (args.game, seeds[g], g % players, players),
                                  range(args.start, args.games), args.jobs, args.minutes, ended,
                                  initializer=init, initargs=(args.game, args.variant))


if __name__ == "__main__":
    main()
