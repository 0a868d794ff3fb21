"""SeaFall (Plaid Hat Games, 2016): the flagship game.

This package holds the endeavor slice: explore and raid from the dice pool to damage, sinking
and plunder, on a state model of provinces, ships, regions and sites that the rest of the
game extends. Start at :mod:`companion.games.seafall.engine`.
"""
