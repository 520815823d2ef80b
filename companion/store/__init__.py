"""Durable storage: the SQLite journal of games (DESIGN.md principle 5)."""
