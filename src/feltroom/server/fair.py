"""Provably fair deals: publish sha256("{seed}:{salt}") at the start, reveal both at the end.

>>> fair_hash(7, "00" * 16)
'd04df26dd2ba3a72dae14a5d4131101086823580045c0254d431b4acec4a3d94'
>>> seed, salt = new_seed_salt()
>>> 0 <= seed < 2**53 and len(salt) == 32
True
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping
from typing import Any

from ..game import MAX_SEED
from ..registry import replay
from ..views import events_for


def new_seed_salt() -> tuple[int, str]:
    """A seed for ``new_game`` and a salt of 32 hex digits, both from ``secrets``."""
    return secrets.randbelow(MAX_SEED), secrets.token_hex(16)


def fair_hash(seed: int, salt: str) -> str:
    """The published commitment: hex sha256 of the text ``"{seed}:{salt}"``."""
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


def verify_record(record: Mapping[str, Any], fair: str | None = None,
                  events: list[dict[str, Any]] | None = None, seat: int | None = None) -> list[str]:
    """Check a finished game's record; return what was checked, raise ``ValueError`` on a mismatch.

    - sha256 of ``"{seed}:{salt}"`` (salt from ``meta.salt``) equals ``fair`` (or ``meta.fair``);
    - the record replays: every action is legal in the game dealt from that seed;
    - if ``events`` (what a client received, in order) are given, they are exactly the events
      the replayed game shows to ``seat`` (``None``: a spectator) — so the deals a player saw
      follow from the seed.
    """
    done: list[str] = []
    meta = record.get("meta") or {}
    salt = meta.get("salt")
    if not isinstance(salt, str) or len(salt) != 32:
        raise ValueError("the record has no meta.salt of 32 hex digits")
    seed = record.get("seed")
    if type(seed) is not int:
        raise ValueError("the record has no integer seed")
    expected = fair or meta.get("fair")
    if not isinstance(expected, str):
        raise ValueError("no fair hash given (--fair) and none in meta.fair")
    got = fair_hash(seed, salt)
    if got != expected.strip().lower():
        raise ValueError(f"sha256(\"{seed}:{salt}\") is {got}, not the published {expected}")
    done.append(f"hash: sha256(\"{seed}:{salt}\") = {got} matches")
    game = replay(record)
    done.append(f"replay: {len(record['actions'])} actions of {record['name']} replay from seed {seed}"
                f" (over: {game.is_over}, scores {game.scores})")
    if events is not None:
        mine = json.loads(json.dumps(events_for(game.log, seat)))
        theirs = json.loads(json.dumps(events))
        if mine[: len(theirs)] != theirs:
            first = next((i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b),
                         min(len(mine), len(theirs)))
            logged = theirs[first] if first < len(theirs) else None
            again = mine[first] if first < len(mine) else None
            raise ValueError(f"event {first} differs from the replay: logged {logged}, replayed {again}")
        done.append(f"events: the {len(theirs)} logged events equal the replay's")
    return done
