"""An evaluation's config: the YAML file as written (`EvalFile`) and the run it describes.

`load_config` reads and checks a file: the variant and table size, one policy per team in
each matchup (each one built once by `load_policy`, so a bad name fails here), and the
optional ``ratings`` section. Every problem is a ConfigError naming the key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mafia_env import yaml_config
from mafia_env.engine.roles import TEAM_NAMES, Team
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError
from mafia_env.seating.policies import load_policy
from mafia_env.yaml_config import NonNegativeInt, PositiveInt


@dataclass(frozen=True)
class RatingConfig:
    """Pool games between every assignment of `policies` to teams, `games` each."""

    policies: tuple[str, ...]
    """the policies to rate (names or checkpoint paths), at least two"""
    games: PositiveInt = 100
    """games per assignment of policies to teams"""


@dataclass(frozen=True)
class EvalFile:
    """An evaluation config file, as written (`EvalConfig` is the run it describes)."""

    variant: str
    """the rule set (mafia_env.VARIANTS)"""
    num_players: int | None = None
    """the table size; null: the variant's default"""
    games: PositiveInt = 100
    """games per matchup"""
    seed: NonNegativeInt = 0
    """seeds every game of every matchup"""
    workers: NonNegativeInt = 0
    """worker processes (0: every core)"""
    out: str | None = None
    """where the reports go; null: runs/eval/<variant>"""
    matchups: tuple[dict[str, Any], ...] = ()
    """one policy per team ({town: rule, mafia: random}) and an optional name"""
    ratings: RatingConfig | None = None
    """rate these policies against each other (baselines.ratings)"""


@dataclass(frozen=True)
class Matchup:
    """One policy per team."""

    name: str
    policies: dict[str, str]


@dataclass(frozen=True)
class EvalConfig:
    """An evaluation run, as read from YAML and validated."""

    variant: str
    num_players: int
    games: int
    seed: int = 0
    workers: int = 0  # 0: every core
    out: str = "runs/eval"
    matchups: tuple[Matchup, ...] = ()
    ratings: RatingConfig | None = None
    teams: tuple[str, ...] = field(default=(), compare=False)

    def game_spec(self) -> GameSpec:
        """Return the spec of the evaluated game (`GameSpec.make`)."""
        return GameSpec.make(self.variant, self.num_players)


def variant_teams(variant: str | GameSpec) -> tuple[str, ...]:
    """Return the names of the teams a variant (or a spec's game) deals, in Team order."""
    rules = GameSpec.make(variant).rules
    present = {r.team for r in rules.roles_in_play()}
    return tuple(TEAM_NAMES[t] for t in Team if t in present)


def check_policy(name: Any, variant: str, n: int, where: str) -> str:
    """Return `name` if `load_policy` can build it for this variant, else a ConfigError."""
    if not isinstance(name, str):
        raise ConfigError(f"{where} must be a policy name or checkpoint path; got {name!r}")
    try:
        load_policy(name, variant=variant, num_players=n, seed=0)
    except ConfigError as e:
        raise ConfigError(f"{where}: {e}") from None
    return name


def resolve(f: EvalFile) -> EvalConfig:
    """Return the run an evaluation file describes: the table, matchups and ratings checked."""
    spec = GameSpec.make(f.variant, f.num_players)
    rules, n = spec.rules, spec.n
    if f.out == "":
        raise ConfigError("out must be a directory path; got ''")
    teams = variant_teams(rules.name)
    matchups = []
    for i, m in enumerate(f.matchups):
        where = f"matchups[{i}]"
        if set(m) - {"name"} != set(teams):
            raise ConfigError(
                f"{where} must give a policy for each team of {rules.name!r} "
                f"({', '.join(teams)}) and nothing else (an optional 'name'); got {sorted(m)}"
            )
        pols = {t: check_policy(m[t], rules.name, n, f"{where}.{t}") for t in teams}
        name = m.get("name") or " vs ".join(f"{t}={p}" for t, p in pols.items())
        matchups.append(Matchup(str(name), pols))
    ratings = f.ratings
    if ratings is not None:
        if len(ratings.policies) < 2:
            raise ConfigError(
                f"ratings.policies must list at least two policies; got {list(ratings.policies)}"
            )
        for i, p in enumerate(ratings.policies):
            check_policy(p, rules.name, n, f"ratings.policies[{i}]")
    if not matchups and ratings is None:
        raise ConfigError("give at least one matchup or a ratings section")
    out = f"runs/eval/{rules.name}" if f.out is None else f.out
    return EvalConfig(
        rules.name, n, f.games, f.seed, f.workers, out, tuple(matchups), ratings, teams
    )


def parse_config(data: Any, source: str = "config") -> EvalConfig:
    """Validate a parsed YAML config; every problem is a ConfigError naming the key."""
    f = yaml_config.parse(EvalFile, data, source)
    try:
        return resolve(f)
    except ConfigError as e:
        raise ConfigError(f"{source}: {e}") from None


def load_config(path: str | Path) -> EvalConfig:
    """Read and validate an evaluation config file."""
    return parse_config(yaml_config.read_yaml(path), str(path))
