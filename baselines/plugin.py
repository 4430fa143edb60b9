"""The policies `baselines` adds to `mafia_env`'s registry (`mafia_env.seating.policies`).

pyproject.toml names them in the ``mafia_env.policies`` entry point group, so that
``mafia_env.seating.load_policy("rule", ...)`` finds them without `mafia_env` importing this
package; importing `baselines` registers them too. torch and Ray are imported only when a
PPO or RLlib policy is asked for, openai only when a language model (``llm``) is.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from baselines.filler import load_filler
from baselines.rule import RulePolicy
from baselines.zoo import register as register_styles
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError
from mafia_env.seating.policies import Policy, register_policy


def shipped_ppo(
    variant: str = "sport",
    num_players: int | None = None,
    seed: int = 0,
    spec: GameSpec | None = None,
    **options: Any,
) -> Policy:
    """``ppo``: the PPO checkpoint shipped for the variant (and table size, where shipped)."""
    from baselines.ppo.checkpoint import load_shipped_policy

    return load_shipped_policy(variant, num_players, seed, spec=spec, **options)


def shipped_league(
    variant: str = "sport",
    num_players: int | None = None,
    seed: int = 0,
    spec: GameSpec | None = None,
    **options: Any,
) -> Policy:
    """``league``: the league-trained seat-filler shipped for the variant (and table size).

    Its files are ``baselines/checkpoints/league/V-N.pt``, else ``league/V.pt``.
    """
    from baselines.ppo.checkpoint import load_shipped_policy

    return load_shipped_policy(variant, num_players, seed, kind="league", spec=spec, **options)


def shipped_league_v2(
    variant: str = "sport", num_players: int | None = None, seed: int = 0, **options: Any
) -> Policy:
    """``league_v2``: the seat-filler that reads the belief piece, where shipped.

    Its files are ``baselines/checkpoints/league_v2/V-N.pt``, else ``league_v2/V.pt``: cloned
    from the rule bots' play against mixed opponents, then league play, the observation
    option ``belief="deduction"`` in its input (a table seats it through `mafia_env.seating.games`,
    which builds the games with that option and gives other bots the plain prefix).
    """
    from baselines.ppo.checkpoint import load_shipped_policy

    return load_shipped_policy(variant, num_players, seed, kind="league_v2", **options)


def checkpoint(
    path: str | Path | None = None,
    variant: str = "sport",
    num_players: int | None = None,
    seed: int = 0,
    spec: GameSpec | None = None,
    **options: Any,
) -> Policy:
    """``checkpoint``: a PPO checkpoint file, or a directory RLlib saved a checkpoint into.

    Given the table's `spec`, a PPO file trained for a layout it cannot read is refused
    (a ConfigError naming both layouts)."""
    from baselines.rllib.restore import is_rllib_checkpoint

    if path is None:
        raise ConfigError("load a checkpoint by its path: load_policy('path/to/file.pt', ...)")
    if is_rllib_checkpoint(path):
        from baselines.rllib.restore import load_rllib_policy  # the 'rllib' extra

        return load_rllib_policy(path, variant, num_players, seed, **options)
    from baselines.ppo.checkpoint import load_checkpoint_policy

    return load_checkpoint_policy(path, variant, num_players, seed, spec=spec, **options)


def llm(variant: str = "sport", num_players: int | None = None, seed: int = 0, **options: Any):
    """``llm``: a chat model behind an OpenAI-compatible server (`baselines.llm`, extra llm)."""
    from baselines.llm import LLMPolicy

    return LLMPolicy(variant, num_players, seed, **options)


def ismcts(
    variant: str = "sport", num_players: int | None = None, seed: int = 0, **options: Any
) -> Policy:
    """``ismcts``: the search bot (`baselines.ismcts`) with its config's budget."""
    from baselines.ismcts import SearchPolicy

    return SearchPolicy(variant, num_players, seed, **options)


def rule_v2(
    variant: str = "sport",
    num_players: int | None = None,
    seed: int = 0,
    spec: GameSpec | None = None,
    **options: Any,
) -> Policy:
    """``rule_v2``: the rule bots on the belief over the deal (`baselines.rule.v2`)."""
    from baselines.rule.v2 import RulePolicyV2

    return RulePolicyV2(variant, num_players, seed, spec=spec, **options)


def register() -> None:
    """Register ``rule`` (the rule bots v1, which the benchmark tasks v2 and v3 pin), ``rule_v1``
    (the same), ``rule_v2``, ``ppo``, ``league``, ``league_v2``, ``filler``, ``checkpoint``,
    ``llm``, ``ismcts`` and the zoo's styles (``style:<name>``, `baselines.zoo`): the entry
    points of pyproject.toml, for a process that imports baselines."""

    register_policy("rule", RulePolicy)
    register_policy("rule_v1", RulePolicy)
    register_policy("rule_v2", rule_v2)
    register_policy("llm", llm)
    register_policy("ismcts", ismcts)
    register_policy("ppo", shipped_ppo)
    register_policy("league", shipped_league)
    register_policy("league_v2", shipped_league_v2)
    register_policy("filler", load_filler)
    register_policy("checkpoint", checkpoint)
    register_styles()
