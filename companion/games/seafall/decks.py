"""What may come up next from a deck of physical cards (rulebook, "Winter", step 2: to
dismiss is to put on the bottom of the deck; "Taking your turn": the forum is refilled from
the top; "Winter", step 1, and "Resolving the round": the event deck is shuffled at winter,
and the round's event is dismissed to its bottom).

The table shuffles, so the order of a deck is unknown but for the cards put on its bottom
since: those come up only once every card above them has. The state keeps them as
``below``, a list of groups, the topmost first; the order within a group is unknown (the
five advisors of the forum go under together).
"""

from __future__ import annotations

from collections import Counter


def on_top(deck: list[str], below: list[list[str]]) -> list[str]:
    """The cards of ``deck`` that may come up next, sorted: those above the cards known to
    be at the bottom; when there are no others, the topmost group of those."""
    above = Counter(deck) - Counter(card for group in below for card in group)
    if above:
        return sorted(above)
    for group in below:
        there = sorted(set(group) & set(deck))
        if there:
            return there
    return sorted(set(deck))


def drawn(deck: list[str], below: list[list[str]], card: str) -> None:
    """Mark ``card`` as drawn from the top of ``deck`` (taken from ``below`` when no card
    above them was left); ``deck`` itself is the caller's to change."""
    if card in Counter(deck) - Counter(c for group in below for c in group):
        return
    for group in below:
        if card in group:
            group.remove(card)
            break
    below[:] = [group for group in below if group]
