"""config.toml trust entries: install then uninstall gives every variant back byte for byte."""

from __future__ import annotations

import pytest
import tomlkit

from spawnkit.install import codex_config as cc
from spawnkit.install.codex_trust import (
    expected_entries,
    hooks_disabled,
    trust_key,
    trusted_hash,
    untrusted,
)

SOURCE = "/home/u/.codex/hooks.json"
GROUP = {"hooks": [{"type": "command", "command": "py -I -S hook.py --host codex", "timeout": 10}]}
WANTED = expected_entries(
    SOURCE,
    {
        "PreToolUse": [{"matcher": "spawn_agent|collaborationspawn_agent", **GROUP}],
        "SubagentStart": [GROUP],
        "SubagentStop": [{"matcher": "", **GROUP}, GROUP],
    },
)
MINE = trust_key("/home/u/.codex/hooks.json", "Stop", 0, 0)

VARIANTS = {
    "missing": None,
    "empty": "",
    "blank lines": "\n\n",
    "minimal": 'model = "gpt-5.5"\n',
    "no final newline": 'model = "gpt-5.5"',
    "crlf": 'model = "gpt-5.5"\r\n\r\n[projects."/p"]\r\ntrust_level = "trusted"\r\n',
    "crlf no final newline": 'model = "a"\r\n[projects."/p"]\r\ntrust_level = "trusted"',
    "comments everywhere": (
        '# my Codex config\nmodel = "o3"  # the model\n\n# providers below\n'
        '[model_providers.fake]  # mine\nname = "Fake"\n# trailing comment\n'
    ),
    "tables in odd order": (
        '[projects."/b"]\ntrust_level = "trusted"\n\n[model_providers.x]\nname = "x"\n\n'
        '[projects."/a"]\ntrust_level = "untrusted"\n\n[features]\nmulti_agent_v2 = true\n'
    ),
    "own trust entry": (
        f'model = "m"\n\n[hooks.state."{MINE}"]\ntrusted_hash = "sha256:{"ab" * 32}"\n'
    ),
    "own hooks in config.toml": (
        '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "notify-send done"\n'
    ),
    "hooks table first": (
        '[hooks]\n\n[hooks.state."/x/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:00"\n\n'
        "[tui]\nanimations = false\n"
    ),
    "hooks.state header": '[hooks.state]\n\n[profiles.fast]\nmodel = "m"\n',
    "dotted keys": 'hooks.state."/y:stop:0:0".trusted_hash = "sha256:11"\nmodel = "m"\n',
    "literal strings and unicode": (
        "model = 'gpt'\nnotes = \"naïve — 😀\"\n[projects.'/p q']\ntrust_level = 'trusted'\n"
    ),
    "multiline string last": 'developer_instructions = """\nline one\nline two\n"""',
    "array of tables last": '[[skills.config]]\npath = "/s"\nenabled = false\n',
    "trailing whitespace": 'model = "m"   \n\n\n   \n',
}


@pytest.mark.parametrize("name", list(VARIANTS))
def test_install_then_remove_is_byte_identical(name):
    original = VARIANTS[name]
    text, record = cc.install(original, WANTED)
    data = tomlkit.parse(text).unwrap()
    assert cc.trust_entries(data) == {**cc.trust_entries(cc.parse(original)), **WANTED}
    # The user's bytes are all still there, in order, before spawnkit's block.
    if original:
        assert text.startswith(original)
    again, record2 = cc.install(text, WANTED, record)
    assert again == text and record2.keys == record.keys  # idempotent
    back = cc.remove(text, record)
    assert back == original


@pytest.mark.parametrize("name", ["minimal", "crlf", "own trust entry", "no final newline"])
def test_a_changed_command_rewrites_the_hash_in_place(name):
    original = VARIANTS[name]
    text, record = cc.install(original, WANTED)
    changed = {k: "sha256:" + "f" * 64 for k in WANTED}
    text2, record2 = cc.install(text, changed, record)
    assert len(text2) == len(text)  # same shape, new values
    assert cc.trust_entries(cc.parse(text2)) == {**cc.trust_entries(cc.parse(original)), **changed}
    assert cc.remove(text2, record2) == original


