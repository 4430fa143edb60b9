"""Write the C core's header of rule constants (src/kinds.h) from the Python definitions.

The enums, knob choices, observation pieces and tables the core is written in come from
`mafia_env.ccore.schema` (which reads the engine's): none is written by hand in C. setup.py
runs this file before it compiles the core; the header is also committed, so that a build
that cannot run it (or reads the C alone) has it, and tests/test_ccore_generate.py fails when
the committed one is stale.

    python mafia_env/ccore/generate.py          write src/kinds.h
    python mafia_env/ccore/generate.py --check  exit 1 (saying so) if src/kinds.h is stale

Run as a script it imports the engine without the package's ``__init__`` (no numpy needed),
so the build can run it before anything is installed. `source_digest` is the digest of the
core's sources that setup.py compiles in and `mafia_env.ccore` checks a build against.
"""

from __future__ import annotations

import hashlib
import importlib
import sys
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"
HEADER = SRC / "kinds.h"
WIDTH = 100  # the C sources' line length


def source_digest(src: Path = SRC) -> str:
    """Return the digest of the core's C sources (every .c and .h of `src`, by name)."""
    h = hashlib.sha256()
    for path in sorted(src.glob("*.[ch]")):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def _wrap(head: str, items: list[str], tail: str, indent: str = "    ") -> list[str]:
    """Return `head items, ... tail` as C lines of at most WIDTH characters."""
    lines, line = [], head
    for i, item in enumerate(items):
        word = item + ("," if i < len(items) - 1 else "")
        if len(line) + 1 + len(word) > WIDTH - (len(tail) if i == len(items) - 1 else 0):
            lines.append(line.rstrip())
            line = indent + word
        else:
            line += " " + word
    lines.append(line + tail)
    return lines


def _macro(head: str, items: list[str]) -> list[str]:
    """Return a C macro `head items...` continued over lines of at most WIDTH characters."""
    lines, line = [], head
    for item in items:
        if len(line) + 1 + len(item) > WIDTH - 2:
            lines.append(line + " \\")
            line = "    " + item
        else:
            line += " " + item
    return [*lines, line]


def header(schema: types.ModuleType) -> str:
    """Return the text of src/kinds.h from `schema` (mafia_env.ccore.schema)."""
    from mafia_env.engine.rules import KNOBS

    consts = schema.constants()
    out = [
        "/* The rule constants of the C core, generated from the Python engine's definitions by",
        " * mafia_env/ccore/generate.py (mafia_env/ccore/schema.py): do not edit. setup.py",
        " * writes it again before each build. */",
        "#ifndef MAFIA_CCORE_KINDS_H",
        "#define MAFIA_CCORE_KINDS_H",
        "",
        "/* seats: sequence codes hold 5 bits a seat, bitmasks 32 (events.SEQ_BITS) */",
        f"#define MAXN {consts['MAXN']}",
        f"#define PUBLIC ({consts['PUBLIC']}) /* seen_by of a public event (events.PUBLIC) */",
    ]

    def enum(title: str, names: list[str]) -> None:
        out.extend(["", f"/* {title} */"])
        out.extend(_wrap("enum {", [f"{n} = {consts[n]}" for n in names], " };"))

    for kind, prefix, count in schema.ENUMS:
        names = [prefix + m.name for m in kind] + ([count] if count else [])
        enum(f"{kind.__name__} ({kind.__module__})", names)
    for knob, prefix in schema.CHOICE_PREFIX.items():
        names = [prefix + c.upper() for c in KNOBS[knob].choices]
        enum(f"knob {knob}: the index of its choice", names)
    enum("the observation pieces, in the order of the config's offsets (schema.PIECES)",
         ["P_" + p.upper() for p in schema.PIECES] + ["N_PIECES"])  # fmt: skip

    ints = [k for k in schema.CORE_KNOBS if k not in schema.LIST_KNOBS]
    out.extend(["", "/* the knobs the core reads as one int each: X(name) for each */"])
    out.extend(_macro("#define CORE_KNOBS(X)", [f"X({k})" for k in ints]))

    tables = schema.tables()
    out.extend(["", "/* tables, each indexed by an enum's value */"])
    for name, values in tables.items():
        size = schema.TABLE_INDEX[name]
        if len(values) != consts[size]:
            raise ValueError(f"table {name} has {len(values)} entries, {size} is {consts[size]}")
        out.extend(_wrap(f"static const int {name}[{size}] = {{", list(map(str, values)), " };"))

    out.extend(["", "/* every constant and table above by name: the module's CONSTANTS, TABLES */"])
    out.append("static const struct {")
    out.append("    const char *name;")
    out.append("    int value;")
    out.append("} CCORE_CONSTANTS[] = {")
    out.extend(f'    {{"{n}", {n}}},' for n in consts)
    out.append("    {0, 0}};")
    out.append("static const struct {")
    out.append("    const char *name;")
    out.append("    const int *values;")
    out.append("    int len;")
    out.append("} CCORE_TABLES[] = {")
    out.extend(f'    {{"{n}", {n}, {schema.TABLE_INDEX[n]}}},' for n in tables)
    out.append("    {0, 0, 0}};")
    out.extend(["", "#endif", ""])
    return "\n".join(out)


def _import_schema() -> types.ModuleType:
    """Import mafia_env.ccore.schema; where mafia_env is not imported yet, without running
    the package's ``__init__`` files (they import numpy: the build may not have it)."""
    if "mafia_env" not in sys.modules:
        root = HERE.parent
        for name, path in (("mafia_env", root), ("mafia_env.ccore", HERE)):
            stub = types.ModuleType(name)
            stub.__path__ = [str(path)]
            sys.modules[name] = stub
    return importlib.import_module("mafia_env.ccore.schema")


def main(argv: list[str]) -> int:
    text = header(_import_schema())
    if argv[1:] == ["--check"]:
        if not HEADER.is_file() or HEADER.read_text() != text:
            print(f"{HEADER} is stale: run python {Path(__file__).name} (or build the core)")
            return 1
        return 0
    if argv[1:]:
        print(__doc__)
        return 2
    if not HEADER.is_file() or HEADER.read_text() != text:  # untouched: no rebuild for make
        HEADER.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
