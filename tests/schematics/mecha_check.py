"""Parse function files with mecha, run by the interpreter of .venv/mecha (see requirements-mecha.txt).

Usage: ``python mecha_check.py VERSION=FILE ...``; prints one JSON object mapping each FILE to ``null``
(parsed) or mecha's error, and the grammar used under ``"grammars"``. Each version is parsed with the
newest command grammar mecha has that is not newer than it (mecha's grammars go by minor release).
"""

from __future__ import annotations

import json
import re
import sys
from importlib.resources import files

from beet import Function
from mecha import DiagnosticError, Mecha


def grammars() -> list[tuple[int, ...]]:
    names = (entry.name for entry in files("mecha.resources").iterdir())
    return sorted(tuple(map(int, m[1].split("_"))) for n in names if (m := re.fullmatch(r"(\d+_\d+)\.json", n)))


def grammar_for(version: str, known: list[tuple[int, ...]]) -> tuple[int, ...]:
    wanted = tuple(map(int, version.split(".")))
    fitting = [g for g in known if g <= wanted]
    if not fitting:
        raise SystemExit(f"mecha has no command grammar for Minecraft {version} or older")
    return fitting[-1]


def main(arguments: list[str]) -> int:
    known = grammars()
    parsers: dict[tuple[int, ...], Mecha] = {}
    grammars_used: dict[str, str] = {}
    report: dict[str, object] = {"grammars": grammars_used}
    for argument in arguments:
        version, path = argument.split("=", 1)
        grammar = grammar_for(version, known)
        grammars_used[version] = ".".join(map(str, grammar))
        mecha = parsers.setdefault(grammar, Mecha(version=".".join(map(str, grammar))))
        with open(path, encoding="utf-8") as source:
            function = Function(source.read())
        try:
            mecha.parse(function)
            report[path] = None
        except DiagnosticError as error:
            report[path] = str(error)
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
