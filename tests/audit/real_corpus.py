"""Real Claude Code and Codex transcripts from public repositories, by reference.

    python -m tests.audit.real_corpus --materialize-from /work/.mirror   # fill the cache
    python -m tests.audit.real_corpus --vendor                          # rewrite vendored/
    python -m tests.audit.real_corpus                                   # what is there

``tests/fixtures/audit-real/corpus.yaml`` lists groups of transcripts (a repository, the
commit they were read at, the folder, its licence) and each file's path and sha256. The files
themselves are not committed (their licences differ, some state none): they are read into a
git-ignored cache, ``tests/fixtures/audit-real/files/<owner>/<name>/<folder>/...``, from git
snapshots of the listed repositories (``DIR/<owner>+<name>/repo`` git dirs, as ``fetch``
leaves them, or ``DIR/<owner>/<name>`` clones), each at its recorded commit and checked
against its sha256. A file whose name says nothing of its client (``codex_050_legacy.jsonl``)
is written under the name a client would give it (``as:``, ``rollout-…`` for Codex), since
that is how ``spawnkit audit`` tells the clients apart.

A subset of the MIT-licensed files (``vendored: true`` in the list) is committed, gzipped, under
``tests/fixtures/audit-real/vendored/<owner>/<name>/<path>.gz`` with their licences in
``vendored/NOTICE.md``, so that CI, which has no snapshots, still holds the audit to real
transcripts. ``unpack_vendored`` writes them out in the cache's layout, checked the same way.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import subprocess
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "audit-real"
CORPUS = HERE / "corpus.yaml"
FILES = HERE / "files"
VENDORED = HERE / "vendored"
VENDOR_LICENCES = {"MIT"}  # licences that allow committing a copy (with its notice)
VENDOR_BUDGET = 3_000_000  # bytes, everything under vendored/ together


@dataclass(frozen=True)
class Group:
    repo: str
    commit: str
    folder: str
    licence: str
    notes: str
    files: tuple[dict, ...]

    @property
    def name(self) -> str:
        return f"{self.repo}:{self.folder}"

    @property
    def root(self) -> Path:
        """Where the group's files are materialised (audit this folder)."""
        return self.root_in(None)

    def root_in(self, base: Path | None) -> Path:
        """The group's folder under ``base`` (the materialised cache when None)."""
        return (FILES if base is None else base) / self.repo / self.folder

    @property
    def vendored(self) -> tuple[dict, ...]:
        """The entries whose copy is committed under ``vendored/``."""
        return tuple(entry for entry in self.files if entry.get("vendored"))

    def target(self, entry: dict, base: Path | None = None) -> Path:
        relative = entry["path"][len(self.folder) + 1 :]
        if entry.get("as"):
            relative = str(Path(relative).parent / entry["as"])
        return self.root_in(base) / relative

    def copy(self, entry: dict) -> Path:
        """Where the committed, gzipped copy of a vendored entry lives."""
        return VENDORED / self.repo / f"{entry['path']}.gz"

    def missing(
        self, base: Path | None = None, entries: tuple[dict, ...] | None = None
    ) -> list[str]:
        """Files absent from ``base`` (the cache) or changed since they were listed."""
        bad = []
        for entry in self.files if entries is None else entries:
            try:
                data = self.target(entry, base).read_bytes()
            except OSError:
                bad.append(entry["path"])
                continue
            if not _matches(data, entry):
                bad.append(entry["path"])
        return bad


def groups(corpus: Path = CORPUS) -> list[Group]:
    data = yaml.safe_load(corpus.read_text(encoding="utf-8"))
    return [
        Group(g["repo"], g["commit"], g["folder"], g["licence"], g["notes"], tuple(g["files"]))
        for g in data["groups"]
    ]


def _matches(data: bytes, entry: dict) -> bool:
    return len(data) == entry["bytes"] and hashlib.sha256(data).hexdigest() == entry["sha256"]


def _read(source: Path, repo: str, commit: str, path: str) -> bytes | None:
    owner, name = repo.split("/", 1)
    for git_dir in (source / f"{owner}+{name}" / "repo", source / owner / name / ".git"):
        if git_dir.exists():
            proc = subprocess.run(
                ["git", "--git-dir", str(git_dir), "show", f"{commit}:{path}"],
                capture_output=True,
                check=False,
                timeout=60,
            )
            if proc.returncode == 0:
                return proc.stdout
    return None


def materialize(source: Path) -> tuple[int, int]:
    """Fill the cache from the git snapshots under ``source``: (written, not found)."""
    written = absent = 0
    for group in groups():
        for entry in group.files:
            data = _read(source, group.repo, group.commit, entry["path"])
            if data is None or not _matches(data, entry):
                absent += 1
                continue
            target = group.target(entry)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            written += 1
    return written, absent


def unpack_vendored(dest: Path) -> list[str]:
    """Write the committed subset out under ``dest`` in the cache's layout: what went wrong.

    Each copy is read no further than its listed size plus one byte and must match its sha256,
    so a damaged or swapped copy is named here rather than audited.
    """
    problems = []
    for group in groups():
        for entry in group.vendored:
            copy = group.copy(entry)
            name = f"vendored/{group.repo}/{entry['path']}.gz"
            try:
                with gzip.open(copy, "rb") as stream:
                    data = stream.read(entry["bytes"] + 1)
            except (OSError, EOFError, zlib.error) as exc:
                problems.append(f"{name}: {getattr(exc, 'strerror', None) or exc}")
                continue
            if not _matches(data, entry):
                problems.append(f"{name}: differs from its sha256 in corpus.yaml")
                continue
            target = group.target(entry, dest)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    return problems


def vendor() -> int:
    """Rewrite ``vendored/`` from the materialised cache: the files written.

    Only entries marked ``vendored: true`` in groups whose licence allows it; the gzip stream
    carries no name or time, so the same file always gives the same bytes.
    """
    wanted = set()
    for group in groups():
        if group.vendored and group.licence not in VENDOR_LICENCES:
            raise SystemExit(f"{group.name}: licence {group.licence!r} does not allow a copy")
        if group.missing(entries=group.vendored):
            raise SystemExit(f"{group.name}: materialise the corpus first (--materialize-from)")
        for entry in group.vendored:
            copy = group.copy(entry)
            copy.parent.mkdir(parents=True, exist_ok=True)
            data = group.target(entry).read_bytes()
            copy.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
            wanted.add(copy)
    for stray in VENDORED.rglob("*.gz"):
        if stray not in wanted:
            stray.unlink()
    return len(wanted)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--materialize-from", type=Path, metavar="DIR")
    parser.add_argument(
        "--vendor", action="store_true", help="rewrite vendored/ from the materialised files"
    )
    args = parser.parse_args(argv)
    if args.materialize_from:
        written, absent = materialize(args.materialize_from)
        print(f"wrote {written} file(s); {absent} not found or changed")
    if args.vendor:
        count = vendor()
        size = sum(p.stat().st_size for p in VENDORED.rglob("*") if p.is_file())
        print(f"vendored {count} file(s); vendored/ holds {size:,} bytes")
    for group in groups():
        missing = group.missing()
        state = "ready" if not missing else f"{len(missing)} of {len(group.files)} missing"
        print(f"{group.name}: {len(group.files)} file(s), {state}; {len(group.vendored)} vendored")
    return 0


if __name__ == "__main__":
    sys.exit(main())
