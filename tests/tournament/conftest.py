"""Put the repository first on ``sys.path`` for these tests.

``tests/conftest.py`` puts ``tests/`` on the path, and ``tests/`` holds folders named like our
packages (``tests/games``, ``tests/protocol``...): run as ``.venv/bin/pytest`` (without the
current directory on the path, unlike ``python -m pytest``), ``import protocol`` would find
the test folder as a namespace package instead of the real one.
"""

import sys
from pathlib import Path

_ROOT = str(Path(__file__).resolve().parents[2])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)
