"""``cosmoport replay``: the viewer driven by command lines, loading records, the command itself.

Records come from seeded random games played directly on the engines; what the viewer shows is
compared with the console's renderer applied to the engine's own views at that position.
"""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import games
from client import render
from client.games.alien_artifacts import board as aa_render
from client.games.narrate import narrate
from client.text.style import Style
from cosmoport import cli
from cosmoport import replay as rp
from games import records
from server.store import Store

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
PLAIN = Style(False)
ROOT = Path(__file__).resolve().parents[2]


def make_record(name: str, players: int, seed: int, options: Any = None) -> dict[str, Any]:
    """A finished seeded random game of ``name`` as a record."""
    seats = [{"name": NAMES[s], "bot": "easy" if s == 1 else None} for s in range(players)]
    record = records.new_record(
        name,
        players,
        seed,
        options,
        seats,
        created=records.timestamp(1.8e9),
        started=records.timestamp(1.8e9 + 30),
        table=4,
        server="test server",
    )
    state = games.get(name).new(players, seed, options)
    rng = random.Random(seed)
    while not state.is_over:
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        assert state.current_player is not None
        records.add_action(record, state.current_player, action, records.timestamp(1.8e9 + 60))
        state.apply(action)
    records.finish(record, state, records.timestamp(1.8e9 + 900))
    return record


CR = make_record("cosmic_run", 3, 21)
AA = make_record("alien_artifacts", 3, 22, {"factions": "choice"})


def state_at(record: dict[str, Any], version: int) -> Any:
    """The engine's state after ``version`` actions, replayed independently of the viewer."""
    state = games.get(record["game"]).new(record["players"], record["seed"], record["options"])
    for entry in record["actions"][:version]:
        state.apply(tuple(entry["action"]))
    return state


def board(record: dict[str, Any], version: int, seat: int | None) -> list[str]:
    return render.board(state_at(record, version).view(seat), NAMES, PLAIN)


def contains(lines: list[str], block: list[str]) -> bool:
    """Whether ``block`` appears in ``lines`` as consecutive lines."""
    return any(lines[i : i + len(block)] == block for i in range(len(lines) - len(block) + 1))


# --- moving ------------------------------------------------------------------------------------


def test_enter_and_n_step_forward_and_p_steps_back_with_the_right_boards() -> None:
    viewer = rp.Viewer(CR)
    total = len(CR["actions"])
    first = viewer.command("")
    assert first[0].startswith(f"move 1/{total}: A Ann: ")
    assert contains(first, board(CR, 1, None))
    second = viewer.command("n")
    assert second[0].startswith(f"move 2/{total}: ")
    assert contains(second, board(CR, 2, None))
    five = viewer.command("n 3")
    assert five[0].startswith(f"move 5/{total}: ") and contains(five, board(CR, 5, None))
    back = viewer.command("p")
    assert back[0].startswith(f"move 4/{total}: ") and contains(back, board(CR, 4, None))
    start = viewer.command("p 10")
    assert start[0] == f"move 0/{total}: the start of the game"
    assert contains(start, board(CR, 0, None))
    assert viewer.command("p") == ["This is the start of the game. `n` or Enter goes forward."]
    assert viewer.position == 0


def test_a_move_names_the_player_and_label_and_narrates_its_events() -> None:
    viewer = rp.Viewer(AA)
    lines = viewer.command("30")
    entry = AA["actions"][29]
    before = state_at(AA, 29)
    label = before.label(tuple(entry["action"]))
    assert lines[0] == f"move 30/{len(AA['actions'])}: {'ABC'[entry['seat']]} " + (
        f"{NAMES[entry['seat']]}: {label}"
    )
    events = before.apply(tuple(entry["action"]))
    narrated = [narrate("alien_artifacts", e, NAMES) for e in events]
    assert [f"  {text}" for text in narrated if text] == lines[1 : 1 + len(narrated)]


