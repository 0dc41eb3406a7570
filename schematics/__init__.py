"""Board geometry and styles, and the file writers (schematics, commands, datapacks).

The bridge and every export share :class:`BoardLayout` (where everything is) and :class:`Style`
(what it is made of).
"""

from blockref.schematics.blocks import BLOCKS, BlockType, block, block_from_state
from blockref.schematics.layout import BoardLayout, parse_point, point_name
from blockref.schematics.style import PlayerMaterials, Style, load_style

__all__ = [
    "BLOCKS",
    "BlockType",
    "BoardLayout",
    "PlayerMaterials",
    "Style",
    "block",
    "block_from_state",
    "load_style",
    "parse_point",
    "point_name",
]
