"""Craits in the terminal: the table from a view, one line per event, and sim figures.

>>> describe({"type": "play", "to": "all", "seat": 2, "card": "8S", "suit": "H", "one": True, "run": None}, 0)
'P2 plays 8♠, names ♥ — "One card!"'
>>> describe({"type": "draw", "to": "all", "seat": 1, "n": 5, "why": "count"}, 1)
'You pick up the count: 5 cards'
"""

from __future__ import annotations

from typing import Any

from feltroom.game import Game

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
WHY_DRAW = {
    "turn": "draw{s} 1 card", "count": "pick{s} up the count: {n} cards", "five": "draw{s} 1 (a five)",
    "seven": "draw{s} 1 (a seven)", "jack": "draw{s} {n} (jacks)", "queen_spades": "draw{s} {n} (the Q♠)",
    "penalty": "draw{s} {n} (no \"one card\" call)", "idiot_card": "draw{s} an idiot card",
}
WHY_END = {"out": "someone went out", "count": "the count ended with a player out",
           "stock": "nothing left to reshuffle"}


def _card(name: str | None) -> str:
    return "—" if name is None else name[:-1] + SUITS[name[-1]]


def _cards(names: list[str]) -> str:
    return " ".join(_card(c) for c in names) if names else "—"


def _who(seat: int, me: int | None) -> str:
    return "You" if seat == me else f"P{seat}"


def render(view: dict[str, Any]) -> str:
    """The table as text for the seat whose view it is (or a spectator).

    >>> v = {"seat": 0, "players": 2, "phase": "play", "hand_no": 3, "cards_per_hand": 6, "dealer": 1,
    ...      "turn": 0, "hand": ["2C", "8S", "KH"], "hand_sizes": [3, 6], "stock_size": 30, "discard_top": "9D",
    ...      "discard_size": 4, "active_suit": "H", "direction": "cw", "count": 2, "six": False, "run": None,
    ...      "jack_streak": 0, "penalties": [1], "declared": [], "shuffle_penalties": [0, 1], "scores": [12, 40],
    ...      "options": {"short_game": False}, "over": False, "winners": [], "to_act": [0], "last_hand": None}
    >>> print(render(v))
    Craits — hand 3/15 (6 cards), dealer P1, direction clockwise
    Top 9♦  active suit ♥  discard 4  stock 30
    COUNT 2: play an ace or a 2, or pick it up
      You  cards 3   score 12  ← to play
      P1   cards 6   score 40 (dealer) penalty turn pending, shuffles 1
    Your hand: 2♣ 8♠ K♥
    """
    me = view.get("seat")
    hands = 8 if view["options"].get("short_game") else 15
    direction = "clockwise" if view["direction"] == "cw" else "counter-clockwise"
    lines = [f"Craits — hand {view['hand_no']}/{hands} ({view['cards_per_hand']} cards), dealer P{view['dealer']}, "
             f"direction {direction}"]
    if view["discard_top"] is not None:
        lines.append(f"Top {_card(view['discard_top'])}  active suit {SUITS[view['active_suit']]}  "
                     f"discard {view['discard_size']}  stock {view['stock_size']}")
    else:
        lines.append(f"Upcard not turned yet  stock {view['stock_size']}")
    phase = view["phase"]
    if phase == "suit":
        lines.append(f"P{view['dealer']} chooses the suit for the upcard")
    elif phase == "declare":
        lines.append("One card each: declare \"one\"! Declared: "
                     + (", ".join(f"P{s}" for s in view["declared"]) or "nobody yet"))
    if view["count"]:
        lines.append(f"COUNT {view['count']}: play an ace or a 2, or pick it up")
    if view["six"]:
        lines.append("A six: play again, or draw")
    if view["run"]:
        lines.append(f"King run: card {view['run']} of 3")
    if view["jack_streak"] and view["options"].get("face_card_functions"):
        lines.append(f"Jacks in a row: {view['jack_streak']}")
    for seat in range(view["players"]):
        tags = []
        if seat == view["dealer"]:
            tags.append("(dealer)")
        if seat in view["penalties"]:
            tags.append("penalty turn pending")
        if view["shuffle_penalties"][seat]:
            tags.append(f"shuffles {view['shuffle_penalties'][seat]}")
        arrow = "  ← to play" if seat in view["to_act"] else ""
        name = "You" if seat == me else f"P{seat}"
        lines.append(f"  {name:4} cards {view['hand_sizes'][seat]:<3} score {view['scores'][seat]}{arrow}"
                     + (" " + ", ".join(tags).replace("(dealer), ", "(dealer) ") if tags else ""))
    if me is not None:
        lines.append(f"Your hand: {_cards(view['hand'])}")
    if view["over"]:
        lines.append("Game over — winner" + ("s" if len(view["winners"]) > 1 else "") + ": "
                     + ", ".join(f"P{s}" for s in view["winners"]))
    return "\n".join(lines)


