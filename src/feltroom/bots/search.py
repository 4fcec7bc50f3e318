"""The ``search`` level: determinized Monte Carlo search over states drawn from what the seat knows.

A search bot keeps a ``feltroom.knowledge`` tracker for its seat, fed with the same events
and view as any bot (never the state). To choose, it spends a budget of playouts by
sequential halving over its legal actions: in each round it draws fresh states from the
tracker (determinizations: the hidden cards placed uniformly among the placements that fit
what the seat saw), plays every action still in the running in each of them — the same
worlds and the same playout seeds for every action, so that their comparison is not drowned
in the deal's luck — with the game's heuristic bot playing every seat from there to the
game's horizon, then keeps the better half, never dropping the heuristic's own choice. At
the end the best mean is played only if its advantage over the heuristic's choice, world by
world, is significant (``gate``); otherwise the heuristic's choice stands. This is flat single-observer
information-set Monte Carlo: the statistics are kept per action of the seat's information
set, each playout in a world sampled from it, so the bot never averages over a world it
could rule out.

Decided here:

- a playout's bots are the imagined world's: they are fed that world's views and events
  (the sampled state is the bot's own imagination, so nothing leaks);
- a game's ``SearchSpec`` (``bots/search_games.py``) says where a playout stops and what it is
  worth; a game without one plays to the end and scores a win 1, a shared win 1/k, a loss 0;
- the search improves on its guide or plays as it: the guide's choice survives every halving,
  and the best action replaces it only when its paired advantage over the shared worlds is
  above ``margin_z`` standard errors (the rollout algorithm's one-step improvement, kept from
  throwing a good choice out on the noise of a few worlds);
- the budget counts playouts, so a decision is a function of the bot's seed and what it
  saw, whatever the machine; the lobby's budget per game is the spec's, chosen so that a
  decision takes at most 1 s at the 95th percentile on one core (``bench/search_decisions.py``);
- the level exists for every game with a registered knowledge tracker: a game gains it by
  gaining a ``<game>_knowledge`` module, nothing here changes; at a table its tracker refuses
  (``ValueError`` when built: two-deck Craits while its sampler is off) the bot plays as its
  guide, and at a decision where the tracker's bounded search for a history gives up
  (``feltroom.knowledge.NoHistory``, two-deck Craits) it plays its guide's choice for that
  decision (``fallbacks`` counts them; a two-deck Craits tracker that gave up goes on giving up for
  the rest of that hand); any other exception is a bug and propagates.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..game import CLOCK, Event, Game
from ..knowledge import KNOWLEDGE, Knowledge, NoHistory, tracker
from ..views import events_for
from .base import BOTS, Bot, register_bot

DEFAULT_BUDGET = 40


def win_value(game: Game, seat: int, start: Any) -> float:
    """A finished game's worth to ``seat``: 1 for a win, 1/k for a win shared by k sides, 0 for a loss."""
    winners = game.winners
    if seat not in winners:
        return 0.0
    sides = [side for side in game.sides if set(side) & set(winners)]
    return 1.0 / max(1, len(sides))


def _whole_view(game: Game, seat: int) -> dict[str, Any]:
    """What a playout bot reads when the spec has no ``view`` of its own: the seat's whole view."""
    return game.view(seat)


def seen_events(game: Game, seat: int, since: int) -> Hashable:
    """The events of ``game``'s log from ``since`` on that ``seat`` received (their repr): what it
    saw, the key of its information set among worlds that agreed up to ``since``."""
    return repr(events_for(game.log[since:], seat))


class Branch(NamedTuple):
    """A playout stopped at the searching seat's next decision with options (``infoset``): what the
    seat saw since the root (``key``), its ``options``, the policy's choice there (``first``) and
    the value of playing on from each option (``values``, in the order of ``options``)."""

    key: Hashable
    options: tuple[str, ...]
    first: str
    values: tuple[float, ...]


