"""Conformance: the catalogue for other engines, the runner that asks them, its reports and our
own engine behind the same protocol."""
