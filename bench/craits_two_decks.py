"""Two-deck Craits sampling (CRAITS-SETUP-1) at random-option tables: how often it fails, what it costs.

Plays heuristic games at 7–10 players and at 6 with ``decks`` 2, options drawn as a lobby could
set them (as the search-bot tests do), and at every ``--every``-th decision of one seat (that has a
choice) draws samples from that seat's tracker, fed the seat's events as a bot is: the first
sample of the decision (it pays for reading the new events and the search for a first history)
and ``--later`` more. A sample that raises is counted by its exception type and message; one that
takes longer than ``--timeout`` seconds (wall clock, only to keep the bench short: samples
themselves never look at a clock) is counted as a timeout. After ``NoHistory`` the tracker goes on
(as a search bot's does: the next decision tries again); after any other failure it is built
afresh from all the seat's events.

    PYTHONPATH=src nice -n 15 .venv/bin/python bench/craits_two_decks.py [--games 30] [--every 3]
        [--later 2] [--timeout 20] [--seed 0] [--out lines.jsonl]
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import statistics
import time
from collections import Counter
from typing import Any

import feltroom
from feltroom.bots import make_bot
from feltroom.catalog import fixed_options, lobby_fields
from feltroom.game import CLOCK
from feltroom.games.craits_knowledge import CraitsKnowledge
from feltroom.knowledge import Knowledge, NoHistory, tracker
from feltroom.views import events_for


class Timeout(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise Timeout


def table(rng: random.Random) -> tuple[int, dict[str, Any]]:
    """A two-deck table a lobby could set, at random (6 players with decks 2, or 7-10)."""
    cls = feltroom.GAMES["craits"]
    players = rng.choice([6, 7, 8, 9, 10])
    options = {f["key"]: rng.choice(f["values"]) for f in lobby_fields(cls, players)}
    if players == 6:
        options["decks"] = 2
    return players, {**options, "short_game": True, **fixed_options(cls)}


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    CraitsKnowledge.two_decks = True
    signal.signal(signal.SIGALRM, _alarm)
    lines: list[dict[str, Any]] = []
    for g in range(args.games):
        rng = random.Random(args.seed * 1_000_003 + g)
        players, options = table(rng)
        seat = g % players
        game = feltroom.new_game("craits", players=players, seed=rng.randrange(2**31), options=options)
        bots = [make_bot("heuristic", "craits", s, players, options, g * 16 + s) for s in range(players)]
        seen = [0] * players
        k: Knowledge | None = None
        fed = 0
        decisions = 0
        while not game.is_over:
            seats = game.to_act
            if not seats:
                game.apply(CLOCK, game.legal_actions(CLOCK)[0])
                continue
            s = seats[0]
            log = game.log
            if len(log) > seen[s]:
                bots[s].observe(events_for(log[seen[s]:], s))
                seen[s] = len(log)
            legal = game.legal_actions(s)
            if s == seat and len(legal) > 1:
                decisions += 1
                if decisions % args.every == 0:
                    if k is None:
                        k, fed = tracker("craits", seat, players, options), 0
                    k.observe(events_for(log[fed:], seat))
                    fed = len(log)
                    line: dict[str, Any] = {"game": g, "players": players, "decks": options.get("decks"),
                                            "actions": len(game.actions), "ok": True}
                    times = []
                    signal.alarm(args.timeout)
                    try:
                        for i in range(1 + args.later):
                            t = time.perf_counter()
                            k.sample(random.Random(i))
                            times.append(time.perf_counter() - t)
                    except Timeout:
                        line.update(ok=False, error="timeout")
                        k = None
                    except NoHistory as e:  # the tracker goes on, as a search bot's does
                        line.update(ok=False, error=f"NoHistory: {str(e)[:100]}")
                    except Exception as e:  # counted by type and message
                        line.update(ok=False, error=f"{type(e).__name__}: {str(e)[:100]}")
                        k = None
                    finally:
                        signal.alarm(0)
                    line["ms"] = [round(x * 1000, 1) for x in times]
                    lines.append(line)
                    if args.out:
                        with open(args.out, "a") as f:
                            f.write(json.dumps(line) + "\n")
            game.apply(s, bots[s].choose(game.view(s) if bots[s].needs_view else None, legal))
    return lines


def summary(lines: list[dict[str, Any]]) -> None:
    bad = [x for x in lines if not x["ok"]]
    print(f"{len(lines)} decisions, {len(bad)} failed ({100 * len(bad) / max(1, len(lines)):.1f} %)")
    for err, n in Counter(x["error"] for x in bad).most_common():
        print(f"  {n:4d}  {err}")
    first = sorted(x["ms"][0] for x in lines if x["ms"])
    later = sorted(t for x in lines for t in x["ms"][1:])
    for name, ts in (("first sample", first), ("later samples", later)):
        if ts:
            q = statistics.quantiles(ts, n=20) if len(ts) > 1 else ts * 19
            print(f"{name}: n {len(ts)}, median {statistics.median(ts):.0f} ms, p95 {q[18]:.0f}, max {ts[-1]:.0f}")
    per = Counter((x["players"], x["ok"]) for x in lines)
    print("per table size (ok/failed):", {p: f"{per[p, True]}/{per[p, False]}" for p in sorted({x[0] for x in per})})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--later", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="")
    ap.add_argument("--summary", default="", help="summarise a file of lines written by --out")
    args = ap.parse_args()
    if args.summary:
        with open(args.summary) as f:
            summary([json.loads(x) for x in f])
        return
    summary(run(args))


if __name__ == "__main__":
    main()
