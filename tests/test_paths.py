"""Claude config dir resolution."""

from pathlib import Path

from spawnkit.hosts.paths import claude_config_dir, project_claude_dir


def test_config_dir_honours_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cfg"))
    assert claude_config_dir() == tmp_path / "cfg"
    monkeypatch.delenv("CLAUDE_CONFIG_DIR")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert claude_config_dir() == Path(tmp_path) / ".claude"


def test_project_dir(tmp_path):
    assert project_claude_dir(tmp_path) == tmp_path / ".claude"
