"""Deck exhaustion (rules/crisp.md §6)."""

from __future__ import annotations

from feltroom.games.crisp import Crisp

from .crisp_helpers import act, deck_top, filler, new, of, round_deck, std


def kings_dealt(players: int) -> Crisp:
    """All four Kings in hands, so every turn is one draw and the deck empties between turns."""
    hands_ = {0: "KS KH 2C", 1: "KD KC 3C"}
    hands_.update({s: " ".join(filler("KS KH 2C KD KC 3C").split()[3 * s: 3 * s + 3]) for s in range(2, players)})
    return new(players, round_deck(players, 0, hands_), dealer=0)


def play_until_deck_empty(g: Crisp) -> None:
    while True:
        seat = g.turn
        act(g, f"{seat} draw")
        act(g, f"{seat} {'king' if g.legal_actions(seat) == ['king'] else 'discard'}")
        if seat in g.windows:
            act(g, f"{seat} decline")
        if not g.deck and g.pending == 1 and g.held < 0 and not g.kings:
            return


def test_flip_turns_the_pile_over_without_shuffling() -> None:
    """CRISP-DECK-1 (CRISP-AMB-12): the oldest discard becomes the top of the new deck; the discard pile
    is listed bottom to top (CRISP-CONV-4), so that is its first card."""
    g = kings_dealt(3)
    play_until_deck_empty(g)
    pile = [c for c in g.discard]
    seat = g.turn
    ev = act(g, f"{seat} draw")
    assert of(ev, "flip")[0]["size"] == len(pile) and g.discard == []
    assert g.held == pile[0] and list(reversed(g.deck)) == pile[1:]
    assert ev.index(of(ev, "flip")[0]) < ev.index(of(ev, "draw")[0])


def test_flip_happens_only_when_a_deck_draw_is_needed() -> None:
    """CRISP-DECK-2: the deck may stay empty between turns."""
    g = kings_dealt(2)
    play_until_deck_empty(g)
    assert g.deck == [] and len(of(g.log, "flip")) == 0 and g.discard


def test_card_count_whenever_a_draw_is_needed() -> None:
    """CRISP-DECK-3: |deck| + |discard| + |Kings in use| = 52 − 3n whenever no card is held."""
    for n in (2, 5, 8):
        g = std(n, seed=n)
        for _ in range(300):
            seat = g.turn
            if g.held < 0:
                assert len(g.deck) + len(g.discard) + len(g.kings) == 52 - 3 * n
                assert len(g.deck) + len(g.discard) >= 24
            act(g, f"{seat} draw")
            act(g, f"{seat} {'king' if g.legal_actions(seat) == ['king'] else 'discard'}")
            if seat in g.windows:
                act(g, f"{seat} decline")
        assert g.round_no == 1 and len(of(g.log, "flip")) >= 1


def test_deck_top_helper() -> None:
    g = std(2, "5S 6S")
    assert deck_top(g, 2) == ["5S", "6S"]
