"""The answers a user may give the template: one validator for ``new`` and ``adopt``.

``--data KEY=VALUE`` is checked against the questions of the running template's
copier.yml before copier runs: the key must be a question a user answers (not the
skill name, which is NAME or the folder's name, and not a hidden setting such as
``protocol``), the value must be UTF-8 text of the question's type and among its
choices. copier's own validators then judge the values; after the render,
``check_applied`` refuses an answer copier dropped because its question was not
asked (``skill_hooks`` under the portable profile), instead of ignoring it silently.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from spawnkit.errors import SpawnkitError
from spawnkit.files import bounded, reading
from spawnkit.standard import protocol, resources

NAME_QUESTION = "skill_name"
_BOOL_WORDS = {"true", "false", "yes", "no", "y", "n", "on", "off", "1", "0"}
_EQUALS = re.compile(r"^\{\{\s*(\w+)\s*==\s*['\"]([^'\"]+)['\"]\s*\}\}$")


class _Loader(yaml.SafeLoader):
    """copier.yml's ``!include`` only matters to copier."""


_Loader.add_constructor("!include", lambda loader, node: None)


def _copier_yml(root: Path | None = None) -> dict[str, Any]:
    """The template's copier.yml, read within the bounds of every YAML (``files.bounded``)."""
    path = (root or resources.data_root()) / "copier.yml"
    text = reading.read_text(path, what="the template's", fix="reinstall spawnkit")
    data = bounded.yaml_loads(text, str(path), loader=_Loader)
    return data if isinstance(data, dict) else {}


def questions(root: Path | None = None) -> dict[str, dict[str, Any]]:
    """The template's questions a user may see, in copier.yml's order (the skill name included)."""
    return {
        key: spec
        for key, spec in _copier_yml(root).items()
        if not key.startswith("_") and isinstance(spec, dict) and spec.get("when") is not False
    }


def answerable(root: Path | None = None) -> dict[str, dict[str, Any]]:
    """The questions ``--data`` may answer: every asked question except the skill name."""
    return {k: v for k, v in questions(root).items() if k != NAME_QUESTION}


def check_name(name: str, source: str = "the skill name") -> None:
    """Refuse names the Agent Skills spec rejects; they double as folder names."""
    spec = protocol.skill_spec()
    if not name:
        raise SpawnkitError(f"{source} is empty; give one such as my-audit")
    if len(name) > spec["name_max_length"]:
        raise SpawnkitError(
            f"{source} has {len(name)} characters; at most {spec['name_max_length']} are allowed"
        )
    if not re.fullmatch(spec["name_pattern"], name):
        raise SpawnkitError(
            f"{source} {name!r} is not a valid skill name: use lowercase letters, digits and single hyphens "
            "(e.g. my-audit)"
        )


def parse(pairs: Sequence[str], *, name_source: str = "the NAME argument") -> dict[str, str]:
    """``KEY=VALUE`` pairs as ``{key: value}``, each checked against the template's questions.

    ``name_source`` says where the skill name comes from instead (``new``: the NAME argument;
    ``adopt``: the folder's name).
    """
    allowed = answerable()
    data: dict[str, str] = {}
    for pair in pairs:
        _check_text(pair)
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise SpawnkitError(f"--data {pair!r} is not KEY=VALUE (e.g. --data max_parallel=2)")
        if key == NAME_QUESTION:
            raise SpawnkitError(f"the skill name is {name_source}; drop --data {NAME_QUESTION}")
        if key not in allowed:
            raise SpawnkitError(
                f"unknown --data key {key!r}; the template asks: {', '.join(allowed)}"
            )
        check_type(key, value, allowed[key])
        data[key] = value
    return data


def _check_text(pair: str) -> None:
    try:
        pair.encode("utf-8")
    except UnicodeEncodeError as exc:
        bad = pair[exc.start].encode("utf-8", "surrogateescape")
        raise SpawnkitError(
            f"--data {pair.partition('=')[0]!r}: the value is not UTF-8 text (byte 0x{bad.hex()}); "
            "pass UTF-8 text"
        ) from None


def check_type(key: str, value: str, question: Mapping[str, Any]) -> None:
    """Refuse a value that cannot be the question's type or is not among its choices."""
    kind = question.get("type", "str")
    if kind == "int" and not re.fullmatch(r"-?[0-9]+", value.strip()):
        raise SpawnkitError(f"--data {key}={value!r}: expected a whole number")
    if kind == "bool" and value.strip().lower() not in _BOOL_WORDS:
        raise SpawnkitError(f"--data {key}={value!r}: expected true or false")
    if kind == "yaml":
        try:
            bounded.yaml_loads(value, f"--data {key}")
        except yaml.YAMLError as exc:
            first = str(exc).splitlines()[0]
            raise SpawnkitError(f"--data {key}: not valid YAML ({first})") from None
    choices = question.get("choices")
    if isinstance(choices, dict) and value not in choices.values():
        raise SpawnkitError(
            f"--data {key}={value!r}: choose one of {', '.join(map(str, choices.values()))}"
        )


def check_applied(given: Mapping[str, object], recorded: Mapping[str, object]) -> None:
    """Refuse answers copier dropped: their question was not asked (its ``when`` was false)."""
    asked = questions()
    for key in given:
        if key in recorded or key not in asked:
            continue
        condition = str(asked[key].get("when", "")).strip()
        match = _EQUALS.match(condition)
        if match:
            raise SpawnkitError(
                f"--data {key} needs {match[1]}={match[2]}; add --data {match[1]}={match[2]}, "
                f"or drop --data {key}"
            )
        raise SpawnkitError(
            f"--data {key} does not apply with these answers (it is asked only when "
            f"{condition.strip('{} ')}); drop it"
        )


def recorded(answers_file: Path) -> dict[str, object]:
    """The answers a rendered skill's answers file holds."""
    text = reading.read_text(answers_file, what="the answers file")
    data = bounded.yaml_loads(text, str(answers_file)) or {}
    return data if isinstance(data, dict) else {}
