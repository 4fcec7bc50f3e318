"""Crisp in the terminal: the table as text, one line per event, and ``feltroom sim`` figures.

The table never shows a slot card (the memory rule, CRISP-CONV-5): every slot is ``[?]``,
and what a player was shown appears once, in the event log (``describe``).

>>> import feltroom
>>> game = feltroom.new_game("crisp", players=2, seed=1, options={"first_dealer": 0})
>>> print(render(game.view(1)).splitlines()[0])
Crisp — round 1 · dealer P0 · limit 100
>>> describe({"type": "swap", "to": "all", "seat": 2, "slot": "L", "out": "9S"}, 0)
'P2 swapped L: 9S goes to the pile'
>>> describe({"type": "reveal", "to": [1], "seat": 1, "cards": ["4H"], "slot": "L", "why": "deal"}, 1)
'You see your L card: 4H'
"""

from __future__ import annotations

from typing import Any

from feltroom.game import Game


def _p(seat: int, me: int | None = None) -> str:
    return "You" if seat == me else f"P{seat}"


def _seats(seats: list[int]) -> str:
    return ", ".join(f"P{s}" for s in seats) if seats else "—"


def render(view: dict[str, Any]) -> str:
    """The table as a seat (or a spectator) sees it now."""
    me = view["seat"]
    n = view["players"]
    opts = view["options"]
    lines = [f"Crisp — round {view['round']} · dealer P{view['dealer']} · limit {opts['end_limit']}"]
    extras = []
    if opts["draw_from_discard"]:
        extras.append("draw from discard on")
    if opts["draw_time"]:
        extras.append(f"{opts['draw_time']} s per draw")
    if extras:
        lines[0] += " · " + " · ".join(extras)
    lines.append("")
    width = max(len(f"P{n - 1} (you)"), 8)
    for s in range(n):
        name = f"P{s} (you)" if s == me else f"P{s}"
        marks = []
        if view["dealer"] == s:
            marks.append("dealer")
        if view["crisp"] == s:
            marks.append("CRISP")
        if not view["over"] and view["turn"] == s:
            marks.append("on turn" + (", waiting" if view["hold"] else "") + (", last turn" if view["last_turn"]
                                                                              else ""))
        elif s in view["last_turns"]:
            marks.append("last turn to come")
        if s in view["windows"]:
            marks.append("may declare")
        if s in view["winners"]:
            marks.append("WINNER")
        lines.append(f"  {name:<{width}}  [?] [?] [?]   score {view['scores'][s]:>4}"
                     + (f"   ({'; '.join(marks)})" if marks else ""))
    lines.append("")
    top = view["discard_top"] or "empty"
    pile = f"Deck {view['deck_size']} · Discard {top} ({view['discard_size']})"
    if view["kings_in_use"]:
        pile += " · Kings in use: " + " ".join(view["kings_in_use"])
    lines.append(pile)
    held = view["held"]
    if held is not None:
        who = _p(view["turn"], me)
        card = held["card"] or "a card"
        src = "from the discard pile" if held["source"] == "discard" else "from the deck"
        lines.append(f"{who} {'hold' if who == 'You' else 'holds'} {card} {src} · draws pending {view['pending']}")
    elif not view["over"] and view["pending"] > 1:
        lines.append(f"Draws pending: {view['pending']}")
    if view["crisp"] is not None:
        lines.append(f"P{view['crisp']} declared crisp · last turns: {_seats(view['last_turns'])}")
    if view["windows"]:
        lines.append(f"Crisp window open: {_seats(view['windows'])}")
    if view["hold"]:
        lines.append(f"P{view['turn']} waits 2 s for the crisp window")
    last = view["last_round"]
    if last is not None:
        lines.append(f"Last round: totals {last['totals']} · round scores {last['round_scores']}"
                     + (f" · declarer P{last['declarer']}" if last["declarer"] is not None else ""))
    if view["over"]:
        lines.append(f"Game over — winner{'s' if len(view['winners']) > 1 else ''}: {_seats(view['winners'])}")
    elif view["to_act"]:
        lines.append(f"To act: {_seats(view['to_act'])}")
    return "\n".join(lines)


