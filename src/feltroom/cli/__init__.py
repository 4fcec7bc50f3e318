"""The terminal client: play against bots, simulate, and the room's other commands."""
