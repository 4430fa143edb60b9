"""The optional C core (mafia_env/_ccore.c): built where a compiler exists, skipped elsewhere.

Everything else about the package is in pyproject.toml. Where the extension cannot be built
(no compiler, no Python headers), the install goes on without it and mafia_env plays on the
Python engine, saying so once (`mafia_env.ccore`).
"""

import hashlib
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


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
    cmdclass={"build_ext": OptionalBuildExt},
)
