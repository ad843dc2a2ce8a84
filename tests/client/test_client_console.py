"""The console, line by line against a scripted server (FakeClient): commands, errors, acting."""

from __future__ import annotations

from typing import Any

import pytest
from client_helpers import FakeClient, Typist, legal_of, position, table_map

from client.console.commands import game_name, parse_value


def seated(players: int = 2, game: str = "cosmic_run", steps: int = 0) -> tuple[Typist, Any]:
    """A console seated at table 4 whose game has started; the engine state behind it."""
    client = FakeClient()
    typist = Typist(client)
    typist.type("join 4")
    names = ["Ann", "Bob", "Cy", "Dee"][:players]
    table = table_map(4, game, names)
    client.reply({"type": "joined", "table": table, "slot": 0, "token": "t0k"})
    state = position(game, players, 5, steps)
    seat = state.current_player
    table["state"] = "playing"
    typist.console.receive({"type": "started", "table": table, "seat": seat, "seats": names})
    typist.console.receive(game_message("snapshot", state, seat, version=steps))
    typist.take()
    return typist, state


def game_message(kind: str, state: Any, seat: int, version: int, events: Any = ()) -> dict:
    return {
        "type": kind,
        "table": 4,
        "version": version,
        "seat": seat,
        "view": state.view(seat),
        "events": list(events),
        "legal": legal_of(state) if state.current_player == seat else [],
    }


def test_help_lists_every_command_from_its_docstring() -> None:
    typist = Typist(FakeClient())
    typist.type("help")
    text = typist.take()
    for command in (
        "create",
        "join",
        "spectate",
        "start",
        "leave",
        "chat",
        "list",
        "quit",
        "board",
        "log",
        "scores",
        "actions",
        "info",
        "resume",
        "help",
    ):
        assert f"  {command}" in text, command
    assert "  again" not in text  # only `cosmoport play` offers it
    typist.type("help create")
    assert "factions=choice" in typist.take()
    typist.type("help frobnicate")
    assert "No command `frobnicate`" in typist.take()


def test_an_unknown_command_says_so_and_sends_nothing() -> None:
    client = FakeClient()
    typist = Typist(client)
    typist.type("dance now")
    assert "Unknown command `dance`" in typist.take()
    assert client.sent == []


def test_create_understands_games_players_and_options_then_sits_down() -> None:
    client = FakeClient()
    typist = Typist(client)
    typist.type("create Alien-Artifacts 3 factions=SU,COM,BIO seating=fixed autostart")
    assert client.sent[-1] == {
        "type": "create",
        "game": "alien_artifacts",
        "players": 3,
        "options": {"factions": ["SU", "COM", "BIO"]},
        "seating": "fixed",
        "autostart": True,
    }
    client.reply({"type": "created", "table": table_map(7, "alien_artifacts", [None] * 3)})
    assert client.sent[-1] == {"type": "join", "table": 7}
    opened = typist.text
    assert "Table 7 opened: Alien Artifacts, 3 players." in opened
    assert "0/3 players" not in opened  # its creator sits down at once
    client.reply(
        {
            "type": "joined",
            "table": table_map(7, "alien_artifacts", ["Ann", None, None]),
            "slot": 0,
            "token": "t",
        }
    )
    text = typist.take()
    assert "You sit at table 7 (Alien Artifacts), place A." in text
    assert "Waiting for 2 more players." in text
    assert typist.screen.prompt == "table 7> "


def test_a_refused_request_explains_the_error_and_keeps_the_person_in_the_lobby() -> None:
    client = FakeClient()
    typist = Typist(client)
    typist.type("join 3")
    client.refuse("lobby/table_full", "every seat of table 3 is held")
    assert "Every place at that table is taken. You can `spectate` it." in typist.take()
    assert typist.console.where == "lobby"
    typist.type("join x")
    assert "Usage: join TABLE" in typist.take()
    assert len(client.sent) == 1


