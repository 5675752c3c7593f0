"""Lint for Claude Code workflow scripts (``.claude/workflows/*.js``, a skill's ``workflow.js``).

A workflow script is plain JavaScript that Claude Code's ``Workflow`` tool runs: it spawns
sub-agents with ``agent()``, fans out with ``parallel()``/``pipeline()`` and returns one value to
the orchestrator. The script is parsed with tree-sitter's JavaScript grammar (``parse``), read
into facts the rules share (``script``: meta, calls, scopes), and its values are followed by a
small abstract interpreter (``values``) far enough to say what reaches the returned value, how
many agents a fan-out starts and what a prompt says. tree-sitter is imported only when a ``.js``
file is linted, so Markdown lint never pays for it.
"""
