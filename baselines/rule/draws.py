"""The bot's seeded draws among equals, for a whole batch: in row order, or every way.

A decision over a batch (`baselines.rule.handlers`) returns a `Draws`: for each pick it
makes, in the order it makes them, how many choices tie for best in each row (`counts`:
a row with 2 or more draws one of them uniformly from the bot's generator), and `choose`,
which maps the place drawn among the ties of each pick (0 where a row does not draw; None
where no row draws) to each row's action: a legal one, or NONE. A row whose choice is NONE
falls back: pass where passing is legal, else a uniformly random legal action (one more
draw).

`play` makes the draws from the generator row after row, as the rows' games would one after
another: a batch decides as its rows do one by one, in order (one game is a batch of one).
`spread` walks every way the draws can fall, in the order a scripted generator would, and
returns each action's probability.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import product

import numpy as np

from baselines.rule.reading import NONE, SeenBatch

Places = list[np.ndarray | None]  # per pick, each row's place among its ties (None: all 0)


class Draws:
    """A decision's picks (`counts`: [R] ties per pick) and its choice once they are drawn
    (`choose`: places -> [R] legal action indices, NONE for none). `sure` marks the rows
    whose choice is an action whenever they draw (no fallback draw can follow theirs)."""

    __slots__ = ("choose", "counts", "parts", "sure")

    def __init__(
        self,
        counts: list[np.ndarray],
        choose: Callable[[Places], np.ndarray],
        sure: np.ndarray | bool = False,
        parts: list[tuple[Draws, np.ndarray]] | None = None,
    ):
        self.counts, self.choose, self.sure, self.parts = counts, choose, sure, parts

    def choice(self, places: Places, need: np.ndarray) -> np.ndarray:
        """`choose` for the rows `need` (other rows: NONE or any choice); of the decisions
        `combine` joined, only those holding such rows choose."""
        if self.parts is None:
            return self.choose(places)
        out = np.full(len(need), NONE, dtype=np.int64)
        for d, rows in self.parts:
            on = rows & need
            if np.count_nonzero(on):
                np.copyto(out, d.choose(places[: len(d.counts)]), where=on)
        return out


def fixed(choice: np.ndarray) -> Draws:
    """A decision that draws nothing: `choice` [R] (NONE: none)."""
    return Draws([], lambda places: choice)


class Tie:
    """The seats (or actions) tied for best at one pick: [R, W] bool, in seat order."""

    __slots__ = ("_first", "count", "tied")

    def __init__(self, tied: np.ndarray):
        self.tied = tied
        self.count = tied.sum(axis=1)
        self._first: np.ndarray | None = None

    def seat(self, place: np.ndarray | None) -> np.ndarray:
        """[R]: each row's tied seat at `place` (its place among the ties; None: the first
        everywhere), NONE where nothing ties."""
        if place is None:
            if self._first is None:
                self._first = np.where(self.count > 0, self.tied.argmax(axis=1), NONE)
            return self._first
        k = (self.tied.cumsum(axis=1) > place[:, None]).argmax(axis=1)
        return np.where(self.count > 0, k, NONE)


def combine(parts: list[tuple[Draws, np.ndarray]], R: int) -> Draws:
    """One `Draws` of decisions that hold disjoint rows (each part's rows: [R] bool)."""
    if len(parts) == 1:
        return parts[0][0]
    width = max(len(d.counts) for d, _ in parts)
    counts = [np.zeros(R, dtype=np.int64) for _ in range(width)]
    sure = np.zeros(R, dtype=bool)
    for d, rows in parts:  # (disjoint rows: each row's counts are its part's)
        for c, part in zip(counts, d.counts, strict=False):
            np.copyto(c, part, where=rows)
        if d.sure is True:
            sure |= rows
        elif d.sure is not False:
            sure |= rows & d.sure

    def choose(places: Places) -> np.ndarray:
        out = np.full(R, NONE, dtype=np.int64)
        for d, rows in parts:  # (in place: np.where(rows, choice, out))
            np.copyto(out, d.choose(places[: len(d.counts)]), where=rows)
        return out

    return Draws(counts, choose, sure, parts)


def play(draws: Draws, b: SeenBatch, rng: np.random.Generator) -> np.ndarray:
    """Return each row's action, drawing from `rng` row after row: first the row's picks
    that tie (a place among the ties each), then its fallback draw where one follows."""
    R, pass_legal = b.R, b.pass_legal
    drawn = np.zeros(R, dtype=bool)
    for c in draws.counts:
        drawn |= c >= 2
    places: Places = [None] * len(draws.counts)
    order = np.flatnonzero(drawn).tolist()
    passing = bool(pass_legal.all())
    first = None
    if len(order) < R and not passing:
        # a row that draws nothing falls back where its choice is none and it may not pass
        first = draws.choice(places, ~drawn)
        falls = ~drawn & ~pass_legal & (first < 0)
        if np.count_nonzero(falls):
            order = np.flatnonzero(falls | drawn).tolist()
    fallback = draw_in_order(draws, b, rng, places, drawn, order, passing) if order else {}
    if first is None:
        choice = draws.choose(places)
    else:
        choice = first
        if np.count_nonzero(drawn):
            choice = np.where(drawn, draws.choice(places, drawn), first)
    out = np.where(choice >= 0, choice, b.pass_idx)
    if fallback:
        out[list(fallback)] = list(fallback.values())
    return out


def draw_in_order(
    draws: Draws,
    b: SeenBatch,
    rng: np.random.Generator,
    places: Places,
    drawn: np.ndarray,
    order: list[int],
    passing: bool,
) -> dict[int, int]:
    """Draw the rows `order` in turn: each row's places among its ties (into `places`), then
    its fallback draw where one follows. Return the fallback actions by row."""
    counts = [c.tolist() for c in draws.counts]
    drawn_l = drawn.tolist()
    # a row that draws and may not pass: a fallback draw follows if its choice is none,
    # known only once its picks are drawn (rare: night choices are actions once drawn)
    risky = [False] * b.R if passing else (drawn & ~b.pass_legal & ~draws.sure).tolist()
    fallback: dict[int, int] = {}
    for i in order:
        if drawn_l[i]:
            for j, c in enumerate(counts):
                if c[i] >= 2:
                    if places[j] is None:
                        places[j] = np.zeros(b.R, dtype=np.int64)
                    places[j][i] = rng.integers(c[i])
            if not risky[i] or draws.choice(places, drawn)[i] >= 0:  # one row's: rare
                continue
        legal = b.masks[i].nonzero()[0]
        fallback[i] = int(legal[rng.integers(legal.size)])
    return fallback


# a row whose draws can fall more ways than this has its choices worked out on copies of
# itself, a batch of ways a call (`spread`'s `copies`): a noisy style's speech (a draw for the
# noise, one over every legal act, one or two over tied seats) falls some 200,000 ways, and a
# call over the whole batch for each of them cost a minute
MANY_WAYS = 256
COPIES = 4096  # the most copies of a row decided at once


def spread(
    draws: Draws, b: SeenBatch, copies: Callable[[int, int], Draws] | None = None
) -> np.ndarray:
    """Return [R, actions]: each action's probability, every way the draws can fall (the
    places of each row's picks that tie, then its fallback draw) weighed uniformly, summed
    in the order a scripted generator walks them. `copies(i, k)`: the decision of `k` copies
    of row `i` (the same draws, each copy's own places); given, a row of more than
    `MANY_WAYS` ways has them chosen on its copies, `COPIES` ways a call."""
    R, masks, pass_legal = b.R, b.masks, b.pass_legal
    counts = [c.tolist() for c in draws.counts]
    # each row's picks that draw (2 or more ties), and every way they can fall
    drawing = [[j for j, c in enumerate(counts) if c[i] >= 2] for i in range(R)]
    ways = [list(product(*(range(counts[j][i]) for j in js))) for i, js in enumerate(drawing)]
    twins = {}  # row -> its copies' decision and the picks there that draw, where they match
    if copies is not None:
        for i in (i for i, w in enumerate(ways) if len(w) > MANY_WAYS):
            twin = copies(i, min(len(ways[i]), COPIES))
            # (a decision's picks are the batch's: the copies may make fewer, or in other
            # places, but the row's own ties, in order, must be the same)
            js = [j for j, c in enumerate(twin.counts) if c[0] >= 2]
            if [int(twin.counts[j][0]) for j in js] == [counts[j][i] for j in drawing[i]]:
                twins[i] = (twin, js)
    many = [i in twins for i in range(R)]
    layers = max([len(w) for w, m in zip(ways, many, strict=True) if not m], default=0)
    actions = []
    for layer in range(layers):  # the choice of every row's `layer`th way, at once
        places = [np.zeros(R, dtype=np.int64) for _ in counts]
        for i, (js, w) in enumerate(zip(drawing, ways, strict=True)):
            if layer < len(w) and not many[i]:
                for j, x in zip(js, w[layer], strict=True):
                    places[j][i] = x
        actions.append(draws.choose(places).tolist())
    chosen = [[a[i] for a in actions[: len(w)]] for i, w in enumerate(ways)]
    for i, (twin, js) in twins.items():
        chosen[i] = _on_copies(twin, js, ways[i])
    out = np.zeros(masks.shape, dtype=np.float64)
    for i in range(R):
        ks = [counts[j][i] for j in drawing[i]]
        at = {w: layer for layer, w in enumerate(ways[i])}
        legal = masks[i].nonzero()[0]
        pending: list[tuple[int, ...]] = [()]
        while pending:  # the scripted walk: each script's draws, zero past its end
            script = pending.pop()
            picks = script[: len(ks)] + (0,) * max(0, len(ks) - len(script))
            a = chosen[i][at[picks]]
            calls = list(ks)
            if a < 0:
                if pass_legal[i]:
                    a = b.pass_idx
                else:
                    a = int(legal[script[len(ks)] if len(script) > len(ks) else 0])
                    calls.append(legal.size)
            p = 1.0
            for k in calls:
                p /= k
            for j in range(len(script), len(calls)):
                pending += [script + (0,) * (j - len(script)) + (v,) for v in range(1, calls[j])]
            out[i, a] += p
    return out


def _on_copies(twin: Draws, js: list[int], ways: list[tuple[int, ...]]) -> list[int]:
    """A row's choice in each of its `ways` (the places of its picks `js`), chosen on copies
    of the row (`twin`: their decision), a copy a way, as many a call as there are copies."""
    k = len(twin.counts[0]) if twin.counts else 1
    out: list[int] = []
    for start in range(0, len(ways), k):
        chunk = np.array(ways[start : start + k], dtype=np.int64).reshape(-1, len(js))
        places = [np.zeros(k, dtype=np.int64) for _ in twin.counts]
        for col, j in enumerate(js):
            places[j][: len(chunk)] = chunk[:, col]
        out += twin.choose(places)[: len(chunk)].tolist()
    return out


__all__ = ["COPIES", "MANY_WAYS", "NONE", "Draws", "Tie", "combine", "fixed", "play", "spread"]
