"""The PettingZoo ParallelEnv view of Mafia: the seats the rules make act at once act together.

| | |
|---|---|
| Agents | ``player_1`` .. ``player_n``, all of them until the game ends |
| Actions | ``Discrete(A + 1)``: the AEC env's ``A`` actions, then ``wait`` (index ``A``) |
| Observations | ``Dict(observation=Box(0, 1, (D,)), action_mask=Box(0, 1, (A + 1,), int8))`` |
| Flat observations | ``obs_mode="flat"``: ``Box(0, 1, (D,), float32)``; the mask in ``infos`` |

Each step is one round of the game (`Game.pending_round`): every ballot of a vote or of a
car crash, the mafia's shots of a night when they do not see each other's (knob
``mafia_see_shots: false``), FORUM's hunt requests; where the rules give the floor to one
player (a speech act, a check, a heal, a shot the teammates watch), a round of one. The seats
of the round get their legal actions; every other seat, live or eliminated, gets a mask with
only ``wait``. ``infos[agent]["action_mask"]`` always equals the observation's mask.

The engine still takes a round's turns one at a time, in the order the AEC env takes them: a
collected choice is applied when the engine reaches that seat's turn (FORUM's executor turn,
which comes right after a shooter's shot, is then a round of its own). So the same seed and
the same choices give the same game as `mafia_env.env` (tests/views/test_parallel.py), and nobody
sees a choice of the round before it resolves (COMMON-8): each member's observation is the one
the AEC env shows it at its own turn.

Eliminated seats stay in ``agents`` (waiting) until the game ends; then every agent is
terminated (truncated at the day limit) with its team's reward, +1 win, -1 loss, 0 draw, and
``agents`` empties. Rewards are 0 before.

In the flat mode, where the libraries read ``infos`` (AgileRL, SuperSuit and SB3, TorchRL on
a Box observation), every step's ``infos[agent]`` also holds ``"acting"`` (whether the seat
chooses in this step: `acting`), ``"illegal"`` (its illegal actions this game) and
``"env_defined_actions"``, the convention AgileRL reads: ``float(wait)`` for a waiting seat
(the env defines its action), NaN for a seat that chooses. The vector (Dict) mode keeps
``infos`` to the mask, as the AEC env does (TorchRL's wrapper fails on more there); its
observation's mask says who acts (a seat acts iff an action other than ``wait`` is legal) and
`illegal_counts` the counts; ``acting_info=True`` puts ``"acting"`` in its ``infos`` too (not
the default: TorchRL's wrapper then fails). About nine agent-steps in ten are a forced
``wait``; a trainer may drop those rows from its loss (``infos[agent]["acting"]``, or the
mask): scripts/recipes show how.

Illegal actions (COMMON-7, `mafia_env.illegal`): by default (knob ``illegal_action`` unset)
a round member's illegal action (``wait`` included) ends the game, -1 to the offender and 0
to the others (``terminate``), as the checkers that sample without the mask expect
(``parallel_api_test`` in flat mode, ``parallel_seed_test``, RLlib's env check, TorchRL's
``check_env_specs``); the first one warns (`IllegalActionWarning`) and each is counted in
``infos``. What a waiting seat sends is ignored (its only action is ``wait``). ``"foul"``
gives a foul and plays the turn's default action. ``"raise"`` raises `IllegalActionError`
for a round member's illegal action and for a waiting seat's action other than ``wait``.
``obs_mode="text"`` is not offered here: language agents take turns (use `mafia_env.env`).

``state()`` and ``state_space``: the whole table (`mafia_env.global_state`), the round's seats as
``acting``, for centralised critics in training only. Copies made by ``pickle`` or
``copy.deepcopy`` deal their own next games, as the AEC env's do.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from mafia_env.aec import RENDER_MODES, make_env
from mafia_env.engine.kinds import Turn
from mafia_env.engine.rules import Rules
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError, IllegalActionError, MafiaError
from mafia_env.illegal import illegal_mode, warn_illegal
from mafia_env.lang import DEFAULT

PARALLEL_OBS_MODES = ("vector", "flat")


class _Chooses(np.float64):
    """AgileRL's "no env-defined action": a NaN (a numpy float, so that AgileRL's vector env
    batches it as a float), equal to itself so that two equal steps' infos compare equal
    (PettingZoo's seed test compares them with ``==``)."""

    def __new__(cls) -> _Chooses:
        return super().__new__(cls, np.nan)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, float) and math.isnan(other)  # any NaN

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = np.float64.__hash__

    def __reduce__(self) -> tuple:
        return _Chooses, ()

    def __repr__(self) -> str:
        return "nan"


CHOOSES = _Chooses()


