"""The LAN party scenario of tests/scenario for longer than CI allows: random walks through what
people and machines do at a LAN party (tables, bots, moves, undos, chat, watching, drops,
consoles restarted at another address, turn timers run out, seats handed to bots, the server
killed with kill -9 or stopped with SIGTERM and started again, now and then by a slow host,
and, unlike CI, minute-long breaks after which a seat whose player is away goes to a bot), on a
real `cosmoport serve` process, with every invariant checked after every step
(``tests/scenario/lan_party.py``).

    .venv/bin/python bench/soak.py --minutes 10
    .venv/bin/python bench/soak.py --sequences 20 --steps 80 --seed 7
    .venv/bin/python bench/soak.py --replay 1234567 --steps 80 --keep /tmp/soak   # one sequence

Each sequence is a fresh server and party, its steps drawn from its own seed (printed, so that
``--replay SEED`` walks it again; the dice are the server's own and differ). A failing sequence
is reported with its last steps and the failure, and the soak goes on with the next one. At the
end: how many sequences, steps, server restarts (kill -9 / SIGTERM), turn timers run out,
games finished and failures. Exit status 1 if anything failed.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "scenario")]

from lan_party import Caps, Party, random_step  # noqa: E402


def walk(
    root: Path, seed: int, steps: int, caps: Caps, deadline: float | None, breaks: bool
) -> tuple[Party, str | None]:
    """One sequence of up to ``steps`` random steps from ``seed``: the party (closed) and the
    first line of its failure, if it failed."""
    rng = random.Random(seed)
    party = Party(root, caps=caps)
    failure = None
    try:
        party.open()
        party.check()
        for _ in range(steps):
            if deadline is not None and time.monotonic() > deadline:
                break
            random_step(party, rng, breaks)
            party.check()
    except Exception as error:  # a failure of the party (or of the harness): the soak goes on
        failure = (str(error).strip().splitlines() or [type(error).__name__])[0]
    finally:
        party.close()
    return party, failure


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=None, help="stop after this long")
    parser.add_argument("--sequences", type=int, default=None, help="stop after this many")
    parser.add_argument("--steps", type=int, default=60, help="steps per sequence (60)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the sequences' seeds (1)")
    parser.add_argument("--replay", type=int, default=None, help="walk one sequence's seed")
    parser.add_argument("--keep", type=Path, default=None, help="keep every party's folder here")
    parser.add_argument(
        "--no-breaks",
        dest="breaks",
        action="store_false",
        help="no minute-long pauses (in which away seats may be handed to bots)",
    )
    args = parser.parse_args(argv)
    if args.replay is not None:
        args.sequences = 1
    elif args.minutes is None and args.sequences is None:
        args.sequences = 10
    deadline = None if args.minutes is None else time.monotonic() + 60 * args.minutes
    caps = Caps(restarts=max(2, args.steps // 8), timeouts=max(1, args.steps // 15))
    seeds = random.Random(args.seed)
    totals: Counter[str] = Counter()
    failures: list[tuple[int, str]] = []
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="cosmoport-soak-") as scratch:
        base = args.keep or Path(scratch)
        while args.sequences is None or totals["sequences"] < args.sequences:
            if deadline is not None and time.monotonic() > deadline:
                break
            totals["sequences"] += 1
            number = totals["sequences"]
            seed = args.replay if args.replay is not None else seeds.randrange(2**32)
            party, failure = walk(
                base / f"party-{number}", seed, args.steps, caps, deadline, args.breaks
            )
            totals.update(
                steps=party.counts["steps"],
                kills=party.server.kills,
                terms=party.server.terms,
                timeouts=party.counts["timers run out"],
                games=party.counts["games"],
            )
            print(f"sequence {number} (seed {seed}): {party.report()}", flush=True)
            if failure is not None:
                failures.append((seed, failure))
                print(f"  FAILED: {failure}")
                print("  its last steps:")
                for line in party.story[-15:]:
                    print(f"    {line}")
                kept = "" if args.keep else " (deleted with the scratch folder)"
                print(f"  the server's log: {party.server.log}{kept}", flush=True)
    print(
        f"{totals['sequences']} sequences, {totals['steps']} steps in "
        f"{time.monotonic() - began:.0f} s: {totals['kills']} kill -9 and {totals['terms']} "
        f"SIGTERM restarts, {totals['timeouts']} turn timers run out, {totals['games']} games "
        f"finished, {len(failures)} failures"
    )
    for seed, failure in failures:
        print(f"  seed {seed}: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
