"""The skill template's life cycle: ``new`` (scaffold), ``update``, ``adopt`` (and ``retrofit``).

``store`` keeps every template version as a tagged git commit, offline; ``copier_run`` is the one
place copier is called; ``conflicts``, ``fsutil`` and ``gitutil`` help an update lose no line.
"""