@dataclass(frozen=True)
class SearchSpec:
    """How the search plays one game.

    ``mark(game)`` is taken before a playout; ``stop(game, mark)`` ends the playout early (the
    horizon; the game's end always ends it); ``value(game, seat, mark)`` is what the playout's
    end is worth to ``seat``, in [0, 1]; ``history(game)`` is where, in the imagined world's
    log, the playout bots' memory begins (0: the whole log); ``policy`` is the playout
    level; ``guide``, if set, the class of the bot whose choice the search must beat (otherwise the
    policy level's bot); ``budget`` the lobby's playouts per decision; ``trust(legal)`` says the guide's choice
    is played unsearched; the best action replaces the guide's only if its mean paired
    advantage is above ``margin_z`` standard errors over at least ``min_worlds`` worlds (``gate``);
    with ``fresh_gate`` the test reads only the last halving round's worlds (fresh ones, which did
    not take part in choosing the best: its earlier worlds chose it, so their mean is biased up);
    with ``cluster_gate`` it counts a weighted pool's world drawn again as the same world, not as
    another pair (``gate``'s ``worlds``; worlds straight from the knowledge are all distinct).
    ``view(game, seat)``, if set, is what the playout bots read instead of the whole view (the
    part their policy uses); with ``weigh(world, seat)`` and ``pool``, a decision draws ``pool``
    samples and plays worlds drawn from them in proportion to their weights (how likely the
    others' choices make each world: Crisp, ``search_games._crisp_fit``), at tables of at most
    ``weigh_players`` players; larger ones draw their worlds unweighted (from the knowledge, or by ``draw``).
    ``refine(world, seat)``, if set, changes each world drawn (in place) before it is weighed or
    played: where the knowledge leaves a hidden choice of another seat free (Cribbage's discards),
    the model's choice in that world (``search_games._crib_redeal``); it reads the world only.
    ``lookahead(legal)`` > 0 at a decision: in its playouts, the searching seat's next that many
    choices with more than one legal action are not its policy's but the best for it in that world,
    each option played out (a world-specific choice: it sees the world's hidden cards, as
    perfect-information Monte Carlo does; the cost grows with the options).
    With ``infoset``, that choice is made by information set instead (one decision: a lookahead
    above 1 counts as 1): each playout plays on to the seat's next decision with options (the
    horizon or the end may come first), keys it by ``observed(world, seat, log_since)``, what the
    seat saw since the root action (the world's log held ``log_since`` entries just after it;
    default: the seat's events since, ``seen_events``; equal keys must mean the same information
    set, or one the game treats alike),
    asks the policy's choice there and plays every option on from a copy with the same seed. Then,
    per root action, the playouts with the same key and options are one group, and a playout's
    value is its world's value of the option the group's other worlds choose: the policy's choice
    unless another's paired advantage over it in those worlds passes ``gate`` (``margin_z``,
    ``min_worlds``, ``cluster_gate``), the best candidate too chosen without the world
    (leave-one-out, by world: a pooled world's copies all left out), so that the choice is not
    made on the world it is valued in (``infoset_values``). The groups pool every world played so
    far, recomputed before each halving and at the end; the halving and the gate at the root are
    unchanged. The budget still counts root playouts, each costing up to options-many continuations.
    With ``guide_plays`` (and a ``guide``), the guide also plays the searching seat in the playouts,
    the other seats staying the policy level's: the seat's later choices are then those of the policy
    whose choice the search must beat (Crisp's ``CrispGuide``), not a weaker one's.
    ``draw(knowledge, rng)``, if set, draws a world instead of ``knowledge.sample(rng)``: a model of the
    other players held to where the knowledge is uniform (Crisp's ``search_games._crisp_below``). Where
    ``weigh`` weighs the worlds, the weights are the model, and the pool is drawn uniform.
    ``spend(legal)``: how many times its budget the bot spends on a decision (1: the budget; more
    where a kind of decision is cheap or worth more, e.g. Crisp's crisp windows).
    ``shortlist(guide, view, legal)``, if set, the options the search plays out at a decision (by
    default every legal one; the guide's choice is searched whether listed or not): fewer options
    share the budget, so each is played in more worlds (e.g. Cribbage's fifteen discards cut to the
    guide's best few by its own count: ``search_games.crib_shortlist``).
    """

    budget: int = DEFAULT_BUDGET
    mark: Callable[[Game, int], Any] = lambda game, seat: None
    stop: Callable[[Game, Any], bool] = lambda game, mark: False
    value: Callable[[Game, int, Any], float] = win_value
    history: Callable[[Game], int] = lambda game: 0
    view: Callable[[Game, int], dict[str, Any]] | None = None
    weigh: Callable[[Game, int], float] | None = None
    pool: int = 0
    weigh_players: int = 8
    trust: Callable[[list[str]], bool] = lambda legal: False
    margin_z: float = 1.5
    min_worlds: int = 8
    fresh_gate: bool = False
    cluster_gate: bool = False
    policy: str = "heuristic"
    refine: Callable[[Game, int], None] | None = None
    guide: type[Bot] | None = None
    guide_plays: bool = False
    draw: Callable[[Knowledge, random.Random], Game] | None = None
    lookahead: Callable[[list[str]], int] = lambda legal: 0
    infoset: bool = False
    spend: Callable[[list[str]], int] = lambda legal: 1
    observed: Callable[[Game, int, int], Hashable] = seen_events
    shortlist: Callable[[Bot, dict[str, Any], list[str]], list[str]] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


