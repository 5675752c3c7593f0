"""Run the hook from its file: ``<python> -I -S <path>/spawnkit/hook/__main__.py``.

``-I -S`` skips the environment and ``site`` (the slow part of a console-script
start), so this file puts the folder that holds the ``spawnkit`` package on
``sys.path`` itself: ``site-packages`` for an installed package, ``<repo>/src``
for a source checkout (the plugin runs it straight from the repo). Plain string
work, no ``os``: importing it would cost ~2 ms on every call. Also works as
``python -m spawnkit.hook``. Fails open even when spawnkit cannot be imported.

Once ``main`` has answered, the process ends without tearing the interpreter down
(``posix._exit`` after flushing stdout and stderr): freeing every module and object one
by one cost about a fifth of the hook's whole run, and nothing is left for it to do
(every file the hook writes goes through a descriptor it has closed already; no thread,
no ``atexit`` handler). A stdout the client has closed can then no longer turn the exit
status into 120 (a status Copilot CLI reads as a denial).
"""

import sys

if not __package__:
    if not (sys.flags.isolated or getattr(sys.flags, "safe_path", False)):
        del sys.path[0]  # this file's own folder: its module names must not shadow others
    # __file__ is absolute (Python >= 3.9): <root>/spawnkit/hook/__main__.py
    sys.path.insert(0, __file__.rsplit("/", 3)[0])

try:
    try:
        from spawnkit.hook.main import main
    except ImportError:
        if __package__:
            raise
        import os  # a symlinked script, or Windows separators: resolve properly

        sys.path[0] = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
        from spawnkit.hook.main import main
except Exception as exc:  # noqa: BLE001 - a broken install must not break Claude Code
    sys.stdout.write(
        f'{{"systemMessage": "spawnkit-hook could not start ({type(exc).__name__}); '
        'reinstall spawnkit. The tool call went ahead unchanged."}'
    )
    raise SystemExit(0) from None

code = main()
try:
    sys.stdout.flush()
    sys.stderr.flush()
except Exception:  # noqa: BLE001, S110 - a closed pipe: the answer cannot be delivered anyway
    pass
try:
    from posix import _exit
except ImportError:  # pragma: no cover - not POSIX: the usual exit
    raise SystemExit(code) from None
_exit(code)
