"""docs/research.md carries the reference tables exactly as the code prints them."""

from __future__ import annotations

from pathlib import Path

import pytest

from cosmoport.envs.docs import BEGIN, END, reference

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"


def test_research_doc_holds_the_generated_reference() -> None:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(BEGIN)
    end = text.index(END) + len(END)
    assert text[start:end] == reference(), (
        "docs/research.md is out of date: paste the output of python -m cosmoport.envs.docs"
    )


def test_the_example_plays_a_whole_game(capsys: pytest.CaptureFixture[str]) -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## Example") :]
    code = section[section.index("```python\n") + 10 : section.index("```\n\n")]
    assert len(code.splitlines()) <= 40
    exec(compile(code, "docs/research.md example", "exec"), {"__name__": "example"})
    printed = capsys.readouterr().out.splitlines()
    assert sorted(line.split()[0] for line in printed) == ["player_0", "player_1", "player_2"]
    assert all(" reward " in line and " VP " in line for line in printed)
