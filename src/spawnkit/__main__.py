"""``spawnkit`` and ``python -m spawnkit``: stop cleanly even when stopped while starting up.

Until the command's own handling takes over (``interrupts.handled``), Ctrl-C or SIGTERM
only needs to say that nothing was written and leave with 130: nothing has been.
"""

from spawnkit import interrupts


def main() -> None:
    interrupts.until_started()
    from spawnkit.cli import main as run

    run()


if __name__ == "__main__":
    main()
