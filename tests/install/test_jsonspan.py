"""The position-keeping JSON parser agrees with json.loads and knows where each value sits."""

from __future__ import annotations

import json

import pytest

from spawnkit.install.jsonspan import JSONSpanError, parse

SAMPLES = [
    "{}",
    "[]",
    '"x"',
    "0",
    "-1.5e+3",
    "true",
    "null",
    '{\n  "a": [1, 2, {"b": "c\\u00e9\\"d"}],\n  "e": {"f": null}\n}\n',
    '\ufeff{"bom": true}',
    '  [ [], {}, [[ ]], "\\\\" ]  ',
]


@pytest.mark.parametrize("text", SAMPLES)
def test_values_match_json_loads(text: str):
    assert parse(text).to_python() == json.loads(text.lstrip("\ufeff"))


def test_spans_slice_the_source():
    text = '{"a": [1, {"b": "x"}], "c" : true}'
    root = parse(text)
    assert (root.start, root.end) == (0, len(text))
    a, c = root.members
    assert text[a.start : a.end] == '"a": [1, {"b": "x"}]'
    assert text[c.start : c.end] == '"c" : true'
    inner = a.value.items[1]
    assert text[inner.start : inner.end] == '{"b": "x"}'


def test_duplicate_keys_are_seen_and_the_last_wins():
    root = parse('{"k": 1, "k": 2, "j": 0}')
    assert root.duplicate_keys() == ["k"]
    assert root.get("k").value == 2


@pytest.mark.parametrize("bad", ['{"a": 1,}', "{'a': 1}", '{"a": NaN}', "[Infinity]", '{"a"}', ""])
def test_invalid_json_raises_with_a_location_or_reason(bad: str):
    with pytest.raises(JSONSpanError):
        parse(bad)
