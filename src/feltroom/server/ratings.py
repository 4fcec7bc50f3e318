"""Ratings per game: OpenSkill's Plackett–Luce model over each finished game's final ranking.

What the room decides here (the rules say nothing of ratings):
- The ranking: the winners share first place; every other side is ranked by how far its score
  is from the winners' score (nearer is better), whatever the direction a game counts in
  (Crisp and Krypkasino: lowest wins; Cribbage: highest). Equal distances share a place.
- Teams are rated as teams: a game's ``sides`` (Cribbage's partnerships) are OpenSkill teams.
- Who is rated: the player of each seat (a stand-in plays *for* that player), and for a seat the
  host gave a bot, the bot level as a player of its own (``bot:heuristic``), so that each level's
  strength shows. An identity seated more than once in one game (three ``bot:random`` seats)
  is rated once, from its first seat; the other seats take part with its prior rating.
- Only a game that ended by its rules is rated: an abandoned one is not.
- Shown: a conservative display rating, 1500 + 20 × (μ − 3σ), so a new player starts at 1500;
  provisional below 10 games.

>>> ranking(scores=[3, 61, 40], winners=[1], sides=[[0], [1], [2]])
[3, 1, 2]
>>> ranking(scores=[12, 0, 12, 30], winners=[1], sides=[[0], [1], [2], [3]])
[2, 1, 2, 4]
>>> ranking(scores=[61, 50, 61, 50], winners=[0, 2], sides=[[0, 2], [1, 3]])
[1, 2]
>>> Rating().display, Rating().provisional
(1500, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from openskill.models import PlackettLuce

from ..game import Game

if TYPE_CHECKING:
    from .store import Store

MODEL = PlackettLuce()
PROVISIONAL_GAMES = 10
LEADERBOARD_MIN_GAMES = PROVISIONAL_GAMES


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    @property
    def display(self) -> int:
        return round(1500 + 20 * (self.mu - 3 * self.sigma))

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    def public(self) -> dict[str, Any]:
        return {"rating": self.display, "mu": round(self.mu, 4), "sigma": round(self.sigma, 4),
                "games": self.games, "provisional": self.provisional}


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's line in a finished game: who played it, its side and its place."""

    seat: int
    player: str
    side: int
    rank: int


@dataclass(frozen=True, slots=True)
class Settlement:
    """What finishing a game writes besides its record: each seat's result and the new ratings."""

    game: str
    results: list[SeatResult]
    before: dict[str, Rating]
    after: dict[str, Rating]

    def changes(self) -> list[dict[str, Any]]:
        """Per seat: the display rating before and after (``null`` for a seat rated elsewhere)."""
        out = []
        for r in self.results:
            new = self.after.get(r.player)
            rated_here = new is not None and self.first_seat(r.player) == r.seat
            out.append({"seat": r.seat, "player": r.player,
                        "before": self.before[r.player].display if rated_here else None,
                        "after": new.display if rated_here and new is not None else None})
        return out

    def first_seat(self, player: str) -> int:
        return next(r.seat for r in self.results if r.player == player)


def ranking(scores: list[int], winners: list[int], sides: list[list[int]]) -> list[int]:
    """The place of each side (1 = first)."""
    won = set(winners)
    target = scores[winners[0]] if winners else None
    distance = []
    for side in sides:
        if target is None:
            distance.append(0)
        elif any(s in won for s in side):
            distance.append(-1)
        else:
            distance.append(abs(scores[side[0]] - target))
    return [1 + sum(d < mine for d in distance) for mine in distance]


def settle(game: str, scores: list[int], winners: list[int], sides: list[list[int]], players: list[str],
           prior: dict[str, Rating]) -> Settlement:
    """Rate one finished game: ``players`` names the rated identity of each seat; ``prior`` holds
    the ratings the store has for them (a missing one is a new player's)."""
    ranks = ranking(scores, winners, sides)
    side_of = {seat: k for k, side in enumerate(sides) for seat in side}
    results = [SeatResult(seat, player, side_of[seat], ranks[side_of[seat]]) for seat, player in enumerate(players)]
    before = {p: prior.get(p, Rating()) for p in players}
    teams = [[MODEL.rating(mu=before[players[s]].mu, sigma=before[players[s]].sigma) for s in side] for side in sides]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    after: dict[str, Rating] = {}
    for k, side in enumerate(sides):
        for i, seat in enumerate(side):
            player = players[seat]
            if player not in after and next(s for s, p in enumerate(players) if p == player) == seat:
                after[player] = Rating(rated[k][i].mu, rated[k][i].sigma, before[player].games + 1)
    return Settlement(game, results, before, after)


def settle_game(store: Store, game: Game, players: list[str]) -> Settlement:
    """Rate the finished ``game`` from the ratings ``store`` holds now."""
    prior = store.ratings(game.name, sorted(set(players)))
    return settle(game.name, game.scores, game.winners, game.sides, players, prior)


def result_line(game: Game, names: list[str | None]) -> dict[str, Any]:
    """What a history line shows of a finished game: each seat's name, the scores, the winners."""
    return {"names": names, "scores": game.scores, "winners": game.winners}


def recompute(store: Store) -> dict[str, dict[str, Rating]]:
    """Every game's ratings rebuilt from scratch: each finished game's record replayed, in the
    order the games ended, and rated again (``feltroom ratings --recompute``)."""
    from ..registry import replay

    out: dict[str, dict[str, Rating]] = {}
    for finished in store.finished_games():
        game = replay(finished.record)
        ratings = out.setdefault(finished.game, {})
        settlement = settle(game.name, game.scores, game.winners, game.sides, finished.players, ratings)
        ratings.update(settlement.after)
    return out
