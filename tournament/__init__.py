"""Headless tournaments: entrants, fair schedules, games in parallel, results kept, ratings.

``cosmoport tournament`` (:mod:`tournament.cli`) is the entry point; ``docs/tournaments.md`` is
the user's guide.
"""
