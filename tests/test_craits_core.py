"""The compiled Craits core (``feltroom.games._craits_core``) against the reference engine.

``check_differential`` (tests/differential.py) plays seeded random games with ``new_game``'s
``FastCraits`` and the pure-Python ``Craits`` side by side and compares, after every action,
every hot member for every seat (out-of-range ints, ``True``, ``"CLOCK"``, junk), the events,
the rejections (type, rule, message), and at the end the log, views and record.

The suite runs a few hundred games (2–10 players, one and two decks, every variant alone and
mixed, a fixed or a cut first dealer, stacked decks, the turn timer, copies midway). For a
long one-off run::

    .venv/bin/python -m tests.test_craits_core 5000
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

import pytest

import feltroom
from feltroom import CLOCK
from feltroom.cards import NAMES
from feltroom.fastgame import FastGame
from feltroom.games.craits import VARIANTS, Craits, _pack_for
from tests.differential import _outcome, check_differential

core = pytest.importorskip("feltroom.games._craits_core")

SHORT = {"short_game": True}


def _decks(players: int) -> list[int]:
    return [1] if players <= 5 else [1, 2] if players == 6 else [2]


def random_case(seed: int) -> tuple[int, dict[str, Any] | None, Any, dict[str, Any]]:
    """A random table for game ``seed``: players, raw options, stacked deck, harness keywords."""
    rng = random.Random(seed * 7919 + 1)
    players = rng.randint(2, 10)
    options: dict[str, Any] = {}
    mix = rng.random()
    if mix < 0.15:
        pass
    elif mix < 0.45:  # one variant alone
        options[rng.choice(VARIANTS)] = True
    else:
        for v in VARIANTS:
            if rng.random() < 0.35:
                options[v] = rng.random() < 0.9
    if "short_game" not in options and rng.random() < 0.6:
        options["short_game"] = True  # keeps most games short
    if players == 6 and rng.random() < 0.7:
        options["decks"] = rng.choice([1, 2])
    elif rng.random() < 0.1:
        options["decks"] = _decks(players)[0]
    if rng.random() < 0.5:
        options["first_dealer"] = rng.randrange(players)
    elif rng.random() < 0.2:
        options["first_dealer"] = None
    kwargs: dict[str, Any] = {"junk_rate": 0.1}
    if rng.random() < 0.25:
        options["turn_time"] = rng.choice([30, 45, 60])
        kwargs["clock_rate"] = rng.choice([0.0, 0.0, 0.002, 0.02])
    if options.get("one_card_on_one_card_deal") and rng.random() < 0.5:
        kwargs["clock_rate"] = 0.3  # close the declarations by the clock sometimes (a hand-over)
    if rng.random() < 0.2:
        kwargs["copy_at"] = rng.randint(1, 300)
    deck = None
    if rng.random() < 0.15:
        deck = _stacked(rng, players, options)
    return players, (options if options or rng.random() < 0.5 else None), deck, kwargs


def _stacked(rng: random.Random, players: int, options: dict[str, Any]) -> Any:
    full = {"decks": _decks(players)[-1] if players != 6 else 2, **{v: False for v in VARIANTS}}
    full.update(options)
    pack = [NAMES[c] for c in _pack_for(players, full)]
    lists = []
    for _ in range(rng.randint(1, 4)):
        cards = list(pack)
        rng.shuffle(cards)
        lists.append(cards[:rng.choice([len(cards), rng.randint(0, len(cards))])])
    return lists[0] if len(lists) == 1 and rng.random() < 0.5 else lists


def run_case(seed: int) -> int:
    players, options, deck, kwargs = random_case(seed)
    return check_differential("craits", players, seed, options, deck, **kwargs)


# ---------------------------------------------------------------- the differential games


@pytest.mark.slow
@pytest.mark.parametrize("players", range(2, 11))
@pytest.mark.parametrize("seed", range(2))
def test_full_games_default_options(players: int, seed: int) -> None:
    """All 15 hands with the default options, a cut first dealer, every player count."""
    check_differential("craits", players, 1000 + seed * 11 + players)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 3, 4, 6, 9])
def test_each_variant_alone(variant: str, players: int) -> None:
    options: dict[str, Any] = {variant: True}
    if variant != "short_game":
        options.update(SHORT)
    check_differential("craits", players, 77 + players, options)


@pytest.mark.parametrize("decks", [1, 2])
@pytest.mark.parametrize("dealer", [None, 0, 5])
def test_six_players_one_or_two_decks(decks: int, dealer: int | None) -> None:
    check_differential("craits", 6, 40 + decks * 7 + (dealer or 0), {"decks": decks, "first_dealer": dealer, **SHORT})


@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_every_variant_together(players: int) -> None:
    check_differential("craits", players, 500 + players, dict.fromkeys(VARIANTS, True), copy_at=150)


@pytest.mark.parametrize("seed", range(4))
def test_turn_timer(seed: int) -> None:
    """``legal_actions("CLOCK")`` follows the reference throughout; a timeout hands the game to it."""
    options = {"turn_time": 30, "face_card_functions": seed % 2 == 0, "one_card_on_one_card_deal": True}
    check_differential("craits", 2 + seed, 900 + seed, options)
    check_differential("craits", 2 + seed, 950 + seed, {**options, **SHORT}, clock_rate=0.01)


@pytest.mark.parametrize("seed", range(3))
def test_one_card_deal_declarations(seed: int) -> None:
    options = {"one_card_on_one_card_deal": True, "idiot_card": seed == 1, **SHORT}
    check_differential("craits", 3 + seed, 600 + seed, options)
    check_differential("craits", 3 + seed, 650 + seed, options, clock_rate=0.5)


@pytest.mark.parametrize("seed", range(6))
def test_stacked_decks(seed: int) -> None:
    rng = random.Random(seed)
    players = [2, 3, 4, 6, 7, 10][seed]
    options = {"remove_kq_small": True, **SHORT} if players <= 3 else SHORT
    check_differential("craits", players, seed, options, _stacked(rng, players, options))


@pytest.mark.parametrize("upcard", ["QS", "5H", "JD", "2C", "6S", "8D", "10C", "4H", "KS"])
def test_six_players_one_deck_upcards(upcard: str) -> None:
    """Three cards left after the upcard: a 5 or the queen of spades ends hand 1 at the upcard (CRAITS-SHUF-3)."""
    names = [n for n in NAMES if n != upcard]
    random.Random(upcard).shuffle(names)
    deck = [*names[:48], upcard, *names[48:]]
    options = {"decks": 1, "face_card_functions": True, "first_dealer": 0, **SHORT}
    check_differential("craits", 6, 5, options, deck)
    assert feltroom.new_game("craits", 6, seed=5, options=options, deck=deck).view(None)["hand_no"] == (
        2 if upcard in ("QS", "5H") else 1)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(6))
def test_random_tables(chunk: int) -> None:
    """Random option mixes, dealers, stacked decks, timers and copies (see ``random_case``)."""
    for seed in range(chunk * 10, chunk * 10 + 10):
        run_case(seed)


def test_shuffle_penalties_in_long_games() -> None:
    """Many reshuffles: 2 players over 15 hands, with penalties that double past 2**31."""
    game = feltroom.new_game("craits", 2, seed=3)
    rng = random.Random(3)
    while not game.is_over:
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        game.apply(seat, legal[rng.randrange(len(legal))])
    ref = Craits(2, seed=3)
    for seat, action in game.actions:
        ref.apply(seat, action)
    assert game.scores == ref.scores and game.winners == ref.winners


# ---------------------------------------------------------------- the pieces around


def test_new_game_gives_the_core() -> None:
    game = feltroom.new_game("craits", 4, seed=1)
    assert isinstance(game, FastGame) and isinstance(game, core.CraitsCore)
    assert not isinstance(Craits(4, seed=1), FastGame)


@pytest.mark.parametrize(("players", "options", "expected"), [
    (4, None, True),
    (4, {}, True),
    (6, {"decks": 1, "turn_time": 30, **dict.fromkeys(VARIANTS, True)}, True),
    (4, {"first_dealer": 2}, True),
    (4, {"no_such_option": True}, False),
    (1, None, False),
    (11, None, False),
    ("4", None, False),
    (4, "short_game", False),
])
def test_supports(players: Any, options: Any, expected: bool) -> None:
    assert core.CraitsCore.supports(players, options) is expected


@pytest.mark.parametrize(("players", "options"), [
    (4, {"no_such_option": True}),
    (4, {"decks": 2}),
    (7, {"decks": 1}),
    (4, {"turn_time": 31}),
    (4, {"first_dealer": 4}),
])
def test_bad_options_raise_as_the_reference(players: int, options: dict[str, Any]) -> None:
    with pytest.raises(ValueError) as want:
        Craits(players, seed=1, options=options)
    with pytest.raises(ValueError) as got:
        feltroom.new_game("craits", players, seed=1, options=options)
    assert str(got.value) == str(want.value)


def test_legal_list_is_cached_per_state_and_seat() -> None:
    """Like the reference: the same list object while nothing changes, keyed by the seat's identity
    (``True == 1``, but ``True`` is no seat: its ``[]`` must never answer for seat 1)."""
    game = feltroom.new_game("craits", 3, seed=2, options={"first_dealer": 0})
    ref = Craits(3, seed=2, options={"first_dealer": 0})
    seat = game.to_act[0]
    assert seat == 1
    assert game.legal_actions(seat) is game.legal_actions(seat)
    for g in (game, ref):
        assert g.legal_actions(1)
        assert g.legal_actions(True) == []
        assert g.legal_actions(1) == ref.legal_actions(1) != []
    play = ref.legal_actions(1)[0]
    game = feltroom.new_game("craits", 3, seed=2, options={"first_dealer": 0})
    ref = Craits(3, seed=2, options={"first_dealer": 0})
    for g in (game, ref):  # a list asked for True first does not refuse seat 1's legal play
        assert g.legal_actions(True) == []
    got = [_outcome(g, 1, play) for g in (game, ref)]
    assert got[0] == got[1] and got[0][0] == "applied"


def _play_on(game: Any, ref: Craits, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if ref.is_over:
            return
        clock = ref.legal_actions(CLOCK)
        seat = CLOCK if clock and rng.random() < 0.01 else ref.to_act[0]
        legal = ref.legal_actions(seat)
        assert game.legal_actions(seat) == legal and game.to_act == ref.to_act
        action = legal[rng.randrange(len(legal))]
        assert list(game.apply(seat, action)) == ref.apply(seat, action)
        assert (game.scores, game.winners, game.is_over) == (ref.scores, ref.winners, ref.is_over)


@pytest.mark.parametrize("seed", range(6))
def test_copies_play_on_independently(seed: int) -> None:
    """A copy and its original go separate ways (the copy's C state is its own), before and after a hand-over."""
    options = {"face_card_functions": True, "turn_time": 30 if seed % 2 else None, **SHORT}
    game = feltroom.new_game("craits", 3 + seed, seed=seed, options=options)
    ref = Craits(3 + seed, seed=seed, options=options)
    rng = random.Random(seed)
    _play_on(game, ref, rng, 200)
    twin, ref_twin = game.copy(), ref.copy()
    _play_on(twin, ref_twin, random.Random(seed + 1), 400)
    _play_on(game, ref, rng, 400)
    for g, r in ((game, ref), (twin, ref_twin)):
        assert g.log == r.log and g.record == r.record and g.view(0) == r.view(0)


def test_a_reordered_legal_list_still_applies_by_name() -> None:
    """A reader may shuffle or sort the list it was given (it is the cached one): actions go by their string."""
    game = feltroom.new_game("craits", 4, seed=12)
    ref = Craits(4, seed=12)
    rng = random.Random(12)
    while not game.is_over:
        seat = game.to_act[0]
        mine, theirs = game.legal_actions(seat), ref.legal_actions(seat)
        assert mine == theirs
        order = rng.random()
        for legal in (mine, theirs):
            legal.reverse() if order < 0.5 else legal.sort()
        action = mine[rng.randrange(len(mine))]
        assert list(game.apply(seat, action)) == ref.apply(seat, action)
    assert game.scores == ref.scores and game.log == ref.log


def test_a_random_subclass_shuffles_like_random() -> None:
    """A ``random.Random`` subclass takes the Python ``shuffle`` path: the same cards."""

    class MyRandom(random.Random):
        pass

    game = feltroom.new_game("craits", 4, seed=8, options={"first_dealer": 1})
    ref = Craits(4, seed=8, options={"first_dealer": 1})
    mine = MyRandom()
    mine.setstate(game.rng.getstate())
    game.rng = mine
    rng = random.Random(0)
    while not game.is_over:
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        assert legal == ref.legal_actions(seat)
        action = legal[rng.randrange(len(legal))]
        assert list(game.apply(seat, action)) == ref.apply(seat, action)
    assert game.scores == ref.scores


def test_clock_hands_over_to_the_reference() -> None:
    game = feltroom.new_game("craits", 3, seed=4, options={"turn_time": 30, "first_dealer": 0})
    ref = Craits(3, seed=4, options={"turn_time": 30, "first_dealer": 0})
    assert isinstance(game, FastGame)
    assert game.legal_actions(CLOCK) == ref.legal_actions(CLOCK) == ["timeout"]
    assert list(game.apply(CLOCK, "timeout")) == ref.apply(CLOCK, "timeout")
    assert not game.core_active
    assert game.to_act == ref.to_act and game.legal_actions(game.to_act[0]) == ref.legal_actions(ref.to_act[0])


def main(argv: list[str]) -> None:
    """A long run: ``python -m tests.test_craits_core GAMES [FIRST_SEED]``."""
    games = int(argv[0]) if argv else 1000
    first = int(argv[1]) if len(argv) > 1 else 10_000
    start = time.perf_counter()
    actions = 0
    for seed in range(first, first + games):
        actions += run_case(seed)
    print(f"{games} games, {actions} actions agree ({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main(sys.argv[1:])
