"""Real Claude Code and Codex transcripts from public repositories, by reference.

    python -m tests.audit.real_corpus --materialize-from /work/.mirror   # fill the cache
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
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "audit-real"
CORPUS = HERE / "corpus.yaml"
FILES = HERE / "files"


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
        return FILES / self.repo / self.folder

    def target(self, entry: dict) -> Path:
        relative = entry["path"][len(self.folder) + 1 :]
        if entry.get("as"):
            relative = str(Path(relative).parent / entry["as"])
        return self.root / relative

    def missing(self) -> list[str]:
        """Files absent from the cache or changed since they were listed."""
        bad = []
        for entry in self.files:
            path = self.target(entry)
            try:
                data = path.read_bytes()
            except OSError:
                bad.append(entry["path"])
                continue
            if hashlib.sha256(data).hexdigest() != entry["sha256"]:
                bad.append(entry["path"])
        return bad


def groups(corpus: Path = CORPUS) -> list[Group]:
    data = yaml.safe_load(corpus.read_text(encoding="utf-8"))
    return [
        Group(g["repo"], g["commit"], g["folder"], g["licence"], g["notes"], tuple(g["files"]))
        for g in data["groups"]
    ]


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
            if data is None or hashlib.sha256(data).hexdigest() != entry["sha256"]:
                absent += 1
                continue
            target = group.target(entry)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            written += 1
    return written, absent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--materialize-from", type=Path, metavar="DIR")
    args = parser.parse_args(argv)
    if args.materialize_from:
        written, absent = materialize(args.materialize_from)
        print(f"wrote {written} file(s); {absent} not found or changed")
    for group in groups():
        missing = group.missing()
        state = "ready" if not missing else f"{len(missing)} of {len(group.files)} missing"
        print(f"{group.name}: {len(group.files)} file(s), {state}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