def test_a_number_jumps_and_end_shows_the_result() -> None:
    viewer = rp.Viewer(CR)
    total = len(CR["actions"])
    lines = viewer.command("100")
    assert lines[0].startswith(f"move 100/{total}: ") and contains(lines, board(CR, 100, None))
    assert viewer.command(str(total + 1)) == [
        f"There is no move {total + 1}: choose 0 (the start) to {total}."
    ]
    assert viewer.position == 100
    end = viewer.command("end")
    assert end[0].startswith(f"move {total}/{total}: ")
    assert "=== Game over ===" in end
    scores, ranking = CR["result"]["scores"], CR["result"]["ranking"]
    winner = ranking[0][0]
    assert f"1. {chr(65 + winner)} {NAMES[winner]}: {scores[winner]} VP" in "\n".join(end)
    assert viewer.command("n")[0].startswith(f"That was the last move ({total}/{total})")
    assert viewer.command("start")[0] == f"move 0/{total}: the start of the game"


def test_log_lists_the_actions_so_far_with_their_labels() -> None:
    viewer = rp.Viewer(CR)
    assert viewer.command("log") == ["No action yet: this is the start of the game."]
    viewer.command("5")
    log = viewer.command("log")
    assert len(log) == 5
    state = state_at(CR, 0)
    for number, entry in enumerate(CR["actions"][:5], start=1):
        action = tuple(entry["action"])
        expected = f"{number:>4}. {'ABC'[entry['seat']]} {NAMES[entry['seat']]}: "
        assert log[number - 1] == expected + state.label(action)
        state.apply(action)
    assert viewer.command("log 2") == log[-2:]


def test_moves_name_their_targets_by_seat_letter_and_name_never_by_number() -> None:
    record = make_record("alien_artifacts", 3, 1)  # seed 1: ships attack seats and aliens
    viewer = rp.Viewer(record)
    viewer.command("end")
    log = viewer.command("log")
    attacks = [line for line in log if " attacks " in line]
    assert any(" attacks A Ann (" in line or " attacks B Bob (" in line for line in attacks)
    assert not any("seat " in line or "(slot " in line for line in log)
    move = next(i for i, line in enumerate(log, start=1) if " attacks " in line)
    head = viewer.command(str(move))[0]
    assert " attacks " in head and "seat " not in head and "(slot " not in head


# --- viewpoints --------------------------------------------------------------------------------


def test_seat_shows_the_game_as_that_seat_saw_it_by_letter_or_name() -> None:
    viewer = rp.Viewer(AA)
    viewer.command("60")
    lines = viewer.command("seat B")
    assert "-- as B Bob saw it --" in lines and contains(lines, board(AA, 60, 1))
    assert not contains(lines, board(AA, 60, None))
    lines = viewer.command("seat cy")
    assert "-- as C Cy saw it --" in lines and contains(lines, board(AA, 60, 2))
    moved = viewer.command("n")  # the viewpoint stays while moving
    assert contains(moved, board(AA, 61, 2))
    assert viewer.command("seat Zed") == ["No seat `Zed`: seats are A Ann, B Bob, C Cy."]
    lines = viewer.command("spectator")
    assert "-- as a spectator saw it --" in lines and contains(lines, board(AA, 61, None))