def test_seating_news_while_waiting_and_the_hint_to_start() -> None:
    client = FakeClient()
    typist = Typist(client)
    typist.type("join 4")
    client.reply(
        {
            "type": "joined",
            "table": table_map(4, "cosmic_run", ["Ann", None]),
            "slot": 0,
            "token": "t",
        }
    )
    typist.take()
    typist.console.receive(
        {"type": "table_update", "table": table_map(4, "cosmic_run", ["Ann", "Bob"])}
    )
    text = typist.take()
    assert "Bob sits down at place B." in text
    assert "Every place is taken: type `start` to begin." in text


def test_the_board_and_numbered_actions_appear_when_the_game_starts() -> None:
    client = FakeClient()
    typist = Typist(client)
    typist.type("join 4")
    client.reply(
        {
            "type": "joined",
            "table": table_map(4, "cosmic_run", ["Ann", "Bob"]),
            "slot": 0,
            "token": "t",
        }
    )
    state = position("cosmic_run", 2, 5, 0)
    table = table_map(4, "cosmic_run", ["Ann", "Bob"], "playing")
    typist.console.receive({"type": "started", "table": table, "seat": 0, "seats": ["Ann", "Bob"]})
    typist.console.receive(game_message("snapshot", state, 0, 0))
    text = typist.take()
    assert "The game of Cosmic Run starts!" in text
    assert "P6 ..." in text and "W1 [2]  P2 P3" in text and "reroll (1 cry)  W1 W2" in text
    assert typist.screen.prompt == f"Your move (a name, or 1-{len(state.legal_actions())})> "


def test_a_number_plays_that_action_at_the_offered_version_once() -> None:
    typist, state = seated()
    client = typist.console.client
    typist.type("3")
    assert client.sent[-1] == {"type": "act", "version": 0, "action": legal_of(state)[2]["action"]}
    typist.type("3")  # typed again before the server answered: not sent twice
    assert "not your turn" in typist.take()
    assert len(client.sent) == 2


def test_a_refused_action_leaves_the_choice_open_and_says_why() -> None:
    typist, state = seated()
    client = typist.console.client
    typist.type("1")
    client.refuse("action/stale", "version 0 is stale")
    text = typist.take()
    assert "Too late: the game moved on" in text
    assert "W1 [2]  P2 P3" in text  # the menu again
    typist.type("2")
    assert client.sent[-1]["action"] == legal_of(state)[1]["action"]


def test_numbers_out_of_range_and_outside_a_game_are_explained() -> None:
    typist, state = seated()
    typist.type("999")
    assert f"Choose a number from 1 to {len(state.legal_actions())}" in typist.take()
    lobby = Typist(FakeClient())
    lobby.type("1")
    assert "There is no game to play here" in lobby.take()


def test_enter_plays_the_only_action() -> None:
    typist, state = seated()
    client = typist.console.client
    typist.type("")
    assert client.sent[-1]["type"] == "join"
    view = state.view(0)
    only = [{"action": ["pass"], "label": "No boost"}]
    typist.console.receive(
        {
            "type": "update",
            "table": 4,
            "version": 1,
            "seat": 0,
            "view": view,
            "events": [],
            "legal": only,
        }
    )
    assert typist.screen.prompt == "Your move (Enter: the only choice)> "
    typist.type("")
    assert client.sent[-1] == {"type": "act", "version": 1, "action": ["pass"]}


def test_enter_with_several_choices_plays_nothing_and_says_how_to_choose() -> None:
    typist, state = seated()
    client = typist.console.client
    legal = [{"action": list(a), "label": state.label(a)} for a in state.legal_actions()]
    assert len(legal) > 1
    typist.console.receive(
        {
            "type": "update",
            "table": 4,
            "version": 1,
            "seat": 0,
            "view": state.view(0),
            "events": [],
            "legal": legal,
        }
    )
    before = list(client.sent)
    typist.take()
    typist.type("")
    assert client.sent == before
    said = typist.take()
    assert f"{len(legal)} choices: type one's name" in said and "`actions`" in said


