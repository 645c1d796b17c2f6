"""The misreadings' answers, kept between runs.

The misreadings' judge enumerates completions, which takes seconds over the catalogue, and a site
build asks for the same answers twice (the matrix, and each misreading behind the conformance
protocol), as do many tests. So each answer is kept in the user's cache folder, in an SQLite file
named by a digest of the code it depends on (the engine, the case model, the protocol's answers,
the misreadings' judge and the misreadings themselves), keyed by the case's request and the
reading: a change to either works the answer out again. The file is read and written a case at a
time, so a run holds only the answers of the case it is asking about (and those worked out and not
yet written), not the whole store: 10,000 cases are about 190,000 answers. A
:class:`MisreadingCache` is made by whoever needs the answers (a build, a run, a test) and saved
when it is done; nothing is kept at module level.

The answers were once kept in one JSON file read whole (``misreadings-DIGEST.json``): such a file
is never read (its name is not this store's), and removed once stale like any other cache file.
A store that is not this format's (:data:`STORE_VERSION`) or cannot be read is not used either:
the answers are worked out again, and kept only if the store can be made anew.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from functools import cache
from pathlib import Path
from typing import Any

import engine
import oracle.casefile
import oracle.judges
import oracle.misreadings
import oracle.protocol
import oracle.verify
from oracle.cache import cache_folder, code_digest, remove_stale
from oracle.casefile.model import Case
from oracle.judges.misreadings import Reading
from oracle.judges.sides import Judgements
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


STORE_VERSION = 2
"""The store's format, as its ``user_version``: a store of any other is not read."""

WRITTEN_EVERY = 1000
"""How many answers worked out are held before they are written to the store."""

WAIT = 60.0
"""Seconds to wait for another process (a parallel test worker) writing the same store."""


class MisreadingCache:
    """The misread answers of one run: those kept from earlier runs, read a case at a time, and
    those worked out now, written to the store every :data:`WRITTEN_EVERY` and when saved."""

    def __init__(self, folder: Path | None = None) -> None:
        self.store = (folder or cache_folder()) / f"misreadings-{answers_digest()}.sqlite"
        self._connection: sqlite3.Connection | None = None
        self._usable = True
        """Whether the store can still be read and written (false once it failed)."""
        self._unwritten: dict[str, dict[str, str]] = {}
        """The answers worked out and not yet written, as JSON, by request digest and reading."""
        self._unwritten_count = 0
        self._requests: dict[int, tuple[Case, str]] = {}
        """Each case's request digest, by the case (asked once per reading)."""
        self._asked: tuple[str, dict[str, Any]] | None = None
        """The request digest of the case last asked about, and its answers by reading: those
        read from the store (as JSON) and those worked out here (as worked out)."""
        self.judgements = Judgements()
        """What the misreadings' judge keeps from one answer worked out here to the next."""

    @property
    def unsaved(self) -> bool:
        """Whether answers worked out here are not yet written to the store."""
        return bool(self._unwritten)

    def misread(
        self, case: Case, reading: Reading, answered: CaseReport | None = None
    ) -> dict[str, Any] | None:
        """:func:`oracle.misreadings.answers.misread` (from the verified answers of
        ``answered``, where given), kept when this code has answered it. The response may be
        shared with later callers: read it, never change it."""
        request = self._request_digest(case)
        if self._asked is None or self._asked[0] != request:
            self._asked = (request, self._read(request))
        answers = self._asked[1]
        if reading.name not in answers:
            response = misread(case, reading, answered, self.judgements)
            answers[reading.name] = response
            written = json.dumps(response, sort_keys=True)
            self._unwritten.setdefault(request, {})[reading.name] = written
            self._unwritten_count += 1
            if self._unwritten_count >= WRITTEN_EVERY:
                self.save()
        known = answers[reading.name]
        if isinstance(known, str):  # read from the store: decoded when first asked
            known = answers[reading.name] = json.loads(known)
        result: dict[str, Any] | None = known
        return result

    def _request_digest(self, case: Case) -> str:
        known = self._requests.get(id(case))
        if known is None or known[0] is not case:
            request = json.dumps(request_of(case), sort_keys=True)
            digest = hashlib.sha256(request.encode()).hexdigest()
            known = self._requests[id(case)] = (case, digest)
        return known[1]

    def _read(self, request: str) -> dict[str, Any]:
        """The answers to ``request`` worked out here and not yet written, and those the
        store keeps (as their JSON text)."""
        found: dict[str, Any] = dict(self._unwritten.get(request, {}))
        connection = self._connected(create=False)
        if connection is not None:
            try:
                rows = connection.execute(
                    "SELECT reading, response FROM answers WHERE request = ?", (request,)
                ).fetchall()
            except sqlite3.Error:
                self._give_up()
            else:
                found.update({reading: text for reading, text in rows if reading not in found})
        return found

    def _connected(self, create: bool) -> sqlite3.Connection | None:
        """The store, opened once; None when it is not there (and not to be made), or is of
        another format or unusable."""
        if self._connection is not None or not self._usable:
            return self._connection
        if not create and not self.store.exists():
            return None
        try:
            if create:
                self.store.parent.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(self.store, timeout=WAIT, isolation_level=None)
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            if version == 0 and create:
                with _writing(connection):
                    if connection.execute("PRAGMA user_version").fetchone()[0] == 0:
                        connection.execute(
                            "CREATE TABLE IF NOT EXISTS answers (request TEXT NOT NULL,"
                            " reading TEXT NOT NULL, response TEXT NOT NULL,"
                            " PRIMARY KEY (request, reading)) WITHOUT ROWID"
                        )
                        connection.execute(f"PRAGMA user_version = {STORE_VERSION}")
                version = connection.execute("PRAGMA user_version").fetchone()[0]
                remove_stale(self.store, (".sqlite", ".json"))
        except (OSError, sqlite3.Error):
            self._give_up()
            return None
        if version != STORE_VERSION:
            connection.close()
            if version != 0:  # another format's store: never read, never written
                self._usable = False
            return None
        self._connection = connection
        return connection

    def _give_up(self) -> None:
        """Stop using a store that failed: the answers are worked out again, and kept here
        for this run only."""
        if self._connection is not None:
            self._connection.close()
        self._connection = None
        self._usable = False

    def save(self) -> None:
        """Write the answers worked out here to the store for the next run (parallel test
        workers share it: an answer another wrote meanwhile is the same answer). Without a
        usable store, nothing is kept."""
        if not self._unwritten:
            return
        connection = self._connected(create=True)
        if connection is not None:
            try:
                with _writing(connection):
                    connection.executemany(
                        "INSERT OR REPLACE INTO answers VALUES (?, ?, ?)",
                        [
                            (request, reading, text)
                            for request, answers in self._unwritten.items()
                            for reading, text in answers.items()
                        ],
                    )
            except sqlite3.Error:
                self._give_up()
                return
        if self._usable:
            self._unwritten.clear()
            self._unwritten_count = 0


class _writing:
    """A write transaction on ``connection``, taken at once (another writer waited for),
    committed on leaving, rolled back on an error."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    def __enter__(self) -> sqlite3.Connection:
        self.connection.execute("BEGIN IMMEDIATE")
        return self.connection

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        self.connection.execute("ROLLBACK" if kind is not None else "COMMIT")
