"""Cribbage in the terminal: the table, the event log, the hotkeys (CRIB-KEY-*), sim figures,
and ``feltroom cribbage-distribution``.

>>> hotkey({"phase": "discard", "to_discard": [1, 0], "dealer": 0, "sides": [[0], [1]]}, "t")
'Still to discard: P1, P0'
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from feltroom.game import Game

HOTKEYS_HELP = (
    "hotkeys: C count / counted hand · B whose crib · F starter · V cards on the table · S score · T whose turn"
)

ONLY_PLAY = "Only during the play"


def _p(seat: int) -> str:
    return f"P{seat}"


def _seats(seats: list[int]) -> str:
    return ", ".join(_p(s) for s in seats)


def _side_name(view: dict[str, Any], seat: int) -> str:
    sides: list[list[int]] = view["sides"]
    for members in sides:
        if seat in members and len(members) > 1:
            return "team " + "+".join(_p(s) for s in members)
    return _p(seat)


def _count_text(show: dict[str, Any] | None) -> str:
    if show is None:
        return "Nothing counted yet"
    owner = f"crib of {_p(show['owner'])}" if show["crib"] else f"hand of {_p(show['owner'])}"
    cards = show["cards"] if isinstance(show["cards"], str) else " ".join(show["cards"])
    text = f"{owner}: {cards} + starter {show.get('starter_card', '')}".rstrip()
    if show["score"] is None:
        return text + " — waiting for the claim"
    if show["claim"] is not None:
        text += f" — claimed {show['claim']}, worth {show['score']}"
    else:
        text += f" — {show['score']} points"
    parts = "; ".join(f"{kind} {' '.join(cards)} ({pts})" for kind, cards, pts in show["breakdown"] or [])
    return text + (f": {parts}" if parts else "")


def hotkey(view: dict[str, Any], key: str) -> str | None:
    """The answer to a hotkey (CRIB-KEY-1..7), read from ``view`` only; ``None`` for other keys.

    Hotkeys never act (CRIB-KEY-7): this function only formats what the view already holds.
    """
    k = key.strip().upper()
    phase = view["phase"]
    if k == "C":  # CRIB-KEY-1
        if phase == "discard":
            return "No count yet"
        if phase == "play":
            go = view.get("go") or []
            return f"Count {view['count']}" + (f"; go: {_seats(go)}" if go else "")
        show = view.get("show")
        starter = view.get("starter") or ""
        last = view.get("last_hand")
        if phase == "over" and show is None and last and last["counted"]:  # ended in the play
            show, starter = last["counted"][-1], last["starter"]
        if show is None:
            return "Nothing counted" if phase == "over" else "Nothing counted yet"
        text = _count_text({**show, "starter_card": starter})
        counted = view.get("counted") or []
        if show["score"] is None and counted:  # the count just resolved stays readable
            text += " · last counted: " + _count_text({**counted[-1], "starter_card": starter})
        return text
    if k == "B":  # CRIB-KEY-2
        dealer = view["dealer"]
        return f"{_p(dealer)}'s crib" + (f" ({_side_name(view, dealer)})" if _side_name(view, dealer) != _p(dealer)
                                         else "")
    if k == "F":  # CRIB-KEY-3
        starter = view.get("starter")
        if starter is None:
            return "Starter not turned yet" if phase != "over" else "No starter was turned"
        return f"Starter {starter}"
    if k == "V":  # CRIB-KEY-4
        if phase != "play":
            return ONLY_PLAY
        played = view["played"]
        start = view["series_start"]
        if not played:
            return "No card played yet"
        cells = [f"{card}({_p(seat)})" for seat, card in played]
        if start:  # a bar marks where the current series begins
            return (" ".join(cells[:start]) + " | " + " ".join(cells[start:])).rstrip()
        return " ".join(cells)
    if k == "S":  # CRIB-KEY-5
        totals = ", ".join(f"{_side_name(view, m[0])} {view['side_scores'][i]}" for i, m in enumerate(view["sides"]))
        if phase == "over":
            winners = view["winners"]
            return f"Final: {totals}; winner {_side_name(view, winners[0]) if winners else '—'}"
        return f"{totals} (target {view['target']})"
    if k == "T":  # CRIB-KEY-6
        if phase == "over":
            return "Game over"
        if phase == "discard":
            return f"Still to discard: {_seats(view['to_discard'])}"
        to_act = view["to_act"]
        if phase == "play":
            return f"{_p(to_act[0])} to play" if to_act else "—"
        return f"{_p(to_act[0])} to claim" if to_act else "Counting…"
    return None


def render(view: dict[str, Any]) -> str:
    """The table as text for the seat whose view it is."""
    seat = view["seat"]
    lines = [
        f"Hand {view['hand_no']} · dealer {_p(view['dealer'])} · target {view['target']} · phase {view['phase']}",
        "Score: " + ", ".join(f"{_side_name(view, m[0])} {view['side_scores'][i]}"
                              for i, m in enumerate(view["sides"])),
        f"Starter: {view['starter'] or '—'} · crib {view['crib_size']} card(s) · hands "
        + " ".join(f"{_p(s)}:{n}" for s, n in enumerate(view["hand_sizes"])),
    ]
    if view["phase"] == "play":
        played = view["played"][view["series_start"]:]
        lines.append(f"Count {view['count']}: " + (" ".join(f"{c}({_p(s)})" for s, c in played) or "—")
                     + (f" · go: {_seats(view['go'])}" if view["go"] else ""))
    if view["phase"] in ("show", "over") and view.get("show"):
        lines.append(_count_text({**view["show"], "starter_card": view.get("starter") or ""}))
    if seat is not None:
        lines.append("Your hand: " + (" ".join(view["hand"]) or "—")
                     + (f" · your discards: {' '.join(view['discards'])}" if view["discards"] else ""))
    if view["over"]:
        lines.append("Game over — winners: " + _seats(view["winners"]))
    return "\n".join(lines)


def describe(event: dict[str, Any], seat: int | None) -> str | None:
    """One line of the event log, or ``None`` for events not worth a line."""
    t = event["type"]
    if t == "cut":
        rounds = " / ".join(" ".join(f"{_p(s)} {c}" for s, c in r) for r in event["draws"])
        return f"Cut for deal: {rounds} → {_p(event['dealer'])} deals"
    if t == "hand_start":
        return f"Hand {event['hand']}: {_p(event['dealer'])} deals"
    if t == "reveal":
        return f"Your cards: {' '.join(event['cards'])}"
    if t == "crib_card":
        return "One card from the stock goes face down into the crib"
    if t == "discard":
        return f"{_p(event['seat'])} discards {event['n']} card(s) to the crib"
    if t == "starter":
        return f"Starter: {event['card']}"
    if t == "play":
        return f"{_p(event['seat'])} plays {event['card']} (count {event['count']})"
    if t == "go":
        return f"{_p(event['seat'])}: go"
    if t == "reset":
        return "Count back to 0"
    if t == "score":
        if event["reason"] in ("muggins", "heels"):
            what = "muggins" if event["reason"] == "muggins" else "his heels"
            return f"{_p(event['seat'])} scores {event['points']} ({what})"
        parts = ", ".join(f"{k.replace('_', ' ')} {p}" for k, p in event["parts"])
        return f"{_p(event['seat'])} scores {event['points']} ({event['reason']}: {parts})"
    if t == "show":
        what = "crib" if event["crib"] else "hand"
        return f"{_p(event['owner'])}'s {what}: {' '.join(event['cards'])} + {event['starter']}"
    if t == "count":
        what = "crib" if event["crib"] else "hand"
        text = f"{_p(event['owner'])}'s {what} is worth {event['score']}"
        if "claim" in event:
            who = "the clock" if event["by"] == "CLOCK" else _p(event["by"])
            text += f"; claim {event['claim']} by {who}"
            if event["muggins"]:
                m = event["muggins"]
                text += f"; muggins: {_p(m['seat'])} takes {m['points']}"
        return text
    if t == "timeout":
        return f"Time is up for {_seats(event['seats'])}"
    if t == "game_end":
        return f"Game over: {_seats(event['winners'])} win(s) · scores {event['side_scores']}"
    return None


def sim_stats(game: Game, levels: list[str]) -> dict[str, list[float | None]]:
    """Per seat: mean points pegged per hand, mean hand score (show), mean crib score."""
    n = game.players
    pegged = [0.0] * n
    hand_pts: list[list[int]] = [[] for _ in range(n)]
    crib_pts: list[list[int]] = [[] for _ in range(n)]
    hands = 0
    for e in game.log:
        t = e["type"]
        if t == "hand_start":
            hands += 1
        elif t == "score" and e["reason"] == "play":
            pegged[e["seat"]] += e["points"]
        elif t == "count":
            (crib_pts if e["crib"] else hand_pts)[e["owner"]].append(e["score"])
    return {
        "pegged/hand": [p / hands if hands else None for p in pegged],
        "hand score": [sum(h) / len(h) if h else None for h in hand_pts],
        "crib score": [sum(c) / len(c) if c else None for c in crib_pts],
    }


def add_commands(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "cribbage-distribution",
        help="score every cribbage hand with every starter and print the distribution",
    )
    p.add_argument("--by-pattern", action="store_true",
                   help="count by rank patterns with multiplicities instead of visiting every hand")
    p.set_defaults(run=run_distribution)


PUBLISHED = {0: 1009008, 1: 99792, 2: 2813796, 24: 3680, 28: 76, 29: 4}


def run_distribution(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from feltroom.games.cribbage import distribution, exhaustive_distribution

    console = Console()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    start = time.perf_counter()
    with Progress(*columns, console=console, transient=True) as progress:
        if args.by_pattern:
            task = progress.add_task("rank patterns of a hand (× 13 starters)", total=1820)
            dist = distribution(lambda done, total: progress.update(task, completed=done))
        else:
            task = progress.add_task("hands (270,725, each with its 48 starters)", total=270725)
            dist = exhaustive_distribution(lambda done, total: progress.update(task, completed=done))
    seconds = time.perf_counter() - start
    total = sum(dist.values())
    table = Table(title=f"Cribbage hand scores: {total:,} hand+starter pairs")
    table.add_column("score", justify="right")
    table.add_column("hands", justify="right")
    table.add_column("share", justify="right")
    for score in range(30):
        n = dist.get(score, 0)
        table.add_row(str(score), f"{n:,}", f"{n / total:.4%}")
    console.print(table)
    mean = sum(s * n for s, n in dist.items()) / total
    impossible = [s for s in range(30) if not dist.get(s)]
    console.print(f"mean {mean:.4f} · impossible scores {impossible} · max {max(dist)}")
    ok = total == 12994800 and all(dist.get(s, 0) == n for s, n in PUBLISHED.items())
    console.print(("matches" if ok else "DOES NOT MATCH") + " the published distribution")
    console.print(f"time {seconds:.3f} s")
    return 0 if ok else 1
