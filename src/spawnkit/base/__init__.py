"""The ground floor: standard-library helpers every other package stands on.

Nothing here imports a spawnkit package; the hook imports these on every call, so they
stay light (no ``os``/``pathlib``/``json`` at import time where a lighter module does).
"""
