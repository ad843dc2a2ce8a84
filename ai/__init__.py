"""Bots: ISMCTS over :mod:`games.api`, plus random and greedy baselines, as network clients.

A bot sees only its own seat's view and determinizes from it. (Arrives with the AI issue.)
"""
