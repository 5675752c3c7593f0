"""The hook path's JSON: same results as the json module, always-valid output."""

from __future__ import annotations

import json
import math

import pytest

from spawnkit.base import fastjson

SAMPLES = [
    {"a": [1, 2.5, -3e-7, True, False, None], "b": {"c": 'é\u2028\U0001f600 "q" \\ \n\t\x00'}},
    [],
    {},
    "text",
    12345678901234567890,
    [[[[{"deep": [{}]}]]]],
]


@pytest.mark.parametrize("value", SAMPLES)
def test_round_trip_matches_json(value):
    text = fastjson.dumps(value)
    assert json.loads(text) == value
    assert fastjson.loads(json.dumps(value, indent=2)) == value
    assert fastjson.loads(text) == value


def test_output_is_ascii_and_compact():
    assert fastjson.dumps({"k": ["é", 1]}) == '{"k":["\\u00e9",1]}'


def test_non_finite_floats_become_null():
    assert fastjson.dumps([math.inf, -math.inf, math.nan, 1.5]) == "[null,null,null,1.5]"
    assert math.isnan(fastjson.loads("[NaN]")[0])


def test_any_depth_the_parser_accepts_can_be_written():
    deep = fastjson.loads("[" * 900 + "]" * 900)
    assert fastjson.dumps(deep) == "[" * 900 + "]" * 900


@pytest.mark.parametrize(
    "text", ["", "   ", "{", '{"a": 1} x', "[1,]", "nul", "[" * 100_000, "1" * 5000, "{'a': 1}"]
)
def test_bad_text_raises_jsonerror(text):
    with pytest.raises(fastjson.JSONError):
        fastjson.loads(text)


def test_lone_surrogates_survive():
    value = fastjson.loads('"\\ud800x"')
    assert value == "\ud800x"
    assert fastjson.dumps(value) == '"\\ud800x"'


def test_unencodable_type_is_a_typeerror():
    with pytest.raises(TypeError):
        fastjson.dumps({"a": object()})
