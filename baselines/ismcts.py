"""A search bot: determinized search over the seat's information set, rule-bot rollouts.

Registered as ``ismcts``: ``load_policy("ismcts", variant="sport")`` reads
``configs/ismcts/<variant>.yaml`` (falling back on ``sport.yaml``'s budget), options
override it (``load_policy("ismcts", worlds=4)``). It observes an ``infoset``
(`mafia_env.seating.games.InfoSet`), so it plays through `mafia_env.seating.play_game` (one
game at a time), never through the batched `play_games`.

At each move with more than one legal action:

1. Candidates: the rule bot's own choice for this seat first, then up to ``width - 1`` other
   legal actions drawn at random (all of them where there are few: a vote, a night shot).
2. ``worlds`` determinizations: games the seat cannot tell from the real one, drawn from
   its belief (`InfoSet.worlds`, `mafia_env.infoset.sample`: uniform over the deals it
   cannot rule out, the others' hidden night choices searched under each deal drawn); with
   option ``model`` (e.g. ``model="rule"``) from its posterior under that model. They
   depend only on the seat's view and the bot's own random stream.
3. In every world every candidate is played, then the game is played out by the rule bots
   on every seat (this one too), the rule bots' randomness seeded alike for all candidates
   of a world: the candidates are compared on the same worlds and the same luck (common
   random numbers). A rollout scores the seat's team result: +1 a win, -1 a loss, 0 a draw.
4. The candidate with the best mean is played if it beats the rule bot's choice by more than
   ``margin``; else the rule bot's choice. So with no evidence the bot plays as the rule bot.

The budget is fixed: ``worlds * width`` rollouts a move at most. This is a flat
(one-level) information-set search, perfect-information Monte Carlo with rule-bot
rollouts; OpenSpiel's full ISMCTS runs on the same game through `mafia_env.openspiel`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Any

import numpy as np

from baselines.resources import data_dir
from baselines.rule import RulePolicy
from mafia_env.actions import ActionLayout
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError
from mafia_env.observe import ObsLayout, VectorObserver
from mafia_env.seating.games import InfoSet
from mafia_env.yaml_config import NonNegativeFloat, PositiveInt, Range, load

CONFIGS = data_dir("configs") / "ismcts"  # the repository's, or a wheel's copy


@dataclass(frozen=True)
class SearchConfig:
    """The search bot's budget (``configs/ismcts/*.yaml``)."""

    worlds: PositiveInt = 8
    """Determinizations (resampled games) per move."""
    width: Annotated[int, Range(ge=2)] = 4
    """Candidate actions per move, the rule bot's choice among them."""
    margin: NonNegativeFloat = 0.2
    """How much better (mean team result) a candidate must do to overrule the rule bot."""
    model: str | None = None
    """Draw the worlds from the seat's posterior under this policy (`mafia_env.belief`, Bayes:
    e.g. ``rule``, the rollouts' own model); None: uniform over the deals it cannot rule out."""


def load_config(variant: str, path: str | Path | None = None) -> SearchConfig:
    """Return the search config of `variant` (its file, else SPORT's), or the file at `path`."""
    if path is None:
        path = CONFIGS / f"{variant}.yaml"
        if not path.is_file():
            path = CONFIGS / "sport.yaml"
    return load(SearchConfig, path, "search config")


