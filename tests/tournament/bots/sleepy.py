"""A test program that never connects: it sleeps. Given a path (a FIFO), it first writes its
pid there, so a test knows without waiting when it runs."""

import os
import sys
import time

from wire import say

if len(sys.argv) > 1:
    with open(sys.argv[1], "w") as ready:
        ready.write(str(os.getpid()))
say("sleeping")
time.sleep(3600)
