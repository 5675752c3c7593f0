#!/usr/bin/env python3
"""Build src/spawnkit/_store/templates.bundle: every released template version, for the wheel.

Skills made by an older spawnkit are updated by re-rendering the version they were
made from, so each wheel ships all released versions as a git bundle. The bundle is
byte-stable: the same releases give the same bytes on any machine.

Release procedure (run from the repository root, before tagging the release):
    python scripts/build_store_bundle.py --release "$(python -c 'import spawnkit; print(spawnkit.__version__)')"
    git add src/spawnkit/_store/templates.bundle && git commit -m "Release X.Y.Z" && git tag X.Y.Z
The bundle then holds every earlier release tag of the repository plus this release,
each as copier.yml + template/ + standards/ under its version tag.
"""

from __future__ import annotations

import argparse
import io
import sys
import tarfile
import tempfile
from pathlib import Path

from packaging.version import InvalidVersion, Version

from spawnkit.template import store
from spawnkit.template.gitutil import git, out

DEFAULT_OUT = Path("src/spawnkit/_store/templates.bundle")


def release_tags(repo: Path) -> list[tuple[str, str]]:
    """(git tag, PEP 440 version) of every final release tag (``1.2.0`` or ``v1.2.0``), oldest first."""
    found = []
    for tag in out(["tag", "--list"], repo).splitlines():
        try:
            version = Version(tag)
        except InvalidVersion:
            continue
        if not (version.is_prerelease or version.is_devrelease or version.local):
            found.append((version, tag))
    return [(tag, str(version)) for version, tag in sorted(found)]


def content_at(repo: Path, ref: str) -> store.Files | None:
    """The template content of ``ref``, or None if that commit has no copier.yml."""
    listed = out(["ls-tree", "--name-only", ref], repo).splitlines()
    if "copier.yml" not in listed:
        return None
    paths = [p for p in store.CONTENT_ROOTS if p in listed]
    archive = git(["archive", "--format=tar", ref, *paths], repo).stdout
    with tempfile.TemporaryDirectory() as tmp, tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        # The "data" filter refuses absolute paths and links out of the folder (where Python has it).
        tar.extractall(tmp, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
        return store.read_content(Path(tmp))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, default=Path("."), help="repository root (default: .)")
    parser.add_argument(
        "--out", type=Path, default=None, help=f"bundle path (default: <repo>/{DEFAULT_OUT})"
    )
    parser.add_argument(
        "--release", metavar="VERSION", help="also add the working tree as this release"
    )
    args = parser.parse_args(argv)
    repo = args.repo.resolve()
    versions: list[tuple[str, store.Files]] = []
    for tag, version in release_tags(repo):
        files = content_at(repo, tag)
        if files is None:
            print(f"skipping {tag}: no copier.yml at that tag", file=sys.stderr)
            continue
        versions.append((version, files))
    if args.release:
        if any(v == str(Version(args.release)) for v, _ in versions):
            parser.error(
                f"{args.release} is already a release tag; its tagged content is in the bundle"
            )
        versions.append((str(Version(args.release)), store.read_content(repo)))
    if not versions:
        parser.error("no release tags with a copier.yml and no --release: nothing to bundle")
    target = args.out or repo / DEFAULT_OUT
    with tempfile.TemporaryDirectory(prefix="spawnkit-bundle-") as work:
        store.write_bundle(versions, target, Path(work))
    print(f"wrote {target}: {', '.join(v for v, _ in versions)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
