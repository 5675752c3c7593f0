"""The template store across install, doctor and uninstall."""

from __future__ import annotations

import json

from update_helpers import V1, build_store, generate, run_cli

from spawnkit.template import store


def _doctor(cfg):
    res = run_cli("doctor", "--config-dir", str(cfg), "--json")
    return {c["name"]: c for c in json.loads(res.stdout)["checks"]}


def test_install_sets_up_the_store_and_uninstall_removes_what_comes_back(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg = tmp_path / "cfg"
    target = store.planned_target(cfg)
    dry = run_cli("install", "--config-dir", str(cfg), "--dry-run")
    assert f"adds template version {target.tag}" in dry.stdout and not cfg.exists()
    assert run_cli("install", "--config-dir", str(cfg), "--yes").exit_code == 0
    assert target.tag in store.Store(target.store).tags()
    checks = _doctor(cfg)
    assert (
        checks["template store"]["status"] == "ok"
        and target.tag in checks["template store"]["detail"]
    )
    assert checks["skill updates"]["status"] == "ok"

    res = run_cli("uninstall", "--config-dir", str(cfg))
    assert res.exit_code == 0 and "removes the template store" in res.stdout
    assert not (cfg / ".spawnkit").exists()


def test_doctor_names_skills_with_updates_and_uninstall_keeps_versions_it_cannot_restore(
    tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    cfg = tmp_path / "cfg"
    assert run_cli("install", "--config-dir", str(cfg), "--yes").exit_code == 0
    build_store(cfg)
    generate(cfg, V1, cfg / "skills" / "demo")
    check = _doctor(cfg)["skill updates"]
    assert check["status"] == "warn" and f"demo ({V1})" in check["detail"]
    assert check["fix"] == "spawnkit update --all"

    res = run_cli("uninstall", "--config-dir", str(cfg))
    assert res.exit_code == 0 and "keeps the template store" in res.stdout and V1 in res.stdout
    assert V1 in store.Store(store.store_dir(cfg)).tags()
    assert (cfg / "skills" / "demo" / "SKILL.md").is_file()
