"""`RulePolicy`: the rule bot behind the `Policy` protocol (reads, decides, checks the mask).

The strategies are in the package's docstring (`baselines.rule`) and its decisions in
`baselines.rule.handlers`; this module holds the protocol (act, act_batch, probs), the table
the bot is built for (`GameSpec`: the rules in force with their knobs, the table size) and
its `Style`. Every call decides a batch: `act` is a batch of one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from baselines.rule.draws import Draws, combine, play, spread
from baselines.rule.handlers import SPEAKERS, TEAM_SPEAKERS, TURNS, no_choice
from baselines.rule.posterior import Posterior
from baselines.rule.reading import SeenBatch
from baselines.rule.style import RULE, SHAPE, Style, StyleMix
from baselines.rule.suspicion import READINGS
from mafia_env.actions import ActionLayout
from mafia_env.engine.eras import ERAS, earlier_rules
from mafia_env.engine.roles import Role, Team
from mafia_env.engine.rules import Rules
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError
from mafia_env.observe import ObsLayout

BLACK_ROLES = frozenset(r for r in Role if r.team is not Team.TOWN)


class RulePolicy:
    """Rule-based bot for every role of a variant (strategies: see the package docstring),
    playing the `Style` it is given (default: `default_style`, the rule bots v1)."""

    default_style: Style = RULE

    def __init__(
        self,
        variant: str | Rules | GameSpec = "sport",
        num_players: int | None = None,
        seed: int = 0,
        *,
        spec: GameSpec | None = None,
        style: Style | Mapping[str, Any] | None = None,
    ):
        """A bot for the table `spec` (`load_policy` gives it: the rules in force, knobs and
        all), else for `variant` (a name, `Rules` or a `GameSpec`) at `num_players`; `style`
        is a `Style` or its knobs (over `default_style`)."""
        if spec is not None and num_players is not None and num_players != spec.n:
            raise ConfigError(f"num_players={num_players} but the table's spec seats {spec.n}")
        self.spec = spec = GameSpec.make(variant, num_players) if spec is None else spec
        self.style = Style.of(style, self.default_style)
        self.rules = rules = spec.rules
        self.n = n = spec.n
        self.seats = np.arange(n)
        self.seats.flags.writeable = False
        self.layout = ActionLayout.of(spec)
        self.obs_layout = ObsLayout.of(spec)
        self.roles = roles = rules.roles_in_play()
        self.day_limit = rules.day_limit(n)
        self.turn_names = [t.name.lower() for t in self.obs_layout.turns]  # the my_turn piece
        self._pieces = {
            name: (off, off + int(np.prod(shape)), shape)
            for name, (off, shape) in self.obs_layout.offsets.items()
        }
        self._earlier: dict[int, RulePolicy | None] = {}  # by observation size, made on demand
        self.seed(seed)
        # facts of the roles in play, by role index (with one more entry for "no claim")
        self.has_sheriff = Role.SHERIFF in roles
        self.sheriff_kind = roles.index(Role.SHERIFF) if self.has_sheriff else -1
        self.black_claim = np.array([r in BLACK_ROLES for r in roles] + [False])
        self.town_role = np.array([r.team is Team.TOWN for r in roles])
        self.mafia_role = np.array([r.team is Team.MAFIA for r in roles] + [False])
        self.don_role = np.array([r is Role.DON for r in roles])
        self.mafia_cols = [i for i, r in enumerate(roles) if r.team is Team.MAFIA]
        counts = rules.role_counts(n)
        self.mafia_size = sum(c for r, c in counts.items() if r.team is Team.MAFIA)
        # the town wins once the mafia are out, where nobody else stands against it
        self.over_if_out = all(r.team in (Team.TOWN, Team.MAFIA) for r in counts)
        self.noise: dict[int, np.ndarray] = {}  # the mafia's public draws, by public hash
        # the town's reading of the table, every row of a batch at once: (scores [R, n],
        # trusted sheriff [R]), by `Style.reading`; and the posterior over the deal
        self.read_table = READINGS[self.style.reading]
        self.posterior = Posterior
        # turn kind -> decision over a batch; a kind missing here falls back (pass / random)
        self.turns = dict(TURNS)
        # role -> speech planner; a role missing here speaks as its team does
        self.speakers = dict(SPEAKERS)
        self.team_speakers = dict(TEAM_SPEAKERS)

    def seed(self, seed: int) -> None:
        """Restart the bot's random stream."""
        self._seed = seed
        self.rng = np.random.default_rng(seed)
        for other in self._earlier.values():
            if other is not None:
                other.seed(seed)

    def earlier(self, size: int) -> RulePolicy | None:
        """Return the bot of this variant under the rules of an earlier era whose observations
        have `size` floats (the tables and tasks that keep those rules: `earlier_rules`)."""
        if size not in self._earlier:
            self._earlier[size] = None
            for era in sorted(ERAS, reverse=True):
                then = self.rules.with_knobs(**earlier_rules(self.rules.name, era))
                if then != self.rules and ObsLayout(then, self.n).size == size:
                    self._earlier[size] = type(self)(then, self.n, self._seed, style=self.style)
                    break
        return self._earlier[size]

    def views(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        """Return the observation's named views (as `ObsLayout.views`, offsets computed once)."""
        return {name: obs[a:b].reshape(shape) for name, (a, b, shape) in self._pieces.items()}

    # ------------------------------------------------------------- protocol

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """Return a legal action for one observation (a batch of one)."""
        obs, mask = np.asarray(obs), np.asarray(mask)
        if obs.ndim != 1 or mask.ndim != 1:
            self._check_shapes(obs.shape, mask.shape)
        return int(self.act_batch(obs[None], mask[None])[0])

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Return one legal action per row: the rows are read and decided at once, their
        draws among equals made in row order (as if decided one by one, in order)."""
        return self._act(obs, masks, None)

    def act_styles(
        self, obs: np.ndarray, masks: np.ndarray, styles: Sequence[Style], index: Any
    ) -> np.ndarray:
        """`act_batch` with a style a row: row r plays ``styles[index[r]]``, its draws among
        equals from this bot's generator. The styles share this bot's `Style.shape` (its
        reading of the table and its speech plans; their other knobs may differ): one call
        decides the rows of many bots of a kind, as the trainer's league of the zoo's styles
        has them (`baselines.ppo.rollout.Opponents`), each row as its style's own bot would
        (`probs_styles` gives the same probabilities as each style's `probs_batch`)."""
        return self._act(obs, masks, self._mix(styles, index, len(obs)))

    def probs(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Return the probability of every action for one observation (see `probs_batch`)."""
        return self.probs_batch(np.asarray(obs)[None], np.asarray(mask)[None])[0]

    def probs_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Return the probability of every action per row: the bot's choice, its seeded draws
        among equals (and its fallback's) spread uniformly over every way they could fall."""
        return self._probs(obs, masks, None)

    def probs_styles(
        self, obs: np.ndarray, masks: np.ndarray, styles: Sequence[Style], index: Any
    ) -> np.ndarray:
        """`probs_batch` with a style a row, as `act_styles` plays them."""
        return self._probs(obs, masks, self._mix(styles, index, len(obs)))

    def mix_key(self) -> tuple[Any, ...]:
        """Bots of equal keys decide a batch together (`act_styles`): their class, table and
        `Style.shape`."""
        key = self.__dict__.get("_mix_key")
        if key is None or key[0] is not self.style:  # (kept: a league asks every step)
            key = self._mix_key = (self.style, (type(self), repr(self.spec), self.style.shape))
        return key[1]

    def _act(self, obs: Any, masks: Any, mix: StyleMix | None) -> np.ndarray:
        obs, masks = self._table(obs, masks)
        if isinstance(obs, RulePolicy):  # a game under the rules of its time
            return obs._act(*masks, mix)
        legal = masks != 0
        out = legal.argmax(axis=1)  # rows with nothing to decide: their one action
        count = legal.sum(axis=1)
        rows = np.flatnonzero(count != 1)
        if rows.size:
            if not count[rows].all():
                raise ValueError("the mask allows no action")
            b = self.read(obs, legal, rows, mix)
            out[rows] = play(self.decide(b), b, self.rng)
        return out

    def _probs(self, obs: Any, masks: Any, mix: StyleMix | None) -> np.ndarray:
        obs, masks = self._table(obs, masks)
        if isinstance(obs, RulePolicy):
            return obs._probs(*masks, mix)
        legal = masks != 0
        out = np.zeros(masks.shape, dtype=np.float64)
        count = legal.sum(axis=1)
        one = count == 1
        out[one, legal[one].argmax(axis=1)] = 1.0
        rows = np.flatnonzero(~one)
        if rows.size:
            if not count[rows].all():
                raise ValueError("the mask allows no action")
            b = self.read(obs, legal, rows, mix)

            def copies(i: int, k: int) -> Draws:  # k copies of the batch's row i
                return self.decide(self.read(obs, legal, np.full(k, rows[i]), mix))

            out[rows] = spread(self.decide(b), b, copies)
        return out

    def _mix(self, styles: Sequence[Style], index: Any, rows: int) -> StyleMix | None:
        """The rows' styles as a `StyleMix` (None where every row plays this bot's own)."""
        styles = tuple(styles)
        index = np.asarray(index)
        if not styles or not all(isinstance(s, Style) for s in styles):
            raise ConfigError(f"styles must be a non-empty sequence of Style; got {styles!r}")
        if index.shape != (rows,) or index.dtype.kind not in "iu":
            raise ConfigError(
                f"index must be {rows} integers (a style a row); got {index.dtype} {index.shape}"
            )
        if rows and not (index.min() >= 0 and index.max() < len(styles)):
            got = f"{index.min()}..{index.max()}"
            raise ConfigError(f"index must be in 0..{len(styles) - 1}; got {got}")
        shape = self.style.shape
        odd = [s for s in styles if s.shape != shape]
        if odd:
            mine, theirs = (dict(zip(SHAPE, x, strict=True)) for x in (shape, odd[0].shape))
            raise ConfigError(
                f"act_styles: the styles must share the bot's {', '.join(SHAPE)} "
                f"({mine}); got {theirs}"
            )
        if all(s == self.style for s in styles):
            return None
        return StyleMix(styles, index.astype(np.intp, copy=False))

    def read(
        self, obs: np.ndarray, legal: np.ndarray, rows: np.ndarray, mix: StyleMix | None = None
    ) -> SeenBatch:
        """Read the rows `rows` of a batch (each by its own style, given `mix`): indices, in
        order, a row more than once allowed (`spread`'s copies)."""
        whole = rows.size == len(obs) and bool((rows == np.arange(rows.size)).all())
        b = SeenBatch(self, obs, legal) if whole else SeenBatch(self, obs[rows], legal[rows])
        if mix is not None:
            b.mix = mix if whole else mix.take(rows)
        return b

    def decide(self, b: SeenBatch) -> Draws:
        """Return every row's draws and choice: its turn kind's decision (`turns`), the
        fallback where the kind has none."""
        kinds = b.turn_code
        parts: dict[Any, np.ndarray] = {}
        for k in set(kinds.tolist()):
            fn = self.turns.get(self.turn_names[k], no_choice) if k >= 0 else no_choice
            rows = kinds == k
            parts[fn] = parts[fn] | rows if fn in parts else rows
        return combine([(fn(b, rows), rows) for fn, rows in parts.items()], b.R)

    def _table(self, obs: Any, masks: Any) -> tuple[Any, Any]:
        """Return the batch as arrays, checked against this bot's table; or, for a game under
        the rules of an earlier era, the bot of that era and the batch."""
        obs, masks = np.asarray(obs), np.asarray(masks)
        if obs.ndim != 2 or masks.ndim != 2 or len(obs) != len(masks):
            self._check_shapes(obs.shape, masks.shape)
        if obs.shape[1] != self.obs_layout.size or masks.shape[1] != self.layout.size:
            other = self.earlier(obs.shape[1])
            if other is not None and masks.shape[1] == other.layout.size:
                return other, (obs, masks)
            self._check_shapes(obs.shape[1:], masks.shape[1:])
        return obs, masks

    def _check_shapes(self, obs: tuple[int, ...], mask: tuple[int, ...]) -> None:
        raise ConfigError(
            f"rule bot for {self.rules.name!r} with {self.n} players expects observations "
            f"of size {self.obs_layout.size} and masks of size {self.layout.size}; got "
            f"{obs} and {mask}"
        )


__all__ = ["BLACK_ROLES", "RulePolicy"]