def hidden_hand(record: dict[str, Any], seat: int) -> tuple[int, list[str]]:
    """A position where ``seat`` holds cards, and those cards as the renderer writes them."""
    for version in range(len(record["actions"]) // 2, len(record["actions"])):
        hand = state_at(record, version).view(seat)["seats"][seat]["hand"]
        if len(hand) >= 2:
            return version, [aa_render.resource(card, PLAIN) for card in hand]
    raise AssertionError("no position with a hand")


def test_all_shows_every_seats_hidden_hand_that_other_views_hide() -> None:
    viewer = rp.Viewer(AA)
    version, cards = hidden_hand(AA, 1)
    viewer.command(str(version))
    spectator = "\n".join(viewer.command("spectator"))
    as_ann = "\n".join(viewer.command("seat A"))
    as_bob = "\n".join(viewer.command("seat B"))
    everything = viewer.command("all")
    text = "\n".join(everything)
    for card in cards:
        assert card not in spectator and card not in as_ann
        assert card in as_bob and card in text
    assert "-- everything: every seat's hidden cards shown --" in everything
    assert contains(everything, board(AA, version, None))
    assert "  B Bob hides:" in everything
    assert "hand      " + "  ".join(cards) in text


def test_all_in_cosmic_run_shows_infodere_tokens() -> None:
    viewer = rp.Viewer(CR)
    total = len(CR["actions"])
    for version in range(total):
        state = state_at(CR, version)
        held = [(s, state.view(s)["seats"][s]["infodere"]) for s in range(3)]
        held = [(s, tokens) for s, tokens in held if tokens]
        if held and not state.is_over:
            break
    seat, tokens = held[0]
    viewer.command(str(version))
    lines = viewer.command("all")
    at = lines.index(f"  {'ABC'[seat]} {NAMES[seat]} hides:")
    assert lines[at + 1] == "      Infodere tokens " + " ".join(map(str, tokens))
    assert f"Infodere tokens {tokens[0]}" not in "\n".join(viewer.command("spectator"))


def test_nothing_is_hidden_at_the_start_of_cosmic_run() -> None:
    viewer = rp.Viewer(CR)
    assert viewer.command("all")[-1] == "Nothing is hidden at this point."


# --- the rest of the commands ------------------------------------------------------------------


def test_help_lists_every_command_and_unknown_ones_are_named() -> None:
    viewer = rp.Viewer(CR)
    text = "\n".join(viewer.command("help"))
    for usage in ("n [K]", "p [K]", "seat X", "all", "spectator", "log [N]", "start", "end", "q"):
        assert f"\n  {usage} " in text
    assert viewer.command("dance") == ["Unknown command `dance`. Type `help` for the list."]
    assert not viewer.done
    assert viewer.command("q") == [] and viewer.done


def test_the_intro_names_the_game_seats_bots_takeovers_and_another_edition() -> None:
    record = json.loads(json.dumps(CR))
    record["edition"] = "0.9"
    records.add_takeover(record, 2, "hard", records.timestamp(1.8e9 + 100))
    record["takeovers"][0]["version"] = 7
    viewer = rp.Viewer(record, source="games.jsonl, game 2 of 3")
    intro = viewer.intro()
    assert intro[0] == "Cosmic Run, 3 players, seed 21"
    assert intro[1] == "From games.jsonl, game 2 of 3."
    assert intro[2].startswith("Table 4 on test server: started 2027-01-15 08:00 UTC, finished")
    assert "Seats in turn order: A Ann, B Bob (easy bot), C Cy." in intro
    assert "After move 7, a hard bot played for C Cy." in intro
    assert any("edition 0.9" in line and "edition 1.0" in line for line in intro)
    assert "  From here a hard bot plays for Cy." in viewer.command("7")


def test_an_unfinished_record_ends_without_a_result() -> None:
    record = json.loads(json.dumps(AA))
    record["actions"] = record["actions"][:50]
    record["result"] = record["finished"] = None
    viewer = rp.Viewer(record)
    assert viewer.intro()[1].endswith(", unfinished.")
    end = viewer.command("end")
    assert end[-1] == "The record ends here: the game was not finished."


# --- loading -----------------------------------------------------------------------------------


@pytest.fixture
def jsonl(tmp_path: Path) -> Path:
    path = tmp_path / "games.jsonl"
    path.write_text(f"{records.dumps(CR)}\n{records.dumps(AA)}\n", encoding="utf-8")
    return path


def test_load_picks_a_jsonl_game_by_position_and_the_last_by_default(jsonl: Path) -> None:
    assert rp.load(str(jsonl), None) == (AA, f"{jsonl}, game 2 of 2")
    assert rp.load(str(jsonl), 1) == (CR, f"{jsonl}, game 1 of 2")


@pytest.mark.parametrize("game", [0, 3, -1])
def test_load_refuses_a_game_out_of_range(jsonl: Path, game: int) -> None:
    with pytest.raises(rp.LoadError) as caught:
        rp.load(str(jsonl), game)
    assert str(caught.value) == f"{jsonl} holds 2 games: there is no game {game} (choose 1 to 2)"
    assert caught.value.status == 2


def test_load_reads_one_json_record_even_pretty_printed(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(CR, indent=2), encoding="utf-8")
    assert rp.load(str(path), None) == (CR, str(path))
    with pytest.raises(rp.LoadError, match="holds one game: there is no game 2"):
        rp.load(str(path), 2)


def test_a_jsonl_without_the_suffix_is_recognised(tmp_path: Path) -> None:
    path = tmp_path / "games.txt"
    path.write_text(f"{records.dumps(CR)}\n{records.dumps(AA)}\n", encoding="utf-8")
    assert rp.load(str(path), 1)[0] == CR


def test_a_broken_line_matters_only_when_chosen(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text(f"{records.dumps(CR)[:-30]}\n\n{records.dumps(AA)}\n", encoding="utf-8")
    assert rp.load(str(path), 2)[0] == AA
    with pytest.raises(rp.LoadError, match=r"games.jsonl: record 1: not JSON"):
        rp.load(str(path), 1)


@pytest.mark.parametrize(
    ("content", "message", "status"),
    [
        (None, "cannot read {path}: No such file or directory", 1),
        (b"\xff\xfe{}", "{path} is not a game record: it is not UTF-8 text", 2),
        (b"{not json", "{path}: not JSON: ", 2),
        (b'{"format": "cosmoport-record", "format_version": 9}', "{path}: record format", 2),
    ],
)
def test_load_says_what_is_wrong_with_a_file(
    tmp_path: Path, content: bytes | None, message: str, status: int
) -> None:
    path = tmp_path / "game.json"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(rp.LoadError) as caught:
        rp.load(str(path), None)
    assert str(caught.value).startswith(message.format(path=path))
    assert caught.value.status == status


def database_with(path: Path, *played: dict[str, Any]) -> None:
    """A server database holding the games of ``played``, written through the server's store."""
    store = Store.open(path, server="test server")
    for number, record in enumerate(played, start=1):
        places = [
            SimpleNamespace(
                slot=seat,
                seat=seat,
                name=info["name"],
                token_hash=None,
                previous_hash=None,
                level=info["bot"],
            )
            for seat, info in enumerate(record["seats"])
        ]
        table = SimpleNamespace(
            id=number,
            game=games.get(record["game"]),
            players=record["players"],
            options=record["options"],
            seating="fixed",
            autostart=True,
            creator="Ann",
            created_at=1.8e9,
            held=places,
            timer=None,
        )
        store.table_opened(table)
        store.table_started(table, record["seed"], 1.8e9 + 30)
        last = len(record["actions"]) - 1
        for entry in record["actions"]:
            result = record["result"] if entry["version"] == last else None
            at = 1.8e9 + 60  # as in make_record
            store.action(number, entry["version"], entry["seat"], entry["action"], at, result)
    store.close()


def test_a_database_is_read_through_the_servers_store(tmp_path: Path) -> None:
    path = tmp_path / "server.db"
    database_with(path, CR, AA)
    same = ("game", "options", "seed", "seats", "actions", "result", "created", "started")
    record, source = rp.load(str(path), None)  # the game that finished last
    assert source == f"{path}, table 2"
    assert all(record[key] == AA[key] for key in same)
    record, source = rp.load(str(path), 1)
    assert source == f"{path}, table 1" and all(record[key] == CR[key] for key in same)
    with pytest.raises(rp.LoadError) as caught:
        rp.load(str(path), 99)
    assert str(caught.value) == f"{path} holds no game of table 99"
    assert caught.value.status == 2


def test_a_file_that_only_looks_like_a_database_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "fake.db"
    path.write_bytes(rp.SQLITE_MAGIC + bytes(84))
    with pytest.raises(rp.LoadError) as caught:
        rp.load(str(path), None)
    assert str(caught.value).startswith(str(path)) and "\n" not in str(caught.value)


def test_the_command_replays_a_game_of_a_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    path = tmp_path / "server.db"
    database_with(path, CR)
    status, out, err = run_cli([str(path), "1", "--move", "end"], "", monkeypatch, capsys)
    assert status == 0 and err == ""
    flat = " ".join(out.split())  # the console wraps lines: how long the path is is the tmp's
    assert f"From {path}," in flat and "table 1." in flat and "=== Game over ===" in out
    status, out, err = run_cli([str(path), "5"], "", monkeypatch, capsys)
    assert status == 2 and err == f"cosmoport replay: {path} holds no game of table 5\n"


# --- the command -------------------------------------------------------------------------------


def run_cli(argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> Any:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    monkeypatch.setenv("NO_COLOR", "1")
    status = cli.main(["replay", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_command_starts_at_move_and_seat_and_quits_at_the_end_of_input(
    jsonl: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    status, out, err = run_cli(
        [str(jsonl), "1", "--seat", "b", "--move", "12"], "n\n", monkeypatch, capsys
    )
    assert status == 0 and err == ""
    total = len(CR["actions"])
    assert f"move 12/{total}: " in out and f"move 13/{total}: " in out
    assert "-- as B Bob saw it --" in out
    status, out, _ = run_cli(
        [str(jsonl), "--move", "end", "--seat", "all"], "", monkeypatch, capsys
    )
    assert status == 0 and "=== Game over ===" in out and "-- everything" in out


@pytest.mark.parametrize(
    ("argv", "message", "status"),
    [
        (["missing.jsonl"], "cosmoport replay: cannot read missing.jsonl: No such file", 1),
        (["{jsonl}", "5"], "cosmoport replay: {jsonl} holds 2 games: there is no game 5", 2),
        (["{jsonl}", "--seat", "Q"], "cosmoport replay: No seat `Q`: seats are A Ann", 2),
        (["{jsonl}", "--move", "9999"], "cosmoport replay: --move takes 0 to", 2),
        (["{jsonl}", "--move", "x"], "cosmoport replay: --move takes 0 to", 2),
    ],
)
def test_the_command_fails_in_one_line_with_its_status(
    jsonl: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: Any,
    argv: list[str],
    message: str,
    status: int,
) -> None:
    monkeypatch.chdir(jsonl.parent)
    args = [a.format(jsonl=jsonl) for a in argv]
    code, out, err = run_cli(args, "", monkeypatch, capsys)
    assert code == status and out == ""
    assert err.startswith(message.format(jsonl=jsonl)) and err.count("\n") == 1


def test_a_record_that_no_longer_replays_fails_with_the_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    record = json.loads(json.dumps(CR))
    record["actions"][3]["action"] = ["boost", "P9"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    code, out, err = run_cli([str(path)], "", monkeypatch, capsys)
    assert code == 2 and out == ""
    assert err == (
        f"cosmoport replay: {path}: the record no longer replays: action 3 ['boost', 'P9'] "
        "is not legal\n"
    )


def test_python_m_cosmoport_replay_reads_commands_from_a_pipe(jsonl: Path) -> None:
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "cosmoport", "replay", str(jsonl), "2"],
        input="\n\nseat C\n0\nend\nq\nnot read\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    total = len(AA["actions"])
    out = done.stdout
    assert out.startswith("Alien Artifacts factions=choice, 3 players, seed 22\n")
    for shown in (f"move 0/{total}: the start", f"move 1/{total}: ", f"move 2/{total}: "):
        assert shown in out
    assert "-- as C Cy saw it --" in out and "=== Game over ===" in out
    assert "Unknown command" not in out  # `q` stopped reading
