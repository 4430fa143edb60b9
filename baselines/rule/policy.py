"""`RulePolicy`: the rule bot behind the `Policy` protocol (reads, decides, checks the mask).

The strategies are in the package's docstring (`baselines.rule`); this module holds the
protocol (act, act_batch, probs), the table the bot is built for (`GameSpec`: the rules in
force with their knobs, the table size) and the fallback of every decision.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from baselines.rule.batch import decide_batch, pays
from baselines.rule.handlers import RoleHandlers
from baselines.rule.reading import Choice, Seen, SeenBatch
from baselines.rule.suspicion import town_suspicion
from mafia_env.actions import ActionLayout
from mafia_env.compat import ERAS, earlier_rules
from mafia_env.engine.kinds import Act
from mafia_env.engine.roles import Role, Team
from mafia_env.engine.rules import Rules
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError
from mafia_env.observe import ObsLayout

BLACK_ROLES = frozenset(r for r in Role if r.team is not Team.TOWN)


class RulePolicy(RoleHandlers):
    """Rule-based bot for every role of a variant (strategies: see the module docstring)."""

    # the town's reading of the table, every row of a batch at once: (scores [R, n], trusted
    # sheriff [R]); a method of the bot, so that a version of the bot may read it otherwise
    read_table = staticmethod(town_suspicion)
    # decide a batch's rows at once (`baselines.rule.batch`: the same actions and draws as
    # deciding them one by one, in order, which False does)
    vectorized = True

    def __init__(
        self,
        variant: str | Rules | GameSpec = "sport",
        num_players: int | None = None,
        seed: int = 0,
        *,
        spec: GameSpec | None = None,
    ):
        """A bot for the table `spec` (`load_policy` gives it: the rules in force, knobs and
        all), else for `variant` (a name, `Rules` or a `GameSpec`) at `num_players`."""
        if spec is not None and num_players is not None and num_players != spec.n:
            raise ConfigError(f"num_players={num_players} but the table's spec seats {spec.n}")
        self.spec = spec = GameSpec.make(variant, num_players) if spec is None else spec
        self.rules = rules = spec.rules
        self.n = n = spec.n
        self.layout = ActionLayout.of(spec)
        self.obs_layout = ObsLayout.of(spec)
        self.roles = rules.roles_in_play()
        self.day_limit = rules.day_limit(n)
        self.turn_names = [t.name.lower() for t in self.obs_layout.turns]  # the my_turn piece
        self._pieces = [
            (name, off, int(np.prod(shape)), shape)
            for name, (off, shape) in self.obs_layout.offsets.items()
        ]
        self._earlier: dict[int, RulePolicy | None] = {}  # by observation size, made on demand
        self.seed(seed)
        self.has_sheriff = Role.SHERIFF in self.roles
        # by role index, with one more entry for "no claim"
        self.black_claim = np.array([r in BLACK_ROLES for r in self.roles] + [False])
        self.sheriff_kind = self.roles.index(Role.SHERIFF) if self.has_sheriff else -1
        self.town_role = np.array([r.team is Team.TOWN for r in self.roles])
        self.noise: dict[int, np.ndarray] = {}  # public_noise's draws, by public hash
        # turn kind -> handler; a kind missing here falls back to pass / random legal
        self.turns: dict[str, Callable[[Seen], Choice]] = {
            "speech": self.speech,
            "last_word": self.speech,
            "tie_speech": self.speech,
            "vote": self.vote,
            "open_vote": self.open_vote,
            "crash_vote": self.crash_vote,
            "mafia_kill": self.mafia_kill,
            "don_check": self.don_check,
            "sheriff_check": self.sheriff_check,
            # turns of the CITY, CLUB, ONLINE and FORUM rules (idle where a variant lacks them)
            "monologue": self.speech,
            "naming": self.naming,
            "putana": self.putana,
            "doctor": self.doctor,
            "maniac": self.maniac,
            "executor": self.executor,
            "hunt": self.hunt,
            "answer": self.answer,
            # SPORT-N3: at the zero-night meeting a member shows the target he would shoot
            # (ONLINE-D5's discussion and D6's gestures: the fallback, pass)
            "meeting": self.mafia_kill,
        }
        # role -> speech planner; a role missing here speaks as its team does
        self.speakers: dict[Role, Callable[[Seen], list[Choice]]] = {
            Role.SHERIFF: self.sheriff_speech,
            Role.DON: self.don_speech,
        }
        self.team_speakers: dict[Team, Callable[[Seen], list[Choice]]] = {
            Team.TOWN: self.town_speech,
            Team.MAFIA: self.mafia_speech,
        }

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
                    self._earlier[size] = type(self)(then, self.n, self._seed)
                    break
        return self._earlier[size]

    def views(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        """Return the observation's named views (as `ObsLayout.views`, offsets computed once)."""
        return {
            name: obs[off : off + size].reshape(shape) for name, off, size, shape in self._pieces
        }

    # ------------------------------------------------------------- protocol

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """Return a legal action for one observation."""
        obs, mask = np.asarray(obs), np.asarray(mask)
        if obs.ndim != 1 or mask.ndim != 1:
            self._check_shapes(obs.shape, mask.shape)
        return int(self.act_batch(obs[None], mask[None])[0])

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Return one legal action per row: the rows are read and decided at once, as if
        decided one by one in order (`vectorized`)."""
        obs, masks = np.asarray(obs), np.asarray(masks)
        if obs.ndim != 2 or masks.ndim != 2 or len(obs) != len(masks):
            self._check_shapes(obs.shape, masks.shape)
        if obs.shape[1] != self.obs_layout.size or masks.shape[1] != self.layout.size:
            other = self.earlier(obs.shape[1])  # a game under the rules of its time
            if other is not None and masks.shape[1] == other.layout.size:
                return other.act_batch(obs, masks)
            self._check_shapes(obs.shape[1:], masks.shape[1:])
        legal = (masks != 0).sum(axis=1)
        out = (masks != 0).argmax(axis=1)  # rows with nothing to decide: their one action
        rows = np.flatnonzero(legal != 1)
        if rows.size:
            batch = SeenBatch(self, obs[rows], masks[rows])
            if self.vectorized and pays(rows.size):
                out[rows] = decide_batch(self, batch, RulePolicy)
            else:
                for j, r in enumerate(rows.tolist()):
                    out[r] = self._decide(batch.row(j))
        return out

    def probs(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Return the probability of every action for one observation (see `probs_batch`)."""
        return self.probs_batch(np.asarray(obs)[None], np.asarray(mask)[None])[0]

    def probs_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Return the probability of every action per row: the bot's choice, its seeded draws
        among equals (`pick`, `fallback`) spread uniformly over every way they could fall."""
        obs, masks = np.asarray(obs), np.asarray(masks)
        out = np.zeros(masks.shape, dtype=np.float64)
        legal = (masks != 0).sum(axis=1)
        one = np.flatnonzero(legal == 1)
        out[one, (masks[one] != 0).argmax(axis=1)] = 1.0
        rows = np.flatnonzero(legal != 1)
        if not rows.size:
            return out
        batch = SeenBatch(self, obs[rows], masks[rows])
        keep = self.rng
        try:
            for j, r in enumerate(rows.tolist()):
                seen = batch.row(j)
                pending: list[tuple[int, ...]] = [()]
                while pending:  # every outcome of the draws, each with its probability
                    script = pending.pop()
                    self.rng = _Draws(script)
                    action = self._decide(seen)
                    p = 1.0
                    for i, k in enumerate(self.rng.calls):
                        if i >= len(script):
                            pending += [
                                script + (0,) * (i - len(script)) + (v,) for v in range(1, k)
                            ]
                        p /= k
                    out[r, action] += p
        finally:
            self.rng = keep
        return out

    def _check_shapes(self, obs: tuple[int, ...], mask: tuple[int, ...]) -> None:
        raise ConfigError(
            f"rule bot for {self.rules.name!r} with {self.n} players expects observations "
            f"of size {self.obs_layout.size} and masks of size {self.layout.size}; got "
            f"{obs} and {mask}"
        )

    def _decide(self, seen: Seen) -> int:
        handler = self.turns.get(seen.turn) if seen.turn is not None else None
        choice = handler(seen) if handler is not None else None
        if choice is None or not seen.mask[choice]:
            return self.fallback(seen.mask)
        return int(choice)

    def fallback(self, mask: np.ndarray) -> int:
        """Pass where passing is legal, else a uniformly random legal action."""
        if mask[self.layout.offset[Act.PASS]]:
            return self.layout.offset[Act.PASS]
        legal = mask.nonzero()[0]
        if legal.size == 0:
            raise ValueError("the mask allows no action")
        return int(legal[self.rng.integers(legal.size)])

    def pick(self, scores: np.ndarray, allowed: list[int]) -> int | None:
        """Return the allowed seat of highest score, seeded random among equals."""
        if not allowed:
            return None
        every = scores.tolist()  # a list of n numbers: cheaper than numpy's indexing
        vals = [every[s] for s in allowed]
        top = max(vals) - 1e-9
        best = [s for s, x in zip(allowed, vals, strict=True) if x >= top]
        if len(best) == 1:  # rng.integers(1) would draw nothing from the stream
            return best[0]
        return best[int(self.rng.integers(len(best)))]


class _Draws:
    """A stand-in for the bot's generator that draws as scripted (0 past the script) and
    records each draw's range: `RulePolicy.probs_batch` walks every way the draws can fall."""

    def __init__(self, script: tuple[int, ...]):
        self.script, self.calls = script, []

    def integers(self, k: int) -> int:
        i = len(self.calls)
        self.calls.append(int(k))
        return self.script[i] if i < len(self.script) else 0


__all__ = ["BLACK_ROLES", "RulePolicy"]
