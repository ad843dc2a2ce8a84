"""Every test runs with its own data and state directories: nothing a test starts (a server's
database, kept seat tokens, played records) ever reaches the real home directory."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_user_directories(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path_factory.mktemp("user")
    for variable, folder in (
        ("XDG_DATA_HOME", "data"),
        ("XDG_STATE_HOME", "state"),
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_CACHE_HOME", "cache"),
    ):
        path = Path(home) / folder
        path.mkdir()
        monkeypatch.setenv(variable, str(path))
