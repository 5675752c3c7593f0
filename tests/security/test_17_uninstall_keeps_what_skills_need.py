"""Issue 21, item 5: uninstall dropped a template version it could not rebuild.

The README's quick start (``pip install .``, a wheel) makes a skill at template version
``0.1.0``; its Development line then installs the same clone editable, and that spawnkit's
install + uninstall removed the template store, counting ``0.1.0`` as "the running version".
But a source checkout takes the plain tag only while the store already holds it; in an empty
store it adds ``0.1.0+d.<tree>``. So ``update --check`` then found the skill's version gone
(``unknown-version``, exit 1). Now uninstall counts a version as restorable only when this
spawnkit would put that very tag back into an EMPTY store; the store, with the skill's
version, stays, and ``update --check`` says the skill is up to date.
"""

from __future__ import annotations

from pathlib import Path

from skill_render import template_copy
from update_helpers import generate, make_env, run_cli

from spawnkit import __version__
from spawnkit.template import store


def test_a_version_a_wheel_added_survives_an_editable_uninstall(tmp_path, monkeypatch):
    env = make_env(tmp_path, monkeypatch)
    wheel_data = template_copy(tmp_path / "site-packages" / "spawnkit" / "_data")
    # `pip install .`, then `spawnkit new my-audit --scope user`: the wheel tags its content
    made = store.ensure_store(env.config, root=wheel_data)
    assert made.tag == __version__ and store.is_wheel_install(wheel_data)
    skill = generate(env.config, made.tag, env.config / "skills" / "my-audit")
    # `pip install -e .`: this checkout, same content; it installs, then uninstalls
    assert run_cli("install", "--yes").exit_code == 0
    res = run_cli("uninstall", "--yes")
    assert res.exit_code == 0, res.output
    assert "keeps the template store" in res.stdout and __version__ in res.stdout
    assert __version__ in store.Store(store.store_dir(env.config)).tags()
    check = run_cli("update", "--check", "--json")
    assert check.exit_code == 0, check.output
    assert '"status": "up-to-date"' in check.stdout
    assert (skill / "SKILL.md").is_file()


def test_what_this_spawnkit_rebuilds_is_still_removed(tmp_path, monkeypatch):
    env = make_env(tmp_path, monkeypatch)
    assert run_cli("install", "--yes").exit_code == 0
    assert run_cli("new", "mine", "--scope", "user", "--defaults").exit_code == 0
    res = run_cli("uninstall", "--yes")
    assert res.exit_code == 0 and "removes the template store" in res.stdout
    assert not Path(store.store_dir(env.config)).exists()
    check = run_cli("update", "--check")  # the store comes back by itself when needed
    assert check.exit_code == 0, check.output