def test_updates_are_narrated_line_by_line_and_logged() -> None:
    typist, state = seated()
    events = state.apply(state.legal_actions()[0])
    typist.console.receive(game_message("update", state, 1, 1, events))
    text = typist.take()
    assert "  Ann puts W1 (a 2) on P2." in text
    assert "Waiting for" not in text  # the board only comes at one's own turn
    typist.type("log")
    assert "Ann puts W1 (a 2) on P2." in typist.take()


def test_scores_board_actions_and_info_commands() -> None:
    typist, _state = seated()
    typist.type("scores")
    assert "Scores: Ann 0, Bob 3." in typist.take()
    typist.type("board")
    assert "Cosmic Run  round 1/18" in typist.take()
    typist.type("actions")
    assert "  1 W1 P2      Put W1 (a 2) on planet 2" in typist.take()
    typist.type("info a14")
    assert "Haskel" in typist.take()
    typist.type("info T07")
    assert "Deflector Shields" in typist.take()
    typist.type("info ZZ9")
    assert "No card `ZZ9`" in typist.take()


def test_game_over_shows_the_ranking_and_the_way_back() -> None:
    typist, _state = seated()
    typist.console.receive(
        {
            "type": "game_over",
            "table": 4,
            "version": 9,
            "scores": [12, 30],
            "ranking": [[1], [0]],
            "seats": ["Ann", "Bob"],
        }
    )
    text = typist.take()
    assert "=== Game over ===" in text
    assert "1. B Bob: 30 VP" in text and "2. A Ann (you): 12 VP" in text
    assert "Type `leave` to go back to the lobby, or `quit`." in text
    typist.type("1")
    assert "The game is over." in typist.take()


def test_chat_seat_status_and_a_closed_table() -> None:
    typist, _state = seated()
    typist.console.receive({"type": "chat", "from": "Bob", "text": "gl hf", "scope": "table"})
    typist.console.receive(
        {"type": "seat_status", "table": 4, "slot": 1, "seat": 1, "name": "Bob", "connected": False}
    )
    typist.console.receive(
        {"type": "seat_status", "table": 4, "slot": 1, "seat": 1, "name": "Bob", "connected": True}
    )
    typist.console.receive({"type": "left", "table": 4, "reason": "closed"})
    text = typist.take()
    assert "[table] Bob: gl hf" in text
    assert "Bob lost their connection: the game waits for them." in text
    assert "If they stay away, `bot normal B` gives their seat to a bot." in text
    assert "Bob is back." in text
    assert "Table 4 was closed: back in the lobby." in text
    assert typist.screen.prompt == "lobby> "


def test_bot_at_a_waiting_table_asks_for_a_place_with_the_level() -> None:
    client = FakeClient()
    typist = Typist(client)
    typist.type("bot")
    assert "Sit at a table first" in typist.take() and client.sent == []
    typist.type("join 4")
    client.reply({"type": "joined", "table": table_map(4, "cosmic_run", ["Ann", None]), "slot": 0,
                  "token": "t0k"})  # fmt: skip
    typist.take()
    typist.type("bot hard")
    assert client.sent[-1] == {"type": "add_bot", "level": "hard"}
    client.reply(
        {"type": "bot_added", "table": 4, "slot": 1, "name": "Hard bot 1", "level": "hard"}
    )
    assert "Hard bot 1 is on its way to place B." in typist.take()
    typist.type("bot random B")
    assert client.sent[-1] == {"type": "add_bot", "level": "random", "slot": 1}
    sent = len(client.sent)
    typist.type("bot godlike")
    assert "No bot level `godlike`" in typist.take() and len(client.sent) == sent


def test_bot_during_a_game_takes_over_a_seat_named_by_letter_or_name() -> None:
    typist, _state = seated()
    client = typist.console.client
    typist.type("bot easy")
    assert "Which seat should the easy bot take over?" in typist.take()
    typist.type("bot easy B")
    assert client.sent[-1]["type"] == "add_bot"
    assert (client.sent[-1]["level"], client.sent[-1]["seat"]) == ("easy", 1)
    client.reply({"type": "bot_added", "table": 4, "slot": 1, "name": "Bob", "level": "easy"})
    assert "The easy bot is on its way to take over Bob's seat." in typist.take()
    typist.type("bot bob")  # the default level, the seat by name in any case
    assert (client.sent[-1]["level"], client.sent[-1]["seat"]) == ("normal", 1)
    typist.console.receive(
        {"type": "seat_status", "table": 4, "slot": 1, "seat": 1, "name": "Bob",
         "connected": True, "bot": True}
    )  # fmt: skip
    assert "A bot now plays for Bob." in typist.take()
    typist.console.receive(
        {"type": "seat_status", "table": 4, "slot": 1, "seat": 1, "name": "Bob",
         "connected": False, "bot": True}
    )  # fmt: skip
    text = typist.take()
    assert "Bob's seat waits for its bot." in text and "gives their seat to a bot" not in text


