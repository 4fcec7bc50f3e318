"""Per-game terminal support: ``render`` a view, ``describe`` an event, ``sim_stats``.

Each module ``feltroom.cli.games.<game>`` may define:

- ``render(view: dict) -> str``: the table as text for the seat whose view it is;
- ``describe(event: dict, seat: int | None) -> str | None``: one line for the event log;
- ``sim_stats(game: Game, levels: list[str]) -> dict[str, list[float | None]]``: extra
  per-seat figures for ``feltroom sim`` (averaged per bot level over all games);
- ``add_commands(subparsers)``: extra ``feltroom`` subcommands.
"""
