"""Krypkasino in the terminal: the table from a view, one line per event, and sim figures.

>>> print(describe({"type": "sweep", "to": "all", "seat": 1, "previous": 0, "markers": ["10C"],
...                 "points": 5, "double": False}, 1))
Sweep! You +5, P0 −5 (marker 10♣)
>>> describe({"type": "play", "to": "all", "seat": 2, "card": "9D", "taken": ["2H", "7S"]}, 0)
'P2 plays 9♦, takes 2♥ 7♠'
"""

from __future__ import annotations

from typing import Any

from feltroom.game import Game

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _card(name: str) -> str:
    return name[:-1] + SUITS[name[-1]]


def _cards(names: list[str]) -> str:
    return " ".join(_card(c) for c in names) if names else "—"


def _who(seat: int, me: int | None) -> str:
    return "You" if seat == me else f"P{seat}"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else ("0" if n == 0 else f"−{-n}")


def render(view: dict[str, Any]) -> str:
    """The table as text for the seat whose view it is (or a spectator).

    >>> v = {"seat": 0, "players": 2, "deal_no": 1, "deals": 2, "dealer": 1, "packet": 1, "packets": 12,
    ...      "last_packet": False, "stock_size": 88, "table": ["2H", "7S"], "spade_faces": ["KS"], "dead": [],
    ...      "hand": ["4C", "9D"], "hand_sizes": [2, 2], "piles": [{"size": 0, "markers": []}] * 2,
    ...      "ledger": [], "last_capturer": None, "scores": [0, 0], "to_act": [0], "over": False,
    ...      "winners": [], "deal_scores": []}
    >>> print(render(v))  # doctest: +NORMALIZE_WHITESPACE
    Krypkasino — deal 1/2, dealer P1, packet 1/12, stock 88
    Table: 2♥ 7♠
    Spade faces aside: K♠   Dead: —
      You  hand 2  pile 0  score 0  ← to play
      P1   hand 2  pile 0  score 0  (dealer)
    Your hand: 4♣ 9♦
    """
    me = view.get("seat")
    lines = [
        f"Krypkasino — deal {view['deal_no']}/{view['deals']}, dealer P{view['dealer']}, "
        f"packet {view['packet']}/{view['packets']}{' (LAST)' if view['last_packet'] else ''}, "
        f"stock {view['stock_size']}",
        f"Table: {_cards(view['table'])}",
        f"Spade faces aside: {_cards(view['spade_faces'])}   Dead: {_cards(view['dead'])}",
    ]
    for seat in range(view["players"]):
        pile = view["piles"][seat]
        marks = f" markers {_cards(pile['markers'])}" if pile["markers"] else ""
        tags = []
        if seat in view["to_act"]:
            tags.append("← to play")
        if seat == view["dealer"]:
            tags.append("(dealer)")
        if seat == view["last_capturer"]:
            tags.append("(last capture)")
        if seat in view["winners"]:
            tags.append("WINNER")
        lines.append(f"  {_who(seat, me):<4} hand {view['hand_sizes'][seat]}  pile {pile['size']}{marks}  "
                     f"score {view['scores'][seat]}  {' '.join(tags)}".rstrip())
    if view["deal_scores"]:
        lines.append("Deals: " + " | ".join(" ".join(str(s) for s in d) for d in view["deal_scores"]))
    if me is not None and "hand" in view:
        lines.append(f"Your hand: {_cards(view['hand'])}")
    if view["over"]:
        lines.append("Match over. Winner(s): " + ", ".join(_who(s, me) for s in view["winners"]))
    return "\n".join(lines)


def describe(event: dict[str, Any], seat: int | None) -> str | None:
    """One line of the event log for ``seat`` (``None``: a spectator); ``None`` to skip."""
    kind = event["type"]
    if kind == "deal_start":
        return f"Deal {event['deal']}/{event['deals']}: P{event['dealer']} deals"
    if kind == "reveal":
        return f"Your {'hand' if event['why'] == 'deal' else 'new cards'}: {_cards(event['cards'])}"
    if kind == "table":
        return f"Table laid: {_cards(event['cards'])}"
    if kind == "remove":
        return f"Face cards off the table: spades aside {_cards(event['spades'])}, dead {_cards(event['dead'])}"
    if kind == "packet":
        return f"Packet {event['packet']} dealt{' — the LAST packet' if event['last'] else ''}"
    if kind == "play":
        who = _who(event["seat"], seat)
        verb = "play" if who == "You" else "plays"
        if event["taken"]:
            return f"{who} {verb} {_card(event['card'])}, takes {_cards(event['taken'])}"
        return f"{who} {verb} {_card(event['card'])} (trailed)"
    if kind == "sweep":
        kind_ = "Double sweep" if event["double"] else "Sweep"
        return (f"{kind_}! {_who(event['seat'], seat)} +{event['points']}, {_who(event['previous'], seat)} "
                f"−{event['points']} (marker{'s' if len(event['markers']) > 1 else ''} {_cards(event['markers'])})")
    if kind == "award":
        return (f"{_who(event['seat'], seat)} take{'' if event['seat'] == seat else 's'} the rest: "
                f"{_cards(event['cards'])} and spade faces {_cards(event['spade_faces'])}")
    if kind == "deal_end":
        parts = [f"P{s} {p} pts {_signed(t)} = {d}" for s, (p, t, d) in
                 enumerate(zip(event["card_points"], event["transfers"], event["deal_scores"], strict=True))]
        return f"Deal {event['deal']} scored: " + "; ".join(parts) + f". Totals {event['scores']}"
    if kind == "timeout":
        return "Time is up for " + ", ".join(_who(s, seat) for s in event["seats"])
    if kind == "game_end":
        return f"Match over: totals {event['scores']}, winner(s) " + ", ".join(f"P{s}" for s in event["winners"])
    if kind in ("timer", "timer_stop"):
        return None
    return None


def sim_stats(game: Game, levels: list[str]) -> dict[str, list[float | None]]:
    """Per seat: card points per deal (`pts/deal`), sweeps made (`sweeps`) and suffered (`swept on`) per
    deal, and double sweeps made per match (`doubles`)."""
    n = game.players
    points = [0.0] * n
    made = [0.0] * n
    suffered = [0.0] * n
    doubles = [0.0] * n
    deals = 0
    for e in game.log:
        if e["type"] == "deal_end":
            deals += 1
            for s, p in enumerate(e["card_points"]):
                points[s] += p
        elif e["type"] == "sweep":
            made[e["seat"]] += 1
            suffered[e["previous"]] += 1
            doubles[e["seat"]] += e["double"]
    d = max(deals, 1)
    return {
        "pts/deal": [p / d for p in points],
        "sweeps": [m / d for m in made],
        "swept on": [m / d for m in suffered],
        "doubles": list(doubles),
    }
