"""The AEC environment on the C core: `mafia_env.env(..., backend="c")`.

`CoreMafiaEnv` is `MafiaEnv` with the engine swapped: the same agents, spaces, rewards,
errors and inspection hooks, the same game bit for bit (see `mafia_env.ccore`). The moves,
the vector observations and the masks are the core's; ``env.game`` is a `CoreGame`, which
reads who acts, the day, the roles and the rest of the live state from the core and answers
everything else (events, narration, text observations, records, ``resample``) from the
Python engine, brought up to date on demand. ``clone()`` and ``pickle`` copy the core's
state whole.

A move costs one call into the core for the observation (`last()` and `observe`: the array
and the Dict at once) and one for the step (the move, the next actor and his mask, looked up
in the shared cache of read-only masks). Ownership is MafiaEnv's: each observation is a
writable float32 array that only the caller holds, never written again while anyone holds it
(a reference, a view, a buffer or a weak reference); the core reuses an array of its own that
nobody holds any more instead of allocating one, rewriting it whole. The masks are read-only
and shared, as in ``infos``.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from mafia_env.aec import MafiaEnv
from mafia_env.ccore import CoreGame, CoreObserver, config, mask_cache, new_core, shared_mask
from mafia_env.errors import MafiaError

_F32 = np.dtype(np.float32)


class CoreMafiaEnv(MafiaEnv):
    """Mafia as a PettingZoo AEC environment, played by the C core."""

    backend = "c"

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        config(self.rules, self.n)  # the core plays these rules (checked by the caller too)
        self._masks = mask_cache(self.layout)
        self._set_core(new_core(self.rules, self.n, 1))
        self.observer = CoreObserver(self)
        self._obs_size = self.obs_layout.size
        self._size = self.layout.size
        self._vector = self.obs_mode == "vector"
        self._live = False  # a game is in play: nobody terminated or truncated (step's fast path)

    def _set_core(self, core: Any) -> None:
        """Play on `core`, bound for the AEC calls: the observations it hands out are fresh
        arrays (copies of its own template), the masks the shared read-only ones."""
        core.aec_bind(np.zeros(self.obs_layout.size, _F32), self._masks, shared_mask, self._no_mask)
        self.core = core

    def _make_game(self, game_seed: int) -> CoreGame:
        deal = None if self.deal is None else tuple(int(r) for r in self.deal)
        self.core.start(0, game_seed, deal)
        self._live = True
        return CoreGame(self.core, 0, self.rules, self.n, game_seed, self.deal)

    def _end_game(self) -> None:
        self._live = False
        super()._end_game()

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """As PettingZoo's `AECEnv.last` (the acting agent's observation, cumulative reward,
        flags and info), the vector observation taken in one call to the core."""
        agent = self.agent_selection
        if not observe:
            obs = None
        elif self._vector and self.game is not None:
            obs = self.core.aec_obs_dict(0, self._seat[agent], self._mask)
        else:
            obs = self.observe(agent)
        try:
            return (
                obs,
                self._cumulative_rewards[agent],
                self.terminations[agent],
                self.truncations[agent],
                self.infos[agent],
            )
        except KeyError:  # after the game, every agent stepped: say so
            raise self._game_done() from None

    def observe(self, agent: str) -> dict[str, Any]:
        game = self.game
        seat = self._seat.get(agent) if type(agent) is str else None
        if game is None or seat is None:
            self._require_game()
            seat = self._seat_of(agent)
        if self._vector:  # a fresh observation array; the mask read-only and shared
            return self.core.aec_obs_dict(0, seat, self._mask)
        if self._flat:
            return self.core.aec_observe(0, seat)
        if seat == self.core.actor(0):  # text: the mask read-only and shared, as in `infos`
            mask = self._mask
            if mask is None:
                mask = self._legal_mask()
        else:
            mask = self._no_mask
        return {"observation": self.text_observer.observe(game, seat, mask), "action_mask": mask}

    def step(self, action: Any) -> None:
        if self._live and type(action) is int:  # a game in play, an int: the common case
            done = self.core.aec_play(0, action)
            if done is not None:  # legal: played
                actor, m = done
                self._cumulative_rewards[self.agent_selection] = 0.0
                if actor < 0:  # nobody acts: the game is over
                    self._mask = None
                    self._end_game()
                else:  # as below
                    agent = self.agent_selection = self.possible_agents[actor]
                    infos = self.infos
                    last = self._masked
                    if last is not None:
                        infos[last]["action_mask"] = self._no_mask
                    self._masked = agent
                    self._mask = m
                    infos[agent]["action_mask"] = m
                    if self._flat:
                        self._mark_acting(last, agent)
                if self.render_mode is not None and self.render_mode == "human":
                    self.render()
                return
        if self.game is None:
            self._require_game()
        if not self.agents:
            raise MafiaError("the game is over and every agent has been stepped; call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) is int and 0 <= action < self._size:  # the common case, fast
            index = action
        else:
            index = self._check_index(agent, action)
        self._mask = None
        done = None if index is None else self.core.play(0, index)  # None: not legal
        if done is None:
            self._illegal(agent, action, self._legal_mask())
            self._mask = None
            actor = self.core.actor(0)
            key = None if actor < 0 else self.core.mask(0)
        else:
            actor, key = done
        self._cumulative_rewards[agent] = 0.0
        if actor < 0:  # nobody acts: the game is over
            self._end_game()
        else:
            agent = self.agent_selection = self.possible_agents[actor]
            infos = self.infos
            last = self._masked
            if last is not None:
                infos[last]["action_mask"] = self._no_mask
            self._masked = agent
            m = self._masks.get(key)
            if m is None:
                m = shared_mask(self._masks, key)
            self._mask = m
            infos[agent]["action_mask"] = m
            if self._flat:
                self._mark_acting(last, agent)
        if self.render_mode == "human":
            self.render()

    def _legal_mask(self) -> np.ndarray:
        if self._mask is None:
            self._mask = self.core.aec_mask(0)
        return self._mask

    def _mask_for(self, seat: int, turn: Any) -> np.ndarray:
        return shared_mask(self._masks, self.core.mask_for(0, seat, int(turn)))

    def clone(self) -> CoreMafiaEnv:
        """Return an independent environment at the same point of the same game (the core's
        state is copied whole; a shadow Python game, if one was made, is cloned too)."""
        other = CoreMafiaEnv.__new__(CoreMafiaEnv)
        other.__dict__.update(self.__dict__)
        other._set_core(self.core.fork(0))
        other.observer = CoreObserver(other)
        if self.game is not None:
            other.game = self.game._copy(other.core)
        self._copy_play_state(other)
        return other

    def __getstate__(self) -> dict[str, Any]:
        state = {k: v for k, v in self.__dict__.items() if k not in ("core", "observer", "game")}
        state["_masks"] = None
        if self.game is not None:
            state["_core_state"] = self.core.get_state(0)
            state["_talk"] = self.game.talk
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        saved = state.pop("_core_state", None)
        talk = state.pop("_talk", None)
        self.__dict__.update(state)
        if self._rng is not None:  # as MafiaEnv: a copy deals its own next games
            self._rng = random.Random()
        self._masks = mask_cache(self.layout)
        self._set_core(new_core(self.rules, self.n, 1))
        self.observer = CoreObserver(self)
        self.game = None
        self._vector = self.obs_mode == "vector"
        self._live = bool(state.get("_live")) and saved is not None
        if saved is not None:
            self.core.set_state(0, saved)
            self.game = CoreGame(self.core, 0, self.rules, self.n, self.game_seed, self.deal, talk)
            if self._text is not None:
                self._text.talk = self.game.talk


def make_env(
    variant: Any = "sport", num_players: int | None = None, backend: str = "auto", **kwargs: Any
) -> MafiaEnv:
    """Return `MafiaEnv` on the engine `backend` picks (`mafia_env.ccore.resolve`).

    Bad arguments get the env's own errors: where the rules cannot be worked out, the Python
    env is built, and raises them.
    """
    from mafia_env.ccore import BACKENDS, resolve, spec_of
    from mafia_env.errors import ConfigError

    if backend not in BACKENDS:
        raise ConfigError(f"unknown backend {backend!r}; backends are: {', '.join(BACKENDS)}")
    if backend != "python":
        knobs = {k: v for k, v in kwargs.items() if k not in ("render_mode", "obs_mode", "lang")}
        try:
            spec = spec_of(variant, num_players, knobs)
        except MafiaError:
            return MafiaEnv(variant, num_players, **kwargs)  # raises the env's own error
        if resolve(backend, spec.rules, spec.n, spec.obs) == "c":
            return CoreMafiaEnv(variant, num_players, **kwargs)
    return MafiaEnv(variant, num_players, **kwargs)


__all__ = ["CoreMafiaEnv", "make_env"]
