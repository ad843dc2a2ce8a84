"""A test program that never connects: it sleeps."""

import time

from wire import say

say("sleeping")
time.sleep(3600)
