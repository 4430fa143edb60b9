"""mafia_env: the social deduction game Mafia as a PettingZoo AEC environment.

```python
import mafia_env
env = mafia_env.env(variant="sport", num_players=10)
env.reset(seed=7)
for agent in env.agent_iter():
    obs, reward, termination, truncation, info = env.last()
    ...
```
"""

from __future__ import annotations

from typing import Any

from mafia_env.aec import MafiaEnv, make_env
from mafia_env.engine.rules import Rules
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import (
    ConfigError,
    IllegalActionError,
    IllegalActionWarning,
    KnobWarning,
    MafiaError,
    RecordError,
)
from mafia_env.infoset import install_answers
from mafia_env.parallel import MafiaParallelEnv
from mafia_env.records import replay
from mafia_env.single import single_agent
from mafia_env.tasks import TASKS
from mafia_env.variants import VARIANTS

__version__ = "0.2.0"  # the package (semver); pyproject.toml reads it from here


install_answers()  # Game.belief and Game.resample: the belief layer's answers


def env(
    variant: str | Rules | GameSpec = "sport",
    num_players: int | None = None,
    render_mode: str | None = None,
    obs_mode: str = "vector",
    lang: str = "en",
    backend: str = "auto",
    **knobs: Any,
) -> MafiaEnv:
    """Return a Mafia AEC environment. Knobs override the variant file; unknown knob -> error.

    `variant` is a variant's name or a `GameSpec` (``GameSpec.make("sport", 10, **knobs)``).

    The checks PettingZoo's wrappers make (order of calls, bounds, legal actions) are made
    inside the environment, so `env()` costs no wrapper layers. ``backend``: ``"auto"`` plays
    on the C core where it is built, ``"c"`` insists on it, ``"python"`` takes the Python
    engine; the game is the same (see `mafia_env.ccore`).
    """
    return make_env(
        variant,
        num_players,
        backend,
        render_mode=render_mode,
        obs_mode=obs_mode,
        lang=lang,
        **knobs,
    )


def raw_env(
    variant: str | Rules | GameSpec = "sport",
    num_players: int | None = None,
    render_mode: str | None = None,
    obs_mode: str = "vector",
    lang: str = "en",
    backend: str = "auto",
    **knobs: Any,
) -> MafiaEnv:
    """Return the environment without PettingZoo's wrappers (the same class as `env`)."""
    return env(variant, num_players, render_mode, obs_mode, lang, backend, **knobs)


def parallel_env(
    variant: str | Rules | GameSpec = "sport",
    num_players: int | None = None,
    render_mode: str | None = None,
    obs_mode: str = "vector",
    lang: str = "en",
    backend: str = "auto",
    acting_info: bool | None = None,
    **knobs: Any,
) -> MafiaParallelEnv:
    """Return the PettingZoo ParallelEnv view: the seats that act at the same time (the
    ballots of a vote, the mafia's hidden shots) act in one step, the others `wait`.

    Its action space is the AEC env's plus one `wait` index at the end; see
    `mafia_env.parallel`. ``obs_mode`` is "vector" or "flat" (the mask in ``infos``).
    ``infos[agent]["acting"]`` says whether the agent chooses in this step: in the flat mode
    always, in the vector mode with ``acting_info=True``.
    """
    return MafiaParallelEnv(
        variant,
        num_players,
        render_mode=render_mode,
        obs_mode=obs_mode,
        lang=lang,
        backend=backend,
        acting_info=acting_info,
        **knobs,
    )


__all__ = [
    "TASKS",
    "VARIANTS",
    "ConfigError",
    "GameSpec",
    "IllegalActionError",
    "IllegalActionWarning",
    "KnobWarning",
    "MafiaEnv",
    "MafiaError",
    "MafiaParallelEnv",
    "RecordError",
    "env",
    "parallel_env",
    "raw_env",
    "replay",
    "single_agent",
]
