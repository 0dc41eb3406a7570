"""``blockref draw``: a game record as a picture (SVG, or PNG with the optional ``png`` extra).

Works for every game of :mod:`engines.catalogue`: the game comes from ``--game`` or the record's
``# game: NAME`` line, else from its first entry where only one game has it (``start c3``: New Rule), else
``nodes``; the options from its ``# options: key=value ...`` line, each overridden by ``--option``.
``--docs`` redraws every picture of the rules pages from their example records.

>>> draw_svg(["# game: nodes", "c3-c4 c4-c5 c5-c6"], turn=0).count('class="node')
4
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType

from blockref.engines.catalogue import game_module
from blockref.engines.core import GameState
from blockref.engines.record_header import game_for_record, parse_options, split_header
from blockref.engines.records import RecordError, read_lines

DEFAULT_GAME = "nodes"
DOCS_RULES = Path("docs") / "rules"
PNG_HINT = "PNG pictures need the optional 'png' extra: pip install 'blockref[png]' (cairosvg and the cairo library)"


class DrawError(ValueError):
    """A record, option or output that cannot be drawn; the text says why, for a person."""


def record_states(lines: Sequence[str], game: str | None = None, options: dict[str, str] | None = None,
                  ) -> tuple[ModuleType, Iterator[GameState[object]]]:
    """The game's engine package and its ``play_record`` of the record: the state before the record and
    after each of its entries, one state played on (clone one to keep it)."""
    try:
        header, body = split_header(iter(lines))
    except ValueError as error:
        raise DrawError(str(error)) from None
    guessed = header.entries_game()
    name = game or header.game or guessed or DEFAULT_GAME
    chosen = options or {}
    try:
        module = game_module(name)
        known = module.GAME().options
        unknown = sorted(set(chosen) - set(known))
        if unknown:
            raise DrawError(f"{name} has no option {unknown[0]!r}; its options are {', '.join(known)}")
        played = game_for_record(name, header, chosen)
    except ImportError as error:
        raise DrawError(f"the game {name!r} is not available here ({error})") from None
    except ValueError as error:
        raise DrawError(str(error)) from None
    if not hasattr(module, "board_svg"):
        raise DrawError(f"the game {name!r} cannot draw pictures yet")
    return module, _explained(module.play_record(played, body), None if game or header.game else
                              f"its entries are {guessed}'s" if guessed else f"read as {name}")


def _explained(states: Iterator[GameState[object]], how: str | None) -> Iterator[GameState[object]]:
    """``states``, a bad line a :class:`DrawError` that says ``how`` the game was told when no game was
    named."""
    try:
        yield from states
    except ValueError as error:
        note = f" (the record names no game, {how}; --game or a '# game:' line names it)" if how else ""
        raise DrawError(f"{error}{note}") from None


def draw_svg(lines: Sequence[str], game: str | None = None, options: dict[str, str] | None = None,
             turn: int | None = None) -> str:
    """The picture of the position after ``turn`` record entries (default: the end), as SVG text."""
    module, states = record_states(lines, game, options)
    picked = None
    for entries, state in enumerate(states):  # one state kept, not one a position
        if entries == turn:
            picked = state.clone()
    _check_turn(turn, entries)
    return str(module.board_svg(state if turn is None else picked))


def draw_docs(rules: Path, output: Path | None = None) -> list[Path]:
    """Draw ``rules/examples/NAME.record`` as ``NAME.svg`` in ``output`` (default ``rules/img``)."""
    output = output or rules / "img"
    records = sorted((rules / "examples").glob("*.record"))
    if not records:
        raise DrawError(f"no example records in {rules / 'examples'}")
    output.mkdir(parents=True, exist_ok=True)
    written = []
    for record in records:
        try:
            picture = draw_svg(_read(record))
        except DrawError as error:
            raise DrawError(f"{record}: {error}") from None
        target = output / f"{record.stem}.svg"
        target.write_text(picture, encoding="utf-8", newline="\n")
        written.append(target)
    return written


def svg_to_png(svg: str, target: Path) -> None:
    """Write ``svg`` as a PNG file; raises :class:`DrawError` with :data:`PNG_HINT` without cairosvg."""
    try:
        import cairosvg  # type: ignore[import-not-found, unused-ignore]
    except (ImportError, OSError):
        raise DrawError(PNG_HINT) from None
    cairosvg.svg2png(bytestring=svg.encode("utf-8"), write_to=str(target), background_color="white")


def _check_turn(turn: int | None, entries: int) -> None:
    if turn is not None and not 0 <= turn <= entries:
        raise DrawError(f"--turn {turn}: the record has {entries} entries, so N runs from 0 to {entries}")


def _read(path: Path | str) -> list[str]:
    try:
        return list(read_lines(str(path)))
    except (OSError, UnicodeDecodeError) as error:
        raise DrawError(f"cannot read {path}: {error}") from None
    except RecordError as error:
        raise DrawError(f"{path}: {error}") from None


def _write(svg: str, target: Path) -> None:
    try:
        if target.suffix.lower() == ".png":
            svg_to_png(svg, target)
        else:
            target.write_text(svg, encoding="utf-8", newline="\n")
    except OSError as error:
        raise DrawError(f"cannot write {target}: {error.strerror or error}") from None


def _frame_names(output: Path, count: int) -> list[Path]:
    digits = max(3, len(str(count - 1)))
    return [output.with_name(f"{output.stem}-{index:0{digits}d}{output.suffix}") for index in range(count)]


def run(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except DrawError as error:
        print(f"blockref draw: {error}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    if args.docs is not None:
        written = draw_docs(Path(args.docs))
        print(f"drew {len(written)} pictures in {Path(args.docs) / 'img'}")
        return 0
    if args.record is None:
        raise DrawError("name a RECORD file to draw (or '-' for standard input, or --docs)")
    output: Path | None = args.output
    if output is not None and output.suffix.lower() not in (".svg", ".png"):
        raise DrawError(f"-o {output}: the file name must end in .svg or .png")
    try:
        options = parse_options(args.option, "--option")
    except ValueError as error:
        raise DrawError(str(error)) from None
    lines = _read(args.record)
    if args.animate:
        if args.turn is not None:
            raise DrawError("--animate draws every position; leave out --turn")
        if output is None:
            if args.record == "-":
                raise DrawError("--animate from standard input needs -o NAME.svg to name the pictures")
            output = Path(Path(args.record).stem + ".svg")
        module, played = record_states(lines, args.game, options)
        states = [state.clone() for state in played]
        frames = _frame_names(output, len(states))
        output.parent.mkdir(parents=True, exist_ok=True)
        for state, frame in zip(states, frames, strict=True):
            _write(str(module.board_svg(state)), frame)
        print(f"drew {len(frames)} pictures: {frames[0]} .. {frames[-1]}")
        return 0
    svg = draw_svg(lines, args.game, options, args.turn)
    if output is None:
        sys.stdout.write(svg)
    else:
        _write(svg, output)
    return 0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "draw",
        help="draw a game record as an SVG or PNG picture",
        description="Draw the position of a game record as players sketch it on paper, the last turn "
        "highlighted. The game is --game, else the record's '# game: NAME' line, else the one game its "
        "first entry can belong to, else nodes; options come from its '# options: key=value ...' line, each "
        "overridden by --option.",
        epilog="Examples: 'blockref draw game.record -o end.svg'; 'blockref draw game.record --turn 3 -o "
        "t3.png' (PNG needs: pip install 'blockref[png]'); 'blockref draw game.record --animate -o g.svg' "
        "writes g-000.svg (the start), g-001.svg (after the first entry), ...; 'blockref draw --docs' "
        "(in the project folder) redraws docs/rules/img/ from docs/rules/examples/.",
    )
    parser.add_argument("record", nargs="?", metavar="RECORD", help="the record file ('-' for standard input)")
    parser.add_argument("--game", metavar="G", help="the game (nodes, newrule, tightwire, implosion)")
    parser.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE",
        help="a variant option, e.g. corners=sides; may be repeated",
    )  # fmt: skip
    parser.add_argument("--turn", type=int, metavar="N", help="the position after N record entries (default: the end)")
    parser.add_argument(
        "-o", "--output", type=Path, metavar="FILE",
        help="FILE.svg or FILE.png (default: SVG on standard output)",
    )  # fmt: skip
    parser.add_argument(
        "--animate", action="store_true",
        help="one picture per position: NAME-000 (the start), NAME-001 (after entry 1), ... named after -o "
        "(default: the record's name, in the current folder)",
    )  # fmt: skip
    parser.add_argument(
        "--docs", nargs="?", const=str(DOCS_RULES), metavar="DIR",
        help=f"redraw DIR/img/NAME.svg from every DIR/examples/NAME.record (DIR default: {DOCS_RULES})",
    )  # fmt: skip
    parser.set_defaults(func=run)
