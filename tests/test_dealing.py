"""The dealing (``feltroom.dealing``, docs/dealing.md): PCG32 against its authors' published
output, the two record formats, golden deals of format 2, format 1 records written before format 2
existed (tests/data/format1), and that nothing that deals touches the ``random`` module."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import feltroom
from feltroom import CLOCK
from feltroom.cards import NAMES
from feltroom.dealing import CURRENT_FORMAT, LegacyDealer, Pcg32Dealer, dealer_for
from feltroom.fastgame import FastGame
from feltroom.game import Game

DATA = Path(__file__).parent / "data"
GAMES = ("crisp", "craits", "cribbage", "krypkasino")

# ---------------------------------------------------------------------------- the generator

# ``pcg32-demo`` (pcg-c-basic) seeded ``pcg32_srandom_r(&rng, 42, 54)``, round 1: six outputs,
# 65 coins (``boundedrand(2)``, H = 1), 33 dice (``boundedrand(6) + 1``), then 52 cards dealt by
# its Fisher–Yates from the end (card c is rank c / 4 of A23456789TJQK, suit c % 4 of h c d s).
DEMO_32BIT = [0xA15C02B7, 0x7B47F409, 0xBA1D3330, 0x83D2F293, 0xBFA4784B, 0xCBED606E]
DEMO_COINS = "HHTTTHTHHHTHTTTHHHHHTTTHHHTHTHTHTTHTTTHHHHHHTTTTHHTTTTTHTTTTTTTHT"
DEMO_ROLLS = "3 4 1 1 2 2 3 2 4 3 2 4 3 3 5 2 3 1 3 1 5 1 4 1 5 6 4 6 6 2 6 3 3"
DEMO_CARDS = ("Qd Ks 6d 3s 3d 4c 3h Td Kc 5c Jh Kd Jd As 4s 4h Ad Th Ac Jc 7s Qs 2s 7h Kh 2d 6c Ah 4d Qh 9h 6s"
              " 5s 2c 9c Ts 8d 9s 3c 8c Js 5d 2h 6h 7d 8s 9d 5h 8h Qc 7c Tc")


def test_pcg32_gives_the_reference_demo_output() -> None:
    rng = Pcg32Dealer.from_pcg(42, 54)
    assert [rng.next32() for _ in range(6)] == DEMO_32BIT
    assert "".join("H" if rng.below(2) else "T" for _ in range(65)) == DEMO_COINS
    assert " ".join(str(rng.below(6) + 1) for _ in range(33)) == DEMO_ROLLS
    cards = list(range(52))
    rng.shuffle(cards)
    assert " ".join("A23456789TJQK"[c // 4] + "hcds"[c % 4] for c in cards) == DEMO_CARDS


def test_a_seed_is_the_initial_state_then_the_stream() -> None:
    assert Pcg32Dealer(2**53 - 1) == Pcg32Dealer.from_pcg(2**53 - 1, 0)
    big = 5 + (7 << 64)  # seeds may be larger than the room's 53 bits
    assert Pcg32Dealer(big) == Pcg32Dealer.from_pcg(5, 7) != Pcg32Dealer(5)
    assert Pcg32Dealer(2**127 - 1).inc == 2**64 - 1


@pytest.mark.parametrize("seed", [-1, 2**127, True, 1.5, "7"])
def test_a_seed_out_of_range_is_refused(seed: Any) -> None:
    with pytest.raises(ValueError, match="format 2 seed"):
        Pcg32Dealer(seed)


def test_below_is_in_range_and_even() -> None:
    rng = Pcg32Dealer(1)
    assert {rng.below(1) for _ in range(50)} == {0}
    counts = Counter(rng.below(3) for _ in range(30_000))
    assert set(counts) == {0, 1, 2} and all(9_500 < c < 10_500 for c in counts.values())
    assert all(0 <= rng.below(2**32) < 2**32 for _ in range(100))
    for n in (0, -3, 2**32 + 1):
        with pytest.raises(ValueError, match="below"):
            rng.below(n)


def test_below_draws_again_below_the_threshold() -> None:
    """For n = 3·2**30 + 1, 2**32 mod n = 2**30 - 1: outputs below it would favour small results."""
    n = 3 * 2**30 + 1
    rng = Pcg32Dealer(99)
    rejected = 0
    for _ in range(200):
        outputs = rng.copy()
        got = rng.below(n)
        r = outputs.next32()
        while r < 2**32 % n:
            rejected += 1
            r = outputs.next32()
        assert got == r % n and outputs == rng
    assert rejected > 20


def test_sample_is_the_shuffle_stopped_early() -> None:
    a = Pcg32Dealer(9)
    b = a.copy()
    drawn = a.sample(range(52), 13)
    pack = list(range(52))
    b.shuffle(pack)
    assert drawn == pack[::-1][:13]
    assert Pcg32Dealer(9).top(range(52), 13) == drawn
    with pytest.raises(ValueError, match="sample of 53"):
        a.sample(range(52), 53)


def test_copies_are_independent() -> None:
    for dealer in (Pcg32Dealer(3), LegacyDealer(3)):
        twin, deep = dealer.copy(), copy.deepcopy(dealer)
        assert twin == dealer == deep
        first = dealer.below(1000)
        assert twin != dealer and twin.below(1000) == deep.below(1000) == first


def test_the_format_chooses_the_dealer() -> None:
    assert type(dealer_for(2, 7)) is Pcg32Dealer and type(dealer_for(1, 7)) is LegacyDealer
    assert dealer_for(1, 7).below(52) == random.Random(7).randrange(52)
    for bad in (0, 3, "2"):
        with pytest.raises(ValueError, match="unknown record format"):
            dealer_for(bad, 7)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", GAMES)
def test_new_games_deal_format_2_and_old_formats_replay_on_the_reference(name: str) -> None:
    game = feltroom.new_game(name, 2, seed=5)
    assert game.format == CURRENT_FORMAT == 2 and game.record["format"] == 2
    assert type(game.rng) is Pcg32Dealer
    old = feltroom.new_game(name, 2, seed=5, format=1)
    assert not isinstance(old, FastGame) and old.record["format"] == 1 and type(old.rng) is LegacyDealer
    assert type(feltroom.replay(old.record)) is type(old)
    assert type(feltroom.replay(game.record)) is type(game)
    fast = feltroom.GAMES[name].fast_class
    if fast is not None:
        assert isinstance(game, FastGame)
        with pytest.raises(ValueError, match="format 2 only"):
            fast(2, seed=5, format=1)  # type: ignore[call-arg]
    for bad in (None, 0, 3, "2", True):
        with pytest.raises(ValueError, match="unknown record format"):
            feltroom.replay({**game.record, "format": bad})


# ---------------------------------------------------------------------------- golden deals (format 2)

SEED = 2**53 - 1
GOLDEN: dict[str, tuple[int, dict[str, Any], dict[str, Any]]] = {
    # name: players, options, {cut draws, first dealer, each seat's first hand, open cards}
    "crisp": (4, {}, {
        "cut": None, "dealer": 3,
        "hands": [["10D", "10H", "3D"], ["4D", "3C", "4C"], ["6D", "9D", "3S"], ["AC", "8C", "9S"]],
        "open": None}),
    "craits": (4, {}, {
        "cut": [[[0, "7C"], [1, "8H"], [2, "AC"], [3, "AS"]]], "dealer": 0,
        "hands": [["5S", "5D", "8H", "9D", "9C", "10C", "JC", "KC"], ["2D", "2C", "3D", "6H", "6D", "7C", "8C", "JS"],
                  ["5C", "7H", "8D", "QS", "QD", "KS", "KH", "KD"], ["AS", "AD", "3H", "4S", "6C", "7S", "9H", "10D"]],
        "open": ["AC"]}),  # the upcard
    "cribbage": (3, {"counting": "automatic"}, {
        "cut": [[[0, "7C"], [1, "8H"], [2, "AC"]]], "dealer": 2,
        "hands": [["AH", "AC", "4S", "5H", "7S"], ["AD", "2S", "2H", "2D", "4D"], ["6H", "8S", "8D", "9S", "JS"]],
        "open": ["QH", "10D"]}),  # the starter, the crib card
    "krypkasino": (2, {}, {
        "cut": None, "dealer": 1,
        "hands": [["3H", "4C", "5C", "7H", "9H", "JH"], ["AH", "2C", "4H", "8D", "10H", "JS"]],
        "open": ["5S", "6C", "9C", "QC"]}),  # the table
}


def first_deal(game: Game) -> dict[str, Any]:
    """The cut, the first dealer, the hands and the open cards of the first deal, from the log."""
    out: dict[str, Any] = {"cut": None, "dealer": None, "hands": {}, "open": None}
    for e in game.log:
        kind = e["type"]
        if kind == "cut":
            out["cut"] = e["draws"]
        if kind in ("cut", "round_start", "hand_start", "deal_start"):
            out["dealer"] = e["dealer"]
        elif kind == "reveal" and e["why"] == "deal":
            out["hands"].setdefault(e["seat"], []).extend(e["cards"])
        elif kind == "upcard":
            out["open"] = [e["card"]]
        elif kind == "table":
            out["open"] = e["cards"]
    ref: Any = game._ref_now() if isinstance(game, FastGame) else game
    if game.name == "crisp":  # a Crisp deal shows each player two of the three cards
        out["hands"] = [[NAMES[c] for c in h] for h in ref.hands]
    else:
        out["hands"] = [out["hands"][s] for s in range(game.players)]
    if game.name == "cribbage":
        out["open"] = [NAMES[ref.next_starter], *(NAMES[c] for c in ref.crib)]
    return out


@pytest.mark.parametrize("name", GAMES)
def test_a_fixed_seed_deals_the_same_first_deal(name: str) -> None:
    players, options, want = GOLDEN[name]
    reference = feltroom.GAMES[name](players, seed=SEED, options=options)
    assert first_deal(reference) == want
    game = feltroom.new_game(name, players, seed=SEED, options=options)  # the compiled core if built
    assert game.rng == reference.rng  # the core drew exactly what the reference drew
    for seat in [*range(players), CLOCK]:
        assert game.legal_actions(seat) == reference.legal_actions(seat)
    assert first_deal(game) == want


def test_a_cribbage_deal_checked_by_hand() -> None:
    """docs/dealing.md's worked example: the golden Cribbage deal from PCG32 outputs alone."""
    rng = Pcg32Dealer.from_pcg(SEED % 2**64, SEED >> 64)

    def draw(k: int) -> list[int]:  # Fisher–Yates from the end, stopped after k cards
        pack = list(range(52))
        out = []
        for i in range(52, 52 - k, -1):
            threshold = 2**32 % i
            r = rng.next32()
            while r < threshold:
                r = rng.next32()
            j = r % i
            out.append(pack[j])
            pack[j] = pack[i - 1]
        return out

    cut = draw(3)  # each player cuts a card; the lowest rank deals (CRIB-DEALER-1)
    assert [NAMES[c] for c in cut] == ["7C", "8H", "AC"]
    dealer = min(range(3), key=lambda s: cut[s] // 4)
    order = draw(17)  # 5 cards each from the dealer's left, one to the crib, the starter last
    hands = [sorted(order[i] for i in range(15) if (dealer + 1 + i) % 3 == s) for s in range(3)]
    _, _, want = GOLDEN["cribbage"]
    assert dealer == want["dealer"]
    assert [[NAMES[c] for c in h] for h in hands] == want["hands"]
    assert [NAMES[order[16]], NAMES[order[15]]] == want["open"]


# ---------------------------------------------------------------------------- format 1 records


def format1_records() -> list[Path]:
    return sorted((DATA / "format1").glob("*.json"))


@pytest.mark.parametrize("path", format1_records(), ids=lambda p: p.stem)
def test_a_format_1_record_replays_as_it_was_played(path: Path) -> None:
    """Written by the code before format 2 (random.Random dealing): still the same game."""
    data = json.loads(path.read_text())
    record = data["record"]
    assert record["format"] == 1 and len(record["actions"]) >= 40
    for game in (feltroom.replay(record), rebuild(record, feltroom.GAMES[record["name"]])):
        assert game.format == 1 and not isinstance(game, FastGame)
        assert json.loads(json.dumps(game.log)) == data["log"]
        assert game.scores == data["scores"] and list(game.to_act) == data["to_act"]
        assert json.loads(json.dumps(game.view(0))) == data["view"]
        assert game.record == record
    # the format is what makes it so: the same seed and actions under format 2 are another game
    try:
        other = feltroom.replay({**record, "format": 2})
    except ValueError:
        return
    assert json.loads(json.dumps(other.log)) != data["log"]


def rebuild(record: dict[str, Any], cls: Callable[..., Game]) -> Game:
    """``replay`` on a given class (the reference engine, as with FELTROOM_PURE=1)."""
    game = cls(record["players"], seed=record["seed"], options=record["options"], deck=record["deck"],
               format=record["format"])
    for seat, action in record["actions"]:
        game.apply(seat, action)
    game.meta = dict(record["meta"])
    return game


# ---------------------------------------------------------------------------- no `random` in a deal


class RandomCalled(AssertionError):
    pass


RANDOM_METHODS = ("__init__", "seed", "random", "getrandbits", "_randbelow", "randrange", "randint", "choice",
                  "choices", "shuffle", "sample", "uniform", "getstate", "setstate", "randbytes")
RANDOM_FUNCTIONS = ("seed", "random", "getrandbits", "randrange", "randint", "choice", "choices", "shuffle",
                    "sample", "uniform", "randbytes")


@contextmanager
def no_random(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``random.Random`` and the module's functions raise ``RandomCalled`` inside the block."""

    def called(*args: Any, **kwargs: Any) -> Any:
        raise RandomCalled("the random module was called")

    with monkeypatch.context() as m:
        for attr in RANDOM_METHODS:
            m.setattr(random.Random, attr, called)
        for name in RANDOM_FUNCTIONS:
            m.setattr(random, name, called)
        yield


def play_out(game: Game, limit: int = 30_000) -> Game:
    """A whole game, deterministically: the legal action at (actions so far) mod (how many)."""
    while not game.is_over:
        assert len(game.actions) < limit, "the game did not end"
        seat = game.to_act[0] if game.to_act else CLOCK
        legal = game.legal_actions(seat)
        game.apply(seat, legal[len(game.actions) % len(legal)])
    return game


def test_the_patch_catches_random(monkeypatch: pytest.MonkeyPatch) -> None:
    with no_random(monkeypatch):
        for call in (lambda: random.Random(1), lambda: random.shuffle([1, 2]), lambda: LegacyDealer(1),
                     lambda: feltroom.new_game("cribbage", 2, seed=1, format=1)):
            with pytest.raises(RandomCalled):
                call()


@pytest.mark.parametrize("name", GAMES)
def test_no_deal_calls_the_random_module(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    players = {"crisp": 4, "craits": 4, "cribbage": 3, "krypkasino": 2}[name]
    options = {"cribbage": {"counting": "automatic", "target": 61}}.get(name, {})
    with no_random(monkeypatch):
        for seed in (SEED, 12):
            fast = play_out(feltroom.new_game(name, players, seed=seed, options=options))
            pure = play_out(feltroom.GAMES[name](players, seed=seed, options=options))
            assert fast.log == pure.log and fast.record == pure.record
            again = feltroom.replay(fast.record)
            assert again.log == pure.log and again.scores == pure.scores
            twin = pure.copy()
            assert twin.rng == pure.rng


@pytest.mark.parametrize("seed", [0, 1, SEED, 2**100 + 3])
def test_the_compiled_shuffle_and_sample_are_the_python_ones(seed: int) -> None:
    """With ``_fastcore`` built, lists are dealt in C; the Python loops are the definition."""
    fastcore = pytest.importorskip("feltroom._fastcore")
    c, py = Pcg32Dealer(seed), Pcg32Dealer(seed)
    for n in (0, 1, 2, 3, 52, 104, 1000):
        a, b = list(range(n)), list(range(n))
        fastcore.pcg32_shuffle(c, a)
        py.py_shuffle(b)
        assert a == b and c == py
        for k in {0, n // 2, n}:
            assert fastcore.pcg32_sample(c, a, k) == py.py_sample(a, k) and c == py
