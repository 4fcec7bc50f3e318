"""What one seat knows, and full game states drawn consistently with it (the engine layer).

Search needs states, but a bot may only know what a human in its seat knows. A
``Knowledge`` tracker is fed exactly that: the events delivered to the seat
(``feltroom.views.events_for``) and, if the driver builds it, the seat's view. From a
tracker, ``sample_state`` draws a whole ``Game`` in which every card the seat cannot know
is placed uniformly at random among the placements still possible. It never takes the
true game as input, so a bot built on it cannot cheat.

Each rules module that supports sampling registers a tracker class for its game with
``register_knowledge``; this module only holds the contract and the registry.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from .game import MAX_SEED, Event, Game

#: a test a card must pass to lie in a group of hidden places (``None``: any card may)
Allowed = Callable[[int], bool] | None


class Knowledge:
    """One seat's knowledge of one game, fed with what the seat was shown.

    Per game, subclasses implement ``observe`` (and ``see`` where the view adds to what
    the events say) and ``sample``. ``players`` and ``options`` are the table's, as the
    seat knows them from the lobby.
    """

    game: ClassVar[str]

    def __init__(self, seat: int, players: int, options: Mapping[str, Any] | None = None) -> None:
        self.seat = seat
        self.players = players
        self.options = dict(options or {})

    def __getstate__(self) -> dict[str, Any]:
        """A tracker pickles (a bot that thinks in another process takes it along) without
        ``_plan``, where a tracker may cache what its draws share."""
        state = dict(self.__dict__)
        if "_plan" in state:
            state["_plan"] = None
        return state

    def observe(self, events: Sequence[Event]) -> None:
        """Take in the events this seat was shown since the last call, in order."""
        raise NotImplementedError

    def see(self, view: Mapping[str, Any]) -> None:
        """Take in the seat's current view (optional: a tracker may need only the events)."""

    def sample(self, rng: random.Random) -> Game:
        """A full, legal game state consistent with everything observed, hidden cards uniform.

        Its ``view(self.seat)`` equals the seat's real view, and its legal actions for the
        seat equal the real ones. Two real games that differ only in cards hidden from the
        seat give equal samples for equal ``rng`` states.
        """
        raise NotImplementedError


class NoHistory(ValueError):
    """A tracker's bounded search for a history consistent with what its seat saw gave up.

    Raised by ``Knowledge.sample`` where finding a first consistent history is a search with a
    fixed number of steps (two-deck Craits): the search is deterministic, so the same knowledge
    gives up again at this point. The decision cannot be searched; a search bot plays its guide's
    choice for it (``SearchBot.fallbacks`` counts them). Any other exception from a tracker is a bug.
    """


#: game name -> tracker class
KNOWLEDGE: dict[str, type[Knowledge]] = {}


def register_knowledge(cls: type[Knowledge]) -> type[Knowledge]:
    KNOWLEDGE[cls.game] = cls
    return cls


def tracker(game: str, seat: int, players: int, options: Mapping[str, Any] | None = None) -> Knowledge:
    """A fresh knowledge tracker for ``seat`` at a table of ``game``."""
    try:
        cls = KNOWLEDGE[game]
    except KeyError:
        raise ValueError(f"no knowledge sampling for {game!r}: {', '.join(sorted(KNOWLEDGE)) or 'none yet'}") from None
    return cls(seat, players, options)


def sample_state(
    game: str, players: int, options: Mapping[str, Any] | None, knowledge: Knowledge, rng: random.Random
) -> Game:
    """A game state drawn from ``knowledge`` (see ``Knowledge.sample``)."""
    if knowledge.game != game or knowledge.players != players:
        raise ValueError(f"this tracker follows {knowledge.game} for {knowledge.players}, not {game} for {players}")
    return knowledge.sample(rng)



def sample_seed(rng: random.Random) -> int:
    """A seed for a sampled state's own future chance (the real seed is never known)."""
    return rng.randrange(MAX_SEED)


#: joint draws tried before ``deal_hidden`` falls back to one group after another
JOINT_TRIES = 200


def deal_hidden(pool: Sequence[int], groups: Sequence[tuple[int, Allowed]], rng: random.Random) -> list[list[int]]:
    """Place the hidden cards ``pool`` (each entry one physical card) into ``groups`` of
    (size, allowed), uniformly over the placements where every card passes its group's test;
    the cards left over come last, shuffled (a stock).

    With at most one group under a test the draw is exact: that group is a uniform subset of
    the cards it allows, the rest a uniform arrangement of what remains. With several, joint
    draws are tried ``JOINT_TRIES`` times (exact when one passes); then the tested groups are
    filled one after another, which is close to uniform but not exactly (documented in
    docs/bots.md). ``pool`` must be in an order that does not depend on hidden cards, so that
    equal knowledge and equal ``rng`` give equal placements.
    """
    tested = [i for i, (_, allowed) in enumerate(groups) if allowed is not None]
    out: list[list[int]] = [[] for _ in groups]
    rest = list(pool)
    if len(tested) > 1:
        for _ in range(JOINT_TRIES):
            rng.shuffle(rest)
            at = 0
            ok = True
            for i in tested:
                size, allowed = groups[i]
                chunk = rest[at:at + size]
                at += size
                assert allowed is not None
                if not all(map(allowed, chunk)):
                    ok = False
                    break
                out[i] = chunk
            if ok:
                rest = rest[at:]
                break
        else:
            out = [[] for _ in groups]
            rest = list(pool)
            tested_fill(rest, groups, tested, out, rng)
    else:
        tested_fill(rest, groups, tested, out, rng)
    rng.shuffle(rest)
    at = 0
    for i, (size, _) in enumerate(groups):
        if i not in tested:
            out[i] = rest[at:at + size]
            at += size
    out.append(rest[at:])
    return out


def tested_fill(rest: list[int], groups: Sequence[tuple[int, Allowed]], tested: list[int],
                out: list[list[int]], rng: random.Random) -> None:
    """Fill the tested groups one after another from ``rest`` (removing what they take)."""
    for i in tested:
        size, allowed = groups[i]
        assert allowed is not None
        fits = [k for k, c in enumerate(rest) if allowed(c)]
        if len(fits) < size:
            raise ValueError("no placement of the hidden cards fits what this seat saw")
        picked = sorted(rng.sample(fits, size), reverse=True)
        out[i] = [rest[k] for k in picked]
        for k in picked:
            del rest[k]
