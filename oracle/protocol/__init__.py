"""Run the catalogue through any engine: the conformance runner and its JSON Lines protocol.

The protocol (version 2), one JSON object a line each way; its JSON Schema, of requests and of
answers, is ``oracle/schema/protocol.schema.json`` (:mod:`oracle.protocol.schema`):

- The runner writes ``{"protocol": 2, "catalogue": VERSION, "id": CASE_ID, "case": CASE}``
  (``"protocol": 1`` under ``conform --protocol 1``, for an engine that insists on it).
  ``VERSION`` names the catalogue the case comes from (the export's ``catalogue``, a digest of
  its cases: ``"sha256:..."``), for an engine that logs what it was run against; an engine
  ignores the keys of a request it does not know. ``CASE`` holds a case
  file's keys without its expectations: ``variant``, ``position`` (``stones``, ``hand``,
  ``discards``, ``jokers_played``; cards by name, "you" is the player to answer for), ``table``
  when the case has one, and its questions: ``claims`` (stones claimed in one step), ``plays``
  (moves to judge), ``turn`` (``moves`` to make in order, and the ``facts`` asked), ``deal``,
  ``match``.
- The engine writes ``{"id": CASE_ID, "answers": {...}, "unsupported": [...]}``. ``answers`` is
  shaped like a case file's expectations: ``{"claims": {"3": "refused"}}``, ``{"plays": ["legal",
  "illegal"]}``, ``{"turn": {"winner": "you", "held": {"you": [1], "them": []}, ...}}``,
  ``{"deal": {...}}``, ``{"match": {...}}``. A question it does not handle goes in
  ``unsupported`` (``"turn"``, or a single fact such as ``"turn.log"``); a name the case does
  not ask (``"claims.9"`` when stone 9 is not claimed) fails, as a misspelt one would. An engine
  that cannot read a case may answer ``{"id": CASE_ID, "error": "why"}``, and one that refuses a
  move of a turn ``{"turn": {"refused": "why"}}`` (a case that expects the refusal of the
  turn's last move passes any refusal, whatever its words). An answer may name the version it speaks
  (``"protocol": 2``); one the schema does not allow fails its case, saying where.

Version 2 adds to version 1 and takes nothing away: the catalogue's version in each request, the
completion order of every stone with two complete sides, a turn's refusal as an answer,
``unsupported`` names checked against the questions asked, and the schema.

Each question is then pass, fail (both answers shown) or unsupported; a case fails when any of
its questions fails. No answer within the timeout, a crash or a line that is not an answer fails
that case with the reason, and the engine is started again for the next one.
"""