class SearchPolicy:
    """Determinized search with rule-bot rollouts (see the module docstring)."""

    observes = "infoset"

    def __init__(
        self,
        variant: str | GameSpec = "sport",
        num_players: int | None = None,
        seed: int = 0,
        config: str | Path | SearchConfig | None = None,
        **options: Any,
    ):
        self.spec = spec = GameSpec.make(variant, num_players)
        self.rules, self.n = spec.rules, spec.n
        cfg = config if isinstance(config, SearchConfig) else load_config(spec.variant, config)
        try:
            self.config = replace(cfg, **options)
        except TypeError as e:
            raise ConfigError(f"unknown search option: {e}") from None
        self.layout = ActionLayout.of(spec)
        self.obs_layout = ObsLayout.of(spec)
        self.rule = RulePolicy(spec, seed=seed)  # proposes the first candidate
        self.rollout = RulePolicy(spec, seed=seed)  # plays every seat of a rollout
        self.seed(seed)
        self.searched = 0  # moves searched, and rollouts played (for timing reports)
        self.rollouts = 0

    def seed(self, seed: int) -> None:
        """Restart the bot's random streams."""
        self.rng = random.Random(seed)
        self.rule.seed(seed)

    def act(self, obs: InfoSet, mask: np.ndarray) -> int:
        """Return the move the search prefers for the seat of `obs`."""
        if not isinstance(obs, InfoSet):
            raise ConfigError(
                "the search bot needs an information set (observes='infoset'): seat it "
                "with mafia_env.seating.games.play_game, not play_games"
            )
        legal = np.flatnonzero(mask).tolist()
        own = self.rule.act(obs.vector, mask)
        if len(legal) == 1:
            return own
        cfg = self.config
        others = [a for a in legal if a != own]
        if len(others) > cfg.width - 1:
            others = self.rng.sample(others, cfg.width - 1)
        candidates = [own, *others]
        totals = np.zeros(len(candidates))
        worlds = obs.worlds(random.Random(self.rng.getrandbits(64)), cfg.worlds, cfg.model)
        for world in worlds:
            observer = VectorObserver(world.rules, world.n, self.obs_layout)
            observer.reset(world)
            luck = self.rng.getrandbits(63)
            for i, action in enumerate(candidates):
                totals[i] += self._rollout(world, observer, action, obs.seat, luck)
        self.searched += 1
        means = totals / cfg.worlds
        best = int(np.argmax(means))
        return candidates[best] if means[best] > means[0] + cfg.margin else own

    def _rollout(
        self, world: Any, observer: VectorObserver, action: int, seat: int, luck: int
    ) -> float:
        """Play `action` in a copy of `world`, then rule bots to the end; return `seat`'s
        result (its team's)."""
        g = world.clone()
        obs = observer.copy()
        decoded, mask_of, bot = self.layout.decoded, self.layout.shared_mask, self.rollout
        bot.seed(luck)
        g.apply(*decoded[action])
        while not g.over:
            g.apply(*decoded[bot.act(obs.observe(g, g.actor), mask_of(g))])
        self.rollouts += 1
        return g.returns()[seat]

    def act_batch(self, obs: Any, masks: np.ndarray) -> np.ndarray:
        """Return one move per information set (searched one after another)."""
        return np.array([self.act(o, m) for o, m in zip(obs, masks, strict=True)], np.int64)


class RuleRolloutEvaluator:
    """An evaluator for OpenSpiel's MCTS and ISMCTS bots on python_mafia: rule-bot rollouts.

    ``ISMCTSBot(game, RuleRolloutEvaluator(game), ...)`` (`mafia_env.openspiel`) plays the
    rest of a simulated game with the rule bots on every seat instead of at random, and puts
    its prior on the rule bot's choice (``prior_weight``; the rest spread over the legal
    moves).
    """

    def __init__(self, game: Any, seed: int = 0, prior_weight: float = 0.5):
        self.layout = game.layout
        self.bot = RulePolicy(game.spec, seed=seed)
        self.prior_weight = prior_weight
        self.template = VectorObserver(game.rules, game.n, ObsLayout.of(game.spec))

    def evaluate(self, state: Any) -> np.ndarray:
        """Return every player's result of the rule bots playing `state` to the end."""
        g = state.game.clone()
        obs = self.template.copy()
        obs.reset(g)
        decoded, mask_of, bot = self.layout.decoded, self.layout.shared_mask, self.bot
        while not g.over:
            g.apply(*decoded[bot.act(obs.observe(g, g.actor), mask_of(g))])
        return np.array(g.returns())

    def prior(self, state: Any) -> list[tuple[int, float]]:
        """Return the prior over the legal moves: weight on the rule bot's choice."""
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions()
        p = state.current_player()
        choice = self.bot.act(state.vector(p), self.layout.shared_mask(state.game))
        rest = (1.0 - self.prior_weight) / len(legal)
        return [(a, rest + (self.prior_weight if a == choice else 0.0)) for a in legal]


__all__ = ["RuleRolloutEvaluator", "SearchConfig", "SearchPolicy", "load_config"]
