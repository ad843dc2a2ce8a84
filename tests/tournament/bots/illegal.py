"""A test program that takes its seat and answers its first decision with an action that is
not among the legal ones."""

import os

from wire import play, say

say("playing nonsense")
play(
    os.environ["COSMOPORT_SERVER"],
    os.environ["COSMOPORT_SEAT_TOKEN"],
    lambda legal: ["nonsense", 99],
)
