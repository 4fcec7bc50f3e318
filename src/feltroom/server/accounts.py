"""Accounts: a guest may protect its name with a password, then sign in with name and password
from any device and be the same player (its seats, ratings and history).

Only an argon2id hash of the password is stored (``argon2-cffi``'s defaults). Hashing costs tens
of milliseconds and 64 MiB, so the room runs it off the event loop, a few at a time. A name
nobody protected is checked against a dummy hash all the same, so the answer and its time do not
tell whether the name exists.

>>> check_password("short")
Traceback (most recent call last):
...
ValueError: password: 8–128 characters
>>> verify(hash_password("correct horse"), "correct horse"), verify(None, "correct horse")
(True, False)
"""

from __future__ import annotations

import functools

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

PASSWORD_LENGTH = (8, 128)
_HASHER = PasswordHasher()


def check_password(password: str) -> None:
    low, high = PASSWORD_LENGTH
    if not low <= len(password) <= high:
        raise ValueError(f"password: {low}–{high} characters")


def hash_password(password: str) -> str:
    return _HASHER.hash(password)


@functools.cache
def _dummy() -> str:
    return _HASHER.hash("a name nobody protected: the same work, the same answer")


def verify(password_hash: str | None, password: str) -> bool:
    """Whether ``password`` matches ``password_hash`` (``None``: no account of that name)."""
    try:
        return _HASHER.verify(password_hash or _dummy(), password) and password_hash is not None
    except (VerificationError, InvalidHashError):
        return False