#: game name -> how the search plays it (``bots/search_games.py``); others get ``SearchSpec()``
SPECS: dict[str, SearchSpec] = {}
_DEFAULT_SPEC = SearchSpec()


def mean(xs: list[float]) -> float:
    """The mean of ``xs`` (0 for none: an action never played ranks below any played one's positive mean)."""
    return sum(xs) / len(xs) if xs else 0.0


def halve(alive: list[str], first: str, values: dict[str, list[float]], rank: dict[str, int]) -> list[str]:
    """The better half of ``alive`` by mean value (ties: ``rank``), always with ``first``, the guide's choice.

    ``first`` is never eliminated on the noise of a few worlds: it is the base policy the search
    must improve on, and the final ``gate`` compares the best action with it, world by world.
    The kept half has ``ceil(n / 2)`` actions, ``first`` and the best of the others.
    """
    keep = max(1, (len(alive) + 1) // 2)
    others = sorted((a for a in alive if a != first), key=lambda a: (-mean(values[a]), rank[a]))
    if first not in alive:
        return others[:keep]
    return [first, *others[:keep - 1]]


def gate(first: str, best: str, values: dict[str, list[float]], z: float, min_worlds: int,
         worlds: list[int] | None = None) -> str:
    """``best`` if its advantage over ``first`` is significant, else ``first`` (the rollout algorithm's rule).

    Every action still alive was played in the same worlds with the same playout seeds, and
    ``first`` in all of them, so the advantage is paired: d_w = v(best, w) − v(first, w) over the
    n worlds of the search (both were played in every one: ``best`` survived every halving,
    ``first`` is never eliminated). ``best`` is played only if
    n ≥ ``min_worlds`` and mean(d) > z · sd(d) / √n, a one-sided test; otherwise the guide's own
    choice stands. One-step lookahead over base-policy playouts improves on the base policy
    when its evaluation is accurate (Tesauro & Galperin; Bertsekas' rollout algorithm); on a few
    noisy worlds it would throw a good choice out for a lucky one.

    ``worlds``, if given, names the world each entry was played in: entries of one world (a
    weighted pool's world drawn again) are one cluster, not independent pairs. Then n counts
    distinct worlds and the standard error is the cluster-robust one, Σ_j (S_j − c_j·m)² / N² ·
    J / (J − 1) over the J worlds (S_j the sum of world j's c_j differences, N all of them): with
    every world once, exactly sd² / n. A deterministic playout repeats a world's difference
    exactly, so counting its copies as pairs shrinks the error by √(copies) and lets noise through.

    >>> gate("a", "b", {"a": [0.5, 0.5, 0.5], "b": [0.6, 0.6, 0.6]}, z=1.0, min_worlds=3)
    'b'
    >>> gate("a", "b", {"a": [0.5, 0.5, 0.5], "b": [0.9, 0.2, 0.6]}, z=1.0, min_worlds=3)
    'a'
    >>> ahead = {"a": [0.5] * 6, "b": [0.9, 0.2, 0.9, 0.2, 0.9, 0.9]}
    >>> gate("a", "b", ahead, z=1.0, min_worlds=2), gate("a", "b", ahead, z=1.0, min_worlds=2, worlds=[1, 2] * 3)
    ('b', 'a')
    """
    if best == first:
        return first
    d = [b - a for b, a in zip(values[best], values[first], strict=True)]
    n = len(d)
    m = sum(d) / n if n else 0.0
    if worlds is None:
        if n < max(2, min_worlds):
            return first
        sd = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1))
        return best if m > 0 and m > z * sd / math.sqrt(n) else first
    sums: dict[int, float] = {}
    copies: dict[int, int] = {}
    for w, x in zip(worlds, d, strict=True):
        sums[w] = sums.get(w, 0.0) + x
        copies[w] = copies.get(w, 0) + 1
    j = len(sums)
    if j < max(2, min_worlds):
        return first
    se = math.sqrt(sum((sums[w] - copies[w] * m) ** 2 for w in sums) / (n * n) * j / (j - 1))
    return best if m > 0 and m > z * se else first


