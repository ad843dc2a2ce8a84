"""The thin console client: connection, lobby commands and per-game renderers of server views.

The client knows no rules: it renders what the server sends and offers the actions it lists.
(Arrives with the console client issue.)
"""
