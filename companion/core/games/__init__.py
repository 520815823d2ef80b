"""The three games, each behind the small interface of :mod:`companion.core.game`."""