def describe(event: dict[str, Any], seat: int | None) -> str | None:
    """One line of the event log for ``seat`` (``None``: a spectator); ``None`` to skip."""
    kind = event["type"]
    if kind == "cut":
        draws = "; ".join(" ".join(f"P{s} {_card(c)}" for s, c in r) for r in event["draws"])
        return f"Cut for the deal: {draws} — P{event['dealer']} deals"
    if kind == "hand_start":
        return (f"Hand {event['hand']}: P{event['dealer']} deals {event['cards']} card"
                f"{'s' if event['cards'] > 1 else ''} each")
    if kind == "reveal":
        return f"Your {'hand' if event['why'] == 'deal' else 'new cards'}: {_cards(event['cards'])}"
    if kind == "upcard":
        return f"Upcard: {_card(event['card'])}"
    if kind == "suit":
        return f"{_who(event['seat'], seat)} name{'' if event['seat'] == seat else 's'} {SUITS[event['suit']]}"
    if kind == "play":
        who = _who(event["seat"], seat)
        text = f"{who} play{'' if who == 'You' else 's'} {_card(event['card'])}"
        if event["card"][:-1] in ("8", "9") and event["suit"] != event["card"][-1]:
            text += f", names {SUITS[event['suit']]}"
        if event["run"]:
            text += f" (run card {event['run']})"
        return text + (' — "One card!"' if event["one"] else "")
    if kind == "draw":
        who = _who(event["seat"], seat)
        s = "" if who == "You" else "s"
        return f"{who} " + WHY_DRAW.get(event["why"], "draw{s} {n}").format(s=s, n=event["n"])
    if kind == "reshuffle":
        return f"Stock empty: the discards are reshuffled ({event['stock_size']} cards)"
    if kind == "shuffle_penalty":
        return f"Shuffle penalty #{event['k']} for {_who(event['seat'], seat)}: +{event['points']}"
    if kind == "skip":
        return f"{_who(event['seat'], seat)} miss{'' if event['seat'] == seat else 'es'} a turn ({event['why']})"
    if kind == "direction":
        return "Direction reversed: " + ("clockwise" if event["direction"] == "cw" else "counter-clockwise")
    if kind == "count":
        return f"The count is {event['value']}"
    if kind == "count_end":
        return f"The count of {event['value']} ends on {_who(event['seat'], seat)}"
    if kind == "idiot":
        return f"Idiot! {_who(event['seat'], seat)} forgot to call \"one card\""
    if kind == "declare":
        return f"{_who(event['seat'], seat)}: \"One card!\""
    if kind == "timeout":
        return "Time! " + ", ".join(_who(s, seat) for s in event["seats"]) + " ran out of time"
    if kind == "hand_end":
        scores = ", ".join(f"{_who(s, seat)} {'+' if p >= 0 else ''}{p}" for s, p in enumerate(event["hand_scores"]))
        return f"Hand {event['hand']} over ({WHY_END.get(event['why'], event['why'])}): {scores}"
    if kind == "game_end":
        return "Game over: " + ", ".join(f"{_who(s, seat)} {p}" for s, p in enumerate(event["scores"])) + \
            " — won by " + ", ".join(_who(s, seat) for s in event["winners"])
    return None


def sim_stats(game: Game, levels: list[str]) -> dict[str, list[float | None]]:
    """Per seat: hands gone out (per game), mean hand score, shuffle penalties and idiot calls per game."""
    n = game.players
    out = [0.0] * n
    hand_pts = [0.0] * n
    shuffles = [0.0] * n
    idiots = [0.0] * n
    hands = 0
    for e in game.log:
        kind = e["type"]
        if kind == "hand_end":
            hands += 1
            for s in e["went_out"]:
                out[s] += 1
            for s, p in enumerate(e["hand_scores"]):
                hand_pts[s] += p
        elif kind == "shuffle_penalty":
            shuffles[e["seat"]] += e["points"]
        elif kind == "idiot":
            idiots[e["seat"]] += 1
    h = max(hands, 1)
    return {
        "went out": list(out),
        "pts/hand": [p / h for p in hand_pts],
        "shuffle pts": list(shuffles),
        "idiot calls": list(idiots),
    }
