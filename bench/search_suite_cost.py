"""What the search-bot suite's random-option games cost, one game at a time (#15).

Plays the games of ``tests/test_search_bot.py``'s slow tier for ``GAME`` (the same tables, seeds,
seats and opponents: one search bot at budget 2 against heuristic and random bots, conformance
checks on) and prints one JSON line per game: its seat count, whether it is a two-deck Craits
table, its CPU seconds, the search decisions and how many of them fell back to the guide
(``NoHistory``), then a line of totals. ``--two-decks`` switches the two-deck Craits sampler on (off by default:
``CraitsKnowledge.two_decks``) and ``--only-two-decks`` plays only those tables; ``--part K/N``
plays every N-th game from the K-th, to split a run over processes. The figures decide whether
the suite can afford two-deck Craits searched (docs/bots.md).

    .venv/bin/python bench/search_suite_cost.py craits --two-decks --only-two-decks --part 0/2
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.conformance import check_bot_game
from tests.test_search_bot import GAMES_EACH, searched_table, two_deck_craits

from feltroom.bots.search import SearchBot
from feltroom.games.craits_knowledge import CraitsKnowledge


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--two-decks", action="store_true", help="switch the two-deck Craits sampler on")
    parser.add_argument("--only-two-decks", action="store_true", help="play the two-deck Craits tables only")
    parser.add_argument("--part", default="0/1", help="K/N: every N-th game from the K-th")
    args = parser.parse_args()
    part, parts = (int(x) for x in args.part.split("/"))
    CraitsKnowledge.two_decks = args.two_decks
    CraitsKnowledge.strict = True  # as the suite replays samples
    searches = [0]
    search = SearchBot._search

    def counted(self: SearchBot, first: str, legal: list[str]) -> str:
        searches[0] += 1
        return search(self, first, legal)

    SearchBot._search = counted  # type: ignore[method-assign]
    total = {"games": 0, "seconds": 0.0, "searches": 0, "fallbacks": 0, "games_with_fallbacks": 0}
    for g in range(part, GAMES_EACH, parts):
        seats, options, seat, bots, seed = searched_table(args.game, g, budget=2)
        two_decks = two_deck_craits(args.game, seats, options)
        if args.only_two_decks and not two_decks:
            continue
        searches[0] = 0
        start = time.process_time()
        check_bot_game(args.game, seats, seed, options, bots, checked=seat.__eq__)
        line = {"seconds": time.process_time() - start, "searches": searches[0],
                "fallbacks": getattr(bots[seat], "fallbacks", 0)}
        print(json.dumps({"game": g, "seats": seats, "two_decks": two_decks, **line,
                          "seconds": round(line["seconds"], 2)}), flush=True)
        total["games"] += 1
        total["games_with_fallbacks"] += line["fallbacks"] > 0
        for key, value in line.items():
            total[key] += value
    print(json.dumps({"total": True, **total, "seconds": round(total["seconds"], 1)}), flush=True)


if __name__ == "__main__":
    main()
