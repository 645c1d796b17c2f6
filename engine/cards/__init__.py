"""The cards and what a side of them is worth: the floor everything else stands on.

:mod:`~engine.cards.tactics` names the ten Tactic cards and what each is; :mod:`~engine.cards.card`
numbers the 54 Clan cards and the Tactic cards after them, reads and writes them in the
notation (``red 7``, ``joker``), and keeps sets of them as int bitmasks (:class:`CardSet`);
:mod:`~engine.cards.ranks` names the formations (colour run, three of a kind, colour, run,
sum) and the combat modes; :mod:`~engine.cards.formations` gives a complete side its strength,
its elite troops their best identities, and finds a side's strongest completion with the search
of :mod:`~engine.cards.search`. Nothing
here knows the border, a player or a rule of play. Import the public names from :mod:`engine`.
"""
