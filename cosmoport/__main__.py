"""``python -m cosmoport`` is the same as the ``cosmoport`` command."""

import sys

from cosmoport.cli import main

sys.exit(main())
