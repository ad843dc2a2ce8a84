"""``cosmoport serve``: defaults fit a LAN party, it says where it listens and how to join."""

from __future__ import annotations

import argparse
import os
import re
import signal
import socket
import struct
import subprocess
import sys

import pytest

from cosmoport.cli import build_parser
from protocol import decode, encode, frame
from server import cli


def test_defaults_listen_on_every_interface_on_a_fixed_port():
    args = build_parser().parse_args(["serve"])
    assert args.host == "0.0.0.0"
    assert args.port == 7777
    assert args._run is cli.run


def test_host_and_port_can_be_chosen():
    args = build_parser().parse_args(["serve", "--host", "127.0.0.1", "--port", "9000"])
    assert (args.host, args.port) == ("127.0.0.1", 9000)


def test_the_join_hint_names_a_reachable_address():
    assert cli.join_hint("192.168.1.20", 7777) == "cosmoport join 192.168.1.20:7777"
    hint = cli.join_hint("0.0.0.0", 7777)
    assert re.fullmatch(r"cosmoport join \S+:7777", hint)
    assert "0.0.0.0" not in hint


def test_add_arguments_adds_only_optional_flags():
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    args = parser.parse_args([])
    assert args.port == 7777 and args.max_tables >= 200


def recv_frame(sock: socket.socket) -> dict:
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


@pytest.mark.slow
def test_serve_prints_where_it_listens_and_answers_a_hello():
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    argv = [sys.executable, "-m", "cosmoport", "serve", "--host", "127.0.0.1", "--port", "0"]
    proc = subprocess.Popen(
        [*argv, "--db", ":memory:"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        lines = []
        port = None
        for _ in range(20):
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            match = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
            if match:
                port = int(match.group(1))
            if "join with" in line:
                break
        assert port, lines
        assert any("cosmoport join 127.0.0.1:" in line for line in lines), lines
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(frame(encode({"type": "hello", "version": 1, "name": "cli-test"})))
            assert recv_frame(sock)["type"] == "welcome"
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, proc.stderr.read()
