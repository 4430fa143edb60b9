"""How well the beliefs predict the hidden roles: log-loss and calibration error.

`measure(variant, n, opponent, games)` plays games in which every seat is played by the
policy `opponent`, asks one seat per game (drawn at random) for its belief at a few moves
(drawn at random), and scores three predictions of every other seat's role: the *prior*
(uniform over the deals the seat's own role and teammates allow), *deduction* and *Bayes*
(``model=opponent``: the model that plays the table). A prediction is the probability given
to one role of one seat; the log-loss is the mean of ``-log p(true role)`` over (query, other
seat); the expected calibration error (ECE) bins the predictions by probability (10 bins) and
averages ``|mean predicted - frequency|`` weighted by the bin's share. ``ece_open`` is the
same over the predictions strictly between 0 and 1 (the certain ones, right by construction,
left out).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mafia_env.actions import ActionLayout
from mafia_env.belief import belief, tracker
from mafia_env.belief.bayes import resolve_model
from mafia_env.belief.deals import DealSpace
from mafia_env.engine.events import PUBLIC, Ev
from mafia_env.engine.game import Game
from mafia_env.engine.roles import Role
from mafia_env.observe import VectorObserver
from mafia_env.seating.policies import load_policy
from mafia_env.variants import get_variant

METHODS = ("prior", "deduction", "bayes")


@dataclass
class Scores:
    """The predictions of one method: (probability, outcome) pairs and per-seat log-losses."""

    p: list[float] = field(default_factory=list)
    y: list[int] = field(default_factory=list)
    losses: list[float] = field(default_factory=list)

    def add(self, m: np.ndarray, truth: list[int], seat: int) -> None:
        for s, r in enumerate(truth):
            if s == seat:
                continue
            self.losses.append(-math.log(max(float(m[s, r]), 1e-12)))
            for k in range(m.shape[1]):
                self.p.append(float(m[s, k]))
                self.y.append(int(k == r))

    def summary(self) -> dict[str, float]:
        p, y = np.array(self.p), np.array(self.y)
        is_open = (p > 1e-9) & (p < 1 - 1e-9)
        bins, bins_open = reliability(p, y), reliability(p[is_open], y[is_open])
        return {
            "predictions": len(p),
            "log_loss": float(np.mean(self.losses)) if self.losses else float("nan"),
            "ece": _bins_ece(bins),
            "ece_open": _bins_ece(bins_open),
            "bins": bins,
            "bins_open": bins_open,
        }


def _bins_ece(bins: list[dict]) -> float:
    """Return the ECE of a reliability table (what `ece` gives for its predictions)."""
    total = sum(b["count"] for b in bins)
    if not total:
        return float("nan")
    return float(sum(b["count"] * abs(b["predicted"] - b["observed"]) for b in bins) / total)


def _merge_bins(a: list[dict], b: list[dict]) -> list[dict]:
    """Return the reliability table of two tables' predictions together."""
    out = {}
    for row in a + b:
        c = out.setdefault(row["bin"], {"bin": row["bin"], "count": 0, "p": 0.0, "y": 0.0})
        c["count"] += row["count"]
        c["p"] += row["count"] * row["predicted"]
        c["y"] += row["count"] * row["observed"]
    return [
        {
            "bin": k,
            "count": c["count"],
            "predicted": c["p"] / c["count"],
            "observed": c["y"] / c["count"],
        }
        for k, c in sorted(out.items())
    ]


def merge(a: dict, b: dict) -> dict:
    """Return the summary (`Scores.summary`) of two summaries' predictions together: the
    counts, the log-loss, the ECE and the bins exactly (the log-loss weighs each by its
    predictions: every query scores the same roles). ``ece_open`` needs both parts' open
    bins (summaries written before they were kept lack them): else it is None."""
    n = a["predictions"] + b["predictions"]
    out = {
        "predictions": n,
        "log_loss": (a["log_loss"] * a["predictions"] + b["log_loss"] * b["predictions"]) / n,
        "bins": _merge_bins(a["bins"], b["bins"]),
    }
    out["ece"] = _bins_ece(out["bins"])
    if "bins_open" in a and "bins_open" in b:
        out["bins_open"] = _merge_bins(a["bins_open"], b["bins_open"])
        out["ece_open"] = _bins_ece(out["bins_open"])
    else:
        out["ece_open"] = None
    if "query_ms" in a and "query_ms" in b:
        out["query_ms"] = (a["query_ms"] * a["predictions"] + b["query_ms"] * b["predictions"]) / n
    return out


def merge_cells(old: dict, new: dict) -> dict:
    """Return one cell (`play_and_score`'s result) of two cells' games, played from
    different seeds (a cell written before seeds were kept was played from seed 0)."""
    seeds_old = old.get("games", {}).get("seeds", [0])
    seeds_new = new.get("games", {}).get("seeds", [0])
    if set(seeds_old) & set(seeds_new):
        raise ValueError(
            f"both cells hold games of seed(s) {sorted(set(seeds_old) & set(seeds_new))}: "
            "add games from another --seed"
        )
    methods = [m for m in METHODS if m in old and m in new]
    out: dict[str, Any] = {m: merge(old[m], new[m]) for m in methods}
    out["games"] = {
        "played": old["games"]["played"] + new["games"]["played"],
        "seeds": sorted(seeds_old + seeds_new),
    }
    if "seconds" in old and "seconds" in new:
        out["seconds"] = old["seconds"] + new["seconds"]
    return out


