"""The network: an MLP trunk shared by a masked categorical actor and a critic (CleanRL's)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import torch
import torch.nn as nn
from torch.distributions.categorical import Categorical

from baselines.ppo.ppo_config import Config
from mafia_env.engine.roles import TEAM_NAMES
from mafia_env.engine.spec import GameSpec
from mafia_env.observe import ObsLayout


def layer_init(layer: nn.Linear, std: float = np.sqrt(2), bias_const: float = 0.0) -> nn.Linear:
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias_const)
    return layer


class CategoricalMasked(Categorical):
    """A categorical over the legal actions only: illegal logits are pushed to -1e8."""

    def __init__(self, logits: torch.Tensor, mask: torch.Tensor):
        self.mask = mask
        logits = torch.where(mask, logits, torch.tensor(-1e8, dtype=logits.dtype))
        super().__init__(logits=logits)

    def entropy(self) -> torch.Tensor:
        p_log_p = self.logits * self.probs
        p_log_p = torch.where(self.mask, p_log_p, torch.zeros_like(p_log_p))
        return -p_log_p.sum(-1)


class SparseRows:
    """The rows of a mostly-zero matrix (an observation row is about 3% nonzero: one-hot
    pieces), kept compressed (CSR) so that a minibatch's rows are taken without the zeros."""

    def __init__(self, x: torch.Tensor | None, heads: torch.Tensor, csr: tuple | None = None):
        """The rows of `x`, or of the CSR arrays `csr` (row pointers, columns sorted within
        each row, values: what `to_sparse_csr` gives) of a matrix `x`'s width; `heads`: each
        row's head (`Agent._head`)."""
        if csr is None:
            with warnings.catch_warnings():  # torch calls its sparse CSR support beta
                warnings.simplefilter("ignore", UserWarning)
                s = x.to_sparse_csr()
            csr = (s.crow_indices(), s.col_indices(), s.values(), x.shape[1])
        self.crow, self.col, self.val, self.width = csr
        self.density = len(self.val) / max((len(self.crow) - 1) * self.width, 1)
        self.heads = heads

    def take(self, idx: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Rows `idx` as a CSR matrix, their transpose (CSR too: the weight gradient's product
        reads it row by row) and their heads."""
        crow_all, col_all, val_all = self.crow.numpy(), self.col.numpy(), self.val.numpy()
        i = idx.numpy()
        start = crow_all[i]
        lengths = crow_all[i + 1] - start
        n, d = len(i), self.width
        crow = np.zeros(n + 1, dtype=crow_all.dtype)
        np.cumsum(lengths, out=crow[1:])
        pos = np.repeat(start - crow[:-1], lengths) + np.arange(crow[-1])
        col, val = col_all[pos], val_all[pos]
        # the transpose: the nonzeros by column, each column's rows in order (a stable sort:
        # NumPy's radix sort on narrow integers)
        key = col.astype(np.int16) if d < 2**15 else col
        order = np.argsort(key, kind="stable")
        row = np.repeat(np.arange(n, dtype=col.dtype), lengths)
        ccol = np.zeros(d + 1, dtype=crow_all.dtype)
        np.cumsum(np.bincount(col, minlength=d), out=ccol[1:])
        t = torch.from_numpy
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            return (
                torch.sparse_csr_tensor(t(crow), t(col), t(val), (n, d)),
                torch.sparse_csr_tensor(t(ccol), t(row[order]), t(val[order]), (d, n)),
                self.heads[idx],
            )


class _SparseLinear(torch.autograd.Function):
    """``x @ weight.T + bias`` for a sparse `x` (CSR, with its transpose as CSR for the
    gradient): the products of the nonzero inputs only, forward and backward (a weight column
    no row reads gets the gradient 0, as the dense product gives it). The forward sums each
    row's weight columns (`embedding_bag`, about twice as fast as a CSR product here)."""

    @staticmethod
    def forward(ctx: Any, x: torch.Tensor, xt: torch.Tensor, weight, bias) -> torch.Tensor:
        ctx.xt = xt
        crow = x.crow_indices()
        out = torch.nn.functional.embedding_bag(
            x.col_indices(),
            weight.t().contiguous(),  # (a strided view would be read many times slower)
            crow[:-1],
            mode="sum",
            per_sample_weights=x.values(),
        )
        return out + bias

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> tuple:
        gw = None
        if ctx.needs_input_grad[2]:  # each input column's sum of its rows' gradients
            xt = ctx.xt
            gw = torch.nn.functional.embedding_bag(
                xt.col_indices(),
                grad,
                xt.crow_indices()[:-1],
                mode="sum",
                per_sample_weights=xt.values(),
            ).t()
        gb = grad.sum(0) if ctx.needs_input_grad[3] else None
        return None, None, gw, gb


class _Tanh(torch.autograd.Function):
    """`torch.tanh`, by NumPy's kernel (several times faster than this torch build's on CPU;
    the two differ at the last bit)."""

    @staticmethod
    def forward(ctx: Any, x: torch.Tensor) -> torch.Tensor:
        y = torch.from_numpy(np.tanh(x.detach().numpy()))
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> torch.Tensor:
        (y,) = ctx.saved_tensors
        return torch.ops.aten.tanh_backward(grad, y)


def _log_softmax(logits: torch.Tensor, fused: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
    """The log-probabilities and probabilities of masked `logits` (illegal actions at -1e8):
    Categorical's normalisation, step for step (its numbers, bit for bit), or with `fused` by
    the fused kernels, which differ at the last bit and are three times as fast here
    (`logsumexp` spends ten times as long on the exponentials of the illegal actions' -1e8)."""
    if fused:
        return torch.log_softmax(logits, dim=-1), torch.softmax(logits, dim=-1)
    logp = logits - logits.logsumexp(dim=-1, keepdim=True)
    return logp, torch.softmax(logp, dim=-1)


def team_matrix(rules_variant: str | GameSpec, knobs: dict[str, Any] | None = None) -> np.ndarray:
    """Return the [roles, teams] one-hot matrix mapping the observed role to its team."""
    roles = GameSpec.make(rules_variant, **(knobs or {})).roles
    m = np.zeros((len(roles), len(TEAM_NAMES)), dtype=np.float32)
    for i, r in enumerate(roles):
        m[i, int(r.team)] = 1
    return m


class Agent(nn.Module):
    """An MLP trunk shared by the actor and critic heads; optional per-team heads."""

    def __init__(
        self,
        obs_size: int,
        action_size: int,
        hidden: int,
        role_slice: tuple[int, int],
        teams: np.ndarray,
        per_team: bool,
    ):
        super().__init__()
        self.action_size = action_size
        self.heads = teams.shape[1] if per_team else 1
        self.role_slice = role_slice
        self.obs_options: dict[str, Any] = {}  # the observation options it reads (make_agent)
        self.register_buffer("teams", torch.from_numpy(teams))
        self.register_buffer("ret_mean", torch.zeros(()))
        self.register_buffer("ret_std", torch.ones(()))
        self.trunk = nn.Sequential(
            layer_init(nn.Linear(obs_size, hidden)),
            nn.Tanh(),
            layer_init(nn.Linear(hidden, hidden)),
            nn.Tanh(),
        )
        # the first layer's weight kept by input column ([in, out] in memory, the usual
        # shape as a view): the sparse rows read and update its columns
        first = self.trunk[0]
        first.weight = nn.Parameter(first.weight.detach().t().contiguous().t())
        self.critic = layer_init(nn.Linear(hidden, self.heads), std=1.0)
        self.actor = layer_init(nn.Linear(hidden, action_size * self.heads), std=0.01)

    def sparse_rows(self, x: torch.Tensor) -> SparseRows | None:
        """`x` kept sparse for `get_action_and_value(rows=...)`, where that pays (None: not)."""
        if x.shape[0] < 64:
            return None
        rows = SparseRows(x, self._head(x))
        return rows if rows.density < 0.25 else None

    def features(self, x: torch.Tensor | None, rows: tuple | None = None) -> torch.Tensor:
        """The trunk's output; with `rows` (a `SparseRows.take`, `x` unread) its first layer
        reads the nonzero inputs only, and the tanh is NumPy's: the same function up to the
        last bit of the float arithmetic."""
        if rows is None:
            return self.trunk(x)
        first, second = self.trunk[0], self.trunk[2]
        h = _Tanh.apply(_SparseLinear.apply(rows[0], rows[1], first.weight, first.bias))
        return _Tanh.apply(second(h))

    def _head(self, x: torch.Tensor) -> torch.Tensor:
        """Return each row's team index (0 without per-team heads)."""
        if self.heads == 1:
            return torch.zeros(x.shape[0], dtype=torch.long)
        a, b = self.role_slice
        return (x[:, a:b] @ self.teams).argmax(dim=1)

    def get_value(self, x: torch.Tensor) -> torch.Tensor:
        """Return the normalised value of each observation."""
        return self._value(self.trunk(x), self._head(x))

    def _value(self, h: torch.Tensor, head: torch.Tensor) -> torch.Tensor:
        return self.critic(h).gather(1, head[:, None]).squeeze(1)

    def denorm(self, v: torch.Tensor) -> torch.Tensor:
        return v * self.ret_std + self.ret_mean

    def _logits(self, h: torch.Tensor, head: torch.Tensor) -> torch.Tensor:
        out = self.actor(h)
        if self.heads == 1:
            return out
        out = out.view(h.shape[0], self.heads, self.action_size)
        return out[torch.arange(h.shape[0]), head]

    def logits(self, x: torch.Tensor) -> torch.Tensor:
        return self._logits(self.trunk(x), self._head(x))

    def sample(
        self, x: torch.Tensor, mask: torch.Tensor, generator: torch.Generator | None = None
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Sample an action from the masked policy; return it, its log-probability and the
        normalised value: `get_action_and_value`'s numbers and draws, without the entropy
        (what a rollout needs)."""
        h, head = self.trunk(x), self._head(x)
        logits = torch.where(mask, self._logits(h, head), torch.tensor(-1e8, dtype=h.dtype))
        logp, probs = _log_softmax(logits)
        action = torch.multinomial(probs, 1, generator=generator).squeeze(1)
        return action, logp.gather(1, action[:, None]).squeeze(1), self._value(h, head)

    def get_action_and_value(
        self,
        x: torch.Tensor | None,
        mask: torch.Tensor,
        action: torch.Tensor | None = None,
        generator: torch.Generator | None = None,
        rows: tuple | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """Sample an action (unless given) from the masked policy; return it, its log-probability,
        the policy's entropy and the normalised value.

        The arithmetic of `CategoricalMasked`, step for step (so the same samples and the same
        numbers), without building and validating a distribution object per call. `rows`: the
        observations kept sparse (`sparse_rows(...).take`; `x` is then unread), as the PPO
        update passes its minibatches; the function is then the same up to the last bit of
        the float arithmetic (`features`; the normalisation by the fused kernels).
        """
        h = self.features(x, rows)
        head = self._head(x) if rows is None else rows[2]
        logits = torch.where(mask, self._logits(h, head), torch.tensor(-1e8, dtype=h.dtype))
        logp, probs = _log_softmax(logits, fused=rows is not None)
        if action is None:
            action = torch.multinomial(probs, 1, generator=generator).squeeze(1)
        entropy = -torch.where(mask, logp * probs, torch.zeros_like(probs)).sum(-1)
        return action, logp.gather(1, action[:, None]).squeeze(1), entropy, self._value(h, head)


def make_agent(cfg: Config, obs_size: int, action_size: int) -> Agent:
    spec = cfg.game_spec()
    start = ObsLayout.of(spec).index("role")
    role_slice = (start, start + len(spec.roles))
    agent = Agent(
        obs_size, action_size, cfg.hidden_size, role_slice, team_matrix(spec), cfg.per_team
    )
    agent.obs_options = cfg.obs_options()
    return agent


__all__ = ["Agent", "CategoricalMasked", "SparseRows", "layer_init", "make_agent", "team_matrix"]
