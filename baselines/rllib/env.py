"""mafia_env for RLlib: RLlib's PettingZoo wrapper, with the observations its masking module reads.

RLlib's `ActionMaskingTorchRLModule` reads ``obs["observations"]`` (the network input) and
``obs["action_mask"]`` (1.0 = legal, as floats it can take the log of); our AEC env gives
``obs["observation"]`` and an int8 mask. `to_rllib_obs` renames and casts, nothing else.

Policy mapping. Agents are ``player_1 .. player_n`` and roles are dealt at random each game,
so a fixed agent id says nothing about the team. With ``tag_team=True`` the RLlib agent id
carries the team of this game's deal (``town_player_3``, ``mafia_player_7``): the mapping
function then routes an agent to its team's module from the id alone (RLlib maps an agent
before its first observation is stored, so it cannot read the role from the episode). The id
is seen only by RLlib's routing, never by a network, and an agent knows its own team anyway
(its role is in its observation), so nothing hidden leaks. ``possible_agents`` lists every
(team, seat) pair; each game uses n of them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.tune.registry import register_env

import mafia_env
from mafia_env.engine.roles import TEAM_NAMES
from mafia_env.errors import ConfigError

ENV_NAME = "mafia_env"
ENV_CONFIG_KEYS = ("variant", "num_players", "knobs", "tag_team")


def masked_obs_space(space: spaces.Dict) -> spaces.Dict:
    """Return the observation space RLlib's masking module expects, from our env's space."""
    obs, mask = space["observation"], space["action_mask"]
    return spaces.Dict(
        {
            "observations": spaces.Box(obs.low, obs.high, obs.shape, np.float32),
            "action_mask": spaces.Box(0.0, 1.0, mask.shape, np.float32),
        }
    )


def to_rllib_obs(obs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Return one observation in the form of `masked_obs_space`."""
    return {
        "observations": obs["observation"],
        "action_mask": obs["action_mask"].astype(np.float32),
    }


def team_of_agent_id(agent_id: str) -> str:
    """Return the team a team-tagged agent id names (``"mafia_player_7"`` -> ``"mafia"``)."""
    team, sep, _ = agent_id.partition("_player_")
    if not sep or team not in TEAM_NAMES:
        raise ConfigError(
            f"agent id {agent_id!r} carries no team; per-team mapping needs env_config "
            "tag_team=True (ids like 'town_player_3')"
        )
    return team


class MafiaRLlibEnv(PettingZooEnv):
    """RLlib's PettingZoo wrapper over `mafia_env.raw_env`, optionally with team-tagged ids."""

    def __init__(self, config: dict[str, Any] | None = None):
        config = dict(config or {})
        unknown = sorted(set(config) - set(ENV_CONFIG_KEYS))
        if unknown:
            raise ConfigError(
                f"unknown env_config key(s) {unknown}; allowed: {', '.join(ENV_CONFIG_KEYS)}"
            )
        aec = mafia_env.raw_env(
            config.get("variant", "sport"), config.get("num_players"), **config.get("knobs", {})
        )
        self.tag_team = bool(config.get("tag_team", False))
        super().__init__(aec)  # resets the AEC env once
        players = aec.possible_agents
        if self.tag_team:
            teams = sorted({r.team for r in aec.rules.roles_in_play()})
            ids = [f"{TEAM_NAMES[t]}_{p}" for t in teams for p in players]
        else:
            ids = list(players)
        self.possible_agents = ids
        self.agents = list(ids)
        self._agent_ids = set(ids)
        obs_space = masked_obs_space(aec.observation_space(players[0]))
        act_space = aec.action_space(players[0])
        self.observation_spaces = dict.fromkeys(ids, obs_space)
        self.action_spaces = dict.fromkeys(ids, act_space)
        self.observation_space = spaces.Dict(self.observation_spaces)
        self.action_space = spaces.Dict(self.action_spaces)
        self._to_id = {p: p for p in players}
        self._from_id = {p: p for p in players}
        self._retag()

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        obs, infos = super().reset(seed=seed, options=options)
        self._retag()
        return self._out(obs), infos

    def step(self, action: dict[str, Any]):
        player_actions = {self._from_id[a]: act for a, act in action.items()}
        obs, rew, term, trunc, info = super().step(player_actions)
        return (
            self._out(obs),
            self._rename(rew),
            self._rename(term),
            self._rename(trunc),
            self._rename(info),
        )

    def _retag(self) -> None:
        """Name each player by its team in this game's deal (roles change every reset)."""
        if not self.tag_team:
            return
        teams = self.env.game.teams
        self._to_id = {
            p: f"{TEAM_NAMES[teams[i]]}_{p}" for i, p in enumerate(self.env.possible_agents)
        }
        self._from_id = {v: k for k, v in self._to_id.items()}

    def _rename(self, d: dict[str, Any]) -> dict[str, Any]:
        return {self._to_id.get(k, k): v for k, v in d.items()}  # "__all__" passes through

    def _out(self, obs: dict[str, dict[str, np.ndarray]]) -> dict[str, dict[str, np.ndarray]]:
        return {self._to_id[k]: to_rllib_obs(v) for k, v in obs.items()}


def make_env(config: dict[str, Any]) -> MafiaRLlibEnv:
    """Build the RLlib env from an env_config (RLlib's `EnvContext` is a dict)."""
    return MafiaRLlibEnv(dict(config))


def register() -> str:
    """Register the env with Ray Tune under `ENV_NAME` and return the name."""
    register_env(ENV_NAME, make_env)
    return ENV_NAME
