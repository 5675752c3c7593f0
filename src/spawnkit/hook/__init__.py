"""The ``spawnkit-hook`` runtime. Standard library only: it runs on every tool call."""
