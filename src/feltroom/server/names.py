"""Checks for the text people type: guest names and chat, and when two names are one.

Chat is plain text: no control, format, surrogate, private-use, unassigned or line/paragraph
separator characters (categories Cc Cf Cs Co Cn Zl Zp), runs of white space collapsed, limited
length. The server sends it as a JSON string and renders no HTML with it; clients escape it.

A name must also look like what it is, so that nobody can pass for someone else:

- it is taken in Unicode NFKC (fullwidth ``Ａｎｎ`` is ``Ann``, ``ﬁ`` is ``fi``);
- no invisible or blank-looking character: the Default_Ignorable code points (zero-width
  characters, variation selectors, Hangul fillers U+115F U+1160 U+3164 U+FFA0, …) and the
  braille blank U+2800;
- a combining mark must sit on a letter, at most ``MAX_MARKS`` on one letter (accents,
  Indic vowel signs and Hebrew points pass; "zalgo" stacks do not), and never an overlay
  mark (canonical combining class 1: strike-through U+0335–U+0338, …) or an enclosing one (Me);
- 1–``max_name`` characters, marks not counted;
- ``bot`` not followed by a letter (``bot:heuristic``, ``Bot 2``: what bot seats are called)
  and the bot level names are reserved;
- two names with the same ``name_key`` are the same name: the key is the Unicode TR39
  confusable skeleton, case-folded, digits folded as TR39 folds them (``0``→``o``, ``1``→``l``).
  So ``Ann``, ``ann``, ``Аnn`` (Cyrillic А) and ``Ａｎｎ`` are one name. The skeleton comes from
  the ``disarm`` library (its ``skeleton_key``: the TR39 data, iterated to a fixed point).

>>> clean_text("  Ann   Lee ", 24, "chat")
'Ann Lee'
>>> clean_name("Ａｎｎ", 24)
'Ann'
>>> clean_name("a\\u0336b", 24)
Traceback (most recent call last):
...
ValueError: name: strike-through and enclosing marks are not allowed (U+0336)
>>> name_key("Аnn") == name_key("ann") == name_key("ANN")
True
"""

from __future__ import annotations

import re
import unicodedata

from disarm import skeleton_key

from ..bots import BOTS

CONTROL_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
MAX_MARKS = 3  # combining marks on one letter

# Default_Ignorable_Code_Point (Unicode DerivedCoreProperties) and blank-looking characters.
_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    "\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d159\U0001d173-\U0001d17a"
    "\U000e0000-\U000e0fff]")
_RESERVED_PREFIX = re.compile(r"bot(?![^\W\d_])")  # "bot", "bot:…", "bot 2", "bot3"; not "bots"


def _refuse_controls(text: str, what: str) -> None:
    for ch in text:
        if unicodedata.category(ch) in CONTROL_CATEGORIES:
            raise ValueError(f"{what}: control characters are not allowed (U+{ord(ch):04X})")


def clean_text(text: str, limit: int, what: str) -> str:
    """Chat text (and the base of a name): no control characters, white space collapsed, 1–limit."""
    _refuse_controls(text, what)
    text = " ".join(text.split())
    if not text:
        raise ValueError(f"{what}: it is empty")
    if len(text) > limit:
        raise ValueError(f"{what}: at most {limit} characters")
    return text


def clean_name(name: str, limit: int) -> str:
    """The name as the room keeps it, or ``ValueError`` naming what is wrong."""
    name = unicodedata.normalize("NFKC", name)
    _refuse_controls(name, "name")
    hidden = _INVISIBLE.search(name)
    if hidden:
        raise ValueError(f"name: invisible characters are not allowed (U+{ord(hidden.group()):04X})")
    name = " ".join(name.split())
    visible = 0
    marks = 0
    on_letter = False
    for ch in name:
        category = unicodedata.category(ch)
        if category[0] != "M":
            visible += 1
            marks = 0
            on_letter = category[0] == "L"
            continue
        if category == "Me" or unicodedata.combining(ch) == 1:
            raise ValueError(f"name: strike-through and enclosing marks are not allowed (U+{ord(ch):04X})")
        if not on_letter:
            raise ValueError(f"name: a combining mark must follow a letter (U+{ord(ch):04X})")
        marks += 1
        if marks > MAX_MARKS:
            raise ValueError(f"name: at most {MAX_MARKS} combining marks on one letter")
    if not visible:
        raise ValueError("name: it is empty")
    if visible > limit:
        raise ValueError(f"name: at most {limit} characters")
    levels = sorted(BOTS)
    if _RESERVED_PREFIX.match(skeleton_key(name)) or name_key(name) in {name_key(level) for level in levels}:
        raise ValueError(f"name: {name!r} is reserved: bot seats are called 'bot:LEVEL' "
                         f"(the levels: {', '.join(levels)})")
    return name


def name_key(name: str) -> str:
    """The confusable skeleton of a name: equal keys, the same name for the room."""
    return skeleton_key(unicodedata.normalize("NFKC", name), digit_policy="tr39")
