"""Workflow scripts at run time: ``spawnkit workflow check`` runs one with stubbed agents."""
