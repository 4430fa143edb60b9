"""The differential check itself: it must see a difference wherever one is planted.

`play_both` compares the C core against the Python engine move by move; a check that never
fails proves nothing, so each test here plants one difference in what the core reports (an
observation value, a mask byte, an event, who acts) from a given move on and asserts that the
check names that move.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import mafia_env
from mafia_env.ccore import diff as ccore_diff

pytestmark = pytest.mark.skipif(not mafia_env.ccore.available(), reason="the C core is not built")

FROM = 25  # the planted difference shows from this many core moves on


class _Planted:
    """A core that answers like the real one until `FROM` moves were applied, then lies in
    one place (`what`)."""

    def __init__(self, core, what: str):
        self._core, self._what, self._moves = core, what, 0

    def __getattr__(self, name):
        return getattr(self._core, name)

    def apply(self, i, index):
        self._moves += 1
        return self._core.apply(i, index)

    def _lying(self, what: str) -> bool:
        return self._what == what and self._moves >= FROM

    def observe(self, i, seat, out):
        self._core.observe(i, seat, out)
        if self._lying("observation"):
            out[3] = np.float32(-0.0) if out[3] == 0 else -out[3]  # one bit of one value

    def mask(self, i):
        m = self._core.mask(i)
        if self._lying("mask"):
            m = bytes([1 - m[0]]) + m[1:]
        return m

    def events(self, i, start):
        ev = self._core.events(i, start)
        if self._lying("event") and ev:
            ev = ev[:-1]
        return ev

    def status(self, i):
        st = self._core.status(i)
        if self._lying("actor") and st[0] >= 0:
            st = ((st[0] + 1) % 10, *st[1:])
        return st


@pytest.mark.parametrize("what", ["observation", "mask", "event", "actor"])
def test_a_planted_difference_is_named_at_its_move(monkeypatch, what):
    real = ccore_diff.new_core
    monkeypatch.setattr(ccore_diff, "new_core", lambda *a, **k: _Planted(real(*a, **k), what))
    rules = mafia_env.VARIANTS["sport"]
    for seed in range(40):  # the first game that reaches the move and shows the lie
        bad = ccore_diff.play_both(rules, 10, seed, random.Random(seed))
        if bad is not None:
            break
    assert bad is not None, f"a planted {what} difference went unseen"
    assert bad.move >= FROM and "differ at move" in str(bad)
    if what == "event":
        assert "event" in bad.what


def test_the_honest_core_shows_no_difference():
    rules = mafia_env.VARIANTS["sport"]
    for seed in range(5):
        assert ccore_diff.play_both(rules, 10, seed, random.Random(seed)) is None
