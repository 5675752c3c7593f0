"""Add and remove spawnkit's hook trust entries in Codex's ``config.toml``, keeping every user byte.

Codex runs a hook only when ``config.toml`` trusts it (see ``codex_trust``), so
``spawnkit install --host codex`` writes one ``[hooks.state."<key>"]`` table per hook
it registers. The file is the user's main Codex config (model, providers, projects,
their own trust entries), so it is edited like settings.json: by splicing text, never
by re-serialising it.

* New entries are appended at the end, each as its own segment
  ``<nl>[hooks.state."<key>"]<nl>trusted_hash = "sha256:…"<nl>`` in the file's line
  ending (after a file without a final newline, the segment's own first line break
  ends the user's last line). Removing the segments gives the original bytes back.
* An entry of ours that is already there (an earlier install) is left alone when its
  hash is right, else its hash is rewritten in place. An entry of the same key that
  spawnkit did not write (say, a stale one from a hook that sat at that position
  before) is replaced and its original text kept, to be put back on uninstall.
* Every result is parsed again with tomlkit (a format-preserving TOML library) and
  must hold exactly the user's data plus the wanted entries; a file spawnkit cannot
  extend this way (``hooks`` as an inline table, say) is refused, never rewritten.

Pure functions: text in, text out; what uninstall needs comes back as a ``TrustRecord``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import tomlkit
from tomlkit.exceptions import TOMLKitError

from spawnkit.files import bounded
from spawnkit.install.codex_trust import HASH_KEY

CONFIG_NAME = "config.toml"


class ConfigError(ValueError):
    """config.toml cannot be edited safely; the message says why and what to do."""


@dataclass
class TrustRecord:
    """What an install did to config.toml, for uninstall."""

    keys: dict[str, str] = field(default_factory=dict)  # trust key -> hash spawnkit wrote
    replaced: dict[str, str] = field(default_factory=dict)  # key -> the user's segment text
    created: bool = False  # the file did not exist before the first install

    def to_json(self) -> dict[str, Any]:
        return {
            "keys": dict(self.keys),
            "replaced": dict(self.replaced),
            "created": self.created,
        }

    @classmethod
    def from_json(cls, data: Any) -> TrustRecord:
        if not isinstance(data, dict):
            return cls()
        keys = data.get("keys")
        replaced = data.get("replaced")
        return cls(
            {str(k): str(v) for k, v in keys.items()} if isinstance(keys, dict) else {},
            {str(k): str(v) for k, v in replaced.items()} if isinstance(replaced, dict) else {},
            bool(data.get("created")),
        )


def parse(text: str | None, name: str = CONFIG_NAME) -> dict[str, Any]:
    """The data of a config.toml text ({} for a missing or blank file); ConfigError if broken."""
    if text is None or not text.strip():
        return {}
    try:
        return bounded.parse(lambda t: tomlkit.parse(t).unwrap(), text, name)
    except TOMLKitError as exc:
        raise ConfigError(
            f"{name} is not valid TOML ({exc}); Codex cannot read it either: correct the TOML"
            " there, then run the command again"
        ) from None
    except bounded.TooDeep as exc:
        raise ConfigError(str(exc)) from None


def trust_entries(data: dict[str, Any]) -> dict[str, str]:
    """Every ``hooks.state."<key>".trusted_hash`` in parsed config data."""
    state = data.get("hooks", {}).get("state", {}) if isinstance(data.get("hooks"), dict) else {}
    if not isinstance(state, dict):
        return {}
    return {
        key: value[HASH_KEY]
        for key, value in state.items()
        if isinstance(value, dict) and isinstance(value.get(HASH_KEY), str)
    }


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def _quote(key: str) -> str:
    """A TOML basic string for ``key`` (JSON's escapes are all valid TOML escapes)."""
    return json.dumps(key, ensure_ascii=False)


def segment(key: str, value: str, nl: str) -> str:
    """The text spawnkit appends for one entry, blank line before it included."""
    return f"{nl}[hooks.state.{_quote(key)}]{nl}{HASH_KEY} = {_quote(value)}{nl}"


def _header(key: str) -> re.Pattern[str]:
    """The table header of ``key`` however it is quoted or spaced (basic or literal string)."""
    quoted = "(?:" + re.escape(_quote(key)) + "|" + re.escape(f"'{key}'") + ")"
    return re.compile(
        r"^[ \t]*\[[ \t]*hooks[ \t]*\.[ \t]*state[ \t]*\.[ \t]*" + quoted + r"[ \t]*\][^\r\n]*",
        re.M,
    )


def _table_span(text: str, key: str) -> tuple[int, int] | None:
    """Start and end of the table ``[hooks.state."<key>"]`` (header to the next header)."""
    found = _header(key).search(text)
    if found is None:
        return None
    following = re.compile(r"^[ \t]*\[", re.M).search(text, found.end())
    return found.start(), following.start() if following else len(text)


def _set_hash_in_table(text: str, key: str, value: str) -> str | None:
    """Rewrite ``trusted_hash`` inside the table of ``key``; None when it has none."""
    span = _table_span(text, key)
    if span is None:
        return None
    start, end = span
    body = text[start:end]
    line = re.compile(r"^([ \t]*" + HASH_KEY + r"[ \t]*=[ \t]*)(\"[^\"\r\n]*\"|'[^'\r\n]*')", re.M)
    if not line.search(body):
        return None
    body = line.sub(lambda m: m.group(1) + _quote(value), body, count=1)
    return text[:start] + body + text[end:]


def install(
    text: str | None,
    wanted: dict[str, str],
    record: TrustRecord | None = None,
    name: str = CONFIG_NAME,
) -> tuple[str, TrustRecord]:
    """config.toml with exactly ``wanted`` (trust key -> hash) as spawnkit's entries.

    ``record`` is what earlier installs did (its keys not wanted any more are removed);
    the returned record replaces it. Running it again on its own output changes nothing.
    """
    record = TrustRecord(**vars(record)) if record is not None else TrustRecord()
    record.keys, record.replaced = dict(record.keys), dict(record.replaced)
    if text is None:
        record.created = True
    text = text or ""
    original = parse(text, name)
    stale = {k: v for k, v in record.keys.items() if k not in wanted}
    gone = TrustRecord(stale, {k: record.replaced.pop(k) for k in stale if k in record.replaced})
    text = remove(text, gone, name, keep=True) or ""
    for key in stale:
        record.keys.pop(key, None)
    nl = _newline(text)
    present = trust_entries(parse(text, name))
    # Entries already there first, new ones appended after: a replaced table's span must be
    # taken before anything is appended behind it (it would take the separator along).
    for key, value in sorted(wanted.items(), key=lambda item: item[0] not in present):
        if key in present:
            if present[key] == value:
                record.keys[key] = value
                continue
            if key not in record.keys:
                span = _table_span(text, key)
                if span is None:
                    raise ConfigError(
                        f"{name} trusts {key} in a form spawnkit cannot edit safely (not a"
                        f' [hooks.state."…"] table); remove that entry, then run the command again'
                    )
                record.replaced[key] = text[span[0] : span[1]]
            changed = _set_hash_in_table(text, key, value)
            if changed is None:
                raise ConfigError(
                    f"{name}: the trust entry {key} has no {HASH_KEY} line spawnkit can rewrite;"
                    " remove that entry, then run the command again"
                )
            text = changed
        else:
            text += segment(key, value, nl)
        record.keys[key] = value
    _check(text, original, wanted, set(record.keys) | set(stale), name)
    return text, record


def remove(
    text: str | None, record: TrustRecord, name: str = CONFIG_NAME, keep: bool = False
) -> str | None:
    """config.toml without spawnkit's entries (replaced user entries put back).

    Returns None when the file should be deleted (install created it and nothing else is
    in it), unless ``keep``."""
    if text is None:
        return None
    before = parse(text, name)
    nl = _newline(text)
    # Own segments first: a replaced user table ends where the next table starts, which may
    # be one of ours until ours are gone.
    for key, value in record.keys.items():
        if key in record.replaced:
            continue
        own = segment(key, value, nl)
        if own in text:
            text = text.replace(own, "", 1)
            continue
        bare = own[len(nl) :]
        if text.startswith(bare):
            text = text[len(bare) :]
            continue
        span = _table_span(text, key)  # edited by hand since: drop the table as it is now
        if span is not None and trust_entries(parse(text[span[0] : span[1]], name)).get(key):
            text = text[: span[0]] + text[span[1] :]
    for key, original in record.replaced.items():
        span = _table_span(text, key)
        if span is not None:
            text = text[: span[0]] + original + text[span[1] :]
    after = parse(text, name)
    left = trust_entries(after)
    for key in record.keys:
        if key in left and key not in record.replaced:
            raise ConfigError(
                f"{name}: could not take back the trust entry {key}; remove it by hand"
            )
    _same_except(before, after, set(record.keys), name)
    if record.created and not keep and not text.strip():
        return None
    return text


def _check(
    text: str, original: dict[str, Any], wanted: dict[str, str], ours: set[str], name: str
) -> None:
    """The result must be valid TOML holding the user's data plus exactly ``wanted``."""
    try:
        result = tomlkit.parse(text).unwrap()
    except TOMLKitError as exc:
        raise ConfigError(
            f"{name}: spawnkit's trust entries cannot be added to this file safely ({exc}); if it"
            " defines hooks as an inline table, write it as [hooks] tables, then run the command"
            " again"
        ) from None
    entries = trust_entries(result)
    if any(entries.get(k) != v for k, v in wanted.items()):
        raise ConfigError(
            f"{name}: spawnkit's trust entries did not land where Codex reads them; check the"
            " file's [hooks] tables, then run the command again"
        )
    _same_except(original, result, ours, name)


def _same_except(before: dict[str, Any], after: dict[str, Any], keys: set[str], name: str) -> None:
    """Everything but the trust entries ``keys`` is unchanged (a bug check, never expected)."""

    def strip(data: dict[str, Any]) -> dict[str, Any]:
        data = json.loads(json.dumps(data, default=str))
        state = data.get("hooks", {}).get("state") if isinstance(data.get("hooks"), dict) else None
        if isinstance(state, dict):
            for key in keys:
                state.pop(key, None)
            if not state:
                data["hooks"].pop("state")
        if data.get("hooks") == {}:  # an empty [hooks] table says what no table says
            data.pop("hooks")
        return data

    if strip(before) != strip(after):
        raise ConfigError(
            f"{name}: editing the trust entries would change other settings; nothing was written"
        )
