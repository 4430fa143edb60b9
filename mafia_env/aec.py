"""The PettingZoo AEC environment over the rules engine.

| | |
|---|---|
| Agents | ``player_1`` .. ``player_n`` (the seat numbers people see) |
| Actions | ``Discrete(A)``: the segments of `mafia_env.actions` |
| Observations | ``Dict(observation=Box(0, 1, (D,), float32), action_mask=Box(0, 1, (A,), int8))`` |
| Text observations | ``obs_mode="text"``: ``observation`` is a ``Text``: see `mafia_env.text` |
| Flat observations | ``obs_mode="flat"``: ``Box(0, 1, (D,), float32)``, the mask in ``infos`` |
| Languages | ``lang="en"``, ``"ru"`` or ``"uk"``: narration and text observations |

The adapter asks the engine who acts, what is legal and what each agent saw; it knows no rule.
One adapter serves both engines (``backend``: the Python engine, or the compiled core as
`CoreMafiaEnv`) through the narrow interface of `mafia_env.backends`.
Eliminated players stay in ``agents`` (they are never selected after their last word), and
when the game ends every agent gets its team's reward: +1 win, -1 loss, 0 draw. A game that
reaches the day limit is truncated as a draw. The mask of an agent that is not acting is all
zeros. In every mode ``infos[agent]["action_mask"]`` holds the same mask as the observation
(the acting agent's legal actions, zeros for the others); ``obs_mode="flat"`` drops the Dict
and returns the float vector alone, for tools that cannot take a Dict observation (SuperSuit's
observation wrappers, vector envs). In the flat mode, where the libraries read ``infos``,
``infos[agent]["acting"]`` also says whether the agent is the one choosing now and
``infos[agent]["illegal"]`` counts its illegal actions this game; the Dict modes keep
``infos`` to the mask alone (TorchRL's PettingZoo wrapper turns every other key of ``infos``
into a spec and fails on a Dict observation whose ``infos`` hold more: there the mask says who
acts, and `illegal_counts` holds the counts in every mode).

Illegal actions (COMMON-7, `mafia_env.illegal`): by default (knob ``illegal_action`` unset)
the game ends, -1 to the offender and 0 to the others (``terminate``, PettingZoo's classic
convention, which its checkers expect: `state_test` and `bombardment_test` sample without
the mask); the first one warns (`IllegalActionWarning`) and each is counted
(`illegal_counts`, and the flat mode's ``infos``).
``illegal_action="raise"`` raises `IllegalActionError` instead (name the agent, the phase,
the legal actions): the setting for a trainer whose bug should stop it; ``"foul"`` gives a
foul and plays the turn's default action.

``state()`` and ``state_space`` are the whole table (`mafia_env.global_state`), for centralised
critics only. A copy made by ``pickle`` or ``copy.deepcopy`` (SuperSuit's and Gymnasium's
vector envs copy an env so) plays the current game on exactly, but draws its next games from
a fresh random stream, so copies of one seeded env deal different games; seed each copy
(``reset(seed=...)``) for a reproducible run. `clone()` is the exact twin, future included.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env import AECIterable

from mafia_env.actions import ActionLayout
from mafia_env.backends import CoreEngine, Engine, PythonEngine
from mafia_env.engine.events import OUTCOME_NAMES
from mafia_env.engine.game import Game
from mafia_env.engine.kinds import SPEECH_TURNS
from mafia_env.engine.rules import Rules
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError, IllegalActionError, MafiaError
from mafia_env.global_state import StateLayout
from mafia_env.illegal import illegal_mode, warn_illegal
from mafia_env.lang import DEFAULT, charset, check_lang, talk_text
from mafia_env.narrate import narrate
from mafia_env.observe import PHASES, ObsLayout
from mafia_env.records.format import make_record
from mafia_env.text import MAX_LENGTH, TextObserver

OBS_MODES = ("vector", "flat", "text")
RENDER_MODES = ("ansi", "human")


class AgentIter(AECIterable):
    """PettingZoo's `AECIterable`, its iterator a generator: the same agents, less per move."""

    def __iter__(self) -> Iterator[str]:
        env, left = self.env, self.max_iter
        if left >= 1 << 62:  # the default 2**63: more moves than any run makes, no count kept
            while env.agents:
                yield env.agent_selection
            return
        while env.agents and left > 0:
            left -= 1
            yield env.agent_selection