def infoset_values(entries: list[Branch | float], worlds: list[int], z: float, min_worlds: int,
                   cluster: bool = False) -> list[float]:
    """The values of one root action's playouts when the searching seat's next decision is made by
    information set (``SearchSpec.infoset``), in the order of ``entries``.

    ``entries`` holds a playout's value, or its ``Branch`` where it reached the seat's decision;
    ``worlds`` names each one's world (a weighted pool's world drawn again has the same name). The
    branches with the same key and options are a group. A branch is worth its value of the option
    the group's other worlds choose (every entry of its own world left out): the policy's choice
    (the branch's ``first``) unless the option with the best mean over those worlds (ties: the
    policy's, then the options' order) passes ``gate`` against it over them (``z``, ``min_worlds``,
    by world with ``cluster``). Choosing on the other worlds, never on its own, keeps a world's
    value of the choice from being the luck that chose it (a per-world best overrates every option).

    >>> b = lambda key, x, y: Branch(key, ("x", "y"), "x", (x, y))
    >>> entries = [b("k", 0.0, 1.0), b("k", 0.2, 1.0), b("k", 0.0, 1.0), b("j", 0.0, 1.0), 0.5]
    >>> infoset_values(entries, [0, 1, 2, 3, 4], z=1.0, min_worlds=2)
    [1.0, 1.0, 1.0, 0.0, 0.5]
    >>> twice = [0, 1, 0, 3, 4]  # world 0 drawn twice: both its entries left out, one world left for them
    >>> infoset_values(entries, twice, z=1.0, min_worlds=2), infoset_values(entries, twice, 1.0, 2, cluster=True)
    ([0.0, 1.0, 0.0, 0.0, 0.5], [0.0, 0.2, 0.0, 0.0, 0.5])
    """
    out = [0.0 if isinstance(e, Branch) else float(e) for e in entries]
    groups: dict[tuple[Hashable, tuple[str, ...]], list[int]] = {}
    for i, e in enumerate(entries):
        if isinstance(e, Branch):
            groups.setdefault((e.key, e.options), []).append(i)
    for (_, options), members in groups.items():
        branches = [e for i in members if isinstance(e := entries[i], Branch)]
        ids = [worlds[i] for i in members]
        columns = {o: [b.values[k] for b in branches] for k, o in enumerate(options)}
        chosen: dict[tuple[int, str], int] = {}  # (world, the policy's choice) -> the option chosen without it
        for i, b in zip(members, branches, strict=True):
            w = worlds[i]
            pick = chosen.get((w, b.first))
            if pick is None:
                keep = [t for t, x in enumerate(ids) if x != w]
                values = {o: [columns[o][t] for t in keep] for o in options}
                order = {o: (o != b.first, k) for k, o in enumerate(options)}
                best = min(options, key=lambda o: (-mean(values[o]), order[o]))
                played = gate(b.first, best, values, z, min_worlds, [ids[t] for t in keep] if cluster else None)
                pick = chosen[(w, b.first)] = options.index(played)
            out[i] = b.values[pick]
    return out


