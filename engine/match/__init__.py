"""Games as wholes: a match of several rounds, and a game's record, replayed exactly.

:mod:`~engine.match.rounds` scores the rounds of a match (:class:`Match`, :func:`round_points`)
by the rulings for a drawn round; :mod:`~engine.match.records` writes a game as a record (its
seed and its moves), reads one back, replays it and plays random games. It stands on
:mod:`engine.game`. Import the public names from :mod:`engine`.
"""
