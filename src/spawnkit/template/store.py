"""The template store: every template version a skill may have been made from, offline.

``copier update`` re-renders the version a skill was generated from, so that version
must stay reachable long after spawnkit itself moved on. The store is a small local
git repository (``<config>/.spawnkit/template-store``) holding one root commit per
spawnkit version, tagged with the version (PEP 440). Each commit holds exactly
``copier.yml``, ``template/`` and ``standards/`` of that version.

Commits are content-addressed: same files + same tag → same commit id on every
machine (fixed identity and dates, see gitutil). So the release bundle shipped in the
wheel and a store filled at run time never disagree.

Tags:
- ``X`` (the plain version) when the content is the released content of X: it matches
  the bundle's X, or it comes from an installed wheel and no other X is known.
- ``X+d.<tree12>`` otherwise (a source checkout whose template differs from the
  release): a unique local version derived from the content's git tree id. copier
  compares only the public part, so moving between such tags is never a "downgrade".
An existing tag is never moved to other content.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from packaging.version import InvalidVersion, Version

from spawnkit import __version__
from spawnkit.errors import SpawnkitError
from spawnkit.files import interrupts
from spawnkit.files.atomic import why_not_writable
from spawnkit.standard import resources
from spawnkit.template.gitutil import EMAIL, FIXED_DATE, IDENTITY, git, out

STORE_REL = Path(".spawnkit") / "template-store"
LOCK_NAME = "template-store.lock"
LOCK_TIMEOUT_SECONDS = 60
BUNDLE_PATH = Path(__file__).resolve().parent / "_store" / "templates.bundle"
CONTENT_ROOTS = ("copier.yml", "template", "standards")
_SKIP_DIRS = {"__pycache__", ".git", ".pytest_cache"}
_SKIP_SUFFIXES = (".pyc", ".pyo")
_SKIP_FILES = {".DS_Store"}

Files = dict[str, tuple[str, bytes]]  # posix relpath -> (git mode, content)


# --- content and its git ids, computed without touching any repository ------------


def read_content(root: Path) -> Files:
    """The files of one template version under ``root`` (a data root or an extracted tag)."""
    files: Files = {}
    for top in CONTENT_ROOTS:
        start = root / top
        if start.is_file():
            files[top] = (_mode(start), start.read_bytes())
            continue
        for dirpath, dirnames, filenames in os.walk(start):
            dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS)
            for name in filenames:
                path = Path(dirpath) / name
                if name in _SKIP_FILES or name.endswith(_SKIP_SUFFIXES) or path.is_symlink():
                    continue
                files[path.relative_to(root).as_posix()] = (_mode(path), path.read_bytes())
    if "copier.yml" not in files:
        raise SpawnkitError(f"no copier.yml under {root}; reinstall spawnkit")
    return files


def _mode(path: Path) -> str:
    return "100755" if os.access(path, os.X_OK) else "100644"


def _object_id(kind: str, body: bytes) -> str:
    return hashlib.sha1(f"{kind} {len(body)}\0".encode() + body).hexdigest()


def tree_id(files: Files) -> str:
    """The git tree id ``files`` would get: lets read-only checks compare content."""
    root: dict = {}
    for rel, (mode, data) in files.items():
        node = root
        *dirs, name = rel.split("/")
        for d in dirs:
            node = node.setdefault(d, {})
        node[name] = (mode, _object_id("blob", data))
    return _tree_of(root)


def _tree_of(node: dict) -> str:
    entries = []
    for name, value in node.items():
        if isinstance(value, dict):
            entries.append(
                (name + "/", b"40000 " + name.encode() + b"\0" + bytes.fromhex(_tree_of(value)))
            )
        else:
            mode, oid = value
            entries.append((name, f"{mode} {name}".encode() + b"\0" + bytes.fromhex(oid)))
    body = b"".join(entry for _, entry in sorted(entries, key=lambda e: e[0].encode()))
    return _object_id("tree", body)


def commit_message(tag: str) -> str:
    return f"spawnkit template {tag}\n"


def expected_commit(tree: str, tag: str) -> str:
    """The commit id ``add_version`` produces for ``tree`` tagged ``tag`` (fixed identity and date)."""
    who = f"{IDENTITY} <{EMAIL}> {FIXED_DATE}"
    body = f"tree {tree}\nauthor {who}\ncommitter {who}\n\n{commit_message(tag)}"
    return _object_id("commit", body.encode())


def dev_tag(version: str, tree: str) -> str:
    """A unique PEP 440 local version for content that is not the release of ``version``."""
    suffix = f"d.{tree[:12]}"
    return f"{version}.{suffix}" if "+" in version else f"{version}+{suffix}"


def parse_version(tag: str) -> Version | None:
    try:
        return Version(tag)
    except InvalidVersion:
        return None


# --- the bundle shipped in the wheel ------------------------------------------------


def bundle_refs(bundle: Path = BUNDLE_PATH) -> dict[str, str]:
    """``{tag: commit}`` from a git bundle's header (v2 or v3), read without git."""
    if not bundle.is_file():
        return {}
    refs: dict[str, str] = {}
    with bundle.open("rb") as fh:
        first = fh.readline()
        if not first.startswith(b"# v") or b"git bundle" not in first:
            raise SpawnkitError(f"{bundle} is not a git bundle; reinstall spawnkit")
        for raw in fh:
            line = raw.rstrip(b"\n").decode()
            if not line:
                break
            if line.startswith(("-", "@")):
                continue
            oid, _, ref = line.partition(" ")
            if ref.startswith("refs/tags/"):
                refs[ref[len("refs/tags/") :]] = oid
    return refs


