"""Cupbearer: a table companion for Raise Your Goblets, The Gods Will Have Blood and Cena."""

__version__ = "0.1.0"
