"""Command-line options for a board's geometry and style, shared by every CLI that places a board."""

from __future__ import annotations

import argparse

from schematics.layout import CORNER_VARIANTS, MAX_SPACING, MIN_SPACING, ORIENTATIONS, BoardLayout
from schematics.style import builtin_styles, load_style


def parse_position(text: str) -> tuple[int, int, int]:
    """``"10,64,-5"`` -> (10, 64, -5); argparse shows the message if the text is no such triple."""
    parts = text.replace(" ", "").split(",")
    try:
        x, y, z = (int(part) for part in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected X,Y,Z (three integers), got {text!r}") from None
    return x, y, z


def _spacing(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"spacing must be an integer, got {text!r}") from None
    if not MIN_SPACING <= value <= MAX_SPACING:
        raise argparse.ArgumentTypeError(f"spacing must be {MIN_SPACING}..{MAX_SPACING}, got {value}")
    return value


def add_layout_options(parser: argparse.ArgumentParser) -> None:
    """Add --origin, --spacing, --orientation, --style and --corners to ``parser``."""
    group = parser.add_argument_group("board geometry and style")
    group.add_argument(
        "--origin", type=parse_position, default=(0, 0, 0), metavar="X,Y,Z",
        help="API coordinates of point a1 on the piece layer (the floor is one below); default 0,0,0",
    )  # fmt: skip
    group.add_argument(
        "--spacing", type=_spacing, default=4, metavar="N",
        help=f"blocks from one point to the next ({MIN_SPACING}..{MAX_SPACING}; default 4: 3-block wires)",
    )  # fmt: skip
    group.add_argument(
        "--orientation", type=int, choices=sorted(ORIENTATIONS), default=0, metavar="DEG",
        help="0: columns a..l run east (+X), rows 1..12 north (-Z); 90/180/270 turn that clockwise",
    )  # fmt: skip
    group.add_argument(
        "--style", default="classic", metavar="NAME|FILE",
        help=f"built-in style ({', '.join(builtin_styles())}) or a style .toml file; default classic",
    )  # fmt: skip
    group.add_argument(
        "--corners", choices=CORNER_VARIANTS, default="diagonal",
        help="start corners: diagonal (P1 c3+j10, P2 j3+c10; default) or sides (P1 c3+j3, P2 c10+j10)",
    )  # fmt: skip


def layout_from_options(args: argparse.Namespace) -> BoardLayout:
    """The :class:`BoardLayout` the options describe. ValueError with a clear message if they are bad."""
    style = load_style(args.style)
    return BoardLayout(
        spacing=args.spacing, origin=tuple(args.origin), orientation=args.orientation, style=style,
        corners=args.corners,
    )  # fmt: skip
