"""The console: the commands a person types (:mod:`.commands` and its mixins), the line screen,
the game tracker, the rulebook reader and ``cosmoport join``."""