def test_a_player_who_left_on_purpose_is_told_apart_from_a_lost_connection() -> None:
    """With a turn timer the game does not wait: the others read that the clock runs, and
    that a bot may have the seat at once."""
    typist, _state = seated()
    assert typist.console.game is not None
    typist.console.game.clock = {"seat": 1, "decision": 30.0, "banks": [60.0, 60.0]}
    typist.console.receive(
        {"type": "seat_status", "table": 4, "slot": 1, "seat": 1, "name": "Bob",
         "connected": False, "bot": False, "left": True}
    )  # fmt: skip
    text = " ".join(typist.take().split())
    assert "Bob left the table: their clock runs." in text
    assert "`bot normal B` gives their seat to a bot." in text and "stay away" not in text
    assert "lost their connection" not in text and "waits for them" not in text


def test_leave_bot_hands_the_seat_to_a_bot_as_the_player_goes() -> None:
    typist, _state = seated()
    client = typist.console.client
    typist.type("leave bot hard")
    assert client.sent[-1] == {"type": "leave", "bot": "hard"}
    client.reply({"type": "left", "table": 4, "reason": "request"})
    assert "A hard bot plays your seat from now on." in typist.take()
    assert typist.screen.prompt == "lobby> "


def test_bot_for_ones_own_seat_is_leave_bot_and_a_bad_level_sends_nothing() -> None:
    typist, _state = seated()
    client = typist.console.client
    own = "AB"[typist.console.game.seat]
    sent = len(client.sent)
    typist.type("leave bot godlike")
    assert "No bot level `godlike`" in typist.take() and len(client.sent) == sent
    typist.type(f"bot easy {own}")
    assert client.sent[-1] == {"type": "leave", "bot": "easy"}


def test_quit_in_the_middle_of_a_game_asks_first_and_names_leave_bot() -> None:
    typist, _state = seated()
    typist.type("quit")
    text = " ".join(typist.take().split())
    assert "You are in a game. Type `quit` again to leave it anyway" in text
    assert "`leave bot`" in text and not typist.console.quitting
    typist.type("quit")
    assert typist.console.quitting


def test_unknown_and_malformed_messages_never_crash_the_console() -> None:
    typist, _state = seated()
    typist.console.receive({"type": "hologram", "x": 1})
    typist.console.receive({"type": "chat"})
    typist.console.receive({"type": "table_update"})
    typist.console.receive({"type": "update", "table": 4, "version": "soon"})
    typist.type("board")
    assert "Cosmic Run" in typist.take()


def test_quit_in_a_game_asks_for_confirmation() -> None:
    typist, _state = seated()
    typist.type("quit")
    assert "Type `quit` again" in typist.take()
    assert typist.exit_code is None
    typist.type("quit")
    assert typist.exit_code == 0
    lobby = Typist(FakeClient())
    lobby.type("exit")
    assert lobby.exit_code == 0


def test_connection_news_and_giving_up() -> None:
    typist, _state = seated()
    typist.console.status("lost", {"error": None})
    typist.console.status("retrying", {"attempt": 1, "delay": 0.5})
    typist.console.status("reconnected", {"welcome": {}})
    typist.console.status("gave_up", {"error": ConnectionError("down")})
    text = typist.take()
    assert "Connection to the server lost." in text
    assert "Reconnecting in 0.5 s (attempt 1)..." in text
    assert "Giving up on the server" in text
    assert typist.exit_code == 1


