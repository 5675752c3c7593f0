"""The template store: content-addressed version commits, tags that never move, the release bundle."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from update_helpers import V1, V2, make_versions

from spawnkit import __version__
from spawnkit.errors import SpawnkitError
from spawnkit.template import store
from spawnkit.template.gitutil import git, out

REPO_ROOT = Path(__file__).resolve().parents[1]
SCRIPT = REPO_ROOT / "scripts" / "build_store_bundle.py"


@pytest.fixture(scope="module")
def versions():
    return make_versions()


def test_tree_and_commit_ids_match_git(tmp_path, versions):
    st = store.Store(tmp_path / "s")
    st.init()
    commit = st.add_version(V1, versions[V1])
    assert out(["rev-parse", f"{V1}^{{tree}}"], st.path) == store.tree_id(versions[V1])
    assert commit == store.expected_commit(store.tree_id(versions[V1]), V1)
    assert st.tags() == {V1: store.tree_id(versions[V1])}
    assert out(["status", "--porcelain"], st.path) == "", "copier needs a clean store"


def test_a_tag_never_moves_to_other_content(tmp_path, versions):
    st = store.Store(tmp_path / "s")
    st.init()
    st.add_version(V1, versions[V1])
    with pytest.raises(SpawnkitError, match="never re-tags"):
        st.add_version(V1, versions[V2])
    assert st.tags()[V1] == store.tree_id(versions[V1])


def test_resolve_tag_rules():
    tree, other = "a" * 40, "b" * 40
    dev = f"1.0.0+d.{tree[:12]}"
    # The released content of 1.0.0, known from the store or the bundle.
    assert store.resolve_tag({"1.0.0": tree}, {}, "1.0.0", tree, wheel=False) == "1.0.0"
    assert (
        store.resolve_tag(
            {}, {"1.0.0": store.expected_commit(tree, "1.0.0")}, "1.0.0", tree, wheel=False
        )
        == "1.0.0"
    )
    # A wheel nobody knows yet claims its version; a checkout never does.
    assert store.resolve_tag({}, {}, "1.0.0", tree, wheel=True) == "1.0.0"
    assert store.resolve_tag({}, {}, "1.0.0", tree, wheel=False) == dev
    # Other content under 1.0.0 already: a unique local version, never the same tag.
    assert store.resolve_tag({"1.0.0": other}, {}, "1.0.0", tree, wheel=True) == dev
    assert (
        store.resolve_tag(
            {}, {"1.0.0": store.expected_commit(other, "1.0.0")}, "1.0.0", tree, wheel=True
        )
        == dev
    )
    assert store.dev_tag("1.0.0+local", tree) == f"1.0.0+local.d.{tree[:12]}"


def test_ensure_store_adds_the_running_version_once(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    config = tmp_path / ".claude"
    planned = store.planned_target(config)
    assert not planned.in_store and not (config / ".spawnkit").exists()
    target = store.ensure_store(config)
    assert target.tag == planned.tag and target.in_store
    assert target.src_path == "~/.claude/.spawnkit/template-store"
    tree = store.tree_id(store.running_content())
    assert target.tag == store.resolve_tag(
        {}, store.bundle_refs(), __version__, tree, store.is_wheel_install()
    )
    assert store.ensure_store(config) == target
    assert list(store.Store(target.store).tags()) == [target.tag]


def test_changed_content_gets_a_new_tag_and_old_ones_stay(tmp_path, monkeypatch, versions):
    config = tmp_path / "cfg"
    st = store.Store(store.store_dir(config))
    st.init()
    running = store.running_content()
    running_tree = store.tree_id(running)
    # Someone put other content under the plain running version (e.g. a hand-built wheel).
    st.add_version(__version__, versions[V2])
    target = store.ensure_store(config)
    assert target.tag == store.dev_tag(__version__, running_tree)
    assert st.tags()[__version__] == store.tree_id(versions[V2])
    assert st.tags()[target.tag] == running_tree


def test_ensure_store_is_safe_to_run_concurrently(tmp_path):
    code = (
        "import sys; from pathlib import Path; from spawnkit.template import store; "
        "print(store.ensure_store(Path(sys.argv[1])).tag)"
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(tmp_path / "cfg")],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    results = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), results
    tags = {stdout.strip() for stdout, _ in results}
    assert len(tags) == 1
    assert list(store.Store(store.store_dir(tmp_path / "cfg")).tags()) == list(tags)


def _release_repo(path: Path, versions) -> Path:
    path.mkdir()
    git(["init", "-q"], path)
    for tag, version in (("v0.0.1", V1), ("0.0.2", V2), ("0.0.3rc1", V2)):
        for rel in path.iterdir():
            if rel.name != ".git":
                shutil.rmtree(rel) if rel.is_dir() else rel.unlink()
        for rel, (mode, data) in versions[version].items():
            (path / rel).parent.mkdir(parents=True, exist_ok=True)
            (path / rel).write_bytes(data)
            (path / rel).chmod(0o755 if mode == "100755" else 0o644)
        git(["add", "-A"], path)
        git(["commit", "-qm", tag, "--allow-empty"], path)
        git(["tag", tag], path)
    return path


def test_bundle_script_is_byte_stable_and_imports_without_clobbering(tmp_path, versions):
    repo = _release_repo(tmp_path / "repo", versions)
    outs = []
    for name in ("a.bundle", "b.bundle"):
        res = subprocess.run(
            [sys.executable, str(SCRIPT), "--repo", str(repo), "--out", str(tmp_path / name)],
            capture_output=True,
            text=True,
        )
        assert res.returncode == 0, res.stderr
        outs.append((tmp_path / name).read_bytes())
    assert outs[0] == outs[1]
    refs = store.bundle_refs(tmp_path / "a.bundle")
    assert refs == {v: store.expected_commit(store.tree_id(versions[v]), v) for v in (V1, V2)}

    st = store.Store(tmp_path / "s")
    st.init()
    st.add_version(V1, versions[V2])  # a store that already has 0.0.1, with other content
    assert st.import_bundle(tmp_path / "a.bundle") == [V2]
    assert st.tags() == {V1: store.tree_id(versions[V2]), V2: store.tree_id(versions[V2])}


def test_bundle_script_adds_the_release_being_made(tmp_path, versions):
    repo = _release_repo(tmp_path / "repo", versions)
    res = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--repo",
            str(repo),
            "--out",
            str(tmp_path / "x.bundle"),
            "--release",
            "0.0.4",
        ],
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stderr
    assert sorted(store.bundle_refs(tmp_path / "x.bundle")) == [V1, V2, "0.0.4"]
    res = subprocess.run(
        [sys.executable, str(SCRIPT), "--repo", str(repo), "--release", V2],
        capture_output=True,
        text=True,
    )
    assert res.returncode == 2 and "already a release tag" in res.stderr


def test_inspect_for_doctor(tmp_path):
    config = tmp_path / "cfg"
    assert store.inspect(config)[0] == "warn"
    assert not (config / ".spawnkit").exists(), "inspect must not create anything"
    store.ensure_store(config)
    level, detail, fix = store.inspect(config)
    assert (level, fix) == ("ok", "") and store.planned_target(config).tag in detail
    git(
        ["update-ref", "-d", f"refs/tags/{store.planned_target(config).tag}"],
        store.store_dir(config),
    )
    assert store.inspect(config)[0] == "warn"
    shutil.rmtree(store.store_dir(config) / ".git")
    (store.store_dir(config) / ".git").write_text("garbage")
    assert store.inspect(config)[0] == "broken"


def test_a_refused_command_takes_back_what_the_store_gained(tmp_path, versions):
    from update_helpers import tree_state

    fresh = tmp_path / "fresh" / "cfg"
    with pytest.raises(SpawnkitError), store.provisional_target(fresh):
        assert store.Store(store.store_dir(fresh)).tags()
        raise SpawnkitError("refused")
    assert not (tmp_path / "fresh").exists()

    cfg = tmp_path / "cfg"
    st = store.Store(store.store_dir(cfg))
    st.init()
    st.add_version(V1, versions[V1])
    before = tree_state(cfg)
    with pytest.raises(SpawnkitError), store.provisional_target(cfg) as target:
        assert set(st.tags()) == {V1, target.tag}
        raise SpawnkitError("refused")
    assert list(st.tags()) == [V1]
    assert {k: v[:2] for k, v in tree_state(cfg).items()} == {k: v[:2] for k, v in before.items()}
    with store.provisional_target(cfg) as target:
        pass
    assert target.tag in st.tags()
