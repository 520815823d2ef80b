"""The pure core: rules, tracking, journal and views.

Nothing under this package touches a clock, a random source, a file or the network: time and
randomness are handed in by the caller (DESIGN.md principle 1). ``tests/test_core_purity.py``
enforces the boundary.
"""