def test_keys_no_longer_wanted_are_removed_on_reinstall():
    original = VARIANTS["comments everywhere"]
    text, record = cc.install(original, WANTED)
    fewer = dict(list(WANTED.items())[:2])
    text2, record2 = cc.install(text, fewer, record)
    assert set(cc.trust_entries(cc.parse(text2))) == set(fewer)
    assert cc.remove(text2, record2) == original


def test_a_stale_user_entry_at_our_key_is_replaced_and_given_back():
    key = next(iter(WANTED))
    original = f'model = "m"\n\n[hooks.state."{key}"]\ntrusted_hash = "sha256:{"cd" * 32}"  # old\n'
    text, record = cc.install(original, WANTED)
    assert cc.trust_entries(cc.parse(text))[key] == WANTED[key]
    assert text.count(f'[hooks.state."{key}"]') == 1  # never a duplicate table
    assert key in record.replaced
    assert cc.remove(text, record) == original


def test_user_edits_after_install_survive_uninstall():
    text, record = cc.install(VARIANTS["minimal"], WANTED)
    edited = text + "\n[tui]\nanimations = false\n"
    back = cc.remove(edited, record)
    assert back == VARIANTS["minimal"] + "\n[tui]\nanimations = false\n"


def test_an_entry_the_user_reformatted_is_still_removed():
    text, record = cc.install(VARIANTS["minimal"], WANTED)
    key, value = next(iter(WANTED.items()))
    text = text.replace(f'trusted_hash = "{value}"', f"trusted_hash   =   '{value}'")
    back = cc.remove(text, record)
    assert cc.trust_entries(cc.parse(back)) == {}
    assert back.startswith(VARIANTS["minimal"])


def test_missing_file_comes_back_missing_and_record_round_trips():
    text, record = cc.install(None, WANTED)
    assert record.created and text.lstrip().startswith("[hooks.state.")
    restored = cc.TrustRecord.from_json(record.to_json())
    assert cc.remove(text, restored) is None


@pytest.mark.parametrize(
    "bad",
    [
        'model = "unterminated\n',
        "[hooks]\nstate = { x = 1 }\n",  # an inline table cannot be extended with [..] headers
        'hooks = "not a table"\n',
    ],
)
def test_files_spawnkit_cannot_extend_are_refused(bad):
    with pytest.raises(cc.ConfigError) as err:
        cc.install(bad, WANTED)
    assert "config.toml" in str(err.value)


def test_hash_is_the_documented_compact_sorted_json():
    import hashlib
    import json

    handler = {"type": "command", "command": "x", "timeout": 10}
    body = json.dumps(
        {
            "event_name": "subagent_stop",
            "hooks": [{"async": False, "command": "x", "timeout": 10, "type": "command"}],
            "matcher": "",
        },
        separators=(",", ":"),
        sort_keys=True,
    )
    assert trusted_hash("SubagentStop", {"matcher": ""}, handler) == (
        "sha256:" + hashlib.sha256(body.encode()).hexdigest()
    )
    # No matcher key in the group: none in the hash either; no timeout: Codex's 600.
    plain = trusted_hash("Stop", {}, {"type": "command", "command": "x"})
    body = '{"event_name":"stop","hooks":[{"async":false,"command":"x","timeout":600,"type":"command"}]}'
    assert plain == "sha256:" + hashlib.sha256(body.encode()).hexdigest()
    assert trust_key("/h/hooks.json", "PreToolUse", 2, 0) == "/h/hooks.json:pre_tool_use:2:0"


def test_untrusted_names_missing_and_stale_entries():
    hooks = {"SubagentStop": [{"matcher": "", **GROUP}, GROUP]}
    good = expected_entries(SOURCE, hooks)
    first, second = sorted(good)
    assert untrusted(SOURCE, hooks, good) == []
    assert untrusted(SOURCE, hooks, {first: good[first]}) == [second]
    changed = {"SubagentStop": [{"matcher": "", **GROUP}, {"hooks": [{"command": "other"}]}]}
    assert untrusted(SOURCE, changed, good) == [second]  # the command changed: hash stale


def test_hooks_disabled_by_feature_flags():
    assert hooks_disabled({}) is None
    assert hooks_disabled({"features": {"hooks": True}}) is None
    assert hooks_disabled({"features": {"hooks": False}}) == "[features] hooks = false"
    assert hooks_disabled({"features": {"codex_hooks": False}}) == "[features] codex_hooks = false"
