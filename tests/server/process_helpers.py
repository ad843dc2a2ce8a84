"""A real `cosmoport serve` process on 127.0.0.1 and a blocking frame reader, for the tests
that need one (every wait is bounded)."""

from __future__ import annotations

import os
import re
import signal
import socket
import struct
import subprocess
import sys

from protocol import decode


def start_server(
    *options: str, port: int = 0, ignore_sigint: bool = False
) -> tuple[subprocess.Popen[str], int, list[str]]:
    """Start `cosmoport serve --host 127.0.0.1 --port PORT OPTIONS`; returns the process, the
    port it listens on and what it printed up to the join hint. ``ignore_sigint``: started as a
    script's background job is, with SIGINT ignored."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    argv = [sys.executable, "-m", "cosmoport", "serve", "--host", "127.0.0.1", "--port", str(port)]
    argv.append("--no-announce")  # tests stay off multicast (the announcer has its own)
    proc = subprocess.Popen(
        [*argv, *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=_ignore_sigint if ignore_sigint else None,
    )
    assert proc.stdout is not None
    lines: list[str] = []
    for _ in range(30):
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        match = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
        if match:
            port = int(match.group(1))
        if "join with" in line:
            return proc, port, lines
    proc.kill()
    raise AssertionError(
        f"the server did not start: {lines} {proc.stderr.read() if proc.stderr else ''}"
    )


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def recv_frame(sock: socket.socket) -> dict:
    """The next whole frame from ``sock``, decoded (the socket's timeout bounds the wait)."""
    header = b""
    while len(header) < 4:
        chunk = sock.recv(4 - len(header))
        assert chunk, "server closed"
        header += chunk
    (length,) = struct.unpack(">I", header)
    body = b""
    while len(body) < length:
        chunk = sock.recv(length - len(body))
        assert chunk, "server closed"
        body += chunk
    return decode(body, max_depth=None)
