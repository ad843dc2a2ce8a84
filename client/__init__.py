"""The thin console client: connection, lobby commands and per-game renderers of server views.

The client knows no rules: it renders what the server sends and offers the actions it lists.
``connection`` (one connection, and a session that survives drops) is also what bots build on;
``console`` is the interactive session; ``render`` draws views; ``join`` and ``play`` are the
``cosmoport join`` and ``cosmoport play`` commands.
"""
