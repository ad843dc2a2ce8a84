"""Make ``lan_party`` (the harness of the LAN party scenario) importable from this folder's test
files, whatever the import mode."""

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
