"""The optional C core (mafia_env/_ccore.c): built where a compiler exists, skipped elsewhere;
and the run-time data a wheel carries.

Everything else about the package is in pyproject.toml. Where the extension cannot be built
(no compiler, no Python headers), the install goes on without it and mafia_env plays on the
Python engine, saying so once (`mafia_env.ccore`). A wheel (not an editable install, which
reads the repository's folders) carries copies of the folders of `RUNTIME_DATA` under
baselines/_data/, where `baselines.resources` finds them.
"""

import hashlib
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

# the repository's folders the code reads at run time (baselines/resources.py), and their files
RUNTIME_DATA = {"configs": "**/*.yaml", "results/v3": "*.json"}


class OptionalBuildExt(build_ext):
    """build_ext whose failure is a notice, not an install failure."""

    def run(self) -> None:
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


SOURCE = "mafia_env/_ccore.c"
# the source's digest, compiled in: mafia_env.ccore refuses a build of another _ccore.c
DIGEST = hashlib.sha256((Path(__file__).parent / SOURCE).read_bytes())

setup(
    ext_modules=[
        Extension(
            "mafia_env._ccore",
            [SOURCE],
            define_macros=[("CCORE_SOURCE", f'"{DIGEST.hexdigest()[:16]}"')],
            optional=True,
        )
    ],
    cmdclass={"build_ext": OptionalBuildExt, "build_py": BuildPy},
)
