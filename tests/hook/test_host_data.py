"""The host descriptions the hook builds on every call (``spawnkit.hosts``): complete, read-only,
and refused when a field is missing or unknown."""

from __future__ import annotations

import pytest

from spawnkit import hosts


def _fields(host: hosts.Host) -> dict[str, object]:
    return {key: getattr(host, key) for key in hosts.Host.FIELDS}


@pytest.mark.parametrize("host", hosts.all_hosts(), ids=str)
def test_every_host_sets_every_field_and_no_other(host):
    assert set(vars(host)) == set(hosts.Host.FIELDS)
    assert hosts.Host(**_fields(host)).__dict__ == host.__dict__


def test_a_host_is_read_only():
    host = hosts.get("copilot")
    with pytest.raises(AttributeError, match="read-only"):
        host.spawn_tools = ("Agent",)
    with pytest.raises(AttributeError, match="read-only"):
        del host.spawn_tools
    assert host.spawn_tools == ("task",)


def test_a_missing_field_is_named():
    fields = _fields(hosts.CODEX)
    del fields["stop_tool"]
    with pytest.raises(KeyError, match="stop_tool"):
        hosts.Host(**fields)


def test_an_unknown_field_is_named():
    with pytest.raises(TypeError, match=r"unknown Host fields \['stop_tools'\]"):
        hosts.Host(**_fields(hosts.CODEX), stop_tools=None)


def test_one_field_swapped_for_an_unknown_one_is_refused():
    fields = _fields(hosts.QWEN)
    fields["spawn_toolz"] = fields.pop("spawn_tools")
    with pytest.raises(KeyError, match="spawn_tools"):
        hosts.Host(**fields)
