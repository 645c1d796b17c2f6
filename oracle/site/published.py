"""The published cases of a catalogue, worked out once for a build (:func:`published`)."""

from __future__ import annotations

from weakref import WeakKeyDictionary

from oracle.catalogue import Catalogue
from oracle.verify.report import CaseReport

_PUBLISHED: WeakKeyDictionary[Catalogue, tuple[CaseReport, ...]] = WeakKeyDictionary()


def published_of(catalogue: Catalogue) -> tuple[CaseReport, ...]:
    """``catalogue.published``, worked out once for each catalogue: its reports are replayed once
    and kept, and a build's pages ask for the published ones about twenty times (a verdict table
    for each topic among them), each a pass over every report."""
    try:
        found = _PUBLISHED.get(catalogue)
    except TypeError:  # a stand-in for a catalogue that cannot be kept by reference
        return catalogue.published
    if found is None:
        found = _PUBLISHED[catalogue] = catalogue.published
    return found