# --- the store repository -----------------------------------------------------------


def store_dir(config_dir: Path) -> Path:
    return Path(config_dir) / STORE_REL


def src_path_for(store: Path) -> str:
    """The ``_src_path`` to record: ``~``-relative when under home, so it works for any user."""
    store = Path(store).absolute()
    try:
        return "~/" + store.relative_to(Path.home()).as_posix()
    except ValueError:
        return store.as_posix()


def same_path(src_path: str, store: Path) -> bool:
    """Whether an answers file's ``_src_path`` names this store."""
    try:
        return Path(os.path.expanduser(src_path)).resolve() == Path(store).resolve()
    except (OSError, RuntimeError):
        return False


@dataclass(frozen=True)
class Store:
    path: Path

    def exists(self) -> bool:
        return (self.path / ".git").is_dir()

    def tags(self) -> dict[str, str]:
        """``{tag: tree id}`` (read-only; empty when the store does not exist yet)."""
        if not self.exists():
            return {}
        text = out(["for-each-ref", "--format=%(refname:strip=2) %(tree)", "refs/tags"], self.path)
        return dict(line.split(" ", 1) for line in text.splitlines() if " " in line)

    def init(self) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        if not self.exists():
            git(["init", "-q"], self.path)
            (self.path / ".git" / "description").write_text(
                "spawnkit template store: one tagged commit per template version. Managed by spawnkit.\n"
            )

    def add_version(self, tag: str, files: Files) -> str:
        """Commit ``files`` as a root commit and tag it; refuse if the tag already exists."""
        tree = self._write_tree(files)
        if tree != tree_id(files):
            raise SpawnkitError(
                f"template store {self.path} wrote tree {tree}, expected {tree_id(files)}"
            )
        commit = out(["commit-tree", tree, "-m", commit_message(tag).rstrip("\n")], self.path)
        # The empty old value makes git refuse to move an existing tag.
        proc = git(["update-ref", f"refs/tags/{tag}", commit, ""], self.path, check=False)
        if proc.returncode != 0:
            raise SpawnkitError(
                f"template store {self.path} already has tag {tag} with other content; "
                "spawnkit never re-tags: remove the store folder to rebuild it"
            )
        return commit

    def _write_tree(self, files: Files) -> str:
        paths = sorted(files)
        root: dict = {}
        for rel in paths:
            node = root
            *dirs, name = rel.split("/")
            for d in dirs:
                node = node.setdefault(d, {})
            node[name] = (files[rel][0], self._hash_blob(files[rel][1]))
        return self._mktree(root)

    def _hash_blob(self, data: bytes) -> str:
        # --no-filters: the bytes are stored as they are, whatever attributes a user set.
        return out(["hash-object", "-w", "--no-filters", "--stdin"], self.path, input=data)

    def _mktree(self, node: dict) -> str:
        lines = []
        for name, value in node.items():
            if isinstance(value, dict):
                lines.append(f"040000 tree {self._mktree(value)}\t{name}")
            else:
                mode, oid = value
                lines.append(f"{mode} blob {oid}\t{name}")
        return out(["mktree", "-z"], self.path, input="\0".join(lines).encode() + b"\0")

    def import_bundle(self, bundle: Path) -> list[str]:
        """Fetch the bundle's tags the store lacks; tags it already has are left alone."""
        have = self.tags()
        missing = [t for t in bundle_refs(bundle) if t not in have]
        if missing:
            git(
                [
                    "fetch",
                    "-q",
                    "--no-tags",
                    str(bundle),
                    *[f"refs/tags/{t}:refs/tags/{t}" for t in missing],
                ],
                self.path,
            )
        return missing


# --- the running version -------------------------------------------------------------


