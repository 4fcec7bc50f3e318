"""A long random-play conformance run for Crisp, outside the test suite.

By default runs ``tests.conformance.check_random_game`` (every check after every action)
over 2–8 players and the option mixes of ``tests/test_crisp_conformance.py``, with seeds
that the suite does not use, and reports failures with everything needed to reproduce them.

``--light`` runs the same checks with set-based audits (Crisp has one deck, so a card
is either known to a seat or not): every event is audited for every recipient as it is
emitted, every view of every seat and the spectator after every action, cards
conserved, the driver invariant, legal lists against ``to_act``, a rejected action every
``--reject-every`` steps (nothing may change), and the replay of the record at the end.

    .venv/bin/python bench/crisp_conformance.py --games 100000 [--light] [--start 1000000] [--reject-every 23]
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import json
import random
import re

from tests.conformance import check_random_game, random_step, try_rejected

import feltroom
from feltroom import CLOCK
from feltroom.game import Event, Game
from feltroom.games.crisp import Crisp

CARD = re.compile(r'"((?:10|[2-9AJQK])[SHDC])"')
NAMES = feltroom.cards.NAMES


class FastAudit(list[Event]):
    """Audits each event at emission: no recipient may be sent a card it may not know."""

    def __init__(self, game: Crisp, events: list[Event]) -> None:
        super().__init__(events)
        self.game = game

    def append(self, event: Event) -> None:
        g = self.game
        to = event["to"]
        assert to == "all" or (isinstance(to, list) and to == sorted(set(to))), event
        if event["type"] == "reveal":
            assert to == [event["seat"]], event
        cards = set(CARD.findall(json.dumps(event)))
        if cards:
            seats: list[int | None] = [*list(range(g.players)), None] if to == "all" else list(to)
            for s in seats:
                bad = cards & {NAMES[c] for c in g.audit_hidden(s)}
                assert not bad, f"event {event} leaks {bad} to {s}"
        super().append(event)


def check_light(game: Crisp) -> None:
    assert sorted(game.audit_cards()) == list(range(52)), "cards not conserved"
    assert game.is_over or game.to_act or game.legal_actions(CLOCK)
    for s in [*range(game.players), None]:
        text = json.dumps(game.view(s))
        bad = set(CARD.findall(text)) & {NAMES[c] for c in game.audit_view_hidden(s)}
        assert not bad, f"view of {s} shows {bad}"
    for s in [*range(game.players), CLOCK]:
        legal = game.legal_actions(s)
        assert len(legal) == len(set(legal))
        if s != CLOCK:
            assert bool(legal) == (s in game.to_act)


def light_game(players: int, seed: int, options: dict[str, Any], reject_every: int) -> Game:
    game = feltroom.new_game("crisp", players=players, seed=seed, options=options)
    assert isinstance(game, Crisp)
    rng = random.Random(seed)
    game.log = FastAudit(game, [])
    fresh = feltroom.new_game("crisp", players=players, seed=seed, options=options)
    for e in fresh.log:
        game.log.append(e)
    check_light(game)
    for step in range(20_000):
        if game.is_over:
            break
        if step % reject_every == 0:
            try_rejected(game, rng)
        seat, action = random_step(game, rng)
        n = len(game.log)
        events = game.apply(seat, action)
        assert events == game.log[n:]
        check_light(game)
    else:
        raise AssertionError("not over after 20,000 actions")
    again = feltroom.replay(json.loads(json.dumps(game.record)))
    assert list(again.log) == list(game.log) and again.scores == game.scores
    return game

MIXES: list[dict[str, Any]] = [
    {"end_limit": 10},
    {"end_limit": 20, "draw_from_discard": True},
    {"end_limit": 15, "clock": True},
    {"end_limit": 25, "clock": True, "draw_time": 30},
    {"end_limit": 20, "clock": True, "draw_time": 60, "draw_from_discard": True},
    {"end_limit": 40, "clock": True, "draw_from_discard": True},
    {"end_limit": 100, "clock": True, "draw_time": 45},
]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--start", type=int, default=1_000_000)
    ap.add_argument("--reject-every", type=int, default=23)
    ap.add_argument("--light", action="store_true", help="set-based audits (much faster), same checks")
    args = ap.parse_args()
    t0 = time.perf_counter()
    failures: list[str] = []
    actions = rounds = 0
    for i in range(args.games):
        seed = args.start + i
        players = 2 + i % 7
        options = MIXES[(i // 7) % len(MIXES)]
        try:
            if args.light:
                game = light_game(players, seed, options, args.reject_every)
            else:
                game = check_random_game("crisp", players, seed, options, reject_every=args.reject_every)
        except Exception:  # report, keep going
            failures.append(f"players={players} seed={seed} options={options}\n{traceback.format_exc()}")
            continue
        actions += len(game.actions)
        rounds += sum(1 for e in game.log if e["type"] == "round_end")
        if (i + 1) % 10_000 == 0:
            print(f"{i + 1} games, {time.perf_counter() - t0:.0f} s, {len(failures)} failures", flush=True)
    dt = time.perf_counter() - t0
    print(f"{args.games} games ({rounds} rounds, {actions} actions) in {dt:.0f} s "
          f"({args.games / dt:.0f} games/s); failures: {len(failures)}")
    for f in failures[:20]:
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
