"""The thin clients, by role. They know no rules: they draw what the server sends and offer the
actions it lists.

- ``net/``: one connection, a session that survives drops (what bots build on too), kept seat
  tokens, LAN discovery, the driver of a bot at a seat;
- ``console/``: the commands a person types and the line console (``cosmoport join``);
- ``tui/``: the full-screen client around the same console;
- ``games/<game>/``: one plug-in per game (board, menu names, narration, previews, legend,
  cards) behind :class:`client.games.GamePlugin`, found by its folder's name;
- ``text/``: style, wording, menus and the names of the games; ``render``: boards and menus
  through the plug-ins, with a plain fallback for a game the client does not know.
"""
