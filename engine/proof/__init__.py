"""A position and the proof of a claim: what one player can see, and what it proves.

:mod:`~engine.proof.position` is a moment of the border as its viewer sees it (the nine stones,
their sides and combat modes, the viewer's hand, what is out of sight), checked to be a board the
rules allow, made of the pieces of :mod:`~engine.proof.pieces` (players, stones, variants, the
errors of a board); :mod:`~engine.proof.rulings` holds the rulings the engine plays by, each in one
place; :mod:`~engine.proof.claims` judges a claim exactly, with its reason
(:mod:`~engine.proof.reasons`) and, when refused, a witness completion out of sight;
:mod:`~engine.proof.reachable` says why a position could not be a moment of a game still going on.
It stands on :mod:`engine.cards` and knows nothing of turns, decks or moves. Import the public names
from :mod:`engine`.
"""