def test_game_names_and_option_values() -> None:
    assert game_name("Cosmic-Run") == "cosmic_run"
    assert game_name("cr") == "cosmic_run"
    assert game_name("AA") == "alien_artifacts"
    assert game_name("chess") == "chess"
    assert parse_value("SU,COM") == ["SU", "COM"]
    assert parse_value("3") == 3 and parse_value("yes") is True and parse_value("x") == "x"


def test_list_shows_a_page_and_list_more_the_next() -> None:
    client = FakeClient()
    typist = Typist(client)
    typist.type("list more")
    assert "Type `list` first" in typist.take() and client.sent == []
    typist.type("list")
    assert client.sent[-1] == {"type": "list"}
    page = [table_map(n, "cosmic_run", ["Bob", None]) for n in (1, 2)]
    client.reply({"type": "tables", "tables": page, "more": True})
    text = typist.take()
    assert "1: Cosmic Run" in text and "2: Cosmic Run" in text and "`list more`" in text
    typist.type("list more")
    assert client.sent[-1] == {"type": "list", "after": 2}
    client.reply(
        {"type": "tables", "tables": [table_map(7, "cosmic_run", ["Cy", None])], "more": False}
    )
    text = typist.take()
    assert "7: Cosmic Run" in text and "list more" not in text
    assert sorted(typist.console.tables) == [1, 2, 7]


# --- help, places by letter, game names, said once ----------------------------------------------


@pytest.mark.parametrize("width", [60, 80, 120])
def test_help_on_every_command_wraps_at_word_boundaries_within_the_screen(width: int) -> None:
    typist = Typist(FakeClient())
    typist.screen.width = width
    commands = [name[3:] for name in dir(typist.console) if name.startswith("do_")]
    for command in commands:
        typist.type(f"help {command}")
        lines = typist.take().rstrip("\n").split("\n")
        doc = getattr(typist.console, f"do_{command}").__doc__
        assert all(len(line) <= width for line in lines), (command, lines)
        assert " ".join(lines).split() == doc.split(), command  # whole words, none lost
        assert lines[0].startswith(command.split("_")[0])
        assert all(line.startswith("  ") for line in lines[1:]), (command, lines)


def test_help_create_keeps_its_example_on_a_line_of_its_own() -> None:
    typist = Typist(FakeClient())
    typist.type("help create")
    lines = typist.take().split("\n")
    assert "  Example: create aa 3 factions=choice timer=60+180" in lines
    assert not any(line.endswith("(or") or line.endswith("cr)") for line in lines[:1])


def test_every_place_is_taken_is_said_once_when_the_last_player_sits_down() -> None:
    client = FakeClient("Bob")
    typist = Typist(client)
    typist.type("join 4")
    full = table_map(4, "cosmic_run", ["Ann", "Bob"])
    client.reply({"type": "joined", "table": full, "slot": 1, "token": "t"})
    typist.console.receive(
        {"type": "table_update", "table": table_map(4, "cosmic_run", ["Ann", "Bob"])}
    )
    assert typist.take().count("Every place is taken") == 1
    # Seated first, then the table fills: said once more, when it fills, not on each update.
    typist.console.receive(
        {"type": "table_update", "table": table_map(4, "cosmic_run", ["Ann", None])}
    )
    typist.console.receive(
        {"type": "table_update", "table": table_map(4, "cosmic_run", ["Ann", "Cy"])}
    )
    typist.console.receive(
        {"type": "table_update", "table": table_map(4, "cosmic_run", ["Ann", "Cy"])}
    )
    assert typist.take().count("Every place is taken") == 1


