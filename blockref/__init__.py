"""blockref: abstract strategy games played in Minecraft, refereed by a rules engine.

The packages are ``blockref.engines`` (the rules engines and computer players), ``blockref.bridge`` (the
service and the ``blockref`` command) and ``blockref.schematics`` (board geometry, styles and exports);
``blockref.server_setup`` holds the embedded server's files. In a checkout the first three are links to
the folders ``engines/``, ``bridge/`` and ``schematics/``; the package maps them with ``package-dir``.
"""
