"""A self-contained engine: `mafia_env.engine` imports nothing of the package above it, and the
package does not patch it at import (the variants and the belief are handed to it through
its own functions: `register_variants`, `knowledge.install`)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import mafia_env
from mafia_env.engine import knowledge, spec

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "mafia_env" / "engine"
MODULES = sorted(
    "mafia_env.engine" + ("" if p.stem == "__init__" else f".{p.stem}") for p in ENGINE.glob("*.py")
)


def imported_names(path: Path) -> set[str]:
    """Every module an `import` or `from ... import` of `path` names, at any depth."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module)
        elif isinstance(node, ast.ImportFrom):  # a relative import stays inside
            out.add("mafia_env.engine")
    return out


@pytest.mark.parametrize("path", sorted(ENGINE.glob("*.py")), ids=lambda p: p.name)
def test_no_engine_module_names_a_module_above_the_engine(path):
    """The AST: every import of an engine module (in functions too) is the standard library,
    a third-party package, or the engine."""
    above = sorted(
        m
        for m in imported_names(path)
        if m.split(".")[0] == "mafia_env"
        and not m.startswith("mafia_env.engine")
        and m != "mafia_env.engine"
    )
    assert above == [], f"{path.name} imports {above}"


def test_every_engine_module_imports_alone():
    """A fresh interpreter whose `mafia_env` is an empty package (its __init__, which loads
    the layers above, not run) imports every engine module and has loaded no module of
    mafia_env outside the engine."""
    code = f"""
import json, sys, types, importlib, random
pkg = types.ModuleType("mafia_env")
pkg.__path__ = [{str(ROOT / "mafia_env")!r}]
sys.modules["mafia_env"] = pkg
for name in {MODULES!r}:
    importlib.import_module(name)
loaded = sorted(m for m in sys.modules if m.startswith("mafia_env."))
print(json.dumps(loaded))
"""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    ).stdout
    loaded = json.loads(out)
    assert set(MODULES) <= set(loaded)
    assert [m for m in loaded if not m.startswith("mafia_env.engine")] == []


def test_the_package_hands_the_engine_its_variants_and_beliefs():
    """What the engine gets from above, it gets through its own functions: the variant
    files' rules (`spec.register_variants`) and `Game.belief`/`Game.resample`'s answers
    (`knowledge.install`), with a clear error before they are installed."""
    assert spec.VARIANTS is mafia_env.VARIANTS and set(spec.VARIANTS) >= {"sport", "city"}
    assert spec.get_variant("sport") is mafia_env.VARIANTS["sport"]
    saved = dict(knowledge._ANSWERS)
    try:
        knowledge._ANSWERS.clear()
        with pytest.raises(RuntimeError, match=r"knowledge\.install"):
            knowledge.answer("sample")
    finally:
        knowledge._ANSWERS.update(saved)
    assert json.dumps(sorted(saved)) == '["belief", "sample"]'
