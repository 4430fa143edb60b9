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
from mafia_env.observe import PHASES, ObsLayout, VectorObserver
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
        self.observer = VectorObserver(rules, n, self.obs_layout)
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
        self.game: Game | None = None
        self.game_seed: int | None = None  # the seed of the game now in play
        self._rng: random.Random | None = None
        self._mask: np.ndarray | None = None
        self._no_mask = np.zeros(self.layout.size, dtype=np.int8)
        self._no_mask.flags.writeable = False
        self._masked: str | None = None  # the agent whose infos hold a nonzero mask
        self.illegal_counts: dict[str, int] = {}  # COMMON-7: this game's, by agent
        self._printed = 0

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
        self.game = game = self._make_game(game_seed)
        self.observer.reset(game)
        if self._text is not None:
            self._text.reset(game)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {"action_mask": self._no_mask} for a in self.agents}  # _publish_mask
        self.illegal_counts = dict.fromkeys(self.agents, 0)  # COMMON-7: this game's, by agent
        if self._flat:  # infos are where the flat mode's libraries look
            for info in self.infos.values():
                info["acting"], info["illegal"] = False, 0
        self._mask = None
        self._masked = None
        self._printed = 0
        self.agent_selection = self.possible_agents[game.actor]
        self._publish_mask()

    def _make_game(self, game_seed: int) -> Game:
        """Return the game of this seed (the C core's env plays it on the core)."""
        return Game(self.rules, self.n, game_seed, self.deal)

    def agent_iter(self, max_iter: int = 2**63) -> AgentIter:
        """Yield the acting agent (`agent_selection`) until the game is over and every agent
        has been stepped; step once each time (as PettingZoo's `agent_iter`)."""
        return AgentIter(self, max_iter)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """As PettingZoo's `AECEnv.last`: the acting agent's observation, cumulative reward,
        flags and info; after the game, once every agent has been stepped, an error saying so."""
        agent = self.agent_selection
        try:
            return (
                self.observe(agent) if observe else None,
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
        game = self.game
        seat = self._seat.get(agent) if type(agent) is str else None
        if game is None or seat is None:
            self._require_game()
            seat = self._seat_of(agent)
        if self.obs_mode == "flat":
            return self.observer.observe(game, seat)
        if seat == game.actor:  # read-only and shared, as in `infos`: copy one to change it
            mask = self._mask
            if mask is None:
                mask = self._legal_mask()
        else:
            mask = self._no_mask
        if self.obs_mode == "text":
            return {
                "observation": self.text_observer.observe(game, seat, mask),
                "action_mask": mask,
            }
        return {"observation": self.observer.observe(game, seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        game = self.game
        if game is None:
            self._require_game()
        if not self.agents:
            raise MafiaError("the game is over and every agent has been stepped; call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) is int and 0 <= action < self.layout.size:  # the common case, fast
            index = action
        else:
            index = self._check_index(agent, action)
        mask = self._mask if self._mask is not None else self._legal_mask()
        self._mask = None
        if index is not None and mask[index]:
            game.apply(*self.layout.decoded[index])
        else:
            self._illegal(agent, action, mask)
        self._cumulative_rewards[agent] = 0.0
        if game.winner is not None or game.offender >= 0:
            self._end_game()
        else:
            agent = self.agent_selection = self.possible_agents[game.actor]
            infos = self.infos  # as `_publish_mask`, inlined: once per move
            last = self._masked
            if last is not None:
                infos[last]["action_mask"] = self._no_mask
            self._masked = agent
            m = self._mask = self.layout.shared_mask(game)  # observe() reads it from here
            infos[agent]["action_mask"] = m
            if self._flat:
                self._mark_acting(last, agent)
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
        game.foul(self._seat_of(agent))
        self._mask = None
        if game.over:
            self._end_game()
        else:
            self.agent_selection = self.possible_agents[game.actor]
            self._publish_mask()

    def remove(self, agent: str) -> None:
        """Remove `agent` from the game at once, without a last word, as a moderator does
        with a player who opened his eyes, gestured or spoke at night (SPORT-F2)."""
        game = self._require_game()
        seat = self._seat_of(agent)
        if game.over:
            raise MafiaError("the game is over: nobody can be removed")
        if not game.alive[seat]:
            raise MafiaError(f"{agent} has already left the game")
        game.remove(seat)
        self._mask = None
        if game.over:
            self._end_game()
        else:
            self.agent_selection = self.possible_agents[game.actor]

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
        other = MafiaEnv.__new__(MafiaEnv)
        other.__dict__.update(self.__dict__)
        if self.game is not None:
            other.game = self.game.clone()
            other.observer = self.observer.copy()
        self._copy_play_state(other)
        return other

    def _copy_play_state(self, other: MafiaEnv) -> None:
        """Give `other` (a shallow copy of this env) its own copies of what play changes
        besides the game and the observer: knobs, text observer, random stream, agents,
        rewards, flags, infos and illegal counts (both engines' `clone`)."""
        other.knobs = dict(self.knobs)
        if self.game is not None:
            other._text = self._text.copy() if self._text is not None else None
        if self._rng is not None:
            other._rng = random.Random()
            other._rng.setstate(self._rng.getstate())
        other.agents = self.agents[:]
        for name in ("rewards", "_cumulative_rewards", "terminations", "truncations"):
            setattr(other, name, dict(getattr(self, name)))
        other.infos = {a: dict(i) for a, i in self.infos.items()}
        other.illegal_counts = dict(self.illegal_counts)

    def __setstate__(self, state: dict) -> None:
        # a pickled or deep-copied env (a vector env's copy) deals its own next games: the
        # game in play goes on exactly, the stream of the next games' seeds is drawn afresh
        self.__dict__.update(state)
        if self._rng is not None:
            self._rng = random.Random()

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
        if self._mask is None:
            self._mask = self.layout.shared_mask(self.game)
        return self._mask

    def _mask_for(self, seat: int, turn: Any) -> np.ndarray:
        """Return the mask `seat` gets for its queued `turn` of the open round (`legal_for`)."""
        return self.layout.options_mask(self.game.legal_for(seat, turn))

    def _publish_mask(self) -> None:
        """Put the acting agent's mask in its ``infos`` (and zeros back in the last one's).

        The arrays are read-only and shared (the mask cache's): copy one to change it.
        """
        infos = self.infos
        last = self._masked
        if last is not None:
            infos[last]["action_mask"] = self._no_mask
        agent = self._masked = self.agent_selection
        infos[agent]["action_mask"] = self._legal_mask()
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
            game.foul(seat)
            if not game.over and game.actor == seat:
                game.apply(*game.default_action())
        else:  # terminate: PettingZoo's classic convention
            game.terminate(seat)

    def _end_game(self) -> None:
        game = self.game
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
