"""Structured actions <-> one flat `Discrete` index, and legal-action masks.

The flat space is a row of segments, one per `Act`: ``pass`` (1), ``nominate`` (n),
``vote`` (n), ``night`` (n), ``claim_role`` (one per role of the variant), ``claim_check``
(n red, then n black), ``accuse`` (n), ``vouch`` (n), then the variant's own acts
(``vote_yes`` and ``vote_no`` where a car-crash vote exists; ``ask`` (n targets x roles) and
``answer`` (yes, no, don't know) where speakers ask questions; ``reveal_don`` where the don
must introduce himself; ``executor`` (n) where the mafia name one; ``hunt`` (n, or n mafia then
n maniac where the hunter names the status he guesses) where the town hunts). Targets are
seats.
"""

from __future__ import annotations

import numpy as np

from mafia_env.engine.events import ANSWER_NAMES
from mafia_env.engine.game import Game
from mafia_env.engine.kinds import Act
from mafia_env.engine.roles import Role
from mafia_env.engine.rules import Rules
from mafia_env.engine.spec import TARGETED, GameSpec
from mafia_env.engine.turns import LEGAL
from mafia_env.errors import IllegalActionError

COLORS = ("red", "black")
HUNT_STATUSES = ("mafia", "maniac")  # FORUM-N4: what a hunter guesses his target is
MASK_CACHE_SIZE = 16384  # distinct legal sets kept per kind of layout (a few MiB at most)
_MASK_CACHES: dict[tuple, dict[tuple, np.ndarray]] = {}  # shared by equal layouts
ACT_NAMES = {a: a.name.lower() for a in Act}
_SEAT_ROWS: dict[int, dict[int, np.ndarray]] = {}  # table size -> seat bitmask -> row


