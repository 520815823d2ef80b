"""An independent, harsher renderer of overhead frames: the judge of the vision detector.

Written from the conventions in ``vision/README.md`` only (markers, seats, ring colours and
patterns, token sizes); it shares no drawing code with ``vision/render.py``.
"""
