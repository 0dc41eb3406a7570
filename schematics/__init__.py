"""Board geometry and styles, and the file writers (schematics, commands, datapacks).

The bridge and every export share :class:`BoardLayout` (where everything is) and :class:`Style`
(what it is made of).
"""

from schematics.blocks import BLOCKS, BlockType, block, block_from_state
from schematics.layout import BoardLayout, parse_point, point_name
from schematics.options import add_layout_options, layout_from_options
from schematics.style import PlayerMaterials, Style, load_style

__all__ = [
    "BLOCKS",
    "BlockType",
    "BoardLayout",
    "PlayerMaterials",
    "Style",
    "add_layout_options",
    "block",
    "block_from_state",
    "layout_from_options",
    "load_style",
    "parse_point",
    "point_name",
]
