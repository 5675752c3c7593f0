"""Run the hook from its file: ``<python> -I -S <path>/spawnkit/hook/__main__.py``.

``-I -S`` skips the environment and ``site`` (the slow part of a console-script
start), so this file puts the folder that holds the ``spawnkit`` package on
``sys.path`` itself: ``site-packages`` for an installed package, ``<repo>/src``
for a source checkout (the plugin runs it straight from the repo). Plain string
work, no ``os``: importing it would cost ~2 ms on every call. Also works as
``python -m spawnkit.hook``. Fails open even when spawnkit cannot be imported.

Python compiles this file on every run (a script gets no cached bytecode): what it does
beyond finding the package lives in ``spawnkit.hook.main`` (``finish``: the process ends
there without tearing the interpreter down).
"""

import sys

if not __package__:
    if not (sys.flags.isolated or getattr(sys.flags, "safe_path", False)):
        del sys.path[0]  # this file's own folder: its module names must not shadow others
    # __file__ is absolute (Python >= 3.9): <root>/spawnkit/hook/__main__.py
    sys.path.insert(0, __file__.rsplit("/", 3)[0])

try:
    try:
        from spawnkit.hook.main import finish, main
    except ImportError:
        if __package__:
            raise
        import os  # a symlinked script, or Windows separators: resolve properly

        sys.path[0] = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
        from spawnkit.hook.main import finish, main
except Exception as exc:  # noqa: BLE001 - a broken install must not break Claude Code
    sys.stdout.write(
        f'{{"systemMessage": "spawnkit-hook could not start ({type(exc).__name__}); '
        'reinstall spawnkit. The tool call went ahead unchanged."}'
    )
    raise SystemExit(0) from None

finish(main())
