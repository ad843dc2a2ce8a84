"""A test program that takes its seat and then never acts (it answers pings)."""

import os

from wire import Link, say

say("taking my seat")
link = Link(os.environ["COSMOPORT_SERVER"])
link.take_seat(os.environ["COSMOPORT_SEAT_TOKEN"])
while link.receive() is not None:
    pass
