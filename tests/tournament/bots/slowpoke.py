"""A test program that plays random legal actions, but over its decision number N (argv[1],
from 0) it first sleeps S seconds (argv[2]). It logs the ``clock`` map of every update that
asks it to decide, as ``clock {json}``."""

import json
import os
import random
import sys
import time

from wire import Link, say

slow_at, slow_for = int(sys.argv[1]), float(sys.argv[2])
rng = random.Random(os.getpid())
link = Link(os.environ["COSMOPORT_SERVER"])
link.take_seat(os.environ["COSMOPORT_SEAT_TOKEN"])
decisions = 0
while True:
    msg = link.receive()
    if msg is None or msg["type"] == "game_over":
        break
    if msg["type"] == "left" and msg.get("reason") == "closed":
        say("table closed")
        break
    if msg["type"] in ("snapshot", "update") and msg.get("legal"):
        say(f"clock {json.dumps(msg.get('clock'))}")
        if decisions == slow_at:
            time.sleep(slow_for)
        decisions += 1
        action = rng.choice(msg["legal"])["action"]
        link.send({"type": "act", "version": msg["version"], "action": action})
link.close()