def reliability(p: np.ndarray, y: np.ndarray, bins: int = 10) -> list[dict[str, float]]:
    """Return the reliability table: per probability bin, its predictions, their mean and
    the frequency of the outcome (the bins ECE weighs)."""
    out = []
    if len(p) == 0:
        return out
    idx = np.minimum((p * bins).astype(int), bins - 1)
    for b in range(bins):
        sel = idx == b
        if sel.any():
            out.append(
                {
                    "bin": f"{b / bins:.1f}-{(b + 1) / bins:.1f}",
                    "count": int(sel.sum()),
                    "predicted": float(p[sel].mean()),
                    "observed": float(y[sel].mean()),
                }
            )
    return out


def ece(p: np.ndarray, y: np.ndarray, bins: int = 10) -> float:
    """Return the expected calibration error of predictions `p` of outcomes `y`."""
    return _bins_ece(reliability(p, y, bins))


def prior_matrix(game: Game, seat: int) -> np.ndarray:
    """Return the marginals [n, R] of the deals the seat's own role and teammates allow."""
    space = DealSpace(game.rules, game.n)
    allowed = np.ones((game.n, len(space.roles)), dtype=bool)
    bit = 1 << seat
    mates = {}
    mafia = [i for i, r in enumerate(space.roles) if r.team.name == "MAFIA"]
    for kind, actor, target, value, vis in game.events:
        if vis != PUBLIC and vis & bit and actor == seat:
            if kind == Ev.ROLE:
                allowed[seat] = False
                allowed[seat, space.index[Role(value)]] = True
            elif kind == Ev.TEAMMATE:
                mates[target] = Role(value)
    own = space.roles[int(np.flatnonzero(allowed[seat])[0])]
    if own.team.name == "MAFIA":
        for s in range(game.n):
            if s != seat and s not in mates:
                allowed[s, mafia] = False
        for s, r in mates.items():
            row = np.zeros(len(space.roles), dtype=bool)
            if game.rules.don_known or r is not Role.MAFIA:
                row[space.index[r]] = True
            else:
                row[mafia] = True
            allowed[s] = row
    total = space.count(allowed)
    m = np.zeros((game.n, len(space.roles)))
    for s in range(game.n):
        for r in np.flatnonzero(allowed[s]).tolist():
            a = allowed.copy()
            a[s] = False
            a[s, r] = True
            m[s, r] = space.count(a) / total
    return m


def play_and_score(
    variant: str,
    n: int,
    opponent: str,
    games: int,
    queries: int = 10,
    seed: int = 0,
    methods: tuple[str, ...] = METHODS,
    limit: float | None = None,
) -> dict[str, dict]:
    """Play `games` games of `opponent` on every seat and score the beliefs (module doc)."""
    rules = get_variant(variant)
    layout = ActionLayout(rules, n)
    policy = load_policy(opponent, variant=variant, num_players=n, seed=seed)
    # Bayes's model, loaded once for every game (as each game's tracker would load it: a
    # network's checkpoint costs seconds a load)
    model = resolve_model(opponent, rules, n)
    scores = {m: Scores() for m in methods}
    times = {m: [] for m in methods}
    rng = random.Random(seed)
    start = time.perf_counter()
    played = 0
    for gi in range(games):  # game gi of seed s is dealt from seed s * 100_003 + gi
        if limit is not None and time.perf_counter() - start > limit:
            break
        g = Game(rules, n, seed * 100_003 + gi)
        obs = VectorObserver(rules, n)
        obs.reset(g)
        seat = rng.randrange(n)
        truth = [DealSpace(rules, n).index[r] for r in g.roles]
        length = 0
        record = []  # the game's moves first: the queries are drawn over its length
        sim = Game(rules, n, seed * 100_003 + gi)
        o2 = VectorObserver(rules, n)
        o2.reset(sim)
        while not sim.over and length < 3000:
            a = policy.act(o2.observe(sim, sim.actor), layout.shared_mask(sim))
            record.append(a)
            sim.apply(*layout.decoded[a])
            length += 1
        marks = sorted(rng.sample(range(1, length + 1), min(queries, length)))
        prior = prior_matrix(g, seat)
        for moves, a in enumerate(record, 1):
            g.apply(*layout.decoded[a])
            if "deduction" in methods or "bayes" in methods:
                tracker(g, seat).update()  # kept up to date move by move (its masks too)
                if "bayes" in methods:
                    tracker(g, seat, model).update()
            if marks and moves == marks[0]:
                marks.pop(0)
                if g.over:
                    break
                if "prior" in methods:
                    scores["prior"].add(prior, truth, seat)
                if "deduction" in methods:
                    t0 = time.perf_counter()
                    scores["deduction"].add(belief(g, seat).matrix(), truth, seat)
                    times["deduction"].append(time.perf_counter() - t0)
                if "bayes" in methods:
                    t0 = time.perf_counter()
                    scores["bayes"].add(belief(g, seat, model).matrix(), truth, seat)
                    times["bayes"].append(time.perf_counter() - t0)
        played += 1
    out = {m: scores[m].summary() for m in methods}
    for m in methods:
        if times[m]:
            out[m]["query_ms"] = 1000 * float(np.mean(times[m]))
    out["games"] = {"played": played, "seeds": [seed]}
    return out


__all__ = [
    "METHODS",
    "Scores",
    "ece",
    "merge",
    "merge_cells",
    "play_and_score",
    "prior_matrix",
    "reliability",
]
