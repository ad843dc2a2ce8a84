"""Text shared by every part of the client: colours and widths (:mod:`.style`), wording
(:mod:`.wording`), line flow (:mod:`.flow`), menus of named choices (:mod:`.menu`) and the names
of the games (:mod:`.game_names`)."""