class SearchBot(Bot):
    """Determinized flat Monte Carlo search by sequential halving over shared worlds (the module docstring)."""

    game: str
    takes_budget = True

    def __init__(self, seat: int, players: int, options: dict[str, Any], seed: int | None = None,
                 budget: int | None = None) -> None:
        super().__init__(seat, players, options, seed)
        self.budget = self.spec.budget if budget is None else budget
        if type(self.budget) is not int or self.budget < 1:
            raise ValueError(f"a search budget is a whole number of playouts ≥ 1, not {self.budget!r}")
        guide = self.spec.guide
        self.guide = self._policy(seat, seed) if guide is None else guide(seat, players, self.options, seed)
        try:
            self.knowledge: Knowledge | None = tracker(self.game, seat, players, options)
        except ValueError:  # a table its sampler does not cover (two-deck Craits, while off): it plays as its guide
            self.knowledge = None
        self.playouts = 0  # playouts run so far (for benches)
        self.fallbacks = 0  # decisions played as the guide because the knowledge found no history (for benches)

    @classmethod
    def covers(cls, players: int, options: dict[str, Any]) -> bool:
        """Whether the game's tracker takes the table (not two-deck Craits while its sampler is off)."""
        try:
            tracker(cls.game, 0, players, options)
        except ValueError:
            return False
        return True

    @property
    def spec(self) -> SearchSpec:
        """How this game is searched (looked up, not kept: a bot travels to worker processes by pickle)."""
        return SPECS.get(self.game) or _DEFAULT_SPEC

    def _policy(self, seat: int, seed: int | None) -> Bot:
        from .base import make_bot

        return make_bot(self.spec.policy, self.game, seat, self.players, self.options, seed)

    def observe(self, events: list[Event]) -> None:
        if self.knowledge is not None:
            self.knowledge.observe(events)
        self.guide.observe(events)

    def choose(self, view: dict[str, Any] | None, legal: list[str]) -> str:
        assert view is not None
        first = self.guide.choose(view, legal)
        if len(legal) == 1 or self.knowledge is None or self.spec.trust(legal):
            return first
        self.knowledge.see(view)
        shortlist = self.spec.shortlist
        try:
            return self._search(first, legal if shortlist is None else shortlist(self.guide, view, legal))
        except NoHistory:  # the knowledge's bounded search for a history gave up: the guide plays this decision
            self.fallbacks += 1
            return first

    def _search(self, first: str, legal: list[str]) -> str:
        """The search's choice among ``legal`` and ``first``, the guide's."""
        order = [first, *(a for a in legal if a != first)]
        rank = {a: i for i, a in enumerate(order)}
        rng = random.Random(self.rng.getrandbits(64))
        values: dict[str, list[float]] = {a: [] for a in order}  # per world, in the order the worlds were drawn
        drawn: list[int] = []  # which world each entry of ``values[first]`` was played in (a pool may repeat one)
        spec = self.spec
        budget = self.budget * spec.spend(legal)
        alive = order[:budget]
        depth = spec.lookahead(legal)
        draw = self._worlds(rng)
        branches: dict[str, list[Branch | float]] | None = {a: [] for a in order} if spec.infoset and depth else None
        rounds = max(1, math.ceil(math.log2(len(alive)))) if len(alive) > 1 else 1
        left = budget
        since = 0  # where the last round's worlds begin in ``values``
        for r in range(rounds):
            last = r == rounds - 1
            if last:
                since = len(values[first])
            worlds = max(1, (left if last else left // (rounds - r)) // len(alive))
            for _ in range(worlds):
                if left < len(alive):
                    break
                world, key = draw(rng)
                drawn.append(key)
                seed = rng.getrandbits(32)
                for i, action in enumerate(alive):
                    here = world if i == len(alive) - 1 else world.copy()
                    if branches is None:
                        values[action].append(self.playout(here, action, random.Random(seed), depth))
                    else:
                        branches[action].append(self.branch(here, action, random.Random(seed)))
                left -= len(alive)
            if branches is not None:  # each action's values from all its worlds so far
                for action in alive:
                    values[action] = infoset_values(branches[action], drawn[:len(branches[action])],
                                                    spec.margin_z, spec.min_worlds, spec.cluster_gate)
            if not last:
                alive = halve(alive, first, values, rank)
        self.playouts += budget - left
        best = min(alive, key=lambda a: (-mean(values[a]), rank[a]))
        if spec.fresh_gate and best != first:
            return gate(first, best, {a: values[a][since:] for a in (first, best)}, spec.margin_z, spec.min_worlds,
                        drawn[since:] if spec.cluster_gate else None)
        return gate(first, best, values, spec.margin_z, spec.min_worlds, drawn if spec.cluster_gate else None)

    def _worlds(self, rng: random.Random) -> Callable[[random.Random], tuple[Game, int]]:
        """How this decision draws its worlds, each with a key naming it: straight from the
        knowledge (every world new), or, with the spec's ``weigh`` at a table of at most
        ``weigh_players``, from a pool of ``pool`` samples in proportion to their weights (copies;
        the key is the pool's index, so a world drawn twice is known as one)."""
        knowledge = self.knowledge
        assert knowledge is not None
        refine = self.spec.refine
        seat = self.seat
        weigh = self.spec.weigh
        weighed = weigh is not None and self.spec.pool >= 1 and self.players <= self.spec.weigh_players
        model = None if weighed else self.spec.draw  # two models of the others would count their choices twice

        def sample(r: random.Random) -> Game:
            world = knowledge.sample(r) if model is None else model(knowledge, r)
            if refine is not None:
                refine(world, seat)
            return world

        if not weighed:
            count = itertools.count()
            return lambda r: (sample(r), next(count))
        assert weigh is not None
        pool = [sample(rng) for _ in range(self.spec.pool)]
        weights = [weigh(w, self.seat) for w in pool]
        if not sum(weights) > 0:
            weights = [1.0] * len(pool)
        cumulative = list(itertools.accumulate(weights))  # once per decision, not once per world drawn
        indices = range(len(pool))

        def draw(r: random.Random) -> tuple[Game, int]:
            i = r.choices(indices, cum_weights=cumulative)[0]
            return pool[i].copy(), i

        return draw

    def playout(self, world: Game, action: str, rng: random.Random, lookahead: int = 0) -> float:
        """Apply ``action`` in ``world``, then the policy for every seat to the horizon; its value
        (with ``lookahead``, the searching seat's next choices the best in the world: ``_continue``)."""
        spec = self.spec
        mark = spec.mark(world, self.seat)
        start = spec.history(world)
        world.apply(self.seat, action)
        return self._continue(world, mark, start, rng, lookahead)

    def branch(self, world: Game, action: str, rng: random.Random) -> Branch | float:
        """Apply ``action`` in ``world``, then the policy for every seat until the searching seat's next
        decision with options: there, what it saw since the action, the policy's choice and the value of
        playing on from each option (the same seed for each); the playout's value if the horizon or the
        end came first (``SearchSpec.infoset``)."""
        spec = self.spec
        me = self.seat
        mark = spec.mark(world, me)
        start = spec.history(world)
        world.apply(me, action)
        since = len(world.log)
        bots: dict[int, tuple[Bot, int]] = {}
        legal = self._play_on(world, mark, start, rng, bots, True)
        if legal is None:
            return spec.value(world, me, mark)
        key = spec.observed(world, me, since)
        first = self._choice(world, me, legal, start, rng, bots, spec.view or _whole_view)
        return Branch(key, tuple(legal), first, tuple(self._each_option(world, legal, mark, start, rng, 0)))

    def _continue(self, world: Game, mark: Any, start: int, rng: random.Random, lookahead: int) -> float:
        """The policy for every seat from here to the horizon, the value of its end; with ``lookahead``,
        the searching seat's next choice with options is the one whose continuation is worth most here."""
        legal = self._play_on(world, mark, start, rng, {}, bool(lookahead))
        if legal is None:
            return self.spec.value(world, self.seat, mark)
        return max(self._each_option(world, legal, mark, start, rng, lookahead - 1))

    def _each_option(self, world: Game, legal: list[str], mark: Any, start: int, rng: random.Random,
                     lookahead: int) -> list[float]:
        """The value of each of the searching seat's ``legal`` options in ``world``, played on from a copy
        (the last in ``world`` itself), every one with the same playout seed (drawn from ``rng``)."""
        seed = rng.getrandbits(32)
        values = []
        for i, option in enumerate(legal):
            here = world if i == len(legal) - 1 else world.copy()
            here.apply(self.seat, option)
            values.append(self._continue(here, mark, start, random.Random(seed), lookahead))
        return values

    def _play_on(self, world: Game, mark: Any, start: int, rng: random.Random, bots: dict[int, tuple[Bot, int]],
                 stop_mine: bool) -> list[str] | None:
        """The policy for every seat (``bots``, made as needed) until the horizon or the end (None), or, with
        ``stop_mine``, until the searching seat's next choice with options, not trusted (its legal actions)."""
        spec = self.spec
        me = self.seat
        view = spec.view or _whole_view
        while not world.is_over and not spec.stop(world, mark):
            seats = world.to_act
            if not seats:
                world.apply(CLOCK, world.legal_actions(CLOCK)[0])
                continue
            seat = seats[0]
            legal = world.legal_actions(seat)
            if stop_mine and seat == me and len(legal) > 1 and not spec.trust(legal):
                return legal
            choice = self._choice(world, seat, legal, start, rng, bots, view) if len(legal) > 1 else legal[0]
            world.apply(seat, choice)
        return None

    def _choice(self, world: Game, seat: int, legal: list[str], start: int, rng: random.Random,
                bots: dict[int, tuple[Bot, int]], view: Callable[[Game, int], dict[str, Any]]) -> str:
        """``seat``'s policy bot's choice (the bot made, seeded from ``rng``, the first time), fed the world's
        events since ``start`` that it has not seen and, if it reads one, ``view(world, seat)``."""
        entry = bots.get(seat)
        if entry is None:
            from .base import make_bot

            spec = self.spec
            if seat == self.seat and spec.guide_plays and spec.guide is not None:
                bot = spec.guide(seat, self.players, self.options, rng.getrandbits(32))
            else:
                bot = make_bot(spec.policy, self.game, seat, self.players, self.options, rng.getrandbits(32))
            # a bot that keeps the base observe takes in nothing: no events are picked for it
            entry = (bot, start if type(bot).observe is not Bot.observe else -1)
        bot, seen = entry
        log = world.log
        if seen >= 0:
            if len(log) > seen:
                bot.observe(events_for(log[seen:], seat))
            entry = (bot, len(log))
        bots[seat] = entry
        return bot.choose(view(world, seat) if bot.needs_view else None, legal)


def register_search() -> None:
    """Offer ``search`` for every game with a knowledge tracker (call again after registering one)."""
    for game in KNOWLEDGE:
        if game not in BOTS.get("search", {}):
            name = f"{game.capitalize()}Search"
            cls = type(name, (SearchBot,), {"game": game, "__module__": __name__, "__qualname__": name})
            globals()[name] = cls  # found by name when a bot is pickled to a worker process
            register_bot("search", game)(cls)


register_search()
