"""``feltroom play``: one human seat in the terminal against bots."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

import feltroom
from feltroom.bots import Bot, make_bot
from feltroom.bots.runner import play_out
from feltroom.game import Event

from .support import check_levels, default_players, describe, game_support, render

HELP = """Type an action in the game's notation (as listed), or its number.
  ?  or  help    list the legal actions again
  q  or  quit    leave the game
Cards: rank then suit, e.g. 10H, QS, A♠ (t for ten, any case).{extra}"""


class QuitGame(Exception):
    pass


class TerminalPlayer(Bot):
    """The person at the keyboard, as a seat's player: events are printed, choices typed."""

    def __init__(self, game_name: str, seat: int, players: int, console: Console,
                 ask: Callable[[str], str] | None = None) -> None:
        super().__init__(seat, players, {})
        self.game_name = game_name
        self.console = console
        self.ask = ask or (lambda prompt: console.input(prompt))
        self.support = game_support(game_name)

    def observe(self, events: list[Event]) -> None:
        for event in events:
            line = describe(self.game_name, event, self.seat)
            if line:
                self.console.print(Text("· " + line, style="dim" if event["to"] == "all" else "bold cyan"))

    def choose(self, view: dict[str, Any] | None, legal: list[str]) -> str:
        assert view is not None
        self.console.print(Panel(render(self.game_name, view), title=f"{self.game_name} — you are P{self.seat}"))
        self.show_legal(legal)
        while True:
            answer = self.ask("your move> ").strip()
            if answer.lower() in ("q", "quit", "exit"):
                raise QuitGame
            if answer.lower() in ("?", "help", "h"):
                hotkeys = getattr(self.support, "HOTKEYS_HELP", "")
                self.console.print(HELP.format(extra="\n" + hotkeys if hotkeys else ""))
                self.show_legal(legal)
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            hotkey = getattr(self.support, "hotkey", None)
            if hotkey is not None and len(answer) == 1:
                reply = hotkey(view, answer)
                if reply is not None:
                    self.console.print(Text(reply, style="yellow"))
                    continue
            if answer:
                return answer

    def show_legal(self, legal: list[str]) -> None:
        self.console.print("  ".join(f"[bold]{i}[/] {a}" for i, a in enumerate(legal, 1)))


class _Retrying(Bot):
    """Keeps asking the person until the engine accepts the move, showing why it did not."""

    def __init__(self, player: TerminalPlayer, game: feltroom.Game) -> None:
        super().__init__(player.seat, player.players, {})
        self.player = player
        self.game = game

    def observe(self, events: list[Event]) -> None:
        self.player.observe(events)

    def choose(self, view: dict[str, Any] | None, legal: list[str]) -> str:
        while True:
            action = self.player.choose(view, legal)
            try:
                return self.game.verify(self.seat, action)
            except feltroom.IllegalAction as e:
                self.player.console.print(Text(f"Not allowed: {e}", style="red"))
            except feltroom.InvalidAction as e:
                self.player.console.print(Text(f"Not understood: {e}", style="red"))


def bot_levels(spec: str, players: int, human: int) -> list[str]:
    """One level per seat from ``a,b,…`` (the last fills the rest); the human seat is ``human``."""
    levels = [s.strip() for s in spec.split(",") if s.strip()] or ["heuristic"]
    out = []
    for seat in range(players):
        others = seat - (seat > human)
        out.append("human" if seat == human else levels[min(others, len(levels) - 1)])
    return out


def run(args: argparse.Namespace, console: Console | None = None,
        ask: Callable[[str], str] | None = None) -> int:
    console = console or Console()
    players = args.players or default_players(args.game)
    game = feltroom.new_game(args.game, players=players, seed=args.seed, options=dict(args.option))
    if not 0 <= args.seat < players:
        raise ValueError(f"--seat must be 0–{players - 1}")
    levels = bot_levels(args.bots, players, args.seat)
    check_levels(args.game, players, game.options, [level for level in levels if level != "human"])
    person = TerminalPlayer(args.game, args.seat, players, console, ask)
    seats: list[Bot] = [
        _Retrying(person, game) if level == "human" else make_bot(level, args.game, seat, players, game.options)
        for seat, level in enumerate(levels)
    ]
    names = ", ".join(f"P{s}: {'you' if lv == 'human' else lv + ' bot'}" for s, lv in enumerate(levels))
    console.print(f"[bold]{args.game}[/] for {players} — {names}. Type ? for help, q to quit.")
    try:
        play_out(game, seats)
    except (QuitGame, EOFError):
        console.print("Left the game.")
        return 0
    result = "You win!" if args.seat in game.winners else f"Winners: {', '.join(f'P{w}' for w in game.winners)}"
    console.print(Panel(f"Final scores: {game.scores}\n{result}", title="game over"))
    return 0

