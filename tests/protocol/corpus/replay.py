"""Replay and record the compatibility corpus: exchanges of each published protocol version.

Each fixture (``v1/*.json``, ``v2/*.json``) is one exchange with a fresh in-memory server (the
real factory, connections and sessions over ``StringTransport``, on a fake clock): the frames
one or more clients send, in order, and for each the replies the server sends back, reduced to
what a client of that version relies on (:data:`KEPT`: type, code, echoed id, request,
versions; the turn timer of a table map and of ``welcome.limits``), and whether the connection
was closed. Volatile fields (names, server_id, limits,
tables, views, messages) are not kept.

A step is ``{"conn": "a", "send": {...}}`` (a message, encoded as the server's own codec would),
``{"send_hex": "84a4..."}`` (a frame body, byte for byte: a malformed one, or as a given client
encoded it) or ``{"send_wire_hex": "..."}`` (bytes put on the wire as they are, length header
included). ``"message_has": "tables_per_address"`` asks that the last answer's ``message`` name
that rule. ``"$token:b"`` in a message stands for the seat token connection ``b`` was last given
(``joined``, ``resumed``). ``"repeat": n`` sends the step ``n`` times, each expecting the same.

To record a new exchange, write its steps without ``expect`` and run::

    .venv/bin/python tests/protocol/corpus/replay.py tests/protocol/corpus/v2/my_case.json

which fills in what today's server answers (``--force`` records again over an existing
``expect``). Read the result before committing it: the corpus then holds the server to it on
every run (``tests/protocol/test_corpus.py``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
_SERVER_TESTS = str(HERE.parents[1] / "server")
if _SERVER_TESTS not in sys.path:
    sys.path.insert(0, _SERVER_TESTS)
_ROOT = str(HERE.parents[2])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

from server_helpers import MemoryClient, MemoryServer  # noqa: E402

from protocol import encode, frame  # noqa: E402

KEPT = ("type", "code", "id", "request", "version", "supported", "reason", "more")
"""The keys of a server reply a fixture keeps (when the reply has them)."""


def fixtures() -> list[Path]:
    """Every fixture of the corpus, by version then name."""
    return sorted(HERE.glob("v*/*.json"))


def load(path: Path) -> dict[str, Any]:
    fixture: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return fixture


def kept(reply: dict[str, Any]) -> dict[str, Any]:
    """What a fixture keeps of one reply (and the turn timer a table map or ``welcome.limits``
    gives, which differs between versions)."""
    out = {key: reply[key] for key in KEPT if key in reply}
    for holder, key in (("table", "timer"), ("limits", "timer")):
        if isinstance(reply.get(holder), dict) and key in reply[holder]:
            out[f"{holder}.{key}"] = reply[holder][key]
    return out


def _fill(value: Any, tokens: dict[str, str]) -> Any:
    if isinstance(value, str) and value.startswith("$token:"):
        return tokens[value.removeprefix("$token:")]
    if isinstance(value, dict):
        return {k: _fill(v, tokens) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, tokens) for v in value]
    return value


def _send(client: MemoryClient, step: dict[str, Any], tokens: dict[str, str]) -> None:
    if "send" in step:
        client.send_raw(frame(encode(_fill(step["send"], tokens))))
    elif "send_hex" in step:
        client.send_raw(frame(bytes.fromhex(step["send_hex"])))
    else:
        client.send_raw(bytes.fromhex(step["send_wire_hex"]))


def replay(fixture: dict[str, Any]) -> list[dict[str, Any]]:
    """What today's server answers each step of ``fixture``: ``{"expect": [...]}`` per step,
    with ``"closed": true`` when the server closed the connection after it."""
    server = MemoryServer(seed=fixture.get("seed", 1))
    clients: dict[str, MemoryClient] = {}
    tokens: dict[str, str] = {}
    results = []
    for step in fixture["steps"]:
        name = step.get("conn", "a")
        if name not in clients:
            clients[name] = server.client(step.get("host", "10.0.0.1"))
        client = clients[name]
        each = []
        for _ in range(step.get("repeat", 1)):
            _send(client, step, tokens)
            replies = client.received()
            for reply in replies:
                if reply["type"] in ("joined", "resumed"):
                    tokens[name] = reply["token"]
            result: dict[str, Any] = {"expect": [kept(r) for r in replies]}
            if client.disconnected:
                result["closed"] = True
            each.append(result)
            said = " ".join(str(r.get("message", "")) for r in replies)
        # A repeated step answered differently once: all of them, which no fixture expects.
        results.append(each[0] if all(r == each[0] for r in each) else {"repeats": each})
        if step.get("message_has", "") not in said:  # the refusal names the rule
            results[-1] = {**results[-1], "message": said}
    return results


def capture(command: list[str], frames: int, token: str = "corpus-token") -> list[str]:
    """The first ``frames`` frame bodies (hex) a client program sends, as it encodes them: it
    is started with ``$COSMOPORT_SERVER`` a listening socket on 127.0.0.1 that answers nothing
    (and ``$COSMOPORT_SEAT_TOKEN`` set, so a bot takes a seat with ``resume``), then stopped."""
    import os
    import socket
    import struct
    import subprocess

    with socket.create_server(("127.0.0.1", 0)) as listener:
        listener.settimeout(30)
        port = listener.getsockname()[1]
        env = {
            **os.environ,
            "COSMOPORT_SERVER": f"127.0.0.1:{port}",
            "COSMOPORT_SEAT_TOKEN": token,
        }
        program = subprocess.Popen(command, env=env, stderr=subprocess.DEVNULL)
        try:
            conn, _ = listener.accept()
            conn.settimeout(30)
            data = b""
            bodies: list[str] = []
            while len(bodies) < frames:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                data += chunk
                while len(data) >= 4 and len(data) >= 4 + struct.unpack("!I", data[:4])[0]:
                    (length,) = struct.unpack("!I", data[:4])
                    bodies.append(data[4 : 4 + length].hex())
                    data = data[4 + length :]
            conn.close()
        finally:
            program.kill()
            program.wait()
    return bodies[:frames]


def expected(fixture: dict[str, Any]) -> list[dict[str, Any]]:
    """What ``fixture`` says the server answers each step."""
    out = []
    for step in fixture["steps"]:
        result: dict[str, Any] = {"expect": step["expect"]}
        if step.get("closed"):
            result["closed"] = True
        out.append(result)
    return out


def record(path: Path, force: bool = False) -> None:
    """Fill in the ``expect`` (and ``closed``) of every step of the fixture at ``path``."""
    fixture = load(path)
    if not force and any("expect" in step for step in fixture["steps"]):
        raise SystemExit(f"{path} already has expectations: --force to record them again")
    for step, result in zip(fixture["steps"], replay(fixture), strict=True):
        step["expect"] = result["expect"]
        step.pop("closed", None)
        if result.get("closed"):
            step["closed"] = True
    path.write_text(json.dumps(fixture, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"recorded {len(fixture['steps'])} steps into {path}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Record what the server answers a fixture.")
    parser.add_argument("fixtures", nargs="*", type=Path)
    parser.add_argument("--force", action="store_true", help="record over existing answers")
    parser.add_argument(
        "--capture",
        nargs=argparse.REMAINDER,
        help="print the hex of the first two frames this client command sends (its hello and "
        "its resume), for `send_hex` steps",
    )
    args = parser.parse_args(argv)
    if args.capture:
        for body in capture(args.capture, 2):
            print(body)
        return
    for path in args.fixtures:
        record(path, args.force)


if __name__ == "__main__":
    main()
