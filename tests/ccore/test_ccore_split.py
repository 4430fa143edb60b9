"""The C core's sources split by concern: the engine's files are plain C, the binding's
files hold all the CPython glue."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "mafia_env" / "ccore" / "src"
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
STRING = re.compile(r'"(?:\\.|[^"\\])*"')
# a CPython API name (PyObject, Py_None, PyErr_SetString, _PyLong_..., PY_SSIZE_T_CLEAN, ...)
CPYTHON = re.compile(r"\b_?(?:Py|PY)(?:[A-Z_][A-Za-z0-9_]*)")


def code(path):
    """A source file's code: its comments and strings left out."""
    return STRING.sub('""', COMMENT.sub(" ", path.read_text()))


def binding(path):
    return path.name.startswith("binding")


def test_the_engine_files_use_no_cpython_api():
    engine = sorted(p for p in SRC.glob("*.[ch]") if not binding(p))
    assert {p.name for p in engine} >= {"core.h", "rules.c", "observer.c", "masks.c"}
    for path in engine:
        text = code(path)
        assert "Python.h" not in path.read_text(), f"{path.name} includes Python.h"
        found = sorted(set(CPYTHON.findall(text)))
        assert not found, f"{path.name} uses the CPython API: {found}"


def test_the_binding_holds_the_glue_and_includes_every_file():
    glue = {p.name for p in SRC.glob("*.[ch]") if CPYTHON.search(code(p))}
    assert glue == {p.name for p in SRC.glob("binding*.c")}
    main = (SRC / "binding.c").read_text()
    assert main.index("#include <Python.h>") < main.index('#include "core.h"')
    included = set(re.findall(r'#include "([^"]+)"', main))
    for path in SRC.glob("*.c"):
        if path.name != "binding.c":
            assert path.name in included, f"binding.c does not include {path.name}"


ENGINE = ("observer.c", "rules.c", "masks.c", "calls.c", "pickle.c", "batch.c")


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_the_engine_compiles_without_python():
    """The engine's files, in binding.c's order, make a C unit of their own: no Python
    header on the include path."""
    main = (SRC / "binding.c").read_text()
    order = [name for name in re.findall(r'#include "([^"]+)"', main) if name in ENGINE]
    assert sorted(order) == sorted(ENGINE)
    unit = "".join(f'#include "{name}"\n' for name in ["core.h", *order])
    cmd = ["cc", "-x", "c", "-fsyntax-only", "-Wall", "-Werror", "-Wno-unused-function"]
    done = subprocess.run(
        [*cmd, "-I", str(SRC), "-"], input=unit, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
