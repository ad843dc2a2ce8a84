"""What the worst client frame costs the server to decode and refuse, next to a typical one.

    .venv/bin/python bench/decode.py [--rounds 7] [--round-ms 20]

Builds the most expensive frames we know how to make within the inbound frame cap (deep nesting
of array and map headers, headers claiming many entries, long strings, many small keys, ext
types, floats, trees of the widest containers the decoder admits...) and measures each one's CPU
cost (thread CPU time, best of ``--rounds`` rounds, each round repeating the frame for about
``--round-ms``) in two ways: ``decode``, the server's :func:`protocol.decode` alone; ``server``,
the whole path of a frame through a connection of the real server stack held in memory (decode,
validation, the error reply), for a greeted session in the lobby. Each is measured for both
protocol versions the server speaks: version 2 (frames nested at most 3 deep) and version 1
(8 deep, within the same entry and value caps; also how every frame is decoded before the
``hello``). A typical ``act`` frame is the baseline in the same run. The last lines name the
costliest frame of each version and say whether it stays within the budget of 1 ms of server
CPU per frame.
"""

from __future__ import annotations

import argparse
import functools
import random
import struct
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from twisted.internet.address import IPv4Address
from twisted.internet.testing import MemoryReactorClock, StringTransport

from protocol import MAX_FRAME, SUPPORTED_VERSIONS, ProtocolError, decode, depth_for, encode
from protocol.codec import MAX_VALUES, V1_MAX_DEPTH
from protocol.fields import OPTION_LIST_MAX, OPTIONS_MAX_KEYS
from server.limits import Limits
from server.service import ServerFactory

BUDGET_US = 1000.0
"""The most server CPU any one client frame may cost (issue 13)."""

WIDE = OPTIONS_MAX_KEYS
"""The widest container a client message needs (options): frames of containers this wide pass
any width cap the decoder has, so their cost is the decoder's real worst case."""


# --- the frames --------------------------------------------------------------------------------


def _str(data: bytes) -> bytes:
    """A msgpack str header and its bytes."""
    n = len(data)
    if n < 32:
        return bytes([0xA0 | n]) + data
    if n < 256:
        return b"\xd9" + bytes([n]) + data
    if n < 65536:
        return b"\xda" + struct.pack(">H", n) + data
    return b"\xdb" + struct.pack(">I", n) + data


def _array(n: int) -> bytes:
    return bytes([0x90 | n]) if n < 16 else b"\xdc" + struct.pack(">H", n)


def _map(n: int) -> bytes:
    return bytes([0x80 | n]) if n < 16 else b"\xde" + struct.pack(">H", n)


def _float(value: float) -> bytes:
    return b"\xcb" + struct.pack(">d", value)


def _uint64(value: int) -> bytes:
    return b"\xcf" + struct.pack(">Q", value)


def _u32(value: int) -> bytes:
    return struct.pack(">I", value)


def _float_i(i: int) -> bytes:
    return _float(i + 0.5)


def _uint64_i(i: int) -> bytes:
    return _uint64(2**63 + i)


def _str_i(i: int) -> bytes:
    return _str(b"s%05d" % i)


def _array_of(item: Callable[[int], bytes]) -> Callable[[int], bytes]:
    """A builder of one array of ``item(i)`` as long as the room allows."""

    def build(room: int) -> bytes:
        items: list[bytes] = []
        used = 3
        while used + len(item(len(items))) <= room and len(items) < 65535:
            items.append(item(len(items)))
            used += len(items[-1])
        return _array(len(items)) + b"".join(items)

    return build


