"""PROTOCOL.md stays true: its generated parts match the catalogue, its hex examples decode."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import msgpack

from protocol import CATALOGUE, ERROR_CODES, PROTOCOL_VERSION, SUPPORTED_VERSIONS
from protocol.reference import EXAMPLES, SECTIONS, generated_blocks

DOC = Path(__file__).resolve().parents[2] / "PROTOCOL.md"


def doc() -> str:
    return DOC.read_text(encoding="utf-8")


def test_every_generated_section_is_current():
    blocks = generated_blocks(doc())
    assert set(blocks) == set(SECTIONS)
    for name, render in SECTIONS.items():
        assert blocks[name] == render(), (
            f"PROTOCOL.md section {name!r} is stale: run `python -m protocol.reference PROTOCOL.md`"
        )


def test_every_message_and_error_code_is_documented():
    text = doc()
    for msg in CATALOGUE:
        assert f"#### `{msg.type}`" in text
    for code in ERROR_CODES:
        assert f"`{code}`" in text


def hex_blocks() -> list[bytes]:
    section = generated_blocks(doc())["examples"]
    frames = []
    for block in re.findall(r"```text\n(.*?)```", section, re.DOTALL):
        data = bytearray()
        for line in block.splitlines():
            hex_part = line.split("  ")[0]
            data.extend(bytes.fromhex(hex_part))
        frames.append(bytes(data))
    return frames


def test_the_hex_examples_are_whole_frames_of_the_messages_shown():
    frames = hex_blocks()
    assert len(frames) == len(EXAMPLES)
    for data, (_title, msg) in zip(frames, EXAMPLES, strict=True):
        (length,) = struct.unpack(">I", data[:4])
        assert length == len(data) - 4
        assert msgpack.unpackb(data[4:], raw=False) == msg


def test_the_doc_states_the_framing_constants():
    text = doc()
    assert "4-byte **unsigned big-endian length**" in text
    assert "65,536" in text
    assert f"This text is version **{PROTOCOL_VERSION}**" in text
    assert "a server speaks versions **2 and 1**" in text and SUPPORTED_VERSIONS == (2, 1)
