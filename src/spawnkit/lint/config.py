"""Project settings for ``spawnkit lint`` from ``.spawnkit.toml`` or ``pyproject.toml``.

``.spawnkit.toml`` holds the keys at top level (or under ``[tool.spawnkit]``);
``pyproject.toml`` under ``[tool.spawnkit]`` (one that never names spawnkit is not parsed).
The nearest file, searching from the current directory upwards, wins; ``.spawnkit.toml``
before ``pyproject.toml`` in the same folder. Command-line options override it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from spawnkit.errors import SpawnkitError
from spawnkit.files import bounded, reading
from spawnkit.lint.rules import PROFILES, selector

KEYS = {"select", "ignore", "profile", "exclude", "max-file-size", "preview"}
DEFAULT_MAX_FILE_SIZE = 4 * 1024 * 1024  # bytes; larger files are reported and skipped


class LintConfig(NamedTuple):
    select: list[str] | None = None
    ignore: list[str] | None = None
    profile: str | None = None
    exclude: tuple[str, ...] = ()
    source: Path | None = None
    max_file_size: int | None = None
    preview: bool | None = None  # the preview tier on (see spawnkit.lint.evidence)


def find(start: Path) -> Path | None:
    """The nearest config file holding spawnkit settings.

    Each is read only if it resolves inside its own folder: a ``.spawnkit.toml`` a cloned
    project links to a file elsewhere is refused (``contain.Outside``), never opened."""
    for folder in [start, *start.parents]:
        dotfile = folder / ".spawnkit.toml"
        if dotfile.is_file():
            return dotfile
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file() and "spawnkit" in _read(
            pyproject, only_if="spawnkit", root=folder
        ).get("tool", {}):
            return pyproject
    return None


def load(path: Path | None, root: Path | None = None) -> LintConfig:
    """The settings in ``path`` (defaults for None); ``root``: the folder it was found in,
    out of which it must not resolve (None: a file named with ``--config``)."""
    if path is None:
        return LintConfig()
    data = _read(path, root=root)
    section: Any = data.get("tool", {}).get("spawnkit", {})
    if path.name != "pyproject.toml" and not section:
        section = {k: v for k, v in data.items() if k != "tool"}
    if not isinstance(section, dict):
        raise SpawnkitError(f"{path}: [tool.spawnkit] must be a table of settings")
    lint = section.get("lint", section)  # [tool.spawnkit.lint] also accepted
    if not isinstance(lint, dict):
        raise SpawnkitError(f"{path}: [tool.spawnkit.lint] must be a table of settings")
    # other spawnkit commands may keep their own sub-tables here; only plain values are lint's
    unknown = sorted(k for k, v in lint.items() if k not in KEYS and not isinstance(v, dict))
    if unknown:
        raise SpawnkitError(
            f"{path}: unknown spawnkit setting(s) {', '.join(unknown)}; "
            f"use {', '.join(sorted(KEYS))}"
        )
    preview = lint.get("preview")
    if preview is not None and not isinstance(preview, bool):
        raise SpawnkitError(f"{path}: preview = {preview!r} must be true or false")
    profile = lint.get("profile")
    if profile is not None and profile not in PROFILES:
        raise SpawnkitError(f"{path}: profile = {profile!r} is not one of {', '.join(PROFILES)}")
    return LintConfig(
        select=_codes(path, lint, "select"),
        ignore=_codes(path, lint, "ignore"),
        profile=profile,
        exclude=tuple(_strings(path, lint, "exclude") or ()),
        source=path,
        max_file_size=_size(path, lint.get("max-file-size")),
        preview=preview,
    )


MAX_CONFIG_BYTES = 1024 * 1024


def parse_size(text: str) -> int:
    """``"4MB"``, ``"512k"``, ``"1000000"`` -> bytes; ValueError otherwise."""
    raw = text.strip().lower().replace(" ", "")
    for suffix, factor in (("mib", 1 << 20), ("mb", 1 << 20), ("m", 1 << 20), ("kib", 1 << 10)):
        if raw.endswith(suffix):
            return _positive(float(raw[: -len(suffix)]) * factor)
    for suffix, factor in (("kb", 1 << 10), ("k", 1 << 10), ("b", 1)):
        if raw.endswith(suffix):
            return _positive(float(raw[: -len(suffix)]) * factor)
    return _positive(float(raw))


def _positive(value: float) -> int:
    if value < 1:
        raise ValueError("must be at least one byte")
    return int(value)


def _size(path: Path, value: Any) -> int | None:
    if value is None:
        return None
    try:
        return _positive(value) if isinstance(value, int) else parse_size(str(value))
    except ValueError:
        raise SpawnkitError(
            f'{path}: max-file-size = {value!r} is not a size; use e.g. "4MB" or 4194304'
        ) from None


def _read(path: Path, only_if: str = "", root: Path | None = None) -> dict[str, Any]:
    """The TOML table in ``path``; ``{}`` without parsing when ``only_if`` is not in the text.

    Importing the TOML parser is a noticeable part of a one-file lint, and most
    ``pyproject.toml`` files up the tree never mention spawnkit: a file whose text lacks the
    word cannot hold a ``tool.spawnkit`` table (short of spelling a quoted key with escapes),
    so it is not parsed, and a broken one that is not ours is not our error either.
    """
    # a plain file of sane size: a FIFO in a cloned repository must not hang lint
    text = reading.read_text(path, what="config file", limit=MAX_CONFIG_BYTES, root=root)
    if only_if and only_if not in text:
        return {}
    try:
        return bounded.toml_loads(text, str(path))
    except ValueError as exc:  # tomllib.TOMLDecodeError; importing it here would cost a lint
        raise SpawnkitError(
            f"{path} is not valid TOML ({exc}); fix the file or remove it"
        ) from None


# what each list setting holds, and an example of it (select/ignore take rule codes)
_LIST_KINDS = {"exclude": ("path globs (strings)", '["vendor/**", "drafts/*.md"]')}


def _strings(path: Path, data: dict[str, Any], key: str) -> list[str] | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        what, example = _LIST_KINDS.get(key, ("rule codes or names", '["CM005"]'))
        raise SpawnkitError(f"{path}: {key} must be a list of {what}, e.g. {key} = {example}")
    return value


def _codes(path: Path, data: dict[str, Any], key: str) -> list[str] | None:
    values = _strings(path, data, key)
    if values is None:
        return None
    codes = []
    for value in values:
        code = selector(value)
        if code is None:
            raise SpawnkitError(
                f"{path}: {key} = {value!r} is neither a rule name nor a code prefix; "
                "`spawnkit rule` lists them"
            )
        codes.append(code)
    return codes
