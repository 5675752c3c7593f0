"""spawnkit: keep sub-agent returns out of the orchestrator's context.

Kept import-free: the hook entry point imports this package on every tool call.
"""

__version__ = "0.1.0"
