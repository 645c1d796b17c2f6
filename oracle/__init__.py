"""The verification oracle around the engine: case files, the pytest plugin, the site renderer.

It reads and writes files; the engine it calls does neither.
"""
