"""COMMON-7 in every view: what an action outside the mask does, and how a learner sees it.

Knob ``illegal_action`` chooses: ``raise`` (an `IllegalActionError` naming the agent, the
phase and the legal actions), ``foul`` (a foul on the offender, then the turn's default
action: the game goes on) or ``terminate`` (the game ends, -1 to the offender, 0 to the
others: PettingZoo's classic convention). Left unset (null in the variant files), each view
takes the default its ecosystem's checkers expect:

| view | default | its checkers that sample actions without the mask |
|---|---|---|
| `mafia_env.env`, `raw_env` (AEC) | ``terminate`` | PettingZoo's ``state_test``, |
| | | ``bombardment_test``, ``api_test`` in flat mode |
| `mafia_env.parallel_env` | ``terminate`` | ``parallel_api_test`` (flat), |
| | | ``parallel_seed_test``, RLlib's env check, TorchRL's ``check_env_specs`` |
| `mafia_env.single_agent` | ``terminate`` | Gymnasium's ``check_env`` |
| `mafia_env.vector.VectorMafia` | ``raise`` (only) | none: trainers sample from masks |

A learner's bug still shows where the mode is not ``raise``: every illegal action is counted
in ``env.illegal_counts[agent]`` (this game's) and, in the flat modes, whose learners read
``infos``, in ``infos[agent]["illegal"]`` (`single_agent`: ``info["illegal"]``); the first
one an env meets is warned once (`IllegalActionWarning`: the agent, the action, the phase);
and
``illegal_action="raise"`` turns it into an error. `mafia_env.openspiel` offers only legal
actions (OpenSpiel checks them itself).
"""

from __future__ import annotations

import warnings
from typing import Any

from mafia_env.engine.rules import Rules
from mafia_env.errors import IllegalActionWarning

ILLEGAL_MODES = ("raise", "foul", "terminate")
DEFAULTS = {"aec": "terminate", "parallel": "terminate", "single": "terminate", "vector": "raise"}


def illegal_mode(rules: Rules, view: str) -> str:
    """Return the mode `view` plays `rules` with: the knob's value, else the view's default."""
    return rules.illegal_action or DEFAULTS[view]


def warn_illegal(env: Any, message: str, mode: str) -> None:
    """Warn about `env`'s first illegal action (once per env): what it was and what was done."""
    if getattr(env, "_warned_illegal", False):
        return
    env._warned_illegal = True
    done = "a foul and the turn's default action" if mode == "foul" else "the game ends"
    warnings.warn(
        f"{message}. Answered under illegal_action={mode!r}: {done} (counted in "
        "env.illegal_counts, and the flat mode's infos[agent]['illegal']; set "
        "illegal_action='raise' to make it an error). This env warns once.",
        IllegalActionWarning,
        stacklevel=3,
    )


__all__ = ["DEFAULTS", "ILLEGAL_MODES", "IllegalActionWarning", "illegal_mode", "warn_illegal"]
