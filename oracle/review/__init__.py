"""Changing a ruling on purpose: what drifted from the case files, the catalogue of two versions
compared, and the one command that re-pins editors' files."""
