"""A test program that gives up at once, with exit status 3."""

import sys

from wire import say

say("starting")
print("cannot go on: out of ideas", file=sys.stderr, flush=True)
sys.exit(3)
