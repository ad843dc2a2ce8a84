"""``cosmoport serve``: defaults fit a LAN party, it says where it listens and how to join."""

from __future__ import annotations

import argparse
import importlib.util
import re
import signal
import socket
import subprocess
from pathlib import Path

import pytest
from process_helpers import recv_frame, start_server

from cosmoport import serve
from cosmoport.cli import build_parser
from protocol import encode, frame
from server import cli


def test_defaults_listen_on_every_interface_on_a_fixed_port():
    args = build_parser().parse_args(["serve"])
    assert args.host == "0.0.0.0"
    assert args.port == 7777
    assert args._run is serve.run  # server.cli's, with the AI's stand-in


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


def test_the_turn_timer_of_new_tables_is_90_plus_300_unless_told_otherwise(capsys):
    parser = build_parser()
    default = parser.parse_args(["serve"]).timer
    assert (default.decision, default.bank) == (90, 300)
    chosen = parser.parse_args(["serve", "--timer", "45+120"]).timer
    assert (chosen.decision, chosen.bank) == (45, 120)
    assert parser.parse_args(["serve", "--timer", "off"]).timer is None
    with pytest.raises(SystemExit):
        parser.parse_args(["serve", "--timer", "soon"])
    assert "write SECONDS+BANK like 90+300, or off" in capsys.readouterr().err


@pytest.mark.slow
def test_serve_prints_where_it_listens_and_answers_a_hello():
    proc, port, lines = start_server("--db", ":memory:")
    try:
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


def stopped(proc: subprocess.Popen[str], seconds: float = 60) -> int:
    """The exit status of ``proc``, waited for under a generous bound (killed past it)."""
    try:
        return proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return -9


@pytest.mark.slow
def test_a_ctrl_c_as_soon_as_serve_says_where_it_listens_stops_it_cleanly():
    """The lines come before the reactor runs: a Ctrl+C then is not swallowed by its start."""
    proc, _port, _lines = start_server("--db", ":memory:")
    proc.send_signal(signal.SIGINT)
    assert stopped(proc) == 0, proc.stderr.read() if proc.stderr else ""


@pytest.mark.slow
def test_serve_started_with_sigint_ignored_keeps_ignoring_it_and_stops_on_sigterm():
    """A script's background job (`cosmoport serve &`) is not stopped by the terminal's Ctrl+C,
    as any program; SIGTERM stops it cleanly."""
    proc, port, _lines = start_server("--db", ":memory:", ignore_sigint=True)
    try:
        proc.send_signal(signal.SIGINT)
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(frame(encode({"type": "hello", "version": 1, "name": "cli-test"})))
            assert recv_frame(sock)["type"] == "welcome"  # still serving
    finally:
        proc.send_signal(signal.SIGTERM)
    assert stopped(proc) == 0, proc.stderr.read() if proc.stderr else ""


def test_the_suite_undoes_an_ignored_sigint_before_it_starts_anything(monkeypatch):
    """What tests/conftest.py does at start: a suite run as a background job would otherwise
    hand its ignored SIGINT to every server it starts, and wait for them to stop on Ctrl+C."""
    path = Path(__file__).resolve().parents[1] / "conftest.py"
    spec = importlib.util.spec_from_file_location("suite_conftest", path)
    assert spec is not None and spec.loader is not None
    suite = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(suite)
    monkeypatch.setattr(signal, "getsignal", lambda number: signal.SIG_IGN)
    set_to: dict[int, object] = {}
    monkeypatch.setattr(signal, "signal", lambda n, h: set_to.setdefault(n, h))
    suite.pytest_configure(None)
    assert set_to == {
        signal.SIGINT: signal.default_int_handler,
        signal.SIGQUIT: signal.SIG_DFL,
        signal.SIGHUP: signal.SIG_DFL,
    }


def test_a_subcommand_whose_package_is_missing_is_left_out_of_the_menu(monkeypatch):
    from cosmoport import cli as cosmoport_cli

    commands = [*cosmoport_cli.COMMANDS, ("ghost", "no_such_package.cli", "not installed")]
    monkeypatch.setattr(cosmoport_cli, "COMMANDS", commands)
    parser = cosmoport_cli.build_parser()
    assert parser.parse_args(["serve"]).command == "serve"
    with pytest.raises(SystemExit):
        parser.parse_args(["ghost"])
