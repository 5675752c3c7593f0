"""The standard: ``standards/protocol.json`` read once for everyone (``protocol``) and the files
spawnkit ships beside its code (``resources``). Standard library only: the hook path reads both."""
