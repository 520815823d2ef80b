"""How the token reader (vision/tokennet.onnx) is taught: its renderer, lessons and training.

Not part of the service: see training/README.md.
"""
