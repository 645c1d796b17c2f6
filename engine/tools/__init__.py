"""Tools around the game, none of them a rule: the odds of a formation and a computer opponent.

:mod:`~engine.tools.odds` counts how the ways of completing a side end, formation by formation;
:mod:`~engine.tools.opponent` chooses a move from its own player's view only, never from what it
cannot see. They stand on the rest of the engine, and nothing in it stands on them. Import the
public names from :mod:`engine`.
"""
