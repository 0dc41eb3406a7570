"""The comment lines a game record carries about itself, for the bridge's tools: ``# game: NAME`` and
``# options: key=value ...``, as the engines read and write them (:mod:`engines.record_header`).

>>> lines = header_lines("nodes", {"corners": "sides", "turn_limit": 40})
>>> lines
['# game: nodes', '# options: corners=sides turn_limit=40']
>>> header = read_header([*lines, "c3-c4 c4-c5 c5-c6"])
>>> header.game, header.options
('nodes', {'corners': 'sides', 'turn_limit': '40'})
"""

from __future__ import annotations

from blockref.engines.record_header import RecordHeader, header_lines, parse_options, read_header

__all__ = ["RecordHeader", "header_lines", "parse_options", "read_header"]