def test_places_are_letters_in_what_the_console_says_and_takes() -> None:
    client = FakeClient()
    typist = Typist(client)
    typist.type("join 4 1")
    assert "Usage: join TABLE [PLACE]" in typist.take() and client.sent == []
    typist.type("join 4 b")
    assert client.sent[-1] == {"type": "join", "table": 4, "slot": 1}
    table = table_map(4, "cosmic_run", [None, "Ann", None])
    client.reply({"type": "joined", "table": table, "slot": 1, "token": "t"})
    text = typist.take()
    assert "place B." in text and "Seats are drawn at random when the game starts." in text
    typist.console.receive(
        {"type": "table_update", "table": table_map(4, "cosmic_run", ["Cy", "Ann", None])}
    )
    assert "Cy sits down at place A." in typist.take()
    typist.type("bot easy C")
    assert client.sent[-1] == {"type": "add_bot", "level": "easy", "slot": 2}
    client.reply({"type": "bot_added", "table": 4, "slot": 2, "name": "Easy bot 1"})
    assert "Easy bot 1 is on its way to place C." in typist.take()
    typist.console.receive(
        {"type": "table_update", "table": table_map(4, "cosmic_run", [None, "Ann", None])}
    )
    assert "Cy leaves place A." in typist.take()
    assert "A Ann" not in typist.console.describe_table(table)
    assert typist.console.describe_table(table).endswith("waiting - B Ann")


@pytest.mark.parametrize(
    ("code", "message", "said"),
    [
        ("lobby/seat_taken", "place 1 of table 4 is held", "(place B of table 4 is held)"),
        ("lobby/no_such_seat", "table 4 has places 0 to 2", "(table 4 has places A to C)"),
        ("table/too_soon", "seat 0 (Ann) has had nobody for 3s", "(seat A (Ann) has had"),
        ("limit/tables", "the server already holds 1 tables", "(the server already holds 1 table)"),
    ],
)
def test_refusals_name_places_and_seats_by_letter(code: str, message: str, said: str) -> None:
    client = FakeClient()
    typist = Typist(client)
    typist.type("join 4 B")
    client.refuse(code, message)
    assert said in " ".join(typist.take().split())


def test_refusals_meant_for_programs_or_saying_nothing_more_stay_quiet() -> None:
    client = FakeClient()
    typist = Typist(client)
    typist.type("join 4")
    client.refuse("lobby/table_full", "every seat of table 4 is held")
    assert "(every seat" not in typist.take()


@pytest.mark.parametrize(
    ("typed", "game"),
    [
        ("cosmic-run", "cosmic_run"),
        ("cosmic_run", "cosmic_run"),
        ("cr", "cosmic_run"),
        ("Cosmic Run", "cosmic_run"),
        ("alien-artifacts", "alien_artifacts"),
        ("alien_artifacts", "alien_artifacts"),
        ("AA", "alien_artifacts"),
        ("Alien Artifacts", "alien_artifacts"),
    ],
)
def test_create_takes_a_game_by_any_of_its_names(typed: str, game: str) -> None:
    client = FakeClient()
    typist = Typist(client)
    typist.type(f"create {typed} 3")
    assert client.sent[-1] == {"type": "create", "game": game, "players": 3}


def test_the_welcome_names_the_games_and_create_refuses_others_with_the_choices() -> None:
    client = FakeClient()
    typist = Typist(client)
    games = [
        {"name": "alien_artifacts", "min_players": 2, "max_players": 5},
        {"name": "cosmic_run", "min_players": 1, "max_players": 4},
    ]
    typist.console.welcome({"server": "S", "name": "Ann", "games": games})
    text = typist.take()
    assert "Alien Artifacts (`aa`, 2-5 players), Cosmic Run (`cr`, 1-4 players)" in text
    typist.type("create chess")
    text = " ".join(typist.take().split())
    assert "No game `chess` here: choose cosmic-run (cr) or alien-artifacts (aa)." in text
    assert client.sent == []


def test_a_choice_typed_by_its_name_is_played_and_commands_still_come_first() -> None:
    typist, state = seated()
    client = typist.console.client
    sent = len(client.sent)
    first = state.legal_actions()[0]  # ("assign", 0, "P2"): the die W1 on planet 2
    typist.type(f"w{first[1] + 1} {first[2]}")
    assert client.sent[sent:] == [{"type": "act", "version": 0, "action": list(first)}]
    typist.type("scores")  # a command of that name wins over any choice
    assert len(client.sent) == sent + 1
    typist.type("W9 P9")
    assert len(client.sent) == sent + 1
