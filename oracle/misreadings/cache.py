"""The misreadings' answers, kept between runs.

The misreadings' judge enumerates completions, which takes seconds over the catalogue, and a site
build asks for the same answers twice (the matrix, and each misreading behind the conformance
protocol), as do many tests. So each answer is kept in the user's cache folder, in a file named by a
digest of the code it depends on (the engine, the case model, the protocol's answers, the
misreadings' judge and the misreadings themselves), keyed by the reading and the case's request: a
change to either works the answer out again. A :class:`MisreadingCache` is made by whoever needs the
answers (a build, a run, a test) and saved when it is done; nothing is kept at module level.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

import engine
import oracle.casefile
import oracle.judges
import oracle.misreadings
import oracle.protocol
import oracle.verify
from oracle.cache import cache_folder, code_digest, load_json, save_json
from oracle.casefile.model import Case
from oracle.judges.misreadings import Judgements, Reading
from oracle.misreadings.answers import misread
from oracle.protocol.answers import request_of
from oracle.verify.report import CaseReport


@cache
def answers_digest() -> str:
    """A digest of the code a misread answer depends on."""
    return code_digest(
        [
            engine,
            oracle.judges,
            oracle.casefile,
            oracle.verify,
            oracle.protocol,
            oracle.misreadings,
        ]
    )


class MisreadingCache:
    """The misread answers of one run: those kept from earlier runs, and those worked out now."""

    def __init__(self, folder: Path | None = None) -> None:
        self.store = (folder or cache_folder()) / f"misreadings-{answers_digest()}.json"
        self._answers: dict[str, Any] | None = None
        self.unsaved = False
        self._requests: dict[int, tuple[Case, str]] = {}
        """Each case's request as the key writes it, by the case (asked once per reading)."""
        self.judgements = Judgements()
        """What the misreadings' judge keeps from one answer worked out here to the next."""

    @property
    def answers(self) -> dict[str, Any]:
        """The answers kept and worked out so far, read from the store when first asked for:
        a catalogue that never asks a misreading (drift, pin, a case's own test) never reads
        the file."""
        if self._answers is None:
            self._answers = load_json(self.store)
        return self._answers

    def misread(
        self, case: Case, reading: Reading, answered: CaseReport | None = None
    ) -> dict[str, Any] | None:
        """:func:`oracle.misreadings.answers.misread` (from the verified answers of
        ``answered``, where given), kept when this code has answered it. The response is shared
        with every later caller: read it, never change it."""
        known = self._requests.get(id(case))
        if known is None or known[0] is not case:
            known = self._requests[id(case)] = (case, json.dumps(request_of(case), sort_keys=True))
        request = known[1]
        key = hashlib.sha256(f"{reading.name}\0{request}".encode()).hexdigest()
        if key not in self.answers:
            self.answers[key] = {"response": misread(case, reading, answered, self.judgements)}
            self.unsaved = True
        response: dict[str, Any] | None = self.answers[key]["response"]
        return response

    def save(self) -> None:
        """Keep the answers worked out here for the next run, with those other runs kept
        meanwhile (parallel test workers share the file)."""
        if self.unsaved:
            kept = load_json(self.store)
            kept.update(self.answers)
            save_json(self.store, kept)
            self.unsaved = False
