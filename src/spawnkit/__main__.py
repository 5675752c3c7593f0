"""The ``spawnkit`` entry point: ``spawnkit lint PATH…`` without importing click.

A one-file lint runs on every pre-commit and editor save, and importing click cost it about as
much as the lint itself. The plain form — ``lint`` and paths, no options — has no argument
parsing to speak of, so it calls the same ``spawnkit.commands.lint.run`` the click command
calls, with the same defaults (``spawnkit.commands.lint.DEFAULTS``); everything else, options
and ``--help`` included, goes through click (``spawnkit.cli``). Both end the same way
(``spawnkit.commands.edge``: exit codes, one-line errors, Ctrl-C), and both are covered from
the first line: until a command's own handling takes over, Ctrl-C or SIGTERM only needs to say
that nothing was written and leave with 130 (``interrupts.until_started``).
"""

from __future__ import annotations

import sys


def plain_lint_paths(argv: list[str]) -> list[str] | None:
    """The paths of ``lint PATH…`` when nothing else is given, else None."""
    if len(argv) < 2 or argv[0] != "lint":
        return None
    paths = argv[1:]
    if any(p.startswith("-") or not p for p in paths):
        return None
    return paths


def main() -> None:
    from spawnkit.commands import edge
    from spawnkit.files import interrupts

    interrupts.until_started()
    edge.own_process()
    from spawnkit.files import killswitch

    killswitch.arm()  # only when the crash tests ask for it
    paths = plain_lint_paths(sys.argv[1:])
    if paths is None:
        from spawnkit.cli import main as click_main

        click_main()
        return
    from pathlib import Path

    from spawnkit.commands import lint as command

    edge.run(lambda: command.run([Path(p) for p in paths], **command.DEFAULTS), standalone=True)


if __name__ == "__main__":  # python -m spawnkit
    main()
