"""Files the user owns: read bounded and regular-only (``reading``), written atomically with
backups (``atomic``), and never left half-written by Ctrl-C or SIGTERM (``interrupts``)."""