class MafiaEnv(AECEnv):
    """Mafia as a PettingZoo AEC environment: one variant, one table size."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "mafia_v2",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }
    backend = "python"
    engine_type: ClassVar[type] = PythonEngine  # what plays the game (`mafia_env.backends`)

    def __init__(
        self,
        variant: str | Rules | GameSpec = "sport",
        num_players: int | None = None,
        render_mode: str | None = None,
        obs_mode: str = "vector",
        lang: str = DEFAULT,
        **knobs: Any,
    ):
        """`variant` is a variant's name, its `Rules` or a `GameSpec` (`GameSpec.make`);
        `num_players` and the knobs (``roles=[...]`` too) are applied over it."""
        super().__init__()
        self.lang = check_lang(lang)
        self.spec = spec = GameSpec.make(variant, num_players, **knobs)
        self.rules = rules = spec.rules
        self.knobs = spec.knob_dict
        n = spec.n
        self.deal = None if spec.deal is None else list(spec.deal)
        self.illegal_action = illegal_mode(rules, "aec")  # COMMON-7, the view's default
        if obs_mode not in OBS_MODES:
            raise ConfigError(
                f"unknown obs_mode {obs_mode!r}; obs modes are: {', '.join(OBS_MODES)}"
            )
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ConfigError(
                f"unknown render_mode {render_mode!r}; render modes are: None, "
                + ", ".join(RENDER_MODES)
            )
        self.n = n
        self.render_mode = render_mode
        self.obs_mode = obs_mode
        self._flat = obs_mode == "flat"
        self.possible_agents = [f"player_{i + 1}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.layout = ActionLayout.of(spec)
        self.obs_layout = ObsLayout.of(spec)
        self.state_layout = spec.cached(StateLayout, lambda s: StateLayout(ObsLayout.of(s)))
        self.state_space = spaces.Box(0.0, 1.0, (self.state_layout.size,), np.float32)
        self._text: TextObserver | None = None
        if obs_mode == "text":
            view = spaces.Text(MAX_LENGTH, min_length=0, charset=charset())
        else:
            view = spaces.Box(0.0, 1.0, (self.obs_layout.size,), np.float32)
        obs_space = spaces.Dict(
            {
                "observation": view,
                "action_mask": spaces.Box(0, 1, (self.layout.size,), np.int8),
            }
        )
        if obs_mode == "flat":
            obs_space = view
        act_space = spaces.Discrete(self.layout.size)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self.game_seed: int | None = None  # the seed of the game now in play
        self._rng: random.Random | None = None
        self._size = self.layout.size
        self._vector = obs_mode == "vector"
        self._no_mask = np.zeros(self.layout.size, dtype=np.int8)
        self._no_mask.flags.writeable = False
        self._mask: np.ndarray | None = None  # the acting agent's, None once the game is over
        self._live = False  # a game in play (nobody terminated or truncated): step's fast path
        self._masked: str | None = None  # the agent whose infos hold a nonzero mask
        self.illegal_counts: dict[str, int] = {}  # COMMON-7: this game's, by agent
        self._printed = 0
        self._use(self.engine_type(spec, self.layout, self.obs_layout, self._no_mask))

    def _use(self, engine: Engine) -> None:
        """Play on `engine`, its per-move calls bound once (`step` and `last` make them)."""
        self.engine = engine
        self.game = engine.game
        self.observer = engine.observer
        self._play = engine.play
        self._observe = engine.observe
        self._view = engine.view

    # ------------------------------------------------------------ PettingZoo API

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        elif self._rng is None:
            self._rng = random.Random()
        self._new_game(self._rng.getrandbits(63))

    def _new_game(self, game_seed: int) -> None:
        self.game_seed = game_seed
        self.game = game = self.engine.start(game_seed, self.deal)
        if self._text is not None:
            self._text.reset(game)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {"action_mask": self._no_mask} for a in self.agents}  # `_next`
        self.illegal_counts = dict.fromkeys(self.agents, 0)  # COMMON-7: this game's, by agent
        if self._flat:  # infos are where the flat mode's libraries look
            for info in self.infos.values():
                info["acting"], info["illegal"] = False, 0
        self._masked = None
        self._printed = 0
        self._live = True
        self._next(self.engine.actor(), self.engine.mask())

    def agent_iter(self, max_iter: int = 2**63) -> AgentIter:
        """Yield the acting agent (`agent_selection`) until the game is over and every agent
        has been stepped; step once each time (as PettingZoo's `agent_iter`)."""
        return AgentIter(self, max_iter)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """As PettingZoo's `AECEnv.last`: the acting agent's observation, cumulative reward,
        flags and info; after the game, once every agent has been stepped, an error saying so."""
        agent = self.agent_selection
        try:
            if not observe:
                obs = None
            elif self._vector:  # as `observe`, inlined: once per move
                view = self._view  # a local: calling an instance's attribute is a slow lookup
                obs = view(self._seat[agent], self._mask)
            else:
                obs = self.observe(agent)
            return (
                obs,
                self._cumulative_rewards[agent],
                self.terminations[agent],
                self.truncations[agent],
                self.infos[agent],
            )
        except KeyError:
            raise self._game_done() from None

    def _game_done(self) -> MafiaError:
        """The error of a call that needs an acting agent when the game has none left."""
        return MafiaError(
            "the game is over and every agent has been stepped, so no agent is left to "
            "report on: each got its final reward from env.last() at its last turn; "
            f"env.winner is {self.winner!r}; call reset() for a new game"
        )

    def observe(self, agent: str) -> dict[str, Any]:
        """Return `agent`'s observation: each call a fresh float32 array that only the caller
        holds; the mask read-only and shared, as in ``infos`` (copy one to change it)."""
        seat = self._seat.get(agent) if type(agent) is str else None
        if self.game is None or seat is None:
            self._require_game()
            seat = self._seat_of(agent)
        if self._flat:
            return self._observe(seat)
        if self._vector:
            return self._view(seat, self._mask)
        mask = self._mask if seat == self.engine.actor() else self._no_mask
        text = self.text_observer.observe(self.game, seat, mask)
        return {"observation": text, "action_mask": mask}

    def step(self, action: Any) -> None:
        if self._live and type(action) is int:  # a game in play, an int: the common case
            play = self._play  # a local: calling an instance's attribute is a slow lookup
            done = play(action)
            if done is not None:  # legal: played
                self._cumulative_rewards[self.agent_selection] = 0.0
                actor, m = done
                if actor < 0:  # nobody acts: the game is over
                    self._end_game()
                else:  # as `_next`, inlined: once per move
                    agent = self.agent_selection = self.possible_agents[actor]
                    infos = self.infos
                    last = self._masked
                    if last is not None:
                        infos[last]["action_mask"] = self._no_mask
                    self._masked = agent
                    self._mask = infos[agent]["action_mask"] = m
                    if self._flat:
                        self._mark_acting(last, agent)
                if self.render_mode is not None and self.render_mode == "human":
                    self.render()
                return
        self._step_checked(action)

    def _step_checked(self, action: Any) -> None:
        """`step` where the fast path stops: before a game, a dead agent's step, an action
        that is not a legal int (an error, or COMMON-7's answer)."""
        if self.game is None:
            self._require_game()
        if not self.agents:
            raise MafiaError("the game is over and every agent has been stepped; call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) is int and 0 <= action < self._size:
            index = action
        else:
            index = self._check_index(agent, action)
        done = None if index is None else self._play(index)  # None: not legal, not played
        if done is None:
            self._illegal(agent, action, self._mask)
            actor = self.engine.actor()
            done = (actor, None if actor < 0 else self.engine.mask())
        self._cumulative_rewards[agent] = 0.0
        self._next(*done)
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        events = self._require_game().events
        if self.render_mode == "ansi":
            return "\n".join(narrate(events, None, self.lang, self.game.talk))
        new = events[self._printed :]
        for line in narrate(new, None, self.lang, self.game.talk):  # only what is new
            print(line)
        self._printed = len(events)
        return None

    def close(self) -> None:
        pass

    def state(self) -> np.ndarray:
        """Return the whole table as one float32 vector (`mafia_env.global_state`): every seat's
        private facts, the public table, who acts and the kind of turn. For centralised
        critics in training only: it shows every hidden role, never give it to an actor."""
        game = self._require_game()
        acting = () if game.over else (game.actor,)
        return self.state_layout.write(self.observer, game, acting)

    # --------------------------------------------------------- inspection hooks

    @property
    def roles(self) -> dict[str, str]:
        """Every agent's role name (for tests, evaluation and the table; never in obs)."""
        game = self._require_game()
        return {a: game.roles[i].label for i, a in enumerate(self.possible_agents)}

    @property
    def alive(self) -> list[str]:
        game = self._require_game()
        return [self.possible_agents[s] for s in game.alive_seats]

    @property
    def day(self) -> int:
        return self._require_game().day

    @property
    def phase(self) -> str:
        """The kind of the current turn ("speech", "vote", "mafia_kill", ...) or "over"."""
        turn = self._require_game().turn
        return PHASES[-1] if turn is None else PHASES[turn]

    @property
    def winner(self) -> str | None:
        """ "town", "mafia", "maniac" or "draw" once the game is over, else None."""
        w = self._require_game().winner
        return None if w is None else OUTCOME_NAMES[w]

    def action_id(self, kind: str, target: int | None = None, value: str | None = None) -> int:
        """Return an index: ``action_id("nominate", 3)``, ``("claim_role", value="don")``."""
        return self.layout.action_id(kind, target, value)

    def describe_action(self, index: int) -> str:
        """Return an action index in words: "nominate 3", "claim_check 4 black"."""
        return self.layout.describe(int(index))

    def legal_actions(self) -> list[int]:
        """Return the acting agent's legal action indices."""
        return np.flatnonzero(self._legal_mask()).tolist()

    def may_talk(self, agent: str | None = None) -> bool:
        """Return whether `agent` (default: the acting one) may add table talk now: his speech."""
        game = self._require_game()
        if game.over or (agent is not None and agent != self.agent_selection):
            return False
        return game.turn in SPEECH_TURNS

    def say(self, agent: str, text: str) -> None:
        """Add `agent`'s free-text remark to his speech (table talk, up to 280 characters).

        The remark is public: in every text observation, the narration and the record; the
        vector observation never sees it. It is kept as written, in any script (emoji too),
        less its control characters (`talk_text`); in the text observation a character its
        charset lacks reads as "?".
        """
        game = self._require_game()
        if game.over:
            raise IllegalActionError("the game is over: no more talk")
        if agent != self.agent_selection:
            raise IllegalActionError(
                f"{agent} is not speaking now; {self.agent_selection} acts ({self.phase})"
            )
        if not isinstance(text, str):
            raise IllegalActionError(f"table talk is text; got {text!r}")
        text = talk_text(text)
        try:
            game.say(text)
        except ValueError as e:
            raise IllegalActionError(f"{agent} cannot say that now: {e}") from None

    def foul(self, agent: str) -> None:
        """Give `agent` a foul, as a moderator calls it (SPORT-F1, ONLINE-F1)."""
        game = self._require_game()
        if game.over:
            raise MafiaError("the game is over: no more fouls")
        self.engine.foul(self._seat_of(agent))
        self._after_moderator()

    def remove(self, agent: str) -> None:
        """Remove `agent` from the game at once, without a last word, as a moderator does
        with a player who opened his eyes, gestured or spoke at night (SPORT-F2)."""
        game = self._require_game()
        seat = self._seat_of(agent)
        if game.over:
            raise MafiaError("the game is over: nobody can be removed")
        if not game.alive[seat]:
            raise MafiaError(f"{agent} has already left the game")
        self.engine.remove(seat)
        self._after_moderator()

    def _after_moderator(self) -> None:
        """Hand the turn on after a moderator's move (it may end the game)."""
        actor = self.engine.actor()
        self._next(actor, None if actor < 0 else self.engine.mask())

    def record(self) -> dict[str, Any]:
        """Return the game so far as JSON-ready data that `mafia_env.replay` plays back."""
        return make_record(self)

    def belief(self, agent: str, model: Any = None) -> Any:
        """Return what `agent` can know of the deal now (`mafia_env.belief.Belief`): exact
        deduction, or with `model` (a policy or its registry name) a Bayesian belief. For
        inspection and agents; never in another agent's observation."""
        return self._require_game().belief(self._seat_of(agent), model)

    def clone(self) -> MafiaEnv:
        """Return an independent environment at the same point of the same game.

        The copy has the same ``agent_selection``, observations, rewards and future (the same
        actions give the same games); stepping one never changes the other. Cheaper than
        replaying the game: the engine and the observers copy their state.
        """
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._use(self.engine.fork())
        other.knobs = dict(self.knobs)
        if self.game is not None and self._text is not None:
            other._text = self._text.copy()
        if self._rng is not None:
            other._rng = random.Random()
            other._rng.setstate(self._rng.getstate())
        other.agents = self.agents[:]
        for name in ("rewards", "_cumulative_rewards", "terminations", "truncations"):
            setattr(other, name, dict(getattr(self, name)))
        other.infos = {a: dict(i) for a, i in self.infos.items()}
        other.illegal_counts = dict(self.illegal_counts)
        return other

    def __getstate__(self) -> dict[str, Any]:
        # the engine pickles itself (the core its state whole); the rest is the engine's
        skip = ("game", "observer", "_play", "_observe", "_view")
        return {k: v for k, v in self.__dict__.items() if k not in skip}

    def __setstate__(self, state: dict) -> None:
        # a pickled or deep-copied env (a vector env's copy) deals its own next games: the
        # game in play goes on exactly, the stream of the next games' seeds is drawn afresh
        self.__dict__.update(state)
        self._use(self.engine)
        if self._rng is not None:
            self._rng = random.Random()
        if self._text is not None and self.game is not None:
            self._text.talk = self.game.talk  # one list of remarks, the game's

    @property
    def text_observer(self) -> TextObserver:
        """The text encoder of this table (made on first use in the vector mode)."""
        if self._text is None:
            belief = self.obs_layout.belief is not None  # the option's certainties too
            self._text = TextObserver(self.layout, self.n, self.lang, belief)
            if self.game is not None:
                self._text.reset(self.game)
        return self._text

    # ---------------------------------------------------------------- internals

    def _require_game(self) -> Game:
        if self.game is None:
            raise MafiaError("the environment has no game yet; call reset() first")
        return self.game

    def _seat_of(self, agent: str) -> int:
        try:
            return self._seat[agent]
        except (KeyError, TypeError):
            raise MafiaError(
                f"unknown agent {agent!r}; agents are player_1 .. player_{self.n}"
            ) from None

    def _legal_mask(self) -> np.ndarray:
        """Return the acting agent's mask (read-only and shared; zeros once the game is over)."""
        return self._mask if self._mask is not None else self._no_mask

    def _next(self, actor: int, mask: np.ndarray | None) -> None:
        """Give the turn to seat `actor`, whose legal actions are `mask`, or end the game (an
        `actor` of -1): its mask goes in its ``infos``, zeros back in the last actor's."""
        if actor < 0:
            self._end_game()
            return
        agent = self.agent_selection = self.possible_agents[actor]
        infos = self.infos
        last = self._masked
        if last is not None:
            infos[last]["action_mask"] = self._no_mask
        self._masked = agent
        self._mask = infos[agent]["action_mask"] = mask
        if self._flat:
            self._mark_acting(last, agent)

    def _mark_acting(self, last: str | None, agent: str | None) -> None:
        """Move the flat mode's ``infos[...]["acting"]`` from `last` to `agent`."""
        if last is not None:
            self.infos[last]["acting"] = False
        if agent is not None:
            self.infos[agent]["acting"] = True

    def _check_index(self, agent: str, action: Any) -> int | None:
        if action is None:
            raise IllegalActionError(
                f"{agent} stepped None, but {agent} is acting ({self.phase}); None is only "
                "for agents whose game is over"
            )
        is_int = isinstance(action, int | np.integer) and not isinstance(action, bool)
        is_int = is_int or (
            isinstance(action, np.ndarray)
            and action.shape == ()
            and np.issubdtype(action.dtype, np.integer)
        )
        if not is_int:
            raise IllegalActionError(
                f"{agent}'s action must be an integer index 0..{self.layout.size - 1}; "
                f"got {action!r}"
            )
        index = int(action)
        return index if 0 <= index < self.layout.size else None

    def _illegal(self, agent: str, action: Any, mask: np.ndarray) -> None:
        game = self.game
        seat = self._seat[agent]
        mode = self.illegal_action
        what = (
            f"{action} ({self.layout.describe(int(action))})"
            if 0 <= int(action) < self.layout.size
            else f"{action} (outside 0..{self.layout.size - 1})"
        )
        message = f"{agent} cannot take action {what} now (phase {self.phase}, day {game.day})"
        if mode == "raise":
            legal = ", ".join(f"{i} ({self.layout.describe(i)})" for i in np.flatnonzero(mask))
            raise IllegalActionError(f"{message}; legal actions: {legal}")
        self.illegal_counts[agent] += 1
        if self._flat:
            self.infos[agent]["illegal"] = self.illegal_counts[agent]
        warn_illegal(self, message, mode)
        if mode == "foul":  # COMMON-7: a foul, then the turn's default action
            self.engine.foul(seat)
            if self.engine.actor() == seat:
                self.engine.play_default()
        else:  # terminate: PettingZoo's classic convention
            self.engine.terminate(seat)

    def _end_game(self) -> None:
        game = self.game
        self._live, self._mask = False, None
        for agent, r in zip(self.possible_agents, game.returns(), strict=True):
            self.rewards[agent] = r
            if game.truncated:
                self.truncations[agent] = True
            else:
                self.terminations[agent] = True
        self._accumulate_rewards()
        if self._masked is not None:  # nobody acts any more
            self.infos[self._masked]["action_mask"] = self._no_mask
            if self._flat:
                self._mark_acting(self._masked, None)
            self._masked = None
        self.agent_selection = self.agents[0]


class CoreMafiaEnv(MafiaEnv):
    """`MafiaEnv` played by the C core (``backend="c"``): the same adapter, the core's engine
    (`mafia_env.backends.CoreEngine`). ``env.game`` is a `CoreGame`: the live state from the
    core, the rest (events, narration, text observations, records, ``resample``) from the
    Python engine, brought up to date on demand (`mafia_env.ccore`)."""

    backend = "c"
    engine_type = CoreEngine

    @property
    def core(self) -> Any:
        """The compiled core this env plays on (one game: slot 0)."""
        return self.engine.core


def make_env(
    variant: Any = "sport", num_players: int | None = None, backend: str = "auto", **kwargs: Any
) -> MafiaEnv:
    """Return `MafiaEnv` on the engine `backend` picks (`mafia_env.ccore.resolve`).

    Bad arguments get the env's own errors: where the rules cannot be worked out, the Python
    env is built, and raises them.
    """
    from mafia_env.ccore import BACKENDS, resolve, spec_of

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
