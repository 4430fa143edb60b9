"""The global state of a table: what a centralised critic may see, for training only.

MAPPO-style trainers (BenchMARL, AgileRL, RLlib, TorchRL's ``return_state``) give the critic
the whole table while each actor sees only its own observation. `StateLayout` is that whole
table as one float32 vector in [0, 1], in named pieces like an observation's
(`StateLayout.views`):

| piece | shape | what |
|---|---|---|
| ``seats`` | ``(n, P)`` | every seat's private row as its observation has it: seat, role, |
| | | the roles it knows, its own checks, heals and night choices |
| ``table`` | ``(D - P,)`` | the public part of the observation (the same for every seat) |
| ``acting`` | ``(n,)`` | the seats choosing in this step, night turns included (the AEC |
| | | env: the acting seat; the parallel view: the round) |
| ``turn`` | ``(T + 1,)`` | the kind of turn taken now (the layout's ``T`` turns), or over |

where ``P`` and ``D`` are the private and whole sizes of the vector observation
(`mafia_env.observe.ObsLayout`). The state holds every hidden fact (the roles of all seats,
every private result), so it is for centralised training only: never feed it to an actor,
and never use it to play.
"""

from __future__ import annotations

import numpy as np

from mafia_env.engine.game import Game
from mafia_env.observe import ObsLayout, VectorObserver


class StateLayout:
    """Names, shapes and offsets of the pieces of the global state of one table."""

    def __init__(self, obs: ObsLayout):
        n = obs.spec.n
        self.n = n
        self.obs = obs
        self.private_size = p = obs.private_size
        self.turns = list(obs.turns)
        self.pieces = [
            ("seats", (n, p)),
            ("table", (obs.size - p,)),
            ("acting", (n,)),
            ("turn", (len(self.turns) + 1,)),
        ]
        self.offsets: dict[str, tuple[int, tuple[int, ...]]] = {}
        pos = 0
        for name, shape in self.pieces:
            self.offsets[name] = (pos, shape)
            pos += int(np.prod(shape))
        self.size = pos
        self._table = self.offsets["table"][0]
        self._acting = self.offsets["acting"][0]
        self._turn = self.offsets["turn"][0]
        self._turn_pos = {int(t): i for i, t in enumerate(self.turns)}

    def views(self, state: np.ndarray) -> dict[str, np.ndarray]:
        """Return named views into a state vector (no copies): ``views(s)["seats"][3]``."""
        return {
            name: state[off : off + int(np.prod(shape))].reshape(shape)
            for name, (off, shape) in self.offsets.items()
        }

    def write(
        self,
        observer: VectorObserver,
        game: Game,
        acting: list[int] | tuple[int, ...] = (),
        out: np.ndarray | None = None,
    ) -> np.ndarray:
        """Return the state of `game` (a new vector, or written into `out`): `observer` is the
        table's vector observer (it follows every seat), `acting` the seats choosing now."""
        if out is None:
            out = np.zeros(self.size, dtype=np.float32)
        else:
            out[:] = 0
        seat = acting[0] if acting else 0
        obs = observer.observe(game, seat)  # catches up; the public part with its live facts
        p = self.private_size
        out[: self._table] = observer.priv.reshape(-1)
        out[self._table : self._acting] = obs[p:]
        for s in acting:
            out[self._acting + s] = 1
        turn = self._turn_pos.get(observer.turn, -1) if not observer.over else -1
        out[self._turn + (turn if turn >= 0 else len(self.turns))] = 1
        return out


__all__ = ["StateLayout"]
