"""The C core's rule constants come from the Python definitions, and from nowhere else.

`mafia_env/ccore/generate.py` writes src/kinds.h from `mafia_env.ccore.schema` (the engine's
enums, knob choices and tables); the header is committed, so these tests fail when it is
stale, when the built core's constants are not the Python engine's, or when a C source
defines one of them again by hand.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from mafia_env import ccore
from mafia_env.ccore import generate, schema
from mafia_env.engine.events import PUBLIC, Answer, Cause, Ev, NoVote, Outcome, Spared
from mafia_env.engine.kinds import BLOCKABLE, PUBLIC_TURNS, SPEECH_TURNS, Act, Call, Stage, Turn
from mafia_env.engine.roles import ROLE_TEAM, Role, Team
from mafia_env.engine.rules import KNOBS
from mafia_env.engine.turns import SPEECH_EVENT

ROOT = Path(__file__).resolve().parents[1]
needs_core = pytest.mark.skipif(not ccore.available(), reason="the C core is not built")


def test_the_committed_header_is_the_generated_one():
    """src/kinds.h is what generate.py writes now (else: run it, or build the core)."""
    assert generate.HEADER.read_text() == generate.header(schema), (
        "mafia_env/ccore/src/kinds.h is stale: run python mafia_env/ccore/generate.py"
    )


def test_the_generator_runs_without_numpy_as_the_build_does():
    """setup.py runs generate.py before anything is installed: it imports the engine only."""
    code = (
        "import runpy, sys; sys.modules['numpy'] = None; "
        f"sys.argv = ['generate.py', '--check']; runpy.run_path({str(generate.__file__)!r}, "
        "run_name='__main__')"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_schema_names_every_member_of_the_engine_enums():
    """Every enum the core reads, each member under its C name, with the engine's value."""
    consts = schema.constants()
    for kind, prefix in (
        (Turn, "T_"), (Act, "A_"), (Stage, "S_"), (Call, "CALL_"), (Ev, "E_"), (Cause, "C_"),
        (Role, "R_"), (Team, "TEAM_"), (Outcome, "O_"), (NoVote, "NV_"), (Spared, "SP_"),
        (Answer, "ANS_"),
    ):  # fmt: skip
        for m in kind:
            assert consts[prefix + m.name] == int(m)
    assert consts["N_TURNS"] == len(Turn) and consts["N_ACTS"] == len(Act)
    assert consts["N_EVENTS"] == len(Ev) and consts["N_ROLES"] == len(Role)
    assert consts["PUBLIC"] == PUBLIC
    for knob, prefix in schema.CHOICE_PREFIX.items():
        for i, choice in enumerate(KNOBS[knob].choices):
            assert consts[prefix + choice.upper()] == i
    for i, piece in enumerate(schema.PIECES):
        assert consts["P_" + piece.upper()] == i
    # every knob with named choices that the core reads has its C names
    read = {k for k in schema.CORE_KNOBS if KNOBS[k].choices}
    assert read == set(schema.CHOICE_PREFIX)


def test_the_schema_tables_are_the_engine_sets():
    tables = schema.tables()
    assert tables["ROLE_TEAM"] == tuple(int(ROLE_TEAM[r]) for r in Role)
    assert tables["IS_SPEECH"] == tuple(int(t in SPEECH_TURNS) for t in Turn)
    assert tables["IS_PUBLIC"] == tuple(int(t in PUBLIC_TURNS) for t in Turn)
    assert tables["BLOCKABLE"] == tuple(int(t in BLOCKABLE) for t in Turn)
    assert tables["SPEECH_EVENT"] == tuple(int(SPEECH_EVENT.get(a, -1)) for a in Act)


@needs_core
def test_every_constant_the_built_core_exposes_is_the_python_one():
    core = ccore._load()
    assert schema.constants() == core.CONSTANTS
    assert schema.tables() == core.TABLES
    assert core.MAXN == schema.MAX_SEATS
    assert len(ccore.PIECES) == core.N_PIECES


def test_no_c_source_defines_a_generated_constant_by_hand():
    """Only kinds.h defines the names generate.py writes: no enum or table copied again."""
    names = set(schema.constants()) | set(schema.tables())
    for path in sorted(generate.SRC.glob("*.[ch]")):
        if path == generate.HEADER:
            continue
        text = path.read_text()
        defined = set(re.findall(r"#define\s+(\w+)", text))
        for body in re.findall(r"enum\s*\{([^}]*)\}", text):
            defined |= set(re.findall(r"\b([A-Z_][A-Z0-9_]*)\b\s*(?:=|,|$)", body))
        defined |= set(re.findall(r"static const \w+ (\w+)\[", text))
        assert not defined & names, f"{path.name} defines {sorted(defined & names)} again"


def test_the_package_and_the_sdist_carry_the_sources():
    """A wheel carries the sources beside the module (the stale-build check reads them); an
    sdist builds the core from them."""
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"ccore/src/*.c", "ccore/src/*.h"' in pyproject
    assert "recursive-include mafia_env/ccore/src *.c *.h" in (ROOT / "MANIFEST.in").read_text()
