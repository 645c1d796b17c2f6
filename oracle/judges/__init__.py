"""The slow judges the engine is checked against: test oracles, not the rules.

Each answers a claim its own plain way, sharing no code or table with the engine's proof:
:mod:`~oracle.judges.reference_rules` writes the formations and the elite troops out plainly,
:mod:`~oracle.judges.enumeration` tries every completion out of sight (its loop,
:func:`~oracle.judges.enumeration.strongest_completion`, is the only enumerating loop), and
:mod:`~oracle.judges.misreadings` runs that loop under the wrong readings of the rules that the
catalogue is checked against (most readings read a board's completions by their kinds of side,
enumerated once for all of them: :mod:`~oracle.judges.sides`, which keeps the judge's memos).
They read the rulings from the engine (:data:`engine.RULINGS`, at home in
``engine/proof/rulings.py``), so a ruling changed there changes their answers too. This is the
lowest floor of the oracle: the case-file stage names the misreadings in ``guards_against:``.
"""
