"""WF002 meta-first."""

from __future__ import annotations

import pytest

OK = "export const meta = { name: 'a', description: 'b' }\nreturn 1\n"


def test_comments_before_meta_are_fine(wf):
    assert wf("// a header comment\n/* more */\n" + OK, meta=False).diagnostics == []


@pytest.mark.parametrize(
    "text, words",
    [
        ("'use strict'\n" + OK, "is on line 2"),
        (";\n" + OK, "is on line 2"),
        ("const x = 1\n" + OK, "is on line 2"),
        ("export let meta = { name: 'a', description: 'b' }\n", "`let`"),
        ("export var meta = { name: 'a', description: 'b' }\n", "`var`"),
        ("export const meta = { name: 'a', description: 'b' }, x = 1\n", "alone"),
        ("export const meta = makeMeta()\n", "object literal"),
        ("", "empty"),
        ("return 1\n", "no `export const meta"),
    ],
)
def test_refused_shapes(wf_found, text, words):
    found = wf_found(text, "WF002", meta=False)
    assert len(found) == 1 and words in found[0][1] and found[0][0] == 1
