"""Render spawnkit's skill template with real copier, for tests of the template and of generated skills."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parent.parent


def template_copy(dst: Path) -> Path:
    """The template as the wheel ships it (copier.yml, template/, standards/), outside any git repo.

    Rendering from a plain folder skips copier's git clone of the checkout, which keeps tests fast.
    """
    dst.mkdir(parents=True, exist_ok=True)
    shutil.copy2(REPO / "copier.yml", dst / "copier.yml")
    for folder in ("template", "standards"):
        shutil.copytree(REPO / folder, dst / folder)
    return dst


def render(src: Path, dst: Path, **data: Any) -> Path:
    """``copier copy --defaults`` of ``src`` into ``dst`` with ``data`` answers; returns ``dst``."""
    import copier

    copier.run_copy(str(src), dst, data=data, defaults=True, quiet=True, unsafe=False)
    return dst


def split_skill(path: Path) -> tuple[dict[str, Any], str]:
    """(frontmatter, body) of ``path/SKILL.md``."""
    text = (path / "SKILL.md").read_text(encoding="utf-8")
    assert text.startswith("---\n"), "SKILL.md must start with frontmatter"
    end = text.index("\n---\n", 4)
    return yaml.safe_load(text[4:end]), text[end + 5 :]
