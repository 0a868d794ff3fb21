"""decks.py: what may come up next from a deck whose bottom the table knows (rulebook,
"Winter Phase" step 2: dismissed advisors go on the bottom of the deck)."""

from __future__ import annotations

from companion.games.seafall.decks import drawn, on_top


def test_the_cards_above_the_bottom_come_first_then_the_topmost_group():
    deck, below = ["A", "B", "C", "D"], [["C", "D"]]
    assert on_top(deck, below) == ["A", "B"]
    drawn(deck, below, "A")
    deck.remove("A")
    drawn(deck, below, "B")
    deck.remove("B")
    assert below == [["C", "D"]] and on_top(deck, below) == ["C", "D"]
    drawn(deck, below, "D")
    deck.remove("D")
    assert below == [["C"]] and on_top(deck, below) == ["C"]
    drawn(deck, below, "C")
    deck.remove("C")
    assert below == [] and on_top(deck, below) == []


def test_two_cards_of_one_name_one_above_one_below():
    """The copy above is drawn first; the bottom keeps its own."""
    deck, below = ["A", "A", "B"], [["A"]]
    assert on_top(deck, below) == ["A", "B"]
    drawn(deck, below, "A")
    deck.remove("A")
    assert below == [["A"]] and on_top(deck, below) == ["B"]


def test_groups_come_up_in_the_order_they_went_under():
    deck, below = ["X", "Y"], [["Y"], ["X"]]
    assert on_top(deck, below) == ["Y"]


def test_a_bottom_card_no_longer_in_the_deck_is_passed_over():
    """A state that lost track (a card taken out another way) still offers what is there."""
    assert on_top(["B"], [["A"], ["B"]]) == ["B"]
    assert on_top(["B"], [["A"]]) == ["B"]
