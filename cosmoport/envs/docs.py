"""The reference part of docs/research.md, from the code: ``python -m cosmoport.envs.docs``.

Prints the action spaces and observation layouts of both games as Markdown; docs/research.md
holds this text between the ``<!-- generated -->`` and ``<!-- end generated -->`` lines, and a
test checks that the two agree.
"""

from __future__ import annotations

from games.api import get
from games.encoding import action_table, layout

BEGIN = "<!-- generated: python -m cosmoport.envs.docs -->"
END = "<!-- end generated -->"


def reference() -> str:
    parts: list[str] = []
    for game in ("cosmic_run", "alien_artifacts"):
        rules = get(game)
        counts = range(rules.min_players, rules.max_players + 1)
        tables = [action_table(game, n) for n in counts]
        sizes = ", ".join(f"{len(t)} for {t.players}" for t in tables)
        parts.append(f"### {rules.title}: actions\n")
        parts.append(f"Action space sizes by player count: {sizes}.\n")
        parts.append("| numbers | action |\n| --- | --- |")
        for block in tables[-1].blocks:
            last = block.first + block.count - 1
            where = str(block.first) if block.count == 1 else f"{block.first}-{last}"
            if game == "alien_artifacts" and block.text.startswith('("target", "player"'):
                where = f"{block.first}-(players + {block.first - 1})"
            parts.append(f"| {where} | `{block.text}` |")
        parts.append(f"\n### {rules.title}: observation\n")
        parts.append(layout(game).markdown())
        parts.append("")
    return "\n".join([BEGIN, "", *parts, END])


if __name__ == "__main__":
    print(reference())