def describe(event: dict[str, Any], seat: int | None) -> str | None:
    """One line for the event log, from ``seat``'s side; ``None`` for events not worth a line."""
    t = event["type"]
    s = event.get("seat")
    who = _p(s, seat) if isinstance(s, int) else ""
    if t == "round_start":
        return f"Round {event['round']}: P{event['dealer']} deals, P{event['first']} plays first"
    if t == "reveal":
        card = event["cards"][0]
        if event["slot"] is None:
            return f"You drew {card}"
        why = {"deal": "", "jack": " (Jack)", "queen": " (Queen)"}.get(event["why"], "")
        return f"You see your {event['slot']} card: {card}{why}"
    if t == "turn_start":
        if event["last"]:
            return "Your last turn" if s == seat else f"{who}: last turn"
        return None
    if t == "flip":
        return f"The discard pile is turned over: {event['size']} cards in the new deck"
    if t == "draw":
        if event["source"] == "discard":
            return f"{who} took {event['card']} from the discard pile"
        return None if s == seat else f"{who} drew from the deck"
    if t == "swap":
        return f"{who} swapped {event['slot']}: {event['out']} goes to the pile"
    if t == "discard":
        if event["why"] == "timeout":
            return f"{who} ran out of time: {event['card']} is discarded"
        return f"{who} discarded {event['card']}"
    if t == "jack":
        return f"{who} used {event['card']} to look at {'your' if s == seat else 'their'} C card"
    if t == "queen":
        mine = "your" if s == seat else f"P{s}’s"
        theirs = "your" if event["target"] == seat else f"P{event['target']}’s"
        return f"{who} used {event['card']}: {mine} {event['slot']} ↔ {theirs} {event['target_slot']}"
    if t == "king":
        return f"{who} played {event['card']}: {event['pending']} draws pending"
    if t == "turn_end":
        extra = []
        if event["why"] == "timeout":
            extra.append("timed out" + (f", {event['lost']} extra draws lost" if event["lost"] else ""))
        if event["kings"]:
            extra.append("Kings to the pile: " + " ".join(event["kings"]))
        return f"{who} ended the turn" + (f" ({'; '.join(extra)})" if extra else "") if extra else None
    if t == "window_open":
        return "You may declare crisp now" if s == seat else None
    if t == "window_close":
        return None
    if t == "crisp":
        return f"{who} declared CRISP! Last turns: {_seats(event['last_turns'])}"
    if t == "round_end":
        pairs = zip(event["hands"], event["totals"], strict=True)
        hands = " · ".join(f"P{i} {'/'.join(h)} = {tot}" for i, (h, tot) in enumerate(pairs))
        scores = ", ".join(f"P{i} {r:+d}" for i, r in enumerate(event["round_scores"]))
        return f"Round {event['round']} over: {hands}. Round scores {scores}; totals {event['scores']}"
    if t == "game_end":
        return f"Game over. Scores {event['scores']}; winner{'s' if len(event['winners']) > 1 else ''}: " \
               f"{_seats(event['winners'])}"
    return None  # timers and the like


def sim_stats(game: Game, levels: list[str]) -> dict[str, list[float | None]]:
    """Per seat: crisp success (share of its declarations that were strictly lowest, ``None`` if it never
    declared) and mean round score."""
    n = game.players
    declared = [0] * n
    won = [0] * n
    totals = [0] * n
    rounds = 0
    for e in game.log:
        if e["type"] != "round_end":
            continue
        rounds += 1
        for i in range(n):
            totals[i] += e["round_scores"][i]
        d = e["declarer"]
        if d is not None:
            declared[d] += 1
            won[d] += e["round_scores"][d] < e["totals"][d]
    return {
        "crisp success": [won[i] / declared[i] if declared[i] else None for i in range(n)],
        "mean round score": [totals[i] / rounds if rounds else None for i in range(n)],
    }
