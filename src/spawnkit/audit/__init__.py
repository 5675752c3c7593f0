"""``spawnkit audit``: what sub-agent returns really cost, read from the clients' own transcripts.

The pipeline is four small steps, one module each:

- ``discovery``: find Claude Code transcripts and Codex rollouts under the given roots, never
  following a symlink out of a root, and group them into sessions;
- ``jsonl``: stream each file line by line with bounded memory, counting what cannot be read;
- ``claude`` / ``codex``: turn one session's records into facts (returns, context, reads, writes);
- ``analyze``: peak parallelism, protocol findings (the standard's CM codes) and the summary.

``render_text``, ``render_json`` and ``render_html`` show the result. ``engine.audit`` runs it all.
"""
