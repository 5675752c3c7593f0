"""Install, uninstall and doctor: spawnkit's hooks, standard, skill and mode in a client's config.

``settings_merge`` (over ``jsonspan``) edits settings.json text without touching user bytes,
``registrations`` says which entries are ours, ``manifest`` records what was written, ``changes``
plans and applies all-or-nothing, ``install``/``uninstall`` build the plans, ``doctor`` checks.
"""