def running_content(root: Path | None = None) -> Files:
    """The template content this spawnkit renders (``root``: another copy of it, for tests)."""
    return read_content(root or resources.data_root())


def is_wheel_install(root: Path | None = None) -> bool:
    """A wheel's data never changes after release; a source checkout's may."""
    return (root or resources.data_root()).name == "_data"


def resolve_tag(
    store_tags: dict[str, str], bundle: dict[str, str], version: str, tree: str, wheel: bool
) -> str:
    """The tag the running content has, or gets, in the store."""
    if store_tags.get(version) == tree or bundle.get(version) == expected_commit(tree, version):
        return version
    if wheel and version not in store_tags and version not in bundle:
        return version
    return dev_tag(version, tree)


@dataclass(frozen=True)
class Target:
    """The template version the running spawnkit renders and updates skills to."""

    tag: str
    store: Path
    src_path: str  # what ``_src_path`` records
    in_store: bool  # False only from ``planned_target`` before the store is filled


def planned_target(config_dir: Path, version: str = __version__) -> Target:
    """The target without writing anything (for ``update --check`` and ``doctor``)."""
    store = Store(store_dir(config_dir))
    files = running_content()
    tags = store.tags()
    tag = resolve_tag(tags, bundle_refs(), version, tree_id(files), is_wheel_install())
    return Target(tag, store.path, src_path_for(store.path), tag in tags)


def check_writable(config_dir: Path) -> None:
    """Refuse, before writing, when the store or its lock cannot be written."""
    store = store_dir(config_dir)
    for probe in (Path(config_dir) / ".spawnkit" / LOCK_NAME, store / ".git" / "objects" / "x"):
        problem = why_not_writable(probe)
        if problem:
            raise SpawnkitError(
                f"cannot write spawnkit's template store in {store}: {problem}; make "
                f"{config_dir} writable, or set CLAUDE_CONFIG_DIR to a folder you can write"
            )


@contextmanager
def locked(config_dir: Path, name: str = LOCK_NAME) -> Iterator[None]:
    """Serialise writers of spawnkit's state under ``<config>/.spawnkit``."""
    from filelock import FileLock, Timeout

    lock_dir = Path(config_dir) / ".spawnkit"
    lock_dir.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(lock_dir / name), timeout=LOCK_TIMEOUT_SECONDS)
    try:
        with lock:
            yield
    except Timeout as exc:
        raise SpawnkitError(
            f"another spawnkit process holds {lock_dir / name} for over {LOCK_TIMEOUT_SECONDS}s; "
            "wait for it to finish and retry"
        ) from exc


def ensure_store(config_dir: Path, root: Path | None = None, version: str = __version__) -> Target:
    """Create the store if needed, add the released versions and the running one.

    ``root``: where the running template content is (default: this installation's data).
    """
    store = Store(store_dir(config_dir))
    files = running_content(root)
    tree = tree_id(files)
    check_writable(config_dir)
    with locked(config_dir):
        store.init()
        if BUNDLE_PATH.is_file():
            store.import_bundle(BUNDLE_PATH)
        tags = store.tags()
        tag = resolve_tag(tags, bundle_refs(), version, tree, is_wheel_install(root))
        if tag not in tags:
            store.add_version(tag, files)
        elif tags[tag] != tree:
            raise SpawnkitError(
                f"template store {store.path} has tag {tag} with other content; "
                "remove that folder to rebuild it (skills made from it may then need `spawnkit adopt`)"
            )
    return Target(tag, store.path, src_path_for(store.path), True)


@dataclass(frozen=True)
class _Before:
    """What existed before ``ensure_store`` ran, so a refused command can take it back."""

    created_from: Path | None  # topmost folder ensure_store will create, if any
    lock_file: bool
    store_path: bool  # the folder existed
    store: bool  # ... and was a git repository
    tags: frozenset[str]


@contextmanager
def provisional_target(config_dir: Path, root: Path | None = None) -> Iterator[Target]:
    """``ensure_store`` whose writes are undone if the block raises (a refused command writes nothing)."""
    state_dir = Path(config_dir) / ".spawnkit"
    store = Store(store_dir(config_dir))
    missing = [p for p in (state_dir, *state_dir.parents) if not p.exists()]
    before = _Before(
        missing[-1] if missing else None,
        (state_dir / LOCK_NAME).exists(),
        store.path.exists(),
        store.exists(),
        frozenset(store.tags()),
    )
    try:
        target = ensure_store(config_dir, root)
        yield target
    except BaseException:
        with interrupts.shielded():
            _take_back(store, state_dir, before)
        raise


