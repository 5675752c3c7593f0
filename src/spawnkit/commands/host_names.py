"""The host names the CLI offers (``--host``), from the host descriptions: cheap to import, so
every command's start-up stays light."""

from __future__ import annotations

from spawnkit.hosts import NAMES

HOSTS = NAMES
HOSTS_OR_ALL = (*NAMES, "all")
