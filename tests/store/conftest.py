"""Store tests use the shell game from tests/service (tests have no packages)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))
