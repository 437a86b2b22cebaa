"""Make ``tests.fake_telegram`` importable however pytest is started (repo root on sys.path)."""

import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[2]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))