class MafiaParallelEnv(ParallelEnv):
    """Mafia as a PettingZoo ParallelEnv over the same engine as `MafiaEnv`."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "mafia_parallel_v2",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": True,
    }

    def __init__(
        self,
        variant: str | Rules | GameSpec = "sport",
        num_players: int | None = None,
        render_mode: str | None = None,
        obs_mode: str = "vector",
        lang: str = DEFAULT,
        backend: str = "auto",
        acting_info: bool | None = None,
        **knobs: Any,
    ):
        """`acting_info`: whether ``infos[agent]`` holds ``"acting"`` (None: in the flat
        mode only, where the libraries read infos; True: in the vector mode too)."""
        if obs_mode not in PARALLEL_OBS_MODES:
            raise ConfigError(
                f"obs_mode {obs_mode!r} is not offered by the parallel view; its obs modes are: "
                f"{', '.join(PARALLEL_OBS_MODES)} (text agents take turns: use mafia_env.env)"
            )
        self.aec = aec = make_env(
            variant,
            num_players,
            backend,
            render_mode=render_mode,
            obs_mode="vector",
            lang=lang,
            **knobs,
        )
        self.illegal_action = aec.illegal_action = illegal_mode(aec.rules, "parallel")
        self.spec = aec.spec
        self.obs_mode = obs_mode
        self.acting_info = obs_mode == "flat" if acting_info is None else bool(acting_info)
        if obs_mode == "flat" and not self.acting_info:
            raise ConfigError("acting_info=False is not offered in the flat mode (its infos)")
        self.render_mode = render_mode
        self.possible_agents = aec.possible_agents[:]
        self.agents: list[str] = []
        self.n = aec.n
        self.wait = size = aec.layout.size  # the index of `wait`
        view = aec.observation_spaces[self.possible_agents[0]]["observation"]
        mask_space = spaces.Box(0, 1, (size + 1,), np.int8)
        obs_space = (
            view
            if obs_mode == "flat"
            else spaces.Dict({"observation": view, "action_mask": mask_space})
        )
        act_space = spaces.Discrete(size + 1)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self.state_space = aec.state_space
        self._waits = float(size)  # a waiting seat's env-defined action
        self._wait_mask = np.zeros(size + 1, dtype=np.int8)
        self._wait_mask[size] = 1
        self._wait_mask.flags.writeable = False
        self._round: dict[int, Turn] = {}  # seat -> the turn it is asked to take now
        self._masks: dict[int, np.ndarray] = {}  # seat -> its mask this round
        self._chosen: dict[int, tuple[Turn, int]] = {}  # choices the engine has yet to reach

    # ------------------------------------------------------------ PettingZoo API

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(
        self, seed: int | None = None, options: dict | None = None
    ) -> tuple[dict[str, Any], dict[str, dict]]:
        self.aec.reset(seed=seed)
        self.agents = self.possible_agents[:]
        self._chosen = {}
        self._open_round()
        return self._observe()

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, Any],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict],
    ]:
        aec = self.aec
        game = aec.game
        if game is None:
            raise MafiaError("the environment has no game yet; call reset() first")
        if not self.agents:
            raise MafiaError("the game is over; call reset()")
        self._collect(actions)
        while not game.over:  # the engine's order: each choice when its turn comes
            chosen = self._chosen.get(game.actor)
            if chosen is None or chosen[0] is not game.turn:
                break
            del self._chosen[game.actor]
            aec.step(chosen[1])
        agents = self.possible_agents
        if game.over:
            self._round, self._masks, self._chosen = {}, {}, {}
            obs, infos = self._observe()
            rewards = {a: float(aec.rewards[a]) for a in agents}
            terms = {a: bool(aec.terminations[a]) for a in agents}
            truncs = {a: bool(aec.truncations[a]) for a in agents}
            self.agents = []
            return obs, rewards, terms, truncs, infos
        queued = set(game.queue)  # a choice whose turn will not come (a seat removed) is void
        self._chosen = {s: c for s, c in self._chosen.items() if (s, c[0]) in queued}
        self._open_round()
        obs, infos = self._observe()
        zero = dict.fromkeys(agents, 0.0)
        return obs, zero, dict.fromkeys(agents, False), dict.fromkeys(agents, False), infos

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    def state(self) -> np.ndarray:
        """Return the whole table as one float32 vector (`mafia_env.global_state`), the round's
        seats as ``acting``. For centralised critics in training only: it shows every
        hidden role, never give it to an actor."""
        game = self.aec.game
        if game is None:
            raise MafiaError("the environment has no game yet; call reset() first")
        return self.aec.state_layout.write(self.aec.observer, game, list(self._round))

    # --------------------------------------------------------- inspection hooks

    @property
    def unwrapped(self) -> MafiaParallelEnv:
        return self

    @property
    def game(self):
        return self.aec.game

    @property
    def game_seed(self) -> int | None:
        return self.aec.game_seed

    @property
    def roles(self) -> dict[str, str]:
        return self.aec.roles

    @property
    def alive(self) -> list[str]:
        return self.aec.alive

    @property
    def day(self) -> int:
        return self.aec.day

    @property
    def phase(self) -> str:
        return self.aec.phase

    @property
    def winner(self) -> str | None:
        return self.aec.winner

    @property
    def illegal_counts(self) -> dict[str, int]:
        """Every agent's illegal actions this game (COMMON-7)."""
        return self.aec.illegal_counts

    @property
    def acting(self) -> list[str]:
        """The agents asked to choose in this step (the others wait)."""
        return [self.possible_agents[s] for s in self._round]

    def belief(self, agent: str, model: Any = None) -> Any:
        """Return what `agent` can know of the deal now (as `MafiaEnv.belief`)."""
        return self.aec.belief(agent, model)

    def action_id(self, kind: str, target: int | None = None, value: str | None = None) -> int:
        """Return an index as `MafiaEnv.action_id` does; ``action_id("wait")`` is the last."""
        return self.wait if kind == "wait" else self.aec.action_id(kind, target, value)

    def describe_action(self, index: int) -> str:
        return "wait" if int(index) == self.wait else self.aec.describe_action(index)

    def record(self) -> dict[str, Any]:
        """Return the game so far as `MafiaEnv.record` does (it replays in the AEC env)."""
        return self.aec.record()

    # ---------------------------------------------------------------- internals

    def _open_round(self) -> None:
        """Ask the seats of the round now open that have not chosen yet."""
        aec, game = self.aec, self.aec.game
        size = self.wait
        self._round, self._masks = {}, {}
        for seat, turn in game.pending_round():
            if seat in self._chosen:
                continue
            if seat == game.actor:
                base = aec._legal_mask()
            else:
                base = aec.engine.mask_for(seat, turn)
            mask = np.zeros(size + 1, dtype=np.int8)
            mask[:size] = base
            self._round[seat] = turn
            self._masks[seat] = mask

    def _collect(self, actions: dict[str, Any]) -> None:
        """Check the step's actions and keep the round's choices for the engine."""
        strict = self.illegal_action == "raise"
        agents = self.possible_agents
        for seat, turn in self._round.items():
            agent = agents[seat]
            if agent not in actions:  # the rare path: raise ("raise") or warn once, naming all
                self._no_action([a for a in self.acting if a not in actions], strict)
                index = self.wait  # nothing sent: an illegal move for the engine to judge
            else:
                index = self._index(agent, actions[agent])
            if strict and not self._masks[seat][index]:
                legal = ", ".join(
                    f"{i} ({self.describe_action(i)})" for i in np.flatnonzero(self._masks[seat])
                )
                raise IllegalActionError(
                    f"{agent} cannot take action {index} ({self.describe_action(index)}) now "
                    f"(phase {self.phase}, day {self.day}); legal actions: {legal}"
                )
            self._chosen[seat] = (turn, index)
        if strict:
            for agent, action in actions.items():
                seat = self.aec._seat.get(agent)
                if seat is None or (
                    seat not in self._round
                    and action is not None
                    and self._index(agent, action) != self.wait
                ):
                    if seat is None:
                        raise MafiaError(f"unknown agent {agent!r}")
                    raise IllegalActionError(
                        f"{agent} waits this step ({self.phase}); its only action is "
                        f"{self.wait} (wait), got {action!r}"
                    )

    def _no_action(self, missing: list[str], strict: bool) -> None:
        """Name the acting agents a step sent no action for: an error under ``raise``, else
        the env's one warning (the engine then judges the missing move illegal)."""
        message = (
            f"step() got no action for {', '.join(missing)}, which act{'s' * (len(missing) == 1)}"
            f" this step ({self.phase}, day {self.day}); send an action for each agent of "
            f"env.acting ({', '.join(self.acting)}); the others wait ({self.wait}) or may be "
            "left out"
        )
        if strict:
            raise IllegalActionError(message)
        warn_illegal(self.aec, message, self.illegal_action)

    def _index(self, agent: str, action: Any) -> int:
        try:
            index = int(action)
        except (TypeError, ValueError):
            raise IllegalActionError(
                f"{agent}'s action must be an integer index 0..{self.wait}; got {action!r}"
            ) from None
        if not 0 <= index <= self.wait or (isinstance(action, float) and action != index):
            raise IllegalActionError(
                f"{agent}'s action must be an integer index 0..{self.wait}; got {action!r}"
            )
        return index

    def _observe(self) -> tuple[dict[str, Any], dict[str, dict]]:
        game, observer = self.aec.game, self.aec.observer
        flat = self.obs_mode == "flat"
        acting = self.acting_info
        counts = self.aec.illegal_counts
        obs: dict[str, Any] = {}
        infos: dict[str, dict] = {}
        for seat, agent in enumerate(self.possible_agents):
            turn = self._round.get(seat)
            if turn is None:
                vec, mask = observer.observe(game, seat), self._wait_mask
            else:
                vec, mask = observer.observe_turn(game, seat, turn), self._masks[seat]
            obs[agent] = vec if flat else {"observation": vec, "action_mask": mask}
            if flat:
                infos[agent] = {
                    "action_mask": mask,
                    "acting": turn is not None,
                    "illegal": counts[agent],
                    "env_defined_actions": self._waits if turn is None else CHOOSES,
                }
            elif acting:
                infos[agent] = {"action_mask": mask, "acting": turn is not None}
            else:
                infos[agent] = {"action_mask": mask}
        return obs, infos


__all__ = ["CHOOSES", "PARALLEL_OBS_MODES", "MafiaParallelEnv"]
