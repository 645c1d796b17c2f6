"""A whole game: its state, its moves and the rules of play, defined once each.

:mod:`~engine.game.moves` holds the moves and their notation; :mod:`~engine.game.play_state`
the state of a game, and :mod:`~engine.game.values` the plain values it hands out (phase,
outcome, a player's view, the log's events); :mod:`~engine.game.invariants` what holds of every
state; :mod:`~engine.game.move_rules` each rule a move must keep;
:mod:`~engine.game.legality` the legal moves and the reason for a refusal, both from those
rules; :mod:`~engine.game.turn_flow` the steps of a turn; :mod:`~engine.game.tactic_cards` what
each kind of Tactic card does; :mod:`~engine.game.table` a game set up from a board; and
:mod:`~engine.game.interface` the small fixed interface (:class:`Game`, :class:`GameState`,
``legal_moves()``, ``apply(move)``, ``view(player)``) everything outside uses. It stands on
:mod:`engine.proof`: a claim in a game is judged by the same proof. Import the public names from
:mod:`engine`; they load the first time one is asked for.
"""
