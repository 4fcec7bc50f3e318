"""Where a ``search`` playout stops, and what it is worth, per game (``feltroom.bots.search``).

Playing every playout to the end of a whole game would spend the budget on deals the
decision hardly touches. Decided here:

- **Cribbage**: to the end of the current hand (the next deal), worth the hand's margin —
  the seat's side's points minus the mean of the other sides', scaled by ``CRIB_SCALE`` around
  0.5 — or 1/0 if the game is won or lost within it (pegging out comes first, CRIB-END-1).
- **Krypkasino**: to the end of the current packet (the next deal of cards, or the end of
  the deal), worth the packet's margin in penalty points — card points taken (KRYP-SCORE-1)
  plus sweep transfers (KRYP-SWEEP-4), the seat's minus the mean of the others' (lower is
  better, KRYP-CONV-5) — scaled by ``KRYP_SCALE``; 1/0 if the match ends within it.

- **Crisp** and **Craits** (for when their knowledge trackers land): to the end of the round
  (hand), seen as the first change of the scores, which both add only then; worth the
  round's margin of points (lower is better, CRISP-SCORE-*, CRAITS-SCORE-*) scaled by
  ``ROUND_SCALE``; 1/0 if the game ends in it. Their budgets are first guesses, to be set from
  ``bench/search_decisions.py`` once their samplers are merged.

Games without an entry play to the end (``SearchSpec()``).
"""

from __future__ import annotations

from typing import Any

from ..game import Game
from ..games.krypkasino import POINTS
from .search import SPECS, SearchSpec, win_value

#: points of margin that move a playout's value from 0.5 to 0 or 1
CRIB_SCALE = 30.0
KRYP_SCALE = 20.0
ROUND_SCALE = 20.0


def _clip(x: float) -> float:
    return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x


def _margin(gains: list[float], seat: int, sides: list[list[int]]) -> float:
    mine = next(i for i, side in enumerate(sides) if seat in side)
    others = [gains[i] for i in range(len(sides)) if i != mine]
    return gains[mine] - sum(others) / len(others)


def _crib_mark(game: Game, seat: int) -> tuple[int, list[int]]:
    return game.hand_no, list(game.side_scores)  # type: ignore[attr-defined]


def _crib_stop(game: Game, mark: tuple[int, list[int]]) -> bool:
    return bool(game.hand_no != mark[0])  # type: ignore[attr-defined]


def _crib_value(game: Game, seat: int, mark: tuple[int, list[int]]) -> float:
    if game.is_over:
        return win_value(game, seat, mark)
    gains = [float(a - b) for a, b in zip(game.side_scores, mark[1], strict=True)]  # type: ignore[attr-defined]
    return _clip(0.5 + _margin(gains, seat, game.sides) / (2 * CRIB_SCALE))


def _kryp_cost(game: Any) -> list[int]:
    return [sum(POINTS[c] for c in pile) + t for pile, t in zip(game.piles, game.transfers, strict=True)]


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


# 400 playouts: p95 0.58 s of CPU a decision (bench/search_decisions.py, load 5.7), within the 1 s target;
# on the same positions its overrides gain more than 180's (bench/search_overrides.py, docs/bots.md)
SPECS["cribbage"] = SearchSpec(budget=400, mark=_crib_mark, stop=_crib_stop, value=_crib_value, trust=_crib_claims)


def _kryp_history(game: Game) -> int:
    log = game.log
    for i in range(len(log) - 1, -1, -1):
        if log[i]["type"] == "deal_start":
            return i
    return 0


SPECS["krypkasino"] = SearchSpec(budget=140, mark=_kryp_mark, stop=_kryp_stop, value=_kryp_value,
                                 history=_kryp_history)


def _scores_mark(game: Game, seat: int) -> list[int]:
    return list(game.scores)


def _scores_changed(game: Game, mark: list[int]) -> bool:
    return game.scores != mark


def _low_round_value(game: Game, seat: int, mark: list[int]) -> float:
    if game.is_over:
        return win_value(game, seat, mark)
    gains = [float(a - b) for a, b in zip(game.scores, mark, strict=True)]
    return _clip(0.5 - _margin(gains, seat, game.sides) / (2 * ROUND_SCALE))


for _game in ("crisp", "craits"):
    SPECS[_game] = SearchSpec(budget=60, mark=_scores_mark, stop=_scores_changed, value=_low_round_value)