def _seat_row(bits: int, n: int) -> np.ndarray:
    """Return the int8 row of `n` seats with a 1 at each seat of the bitmask `bits`."""
    raw = np.frombuffer(bits.to_bytes((n + 7) // 8, "little"), dtype=np.uint8)
    row = np.unpackbits(raw, bitorder="little")[:n].astype(np.int8)
    row.flags.writeable = False  # shared by every mask built from it
    return row


class ActionLayout:
    """The flat action space of one (variant, table size), as its `GameSpec` declares it."""

    def __init__(self, rules: Rules, n: int):
        self.spec = spec = GameSpec.of(rules, n)
        self.n = n
        self.roles: tuple[Role, ...] = spec.roles
        self.acts = list(spec.acts)
        self.offset: dict[Act, int] = {}
        self.width: dict[Act, int] = {}
        self.decoded: list[tuple[Act, int, int]] = []  # index -> (act, target, value)
        for act in self.acts:
            self.offset[act] = len(self.decoded)
            self.width[act] = w = spec.widths[act]
            for i in range(w):
                if act is Act.CLAIM_ROLE:
                    self.decoded.append((act, -1, int(self.roles[i])))
                elif act is Act.CLAIM_CHECK:
                    self.decoded.append((act, i % n, i // n))  # colour-major
                elif act is Act.HUNT:  # status-major; no status where the rules name none
                    status = i // n if rules.hunt_status or i >= n else -1
                    self.decoded.append((act, i % n, status))
                elif act is Act.ASK:  # role-major, like claim_check
                    self.decoded.append((act, i % n, int(self.roles[i // n])))
                elif act is Act.ANSWER:
                    self.decoded.append((act, -1, i))
                elif act in TARGETED:
                    self.decoded.append((act, i, -1))
                else:
                    self.decoded.append((act, -1, -1))
        self.size = len(self.decoded)
        # FORUM-N4: a hunt names the status guessed; without the knob only "mafia" is offered
        # (the segment's first half, where a layout without statuses had its hunts)
        self.hunt_status = rules.hunt_status
        self._role_index = {r: i for i, r in enumerate(self.roles)}
        # every env of one variant and table size shares one cache of masks: a random game
        # of SPORT meets about ten thousand distinct legal sets before they start to recur
        kind = (tuple(self.acts), n, self.roles)
        self._cache = _MASK_CACHES.setdefault(kind, {})
        self._rows = _SEAT_ROWS.setdefault(n, {})  # seat bitmask -> its int8 row of n

    @classmethod
    def of(cls, spec: GameSpec) -> ActionLayout:
        """Return the action layout of `spec`, built once for its rules and table size."""
        return spec.cached(cls, lambda s: cls(s.rules, s.n))

    def mask(self, game: Game) -> np.ndarray:
        """Return the int8 mask (1 = legal) of the game's acting player, as a new array."""
        return self.shared_mask(game).copy()

    def mask_into(self, game: Game, m: np.ndarray) -> np.ndarray:
        """Write the acting player's mask into the int8 row `m` (for batched trainers)."""
        m[:] = self.shared_mask(game)
        return m

    def shared_mask(self, game: Game) -> np.ndarray:
        """Return the acting player's mask as a cached read-only array (do not keep it).

        A turn's legal actions are a few (act, seat bitmask) pairs, so the same ones recur
        often: each distinct set is turned into a mask once.
        """
        opts = LEGAL[game.turn](game) if game.turn is not None else game.legal()
        m = self._cache.get(tuple(opts))  # as `options_mask`, inlined: once per move
        return m if m is not None else self.options_mask(opts)

    def options_mask(self, opts: list) -> np.ndarray:
        """Return the cached read-only mask of a list of (act, targets) options."""
        key = tuple(opts)
        m = self._cache.get(key)
        if m is None:
            if len(self._cache) >= MASK_CACHE_SIZE:
                self._cache.clear()
            m = self._cache[key] = self._build(opts)
        return m

    def _build(self, opts: list) -> np.ndarray:
        m = np.zeros(self.size, dtype=np.int8)
        offset, n, rows = self.offset, self.n, self._rows
        for act, targets in opts:
            off = offset[act]
            if targets is None:
                m[off : off + self.width[act]] = 1
                continue
            row = rows.get(targets)
            if row is None:
                row = rows[targets] = _seat_row(targets, n)
            m[off : off + n] |= row
            if act is Act.CLAIM_CHECK or (act is Act.HUNT and self.hunt_status):
                m[off + n : off + 2 * n] |= row
            elif act is Act.ASK:
                for k in range(1, len(self.roles)):
                    m[off + k * n : off + (k + 1) * n] |= row
        m.flags.writeable = False
        return m

    def encode(self, act: Act, target: int = -1, value: int = -1) -> int:
        """Return the flat index of a structured action (0-based target, engine value)."""
        off = self.offset[act]
        if act is Act.CLAIM_ROLE:
            return off + self._role_index[Role(value)]
        if act is Act.CLAIM_CHECK:
            return off + value * self.n + target
        if act is Act.HUNT:
            return off + max(value, 0) * self.n + target
        if act is Act.ASK:
            return off + self._role_index[Role(value)] * self.n + target
        if act is Act.ANSWER:
            return off + value
        return off + target if act in TARGETED else off

    def action_id(self, kind: str, target: int | None = None, value: str | None = None) -> int:
        """Return the index of an action named as people name it (seats numbered from 1)."""
        names = {ACT_NAMES[a]: a for a in self.acts}
        act = names.get(kind)
        if act is None:
            raise IllegalActionError(
                f"unknown action kind {kind!r}; this variant's kinds are: {', '.join(names)}"
            )
        if act in TARGETED:
            if (
                not isinstance(target, int)
                or isinstance(target, bool)
                or not (1 <= target <= self.n)
            ):
                raise IllegalActionError(
                    f"action {kind!r} needs a target seat 1..{self.n}; got {target!r}"
                )
        elif target is not None:
            raise IllegalActionError(f"action {kind!r} takes no target; got {target!r}")
        seat = -1 if target is None else target - 1
        if act is Act.CLAIM_ROLE or act is Act.ASK:
            allowed = [r.label for r in self.roles]
            if value not in allowed:
                raise IllegalActionError(
                    f"{kind} needs a role of this variant ({', '.join(allowed)}); got {value!r}"
                )
            return self.encode(act, seat, int(Role[value.upper()]))
        if act is Act.ANSWER:
            if value not in ANSWER_NAMES:
                raise IllegalActionError(
                    f"answer needs value {', '.join(map(repr, ANSWER_NAMES))}; got {value!r}"
                )
            return self.encode(act, -1, ANSWER_NAMES.index(value))
        if act is Act.CLAIM_CHECK:
            if value not in COLORS:
                raise IllegalActionError(f"claim_check needs value 'red' or 'black'; got {value!r}")
            return self.encode(act, seat, COLORS.index(value))
        if act is Act.HUNT and self.hunt_status:  # FORUM-N4
            if value not in HUNT_STATUSES:
                raise IllegalActionError(
                    f"hunt needs the status guessed, value 'mafia' or 'maniac'; got {value!r}"
                )
            return self.encode(act, seat, HUNT_STATUSES.index(value))
        if value is not None:
            raise IllegalActionError(f"action {kind!r} takes no value; got {value!r}")
        return self.encode(act, seat)

    def describe(self, index: int) -> str:
        """Return an action in plain words, seats numbered from 1."""
        if not 0 <= index < self.size:
            raise IllegalActionError(f"action index {index} is outside 0..{self.size - 1}")
        act, target, value = self.decoded[index]
        name = ACT_NAMES[act]
        if act is Act.CLAIM_ROLE:
            return f"claim_role {Role(value).label}"
        if act is Act.CLAIM_CHECK:
            return f"claim_check {target + 1} {COLORS[value]}"
        if act is Act.ASK:
            return f"ask {target + 1} {Role(value).label}"
        if act is Act.ANSWER:
            return f"answer {ANSWER_NAMES[value]}"
        if act is Act.HUNT and self.hunt_status:
            return f"hunt {target + 1} {HUNT_STATUSES[value]}"
        return f"{name} {target + 1}" if act in TARGETED else name
