"""The conformance kit: ``cosmoport conformance -- COMMAND``, a referee for bots and clients.

The referee is the real server (``server/``, unchanged) on ``127.0.0.1``, port 0, with its
default limits (no bots), whose connections keep a record of every frame
(:mod:`conformance.wire`). COMMAND is started for each run exactly as a tournament starts a
``cmd:`` entrant (:mod:`tournament.programs`): placeholders ``{server}`` ``{host}`` ``{port}``
``{table}`` ``{seat}`` ``{game}`` in its arguments; ``COSMOPORT_SERVER``, ``COSMOPORT_HOST``,
``COSMOPORT_PORT``, ``COSMOPORT_TABLE``, ``COSMOPORT_SEAT``, ``COSMOPORT_GAME``,
``COSMOPORT_SEAT_TOKEN`` and ``COSMOPORT_SECONDS`` = ``COSMOPORT_TIMEOUT`` (``--timeout``) in
its environment; stdin empty; its own process group. It plays a two-seat table against the
referee's random player (:mod:`conformance.opponent`), in engine seat 0 or 1.

The runs (:mod:`conformance.run`, :mod:`conformance.kit`): a whole game of each game claimed
(``--game``, both by default); then, on those games, ``action/illegal`` and ``action/stale``
refusals of legitimate actions, a dropped connection, and the table closed mid-game. The
checklist (:mod:`conformance.checks`), one line per claim:

- **plays a whole game of G**: seated within ``--timeout`` of its start, every decision within
  ``--timeout`` of the update that asked for it, no ``action/illegal``, no exit before
  ``game_over``.
- **answers pings in time**: every ping with an id (the referee's, every 0.5 s, ids alternating
  string and integer; and the server's after ``resumed``) answered by a pong with the same id,
  same type, within ``--timeout``; a ping left unanswered on a connection the program went on
  reading (it answered later messages) counts as missed even if the connection ended sooner.
- **survives action/illegal and action/stale**: the first legitimate ``act`` is refused
  ``action/illegal``; the next legitimate one, after it has played on, ``action/stale`` (the
  table's version is moved on by one, so the server finds it stale itself). Each refusal is
  followed by a ``snapshot`` of the game as it stands; the program must act again within
  ``--timeout`` and finish the game. A second act at the refused version (a program that
  answered both the error and the snapshot) refused ``action/stale`` or
  ``action/not_your_turn`` is excused, once.
- **resumes its seat after a dropped connection**: after its third decision, as the table asks
  for the next, the referee closes the connection; the program must connect again, say hello
  and take the seat back with the latest token (from ``resumed``: the one in the environment
  died with its pong to the ping after ``resumed``) within ``--timeout``, then finish.
- **stays within the rate, sends only valid requests**: nothing it sent was refused (rate,
  malformed frames, wrong session state, out of turn, stale...) but the provoked refusals and
  requests of a seat that crossed the referee's close of its table on the wire.
- **ends quietly when its table closes**: after ``game_over`` the referee closes the table (as
  tournaments do), and in the ``close`` run mid-game (while the other seat is to move); each
  time the program must exit within 3 s with status 0, without connecting again.

Exit status: 0 when every line passed, 1 when one failed, 2 when the kit could not run (a usage
error, a program that cannot be started). Each run is bounded: every wait for the program
lasts at most ``--timeout``, a run at most ``max(120, 100 × timeout)`` seconds in all.

``--as-server`` (:mod:`conformance.as_server`) instead runs the server for a client that finds
its own way, and reports every frame the server refused (with what the spec says of the code)
and every ping left unanswered. docs/conformance.md says all this for users.
"""
