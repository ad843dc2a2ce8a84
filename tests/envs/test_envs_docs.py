"""docs/research.md carries the reference tables exactly as the code prints them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from cosmoport.envs.docs import BEGIN, END, reference

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "heuristic_agent.py"


def test_research_doc_holds_the_generated_reference() -> None:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(BEGIN)
    end = text.index(END) + len(END)
    assert text[start:end] == reference(), (
        "docs/research.md is out of date: paste the output of python -m cosmoport.envs.docs"
    )


def test_the_example_is_the_example_file() -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## Example") :]
    code = section[section.index("```python\n") + 10 : section.index("```\n\n")]
    assert len(code.splitlines()) <= 45
    source = EXAMPLE.read_text(encoding="utf-8")
    assert source.endswith(code) and code.startswith("import random")


def test_the_example_plays_a_game_then_a_tournament(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--games", "3", "--workers", "1", "--quiet",
         "--db", str(tmp_path / "e.sqlite")],
        capture_output=True, text=True, timeout=300, check=False, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    printed = done.stdout.splitlines()
    games = [line for line in printed if line.startswith("player_")]
    assert sorted(line.split()[0] for line in games) == ["player_0", "player_1", "player_2"]
    assert all(" reward " in line and " VP " in line for line in games)
    assert re.search(r"(\d+) of \1 games played", done.stdout)
    for name in ("heuristic", "greedy", "easy"):
        assert name in done.stdout
    assert "forfeits" in done.stdout
