"""Helpers shared by tests: real bot players on the embedded server."""
