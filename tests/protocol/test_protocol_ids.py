"""Request ids: msgpack integers from -2**31 to 2**53 - 1, or strings of up to 64 characters.

2**53 - 1 is the largest integer a JavaScript number holds exactly; JavaScript msgpack encoders
send 2**53 as a float, which is no id. The catalogue, the JSON Schema and PROTOCOL.md say the
same.
"""

from __future__ import annotations

import re
from pathlib import Path

import jsonschema
import msgpack
import pytest

from protocol import ProtocolError, decode, validate
from protocol.fields import ID_INT_MAX, ID_INT_MIN, INT_MIN, check_id
from protocol.schema import ID_INT_MAX as SCHEMA_ID_INT_MAX
from protocol.schema import generate

DOC = (Path(__file__).resolve().parents[2] / "PROTOCOL.md").read_text(encoding="utf-8")


def refusal(msg: dict[str, object]) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        validate(msg)
    return caught.value


def test_the_integer_ids_are_those_every_javascript_number_holds_exactly() -> None:
    assert ID_INT_MAX == 2**53 - 1 == SCHEMA_ID_INT_MAX
    assert ID_INT_MIN == INT_MIN == -(2**31)
    for good in (ID_INT_MIN, 0, 1, ID_INT_MAX, "", "x" * 64):
        assert check_id(good) is None
        validate({"type": "ping", "id": good})


@pytest.mark.parametrize("bad", [2**53, 2**63, ID_INT_MIN - 1, "x" * 65, True, None, [1], {}])
def test_an_id_outside_the_range_or_of_another_kind_is_a_bad_message(bad: object) -> None:
    assert refusal({"type": "ping", "id": bad}).code == "proto/bad_message"


def test_a_float_id_is_refused_even_a_whole_one_as_javascript_sends_2_53() -> None:
    # What @msgpack/msgpack writes for 2**53 (not a safe integer): a float 64.
    body = msgpack.packb({"type": "ping", "id": float(2**53)})
    assert body[-9] == 0xCB  # float 64
    error = refusal(decode(body))
    assert error.code == "proto/bad_message" and "float" in error.message
    for whole in (1.0, 0.0, float(ID_INT_MAX - 1)):
        assert refusal({"type": "ping", "id": whole}).code == "proto/bad_message"


def test_a_float_in_any_integer_field_is_refused() -> None:
    assert refusal({"type": "act", "version": 3.0, "action": ["roll"]}).code == (
        "proto/bad_message"
    )
    assert refusal({"type": "create", "game": "cosmic_run", "players": 2.0}).code == (
        "proto/bad_message"
    )


def test_the_json_schema_bounds_integer_ids_as_the_catalogue_does() -> None:
    schema = generate()
    check = jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/id"})
    assert check.is_valid(ID_INT_MAX) and check.is_valid(ID_INT_MIN)
    assert not check.is_valid(2**53) and not check.is_valid(ID_INT_MIN - 1)
    assert "never a float" in schema["$defs"]["id"]["description"]


def test_protocol_md_gives_the_id_range_and_says_floats_are_refused() -> None:
    assert "2⁵³ − 1" in DOC
    assert re.search("to 2⁵³(?! − 1)", DOC) is None  # the old bound, one too high
    assert "a float is\nrefused with `proto/bad_message`" in DOC
    assert "integer from −2³¹ to 2⁵³ − 1 (a msgpack integer, never a float; in version 1" in DOC
