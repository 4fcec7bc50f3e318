"""``bench/search_variants.py``'s summary: one override's worth per kind (``override_worth``), the least
squares through the origin of a game's search − heuristic on the overrides of each kind it made."""

from __future__ import annotations

import doctest
import random
from typing import Any

import pytest

from feltroom.games.crisp import queen_actions

from .helpers import bench_module

VARIANTS = bench_module("search_variants")
#: a 4-player Crisp Queen decision's legal actions
QUEEN = ["discard", *queen_actions(4, 0)]


def _row(counts: dict[str, int], diff: float) -> dict[str, Any]:
    return {"share": max(diff, 0.0), "twin": max(-diff, 0.0), "overrides": {k: [n, 3] for k, n in counts.items()}}


def test_override_worth_recovers_each_kinds_worth() -> None:
    """Games whose difference is exactly 0.03 a discard − 0.01 a play: the fit gives those back with
    no error; a kind no game overrode is left out; and nothing is put in a constant (a game without an
    override is its guide's game), so a fit with one would differ on games shifted by one."""
    rng = random.Random(5)
    rows = []
    for _ in range(200):
        counts = {"discard": rng.randrange(3), "play": rng.randrange(6), "claim": 0}
        rows.append(_row(counts, 0.03 * counts["discard"] - 0.01 * counts["play"]))
    worth = VARIANTS.override_worth(rows)
    assert [(k, n) for k, _, _, n in worth] == [("discard", sum(r["overrides"]["discard"][0] for r in rows)),
                                                ("play", sum(r["overrides"]["play"][0] for r in rows))]
    assert [round(w, 9) for _, w, _, _ in worth] == [0.03, -0.01]
    assert all(se < 1e-9 for _, _, se, _ in worth)
    shifted = [_row({k: o for k, (o, _) in r["overrides"].items()}, r["share"] - r["twin"] + 0.1) for r in rows]
    assert [round(w, 9) for _, w, _, _ in VARIANTS.override_worth(shifted)] != [0.03, -0.01]


def test_override_worth_has_the_standard_error_of_least_squares() -> None:
    """With noise, one kind: the worth is Σxy / Σx² and its variance the residuals' over n − 1, / Σx²."""
    rng = random.Random(8)
    xs = [rng.randrange(4) for _ in range(300)]
    ys = [0.02 * x + rng.choice((-1.0, 0.0, 0.0, 1.0)) * 0.5 for x in xs]
    rows = [{"share": y, "twin": 0.0, "overrides": {"play": [x, 1]}} for x, y in zip(xs, ys, strict=True)]
    [(kind, worth, se, n)] = VARIANTS.override_worth(rows)
    sxx = sum(x * x for x in xs)
    b = sum(x * y for x, y in zip(xs, ys, strict=True)) / sxx
    residual = sum((y - b * x) ** 2 for x, y in zip(xs, ys, strict=True)) / (len(xs) - 1)
    assert (kind, n) == ("play", sum(xs))
    assert worth == pytest.approx(b) and se == pytest.approx((residual / sxx) ** 0.5)


def test_the_summary_helpers_doctests() -> None:
    result = doctest.testmod(VARIANTS, optionflags=doctest.ELLIPSIS)
    assert result.attempted and not result.failed


def test_a_spend_part_multiplies_the_budget_at_its_kind_of_decision_only() -> None:
    """``windowxN`` and ``queenxN``: N times the budget at Crisp's crisp windows, or at its Queens (whom to
    swap with), and the budget elsewhere; other games refuse them by name."""
    window = ["crisp", "decline"]
    swap = ["swap L", "swap C", "swap R", "discard"]
    queens, _ = VARIANTS.make("crisp", "queenx4")
    windows, _ = VARIANTS.make("crisp", "windowx3")
    assert [queens.spend(legal) for legal in (QUEEN, window, swap)] == [4, 1, 1]
    assert [windows.spend(legal) for legal in (QUEEN, window, swap)] == [1, 3, 1]
    with pytest.raises(VARIANTS.VariantError, match="queenx4"):
        VARIANTS.make("cribbage", "queenx4")


def test_trustqueen_and_trustswap_leave_their_kind_of_crisp_decision_to_the_guide_only() -> None:
    """``trustqueen``: a Crisp Queen decision is played as the guide chooses (``SearchSpec.trust``), a crisp
    window or a swap searched; ``trustswap`` likewise for a swap (the slot for a drawn card); other games
    refuse both."""
    spec, _ = VARIANTS.make("crisp", "guideplays+trustqueen")
    assert [spec.trust(legal) for legal in (QUEEN, ["crisp", "decline"], ["swap L", "discard"])] == [True, False, False]
    assert spec.guide_plays and spec.guide is not None
    with pytest.raises(VARIANTS.VariantError, match="trustqueen"):
        VARIANTS.make("craits", "trustqueen")
    swaps, _ = VARIANTS.make("crisp", "trustswap")
    swap = ["swap L", "swap C", "swap R", "discard"]
    assert [swaps.trust(legal) for legal in (QUEEN, ["crisp", "decline"], swap)] == [False, False, True]
    with pytest.raises(VARIANTS.VariantError, match="trustswap"):
        VARIANTS.make("cribbage", "trustswap")
    alone, _ = VARIANTS.make("crisp", "guide+trustall")
    assert alone.trust(["crisp", "decline"]) and not alone.guide_plays