def _fill(unit: bytes, room: int = MAX_FRAME) -> bytes:
    """``unit`` repeated as often as fits in ``room`` bytes."""
    return unit * (room // len(unit))


def _message_around(value_room: Callable[[int], bytes]) -> bytes:
    """A ``ping`` map whose extra field ``x`` holds the value built for the room left."""
    head = b"\x82" + _str(b"type") + _str(b"ping") + _str(b"x")
    return head + value_room(MAX_FRAME - len(head))


def _wide_tree(room: int, leaf: bytes) -> bytes:
    """Nested arrays of ``WIDE`` entries, as deep as the room allows, ``leaf`` at the bottom."""
    levels = 1
    while (WIDE ** (levels + 1)) * len(leaf) + 3 * WIDE**levels < room:
        levels += 1

    def build(level: int) -> bytes:
        if level == 0:
            return leaf
        return _array(WIDE) + build(level - 1) * WIDE

    return build(levels)


def _open_levels(room: int, scalar: bytes) -> bytes:
    """Arrays of ``WIDE`` entries, each holding ``WIDE - 1`` scalars then the next array, never
    closed: every level is filled before the decoder can complain about the depth."""
    level = _array(WIDE) + scalar * (WIDE - 1)
    return _fill(level, room)


def _at_budget(leaf: Callable[[int], bytes], last: bytes | None = None) -> Callable[[int], bytes]:
    """A builder of ``WIDE``-wide arrays of arrays of ``leaf(i)``, as many values as a message
    may hold (``last``, if given, replaces the very last leaf: a flaw found only at the end)."""

    def build(room: int) -> bytes:
        budget = MAX_VALUES - 5  # the message map, `type` and its value, `x` and its array
        rows: list[list[bytes]] = []
        made = 0
        while budget > 1 and len(rows) < WIDE:
            row = [leaf(made + i) for i in range(min(WIDE, budget - 1))]
            made += len(row)
            budget -= 1 + len(row)
            rows.append(row)
        if last is not None:
            rows[-1][-1] = last
        return _array(len(rows)) + b"".join(_array(len(row)) + b"".join(row) for row in rows)

    return build


def _maps_at_budget(room: int) -> bytes:
    """A map of ``WIDE`` maps of distinct keys, as many values as a message may hold."""
    per_map = (MAX_VALUES - 5 - 2 * WIDE) // (2 * WIDE)
    inner = [
        _map(per_map) + b"".join(_str(b"k%03d%03d" % (i, j)) + b"\xc0" for j in range(per_map))
        for i in range(WIDE)
    ]
    return _map(WIDE) + b"".join(_str(b"m%03d" % i) + map_ for i, map_ in enumerate(inner))


def _distinct_keys(room: int) -> bytes:
    keys = [_str(b"%04x" % i) + b"\xc0" for i in range(min(room // 6, 65535))]
    return _map(len(keys)) + b"".join(keys)


def _wide_map_tree(room: int) -> bytes:
    keys = [_str(b"%02d" % i) for i in range(WIDE)]

    def build(level: int) -> bytes:
        if level == 0:
            return b"\xc0"
        return _map(WIDE) + b"".join(key + build(level - 1) for key in keys)

    levels = 1
    while len(build(levels + 1)) < room:
        levels += 1
    return build(levels)


def _combs(room: int) -> bytes:
    """Arrays of ``WIDE`` entries nested as deep as version 1 allows (the message map, ``x``,
    then 6 levels), each level ``WIDE - 1`` strings and the next level, as many as the value
    budget holds: the deepest frame version 1 decodes in full."""

    def comb(levels: int, first: int) -> bytes:
        if levels == 1:
            return _array(WIDE) + b"".join(_str_i(first + i) for i in range(WIDE))
        strings = b"".join(_str_i(first + i) for i in range(WIDE - 1))
        return _array(WIDE) + strings + comb(levels - 1, first + WIDE)

    levels = V1_MAX_DEPTH - 2
    per_comb = levels + (levels - 1) * (WIDE - 1) + WIDE
    count = (MAX_VALUES - 5) // per_comb
    return _array(count) + b"".join(comb(levels, 1000 * i) for i in range(count))


def _typical_act() -> bytes:
    return encode({"type": "act", "id": 12, "version": 41, "action": ["assign", 2, "P3"]})


def _largest_create() -> bytes:
    """The valid message with the most values: every option, each an array in full."""
    options = {
        f"option{i:02d}": [f"v{j:02d}" for j in range(OPTION_LIST_MAX)]
        for i in range(OPTIONS_MAX_KEYS)
    }
    return encode(
        {
            "type": "create",
            "id": "x" * 64,
            "game": "alien_artifacts",
            "players": 4,
            "seating": "random",
            "autostart": False,
            "options": options,
        }
    )


def frames() -> list[tuple[str, bytes]]:
    """Every frame of the bench, the baseline first: (name, body)."""
    rng = random.Random(13)
    msg = _message_around
    nil, float32, uint64 = b"\xc0", b"\xca\x3f\xc0\x00\x00", _uint64(2**64 - 1)
    found: list[tuple[str, bytes]] = [
        ("typical act (baseline)", _typical_act()),
        ("largest valid create (options in full)", _largest_create()),
        # Within every limit: as many values as a message may hold, a flaw at the very end.
        ("value budget: nils", msg(_at_budget(lambda i: nil))),
        ("value budget: floats", msg(_at_budget(_float_i))),
        ("value budget: uint64", msg(_at_budget(_uint64_i))),
        ("value budget: strings", msg(_at_budget(_str_i))),
        ("value budget: strings, bad UTF-8 last", msg(_at_budget(_str_i, b"\xa1\xff"))),
        ("value budget: floats, an ext last", msg(_at_budget(_float_i, b"\xd4\x01\x00"))),
        ("value budget: maps of distinct keys", msg(_maps_at_budget)),
        (f"{V1_MAX_DEPTH} levels: combs of strings, value budget", msg(_combs)),
        # Nesting: headers inside headers.
        ("issue 13: dd 00 01 00 00 x1024", b"\xdd\x00\x01\x00\x00" * 1024),
        ("array32 of 65536 headers, frame full", _fill(b"\xdd\x00\x01\x00\x00")),
        ("map32 of 65536 headers, frame full", _fill(b"\xdf\x00\x01\x00\x00\xa0")),
        ("array16 of 65535 headers, frame full", _fill(b"\xdc\xff\xff")),
        ("fixarray of 1 headers, frame full", _fill(b"\x91")),
        ("fixmap of 1 headers, frame full", _fill(b"\x81\xa0")),
        (f"open {WIDE}-wide arrays of nils, frame full", _open_levels(MAX_FRAME, nil)),
        (f"open {WIDE}-wide arrays of floats, frame full", _open_levels(MAX_FRAME, float32)),
        (f"open {WIDE}-wide arrays of strings", _open_levels(MAX_FRAME, _str(b"ab"))),
        (f"open {WIDE}-wide arrays of uint64, frame full", _open_levels(MAX_FRAME, uint64)),
        (f"tree of {WIDE}-wide arrays of nils", msg(lambda r: _wide_tree(r, nil))),
        (f"tree of {WIDE}-wide arrays of floats", msg(lambda r: _wide_tree(r, _float(0.1)))),
        (f"tree of {WIDE}-wide maps", msg(_wide_map_tree)),
        # Width: headers claiming many entries, and arrays or maps filling the frame.
        ("array32 claiming 2^32-1 entries", b"\xdd\xff\xff\xff\xff"),
        ("array of nils, frame full", msg(_array_of(lambda i: nil))),
        ("array of empty arrays, frame full", msg(_array_of(lambda i: b"\x90"))),
        ("array of empty maps, frame full", msg(_array_of(lambda i: b"\x80"))),
        ("array of float64, frame full", msg(_array_of(lambda i: _float(rng.random())))),
        ("array of uint64, frame full", msg(_array_of(_uint64_i))),
        ("array of 2-char strings, frame full", msg(_array_of(lambda i: _str(b"%02x" % i)))),
        ("map of distinct small keys, frame full", msg(_distinct_keys)),
        # Long strings and the refused types.
        ("one long ASCII string", msg(lambda r: _str(b"x" * (r - 5)))),
        ("one long non-ASCII string", msg(lambda r: _str("é".encode() * ((r - 5) // 2)))),
        ("one long string, bad UTF-8 at its end", msg(lambda r: _str(b"x" * (r - 6) + b"\xff"))),
        ("ext8 of 255 bytes", msg(lambda r: b"\xc7\xff\x01" + b"\x00" * 255)),
        ("ext32 filling the frame", msg(lambda r: b"\xc9" + _u32(r - 6) + b"\x01" * (r - 5))),
        ("timestamp ext", msg(lambda r: b"\xd6\xff\x00\x00\x00\x01")),
        ("bin32 filling the frame", msg(lambda r: b"\xc6" + _u32(r - 5) + b"\x00" * (r - 5))),
        ("random bytes, frame full", rng.randbytes(MAX_FRAME)),
    ]
    return [(name, body[:MAX_FRAME]) for name, body in found]


# --- measuring ---------------------------------------------------------------------------------


def decode_only(body: bytes, version: int) -> str:
    try:
        decode(body, max_depth=depth_for(version))
    except ProtocolError as err:
        return err.code
    return "ok"


class LobbyConnection:
    """A greeted connection of the real server stack, over an in-memory transport, whose hello
    agreed on protocol ``version``."""

    def __init__(self, version: int) -> None:
        limits = Limits(rate=1e12, burst=10**12, act_rate=1e12, act_burst=10**12)
        self.factory = ServerFactory(MemoryReactorClock(), limits, bots=False)
        self.transport = StringTransport(peerAddress=IPv4Address("TCP", "10.0.0.1", 40000))
        self.protocol = self.factory.buildProtocol(self.transport.getPeer())
        self.protocol.makeConnection(self.transport)
        hello = {"type": "hello", "version": version, "versions": [version], "name": "bench"}
        self.protocol.stringReceived(encode(hello))
        welcome = decode(self.transport.value()[4:], max_depth=None)
        assert welcome["version"] == version, welcome
        self.transport.clear()

    def receive(self, body: bytes) -> str:
        self.protocol.stringReceived(body)
        out = self.transport.value()
        self.transport.clear()
        assert not self.transport.disconnecting, "the bench connection was closed"
        reply = decode(out[4:], max_depth=None) if out else {}
        return str(reply.get("code", reply.get("type", "-")))


def cost_us(run: Callable[[bytes], object], body: bytes, rounds: int, round_ms: float) -> float:
    """Best-of-``rounds`` CPU microseconds of one ``run(body)``."""
    clock = time.thread_time_ns
    start = clock()
    run(body)
    once = max(clock() - start, 1)
    repeat = max(1, int(round_ms * 1e6 / once))
    best = float("inf")
    for _ in range(rounds):
        start = clock()
        for _ in range(repeat):
            run(body)
        best = min(best, (clock() - start) / repeat)
    return best / 1000.0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="best of this many rounds")
    parser.add_argument("--round-ms", type=float, default=20.0, help="CPU ms per round")
    args = parser.parse_args(argv)
    versions = SUPPORTED_VERSIONS
    connections = {version: LobbyConnection(version) for version in versions}
    print(f"CPU per frame, best of {args.rounds}; inbound frame cap {MAX_FRAME} bytes")
    head = "".join(f" {'decode v' + str(v):>10} {'server v' + str(v):>10}" for v in versions)
    print(f"{'frame':46} {'bytes':>6}{head}  result ({', '.join(f'v{v}' for v in versions)})")
    results: dict[int, list[tuple[float, float, str]]] = {version: [] for version in versions}
    for name, body in frames():
        line = f"{name:46} {len(body):6d}"
        codes = []
        for version in versions:
            connection = connections[version]
            only = functools.partial(decode_only, version=version)
            decoded = cost_us(only, body, args.rounds, args.round_ms)
            served = cost_us(connection.receive, body, args.rounds, args.round_ms)
            codes.append(connection.receive(body))
            results[version].append((served, decoded, name))
            line += f" {decoded:10.1f} {served:10.1f}"
        print(f"{line}  {', '.join(codes)}")
    for version in versions:
        served, decoded, name = max(results[version][1:])
        verdict = "within" if served <= BUDGET_US else "OVER"
        print(
            f"costliest in version {version}: {name}: {decoded:.1f} us to decode, {served:.1f} "
            f"us through the server ({verdict} the {BUDGET_US:g} us budget); typical act: "
            f"{results[version][0][0]:.1f} us"
        )


if __name__ == "__main__":
    main()
