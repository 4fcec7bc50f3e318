"""Checks for the text people type: guest names and chat.

Names and chat are plain text: no control or format characters, limited length, runs of
white space collapsed. The server sends them as JSON strings and renders no HTML with them;
clients escape them where they show them.

>>> clean_text("  Ann   Lee ", 24, "name")
'Ann Lee'
>>> clean_text("a\\u202eb", 24, "name")
Traceback (most recent call last):
...
ValueError: name: control characters are not allowed
"""

from __future__ import annotations

import unicodedata


def clean_text(text: str, limit: int, what: str) -> str:
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in text):
        raise ValueError(f"{what}: control characters are not allowed")
    text = " ".join(text.split())
    if not text:
        raise ValueError(f"{what}: it is empty")
    if len(text) > limit:
        raise ValueError(f"{what}: at most {limit} characters")
    return text
