"""The optional C core (mafia_env/ccore/src/): built where a compiler exists, skipped elsewhere;
and the run-time data a wheel carries.

Before it compiles the core, build_ext writes its header of rule constants (src/kinds.h)
from the Python engine's definitions (mafia_env/ccore/generate.py); where that cannot run,
the committed header is used.

Everything else about the package is in pyproject.toml. Where the extension cannot be built
(no compiler, no Python headers), the install goes on without it and mafia_env plays on the
Python engine, saying so once (`mafia_env.ccore`). A wheel (not an editable install, which
reads the repository's folders) carries copies of the folders of `RUNTIME_DATA` under
baselines/_data/, where `baselines.resources` finds them.
"""

import importlib.util
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

# the repository's folders the code reads at run time (baselines/resources.py), and their files
RUNTIME_DATA = {"configs": "**/*.yaml", "results/v3": "*.json"}


class OptionalBuildExt(build_ext):
    """build_ext whose failure is a notice, not an install failure."""

    def run(self) -> None:
        generate_header()
        for ext in self.extensions:  # the digest of the sources as they are compiled
            ext.define_macros = [("CCORE_SOURCE", f'"{source_digest()}"')]
        try:
            super().run()
        except Exception as e:  # no compiler at all: the platform error comes from here
            self._skip(e)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as e:
            self._skip(e)

    def _skip(self, error: Exception) -> None:
        print(f"mafia_env: the C core was not built ({error}); the Python engine will play")


class BuildPy(build_py):
    """build_py that also copies `RUNTIME_DATA` into the built package (not when editable)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        root = Path(__file__).resolve().parent
        for folder, pattern in RUNTIME_DATA.items():
            for src in sorted((root / folder).glob(pattern)):
                dest = Path(self.build_lib) / "baselines" / "_data" / src.relative_to(root)
                self.mkpath(str(dest.parent))
                self.copy_file(str(src), str(dest))


ROOT = Path(__file__).resolve().parent
CCORE = ROOT / "mafia_env" / "ccore"
GENERATE = CCORE / "generate.py"


def generate_header() -> None:
    """Write src/kinds.h from the Python definitions (a notice where that cannot run)."""
    done = subprocess.run([sys.executable, str(GENERATE)], capture_output=True, text=True)
    if done.returncode:
        print(f"mafia_env: the C core's header was not generated ({done.stderr.strip()}); "
              "building with the committed one")  # fmt: skip


def source_digest() -> str:
    """Return generate.py's digest of the core's sources (compiled in: mafia_env.ccore
    refuses a build of other sources)."""
    spec = importlib.util.spec_from_file_location("_ccore_generate", GENERATE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.source_digest()


setup(
    ext_modules=[
        Extension(
            "mafia_env.ccore._ccore",
            ["mafia_env/ccore/src/binding.c"],  # it includes the other files: one unit
            depends=[str(p.relative_to(ROOT)) for p in sorted((CCORE / "src").glob("*.[ch]"))],
            optional=True,
        )
    ],
    cmdclass={"build_ext": OptionalBuildExt, "build_py": BuildPy},
)
