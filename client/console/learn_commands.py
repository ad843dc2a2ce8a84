"""Console commands that teach: ``rules``, ``legend``, ``hint`` and ``preview``.

A mixin of :class:`client.console.commands.Console`, like :mod:`client.console.game_commands`.
Everything here is computed in the client from what the player may know: the rules files, the
board's legend, the player's own view (a hint searches from it, a preview plays each action on
samples of it). Nothing is sent to the server.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any

import games
from client import render
from client.console import hints
from client.console import rulebook as rules
from client.console.errors import describe
from client.games import legend, preview
from client.games.narrate import label_text
from client.text.flow import hanging
from client.text.game_names import game_name
from client.text.menu import label_of


class LearnCommands:
    """``rules``, ``legend``, ``hint`` and ``preview`` (needs the console's ``game``, ``screen``,
    ``say`` and ``prompt``)."""

    game: Any
    screen: Any

    def say(self, lines: str | list[str]) -> None: ...

    def answer(self, title: str, lines: Callable[[int], str | list[str]]) -> None: ...

    def prompt(self) -> None: ...

    def _game_and_rest(self, rest: str) -> tuple[str | None, str]:
        """The game a command is about (named first, else the one at hand) and the rest."""
        first, _, after = rest.strip().partition(" ")
        named = game_name(first) if first else ""
        if named in games.names():
            return named, after.strip()
        current = self.game.game if self.game is not None else None
        return current, rest.strip()

    def do_rules(self, rest: str) -> None:
        """rules [GAME] [TOPIC]: the rules, topic by topic (`rules` lists the topics)

        Examples: `rules`, `rules 3`, `rules meteor`, `rules aa scoring`. GAME is needed only
        away from a table: cosmic-run (cr) or alien-artifacts (aa).
        """
        game, topic = self._game_and_rest(rest)
        if game is None:
            self.say("Which game? `rules cr` (Cosmic Run) or `rules aa` (Alien Artifacts).")
            return
        title = f"Rules of {games.get(game).title}" + (f": {topic}" if topic else "")
        self.answer(title, lambda width: rules.text(game, topic or None, width))

    def do_legend(self, rest: str) -> None:
        """legend [GAME]: what every symbol on the board and in the menu means"""
        game, _ = self._game_and_rest(rest)
        if game is None:
            self.say("Which game? `legend cr` (Cosmic Run) or `legend aa` (Alien Artifacts).")
            return
        self.answer(f"Legend of {games.get(game).title}", lambda width: legend.legend(game, width))

    def _my_decision(self) -> tuple[dict[str, Any], list[Any]] | None:
        game = self.game
        if game is None or game.over is not None or not game.legal or not game.my_turn:
            self.say("Nothing to decide now: a hint or a preview is for your own turn.")
            return None
        return game.view, list(game.legal)

    def do_hint(self, rest: str) -> None:
        """hint: a bot's top three choices for you now, with its reasons (sends nothing)"""
        decision = self._my_decision()
        if decision is None:
            return
        view, legal = decision
        from twisted.internet import reactor

        game = self.game
        asked_at = game.version
        seed = zlib.crc32(f"{game.table_id}/{asked_at}".encode())
        actions = [tuple(item.get("action") or ()) for item in legal]
        labels = [label_of(item) for item in legal]
        self.say("Thinking...")
        d = hints.hint_async(reactor, view, actions, seed)

        def show(found: list[hints.Hint]) -> None:
            if self.game is not game or game.version != asked_at:
                return  # the game moved on while the bot thought
            self.answer("Hint", lambda width: hints.hint_lines(found, labels, width))
            self.prompt()

        def failed(failure: Any) -> None:
            self.say(f"No hint: {describe(failure.value)}")
            self.prompt()

        d.addCallbacks(show, failed)

    def do_preview(self, rest: str) -> None:
        """preview [N]: what each action (or action N) will do, from what you can see

        Costs, VP and cards drawn are worked out on your own view; what a roll or a hidden card
        decides is shown as a range.
        """
        decision = self._my_decision()
        if decision is None:
            return
        view, legal = decision
        texts = preview.previews(view, legal)
        wanted = range(1, len(legal) + 1)
        if rest.strip():
            if not rest.strip().isdigit() or int(rest) not in wanted:
                self.say(f"Which action? A number from 1 to {len(legal)}.")
                return
            wanted = range(int(rest), int(rest) + 1)
        names: dict[int, str] = {}
        for entry in render.choices(view, legal, self.game.names):
            names.setdefault(entry.number, entry.name)  # the first name the menu gives it
        rows = []
        for number in wanted:
            label = label_text(str(view.get("game")), label_of(legal[number - 1]), self.game.names)
            name = f" [{names[number]}]" if names.get(number) else ""
            rows.append((f"{number:>3}{name} ", label))
            rows.append(("      -> ", texts[number - 1] or "nothing more than it says"))

        def laid_out(width: int) -> list[str]:
            """The rows at ``width``: a long one goes on under its own text, not at column 1."""
            return [line for head, text in rows for line in hanging(head, text, width)]

        self.answer("Preview", laid_out)
