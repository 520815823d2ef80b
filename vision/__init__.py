"""The overhead camera: frames in, Coaster rings at seats and revealed token counts out.

DESIGN.md data flow: "overhead camera (vision/, OpenCV): frames -> ring positions, token counts".
Everything here except :mod:`vision.camera` is pure (an array in, detections out; no clock, no
files). Modules, one idea each:

- :mod:`vision.layout`: the canonical top-down table (seats, goblet spots, reveal areas, markers).
- :mod:`vision.palette`: the six House ring colours and patterns, the five token colours.
- :mod:`vision.frame`: input checks (MalformedInput) and lighting normalisation.
- :mod:`vision.calibrate`: image -> :class:`~vision.calibrate.Calibration` (a homography).
- :mod:`vision.rings`: which Coaster ring stands at which seat (and tracker observations).
- :mod:`vision.area`: the crop round a seat's reveal area.
- :mod:`vision.tokennet`: revealed tokens counted by kind in each area, or not seen (a network).
- :mod:`vision.detect`: one frame through calibration, rings and tokens.
- :mod:`vision.render`: the virtual twin of the camera (seeded synthetic frames + ground truth).
- :mod:`vision.camera`: the adapter (picamera2, cv2.VideoCapture, or the synthetic camera).

See ``vision/README.md``.
"""
