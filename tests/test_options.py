"""Option validation (notation.md §3): unknown keys, wrong types and bad values name what is allowed."""

from __future__ import annotations

import pytest

from feltroom.options import Option, normalise

SPEC = (
    Option("end_limit", 100, lo=1, hi=1000),
    Option("draw_time", None, choices=(None, 30, 45, 60)),
    Option("clock", False, choices=(False, True)),
    Option("counting", "manual", choices=("manual", "automatic")),
    Option("decks", lambda players: 2 if players >= 6 else 1, choices=(1, 2)),
    Option("first_dealer", None, seat=True),
)


def test_defaults_fill_missing_keys_and_may_depend_on_players() -> None:
    assert normalise(SPEC, None, 4) == {"end_limit": 100, "draw_time": None, "clock": False,
                                        "counting": "manual", "decks": 1, "first_dealer": None}
    assert normalise(SPEC, {"end_limit": 50}, 7)["decks"] == 2


@pytest.mark.parametrize(("given", "message"), [
    ({"colour": 1}, "unknown option 'colour': the options are end_limit, draw_time"),
    ({"end_limit": 0}, "an integer 1–1000"),
    ({"end_limit": 50.0}, "an integer 1–1000"),
    ({"end_limit": True}, "an integer 1–1000"),
    ({"draw_time": 20}, "null, 30, 45, 60"),
    ({"clock": 1}, "false, true"),
    ({"clock": "yes"}, "false, true"),
    ({"counting": "auto"}, '"manual", "automatic"'),
    ({"first_dealer": 4}, "null or a seat 0–3"),
    ({"first_dealer": False}, "null or a seat 0–3"),
])
def test_bad_options_raise_value_error_naming_the_allowed_values(given: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        normalise(SPEC, given, 4)


def test_options_must_be_a_mapping() -> None:
    with pytest.raises(ValueError, match="options must be a dict"):
        normalise(SPEC, [("clock", True)], 4)  # type: ignore[arg-type]

