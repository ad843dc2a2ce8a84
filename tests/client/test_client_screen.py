"""The screen: prompts that survive text arriving meanwhile, wrapping, colour decisions."""

from __future__ import annotations

import io

from client_helpers import FakeClient, Typist

from client.console.screen import ERASE_LINE, Screen
from client.text.style import Style, clip, colour_wanted, visible_len


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_new_lines_replace_the_prompt_which_is_drawn_again() -> None:
    out: list[str] = []
    screen = Screen(out.append, interactive=True)
    screen.set_prompt("lobby> ")
    screen.set_prompt("lobby> ")  # already there: not drawn twice
    screen.show("[lobby] Bob: hi")
    screen.set_prompt("lobby> ")
    assert "".join(out) == f"lobby> {ERASE_LINE}[lobby] Bob: hi\nlobby> "


def test_after_enter_the_next_lines_start_on_a_fresh_line() -> None:
    out: list[str] = []
    screen = Screen(out.append, interactive=True)
    screen.set_prompt("lobby> ")
    screen.input_done()
    screen.show("Tables:")
    assert "".join(out) == "lobby> Tables:\n"


def test_without_a_terminal_no_prompt_is_written() -> None:
    out: list[str] = []
    screen = Screen(out.append)
    screen.set_prompt("lobby> ")
    screen.show(["a", "b"])
    assert "".join(out) == "a\nb\n"


def test_long_plain_lines_wrap_under_a_hanging_indent() -> None:
    out: list[str] = []
    Screen(out.append, width=30).show("  Bob gains 2 credits, 1 VP and an artifact from AL4.")
    lines = "".join(out).splitlines()
    assert all(len(line) <= 30 for line in lines)
    assert lines[0].startswith("  Bob") and lines[1].startswith("    ")


def test_colour_only_on_a_terminal_and_never_with_no_color() -> None:
    assert colour_wanted(Tty(), False, {})
    assert not colour_wanted(Tty(), True, {})
    assert not colour_wanted(Tty(), False, {"NO_COLOR": "1"})
    assert not colour_wanted(io.StringIO(), False, {})
    assert colour_wanted(Tty(), False, {"NO_COLOR": ""})  # empty means unset (no-color.org)


def test_clipping_counts_what_shows_and_keeps_codes_whole() -> None:
    style = Style(True)
    text = style.bold("Alien") + " Artifacts"
    cut = clip(text, 8)
    assert visible_len(cut) == 8 and cut.endswith("~") and "\x1b[0m" in cut
    assert clip("short", 8) == "short"


def test_a_bug_in_a_command_is_reported_and_the_console_carries_on() -> None:
    typist = Typist(FakeClient())

    def broken(rest: str) -> None:
        raise RuntimeError("boom")

    typist.console.do_list = broken  # type: ignore[method-assign]
    typist.type("list")
    assert "that failed inside the client" in typist.take()
    typist.type("help")
    assert "Commands" in typist.take()
