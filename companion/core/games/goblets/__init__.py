"""Raise Your Goblets: the rules engine (the ENGINE engineer replaces this placeholder)."""
