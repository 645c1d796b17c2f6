"""Verifying: replaying a case through the engine, and the checks that a wrong engine would
fail. Above reading case files, below everything that publishes."""
