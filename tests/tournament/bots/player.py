"""A test program that plays random legal actions: for one game (its seat from the
environment), or kept running (COSMOPORT_REUSE=1), one game per line of stdin."""

import json
import os
import sys

from wire import play, say

say(f"argv {json.dumps(sys.argv[1:])}")
if os.environ.get("COSMOPORT_REUSE") == "1":
    names = sorted(k for k in os.environ if k.startswith("COSMOPORT_"))
    say(f"kept; environment {json.dumps(names)}")
    for line in sys.stdin:
        game = json.loads(line)
        say(f"game {json.dumps(game)}")
        play(game["server"], game["token"])
        say("done")
    say("no more games")
else:
    game = {k: v for k, v in os.environ.items() if k.startswith("COSMOPORT_")}
    say(f"environment {json.dumps(game)}")
    play(os.environ["COSMOPORT_SERVER"], os.environ["COSMOPORT_SEAT_TOKEN"])
