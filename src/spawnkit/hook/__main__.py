"""Run the hook from its file: ``<python> -I -S <path>/spawnkit/hook/__main__.py``.

``-I -S`` skips the environment and ``site`` (the slow part of a console-script
start), so this file puts the folder that holds the ``spawnkit`` package on
``sys.path`` itself: ``site-packages`` for an installed package, ``<repo>/src``
for a source checkout (the plugin runs it straight from the repo). Also works as
``python -m spawnkit.hook``. Fails open even when spawnkit itself cannot be imported.
"""

import sys

if not __package__:
    import os

    _here = os.path.dirname(os.path.realpath(__file__))
    _root = os.path.dirname(os.path.dirname(_here))
    # Without -I Python put this file's folder first; our module names must not shadow others.
    if sys.path and sys.path[0] in (_here, os.path.dirname(os.path.abspath(__file__))):
        del sys.path[0]
    if _root not in sys.path:
        sys.path.insert(0, _root)

try:
    from spawnkit.hook.main import main
except Exception as exc:  # noqa: BLE001 - a broken install must not break Claude Code
    sys.stdout.write(
        f'{{"systemMessage": "spawnkit-hook could not start ({type(exc).__name__}); '
        'reinstall spawnkit. The tool call went ahead unchanged."}'
    )
    raise SystemExit(0) from None

raise SystemExit(main())