def _take_back(store: Store, state_dir: Path, before: _Before) -> None:
    """Undo ``ensure_store``: only what it created, never a folder someone else may write into."""
    if not before.store_path:
        shutil.rmtree(store.path, ignore_errors=True)
    elif not before.store:
        shutil.rmtree(store.path / ".git", ignore_errors=True)
    else:
        try:
            added = set(store.tags()) - before.tags
        except SpawnkitError:
            added = set()
        for tag in added:
            git(["update-ref", "-d", f"refs/tags/{tag}"], store.path, check=False)
            git(["prune", "--expire=now"], store.path, check=False)
    if not before.lock_file:
        (state_dir / LOCK_NAME).unlink(missing_ok=True)
    if before.created_from is not None:
        for folder in (state_dir, *state_dir.parents):
            if not folder.is_dir() or any(folder.iterdir()):
                break
            folder.rmdir()
            if folder == before.created_from:
                break


def write_bundle(versions: list[tuple[str, Files]], out_path: Path, work_dir: Path) -> None:
    """Build a byte-stable bundle holding ``versions`` (release tooling; see scripts/)."""
    store = Store(work_dir)
    store.init()
    for tag, files in versions:
        store.add_version(tag, files)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = out_path.with_name(out_path.name + ".tmp")
    git(["bundle", "create", "-q", str(tmp), "--tags"], store.path)
    os.replace(tmp, out_path)


def inspect(config_dir: Path) -> tuple[str, str, str]:
    """(``ok``/``warn``/``broken``, what was found, how to fix it) for ``spawnkit doctor``; read-only."""
    store = Store(store_dir(config_dir))
    if not store.path.exists():
        return (
            "warn",
            f"{store.path} does not exist yet",
            "run `spawnkit install` (or `spawnkit new`) to create it",
        )
    fix = f"move {store.path} aside and run `spawnkit install`; released versions come back from the wheel"
    if not store.exists():
        return "broken", f"{store.path} is not a git repository", fix
    try:
        tags = store.tags()
    except SpawnkitError as exc:
        return "broken", f"{store.path} is not readable: {exc}", fix
    target = planned_target(config_dir)
    if target.tag not in tags:
        return (
            "warn",
            f"{len(tags)} version(s), but not this spawnkit's ({target.tag})",
            "run `spawnkit install`",
        )
    return (
        "ok",
        f"{len(tags)} version(s) in {store.path}, including this spawnkit's ({target.tag})",
        "",
    )


def install_note(config_dir: Path) -> str | None:
    """What ``ensure_store`` would do, in one line (for install's plan); None if nothing."""
    target = planned_target(config_dir)
    return (
        None
        if target.in_store
        else f"template store {target.store}: adds template version {target.tag}"
    )


def _restorable(config_dir: Path, tags: dict[str, str]) -> list[str]:
    """Tags this spawnkit could NOT put back by itself: not shipped in its bundle, and not
    the tag it would give its own content in an EMPTY store.

    The second half matters: a source checkout takes the plain tag ``X`` only while the
    store already holds ``X`` with the same content (made by a wheel of the same release,
    say the README's ``pip install .`` before its ``pip install -e``); in an empty store it
    would add ``X+d.<tree>`` instead, and every skill made at ``X`` would be stranded."""
    shipped = bundle_refs()
    tree = tree_id(running_content())
    fresh = resolve_tag({}, shipped, __version__, tree, is_wheel_install())
    return sorted(t for t in tags if t not in shipped and not (t == fresh and tags[t] == tree))


def uninstall_note(config_dir: Path) -> str | None:
    """What ``remove_if_restorable`` would do, in one line; None if there is no store."""
    store = Store(store_dir(config_dir))
    if not store.path.exists():
        return None
    lost = _restorable(config_dir, store.tags()) if store.exists() else ["(unreadable)"]
    if lost:
        return (
            f"keeps the template store {store.path}: it holds versions this spawnkit cannot restore "
            f"({', '.join(lost)}); delete it by hand once no skill was made from them"
        )
    return f"removes the template store {store.path} (spawnkit rebuilds it when a skill needs it)"


def remove_if_restorable(config_dir: Path) -> bool:
    """Delete the store when every version in it comes back by itself; True if removed.

    It is a cache of template versions: the released ones ship in the wheel and the running
    one is re-added on use. Versions that would not come back keep the store in place.
    """
    store = Store(store_dir(config_dir))
    if not store.exists():
        return False
    with locked(config_dir):
        if _restorable(config_dir, store.tags()):
            return False
        shutil.rmtree(store.path)
    state = Path(config_dir) / ".spawnkit"
    (state / LOCK_NAME).unlink(missing_ok=True)
    if state.is_dir() and not any(state.iterdir()):
        state.rmdir()
    return True
