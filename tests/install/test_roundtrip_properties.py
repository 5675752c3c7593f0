"""Install then uninstall gives back the very bytes, for files no one here wrote by hand.

The round-trip claims (settings.json and Codex's hooks.json through the settings merge,
Codex's config.toml through the trust editor) are tested elsewhere on a handful of
realistic files. Here hypothesis builds the files: any user keys and values, hooks on
spawnkit's own events and others, any JSON layout (indents, tabs, one line, CRLF, no final
newline, escaped or raw Unicode), and TOML with comments, tables and CRLF. For each: the
install keeps every user value, running it again changes nothing, and uninstall restores the
original byte for byte.
"""

from __future__ import annotations

import json
from functools import cache

import tomlkit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spawnkit.install import codex_config
from spawnkit.install import registrations as regs
from spawnkit.install import settings_merge as sm
from spawnkit.install.install import _own_trust

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TOML_SETTINGS = settings(SETTINGS, max_examples=40)  # tomlkit reads and checks every result
EVENTS = ["PreToolUse", "PostToolUse", "PostToolBatch", "SubagentStart", "SubagentStop", "Stop"]
EVENTS += ["Notification", "SessionStart", "UserPromptSubmit"]
MATCHERS = ["Bash", "Agent|Task", "Agent", "Read", "Write|Edit", "", "*", "spawn_agent"]
KEY = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=8)
SCALAR = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**9), 10**9),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(max_size=16),
)
VALUE = st.recursive(
    SCALAR,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEY, inner, max_size=3),
    max_leaves=8,
)
HANDLER = st.fixed_dictionaries(
    {"type": st.just("command"), "command": st.text(min_size=1, max_size=24)},
    optional={"timeout": st.integers(1, 600)},
)
GROUP = st.fixed_dictionaries(
    {"hooks": st.lists(HANDLER, min_size=1, max_size=2)},
    optional={"matcher": st.sampled_from(MATCHERS)},
)
HOOKS = st.dictionaries(st.sampled_from(EVENTS), st.lists(GROUP, max_size=2), max_size=4)


@st.composite
def json_files(draw) -> str:
    """A settings.json (or hooks.json) as a person or another tool might have written it."""
    data = draw(st.dictionaries(KEY.filter(lambda k: k != "hooks"), VALUE, max_size=4))
    if draw(st.booleans()):
        data["hooks"] = draw(HOOKS)
        keys = list(data)
        data = {k: data[k] for k in draw(st.permutations(keys))}
    indent = draw(st.sampled_from([None, 2, 4, "\t", 1]))
    text = json.dumps(data, indent=indent, ensure_ascii=draw(st.booleans()))
    if draw(st.booleans()):
        text += "\n"
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    return text


def _round_trip(text: str, host: str) -> None:
    command = regs.installed_command("/usr/bin/python3", host)
    table = regs.registrations(host)
    first = sm.install(text, command, table)
    assert first.text is not None
    assert sm.install(first.text, command, table).text == first.text  # again: no change
    installed = json.loads(first.text)
    before = json.loads(text)
    for key, value in before.items():
        if key != "hooks":
            assert installed[key] == value  # every user value kept
    for event, groups in (before.get("hooks") or {}).items():
        assert installed["hooks"][event][: len(groups)] == groups  # user hooks first, unchanged
    back = sm.remove(first.text, first.created_keys, None)
    assert back.text == text


@SETTINGS
@given(json_files())
def test_claude_code_settings_install_then_uninstall_is_byte_identical(text):
    _round_trip(text, "claude-code")


@SETTINGS
@given(json_files())
def test_codex_hooks_json_install_then_uninstall_is_byte_identical(text):
    _round_trip(text, "codex")


TOML_KEY = st.text(
    st.sampled_from("abcdefghijklmnopqrstuvwxyz_-0123456789"), min_size=1, max_size=8
)
TOML_SCALAR = st.one_of(
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.text(st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]), max_size=12),
)


@st.composite
def toml_files(draw) -> str:
    """A config.toml: top-level settings, tables (some of them project trust), comments."""
    doc = tomlkit.document()
    if draw(st.booleans()):
        doc.add(tomlkit.comment(draw(st.text(st.sampled_from("abc xyz#"), max_size=12))))
    for key, value in draw(st.dictionaries(TOML_KEY, TOML_SCALAR, max_size=4)).items():
        doc[key] = value
    for name in draw(st.lists(TOML_KEY, max_size=2, unique=True)):
        table = tomlkit.table()
        for key, value in draw(st.dictionaries(TOML_KEY, TOML_SCALAR, max_size=3)).items():
            table[key] = value
        doc[name] = table
    if draw(st.booleans()):
        projects = tomlkit.table(is_super_table=True)
        projects["/elsewhere"] = {"trust_level": "trusted"}
        doc["projects"] = projects
    text = tomlkit.dumps(doc)
    if draw(st.booleans()):
        text = text.rstrip("\n")
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    return text


HOOKS_SOURCE = "/home/user/.codex/hooks.json"


@cache
def _wanted() -> dict[str, str]:
    command = regs.installed_command("/usr/bin/python3", "codex")
    hooks = sm.install(None, command, regs.registrations("codex")).text
    return _own_trust(HOOKS_SOURCE, hooks)


@TOML_SETTINGS
@given(toml_files(), st.booleans())
def test_codex_config_toml_install_then_uninstall_is_byte_identical(text, trusted_before):
    wanted = _wanted()
    assert wanted
    if trusted_before:  # the user already trusts one of the same keys, with another hash
        key = sorted(wanted)[0]
        nl = "\r\n" if "\r\n" in text else "\n"
        text += codex_config.segment(key, "sha256:" + "0" * 64, nl)
    after, record = codex_config.install(text, wanted)
    assert codex_config.trust_entries(codex_config.parse(after)) == {
        **codex_config.trust_entries(codex_config.parse(text)),
        **wanted,
    }
    assert codex_config.install(after, wanted, record)[0] == after  # again: no change
    assert codex_config.remove(after, record) == text


@TOML_SETTINGS
@given(st.sampled_from([None, ""]))
def test_codex_config_toml_install_creates_then_uninstall_deletes(text):
    after, record = codex_config.install(text, _wanted())
    assert codex_config.remove(after, record) == (None if text is None else "")
