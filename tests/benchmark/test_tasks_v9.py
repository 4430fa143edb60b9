"""Benchmark tasks of version 9 (issue 45): city-13's seat-filler (its network on the mafia's
seats) trained against the zoo under its team's agreed shot, and online-10's network of
versions 4-8 playing under that shot; every other file and seat is version 8's, and so are
the other pairs."""

from __future__ import annotations

import hashlib

import pytest

import baselines.shipped as shipped
from baselines import pins
from baselines.belief_talk import BeliefTalk
from baselines.pins import PINS_V8
from mafia_env.engine.spec import GameSpec
from mafia_env.seating.policies import load_policy
from mafia_env.tasks import LATEST, TASKS_BY_VERSION, TASKS_V8, TASKS_V9, get_task
from tests.benchmark.test_benchmark import no_version_after_latest
from tests.benchmark.test_tasks_v5 import (
    FILLER_V9,
    check_attacker_from_version_4,
    check_filler_files,
    check_filler_retrained,
    check_one_retrained,
    check_results_reused,
)

# Version 9: version 8's tables, seeds, games, opponents, seats and rules; city-13's and
# online-10's filler files are others.
PINNED_V9 = {
    "sport-10": "6a2511d3f609dec5",
    "city-13": "e7f694fcaf8ce1f8",
    "club-10": "136b31375b974f35",
    "online-10": "94039a9cd254a91e",
    "forum-10": "9cd90e9d1c483c76",
    "minimal-10": "66e1c03461090142",
}
RETRAINED = ("city-13", "online-10")
OLD = {  # versions 4-8's files
    "city-13": shipped.SHIPPED / "filler/v8/city-13.pt",
    "online-10": shipped.SHIPPED / "filler/v8/online.pt",
}
NEW = {"city-13": "e1931f8475b95ab1", "online-10": "02dead87a7250fc1"}
STAMPED = {"online-10": shipped.SHIPPED / "filler/v11/online.pt"}  # versions 9-11's


def test_version_9_definitions_are_pinned():
    assert LATEST >= 9 and TASKS_BY_VERSION[9] is TASKS_V9  # the latest: test_tasks_v10.py
    check_filler_retrained(9, PINNED_V9, RETRAINED, NEW)
    no_version_after_latest(r"2, 3, .*, 8, 9")


def test_the_filler_pins_are_the_shipped_files_and_the_new_ones_agree():
    """Every task's filler file is the one pinned; city-13's (retrained) and online-10's (the
    same network, stamped) play under the talk layer's agreed shot alone, as their files
    record, and versions 4-8 play the files they pinned (`pins.RETIRED`: filler/v8/), the
    bare networks; city-13's town and maniac stay the rule bots'."""
    check_filler_files(TASKS_V9, FILLER_V9)  # (club-10's stamped for version 10)
    for t, old in OLD.items():
        for version in (4, 5, 6, 7, 8):
            assert pins.shipped_file(get_task(t, version), "filler") == old
            assert pins.load_options(get_task(t, version), "filler")["file"] == old
        assert hashlib.sha256(old.read_bytes()).hexdigest()[:16] == PINS_V8[t]["filler"]
    pytest.importorskip("torch")
    from baselines.ppo.checkpoint import PPOPolicy

    for t in RETRAINED:
        task = TASKS_V9[t]
        spec = GameSpec.make(task.variant, task.num_players, **task.play_knobs())
        opts = pins.load_options(task, "filler")  # (online-10's stamped again for 12)
        assert opts == ({"file": STAMPED[t]} if t in STAMPED else {})
        now = load_policy("filler", spec, seed=1, **opts)
        mafia = now.default if t == "city-13" else now  # city-13: `BySide`, the network's mafia
        assert isinstance(mafia, BeliefTalk) and isinstance(mafia.inner, PPOPolicy)
        assert mafia.agree and not (mafia.speech or mafia.nominate or mafia.vote or mafia.lead)
        assert mafia.defer is None
        before = load_policy("filler", spec, seed=1, **pins.load_options(get_task(t, 8), "filler"))
        inner = before.default if t == "city-13" else before
        assert isinstance(inner, PPOPolicy)
    city = TASKS_V9["city-13"]
    assert pins.seated(city, "filler") == {"town": "rule", "maniac": "rule"}
    # online-10's: the same weights as versions 4-8's, the layer recorded
    torch = pytest.importorskip("torch")
    a, b = (torch.load(p, map_location="cpu", weights_only=False) for p in (
        OLD["online-10"], STAMPED["online-10"]))  # fmt: skip
    assert a["model"].keys() == b["model"].keys()
    assert all(torch.equal(a["model"][w], b["model"][w]) for w in a["model"])
    assert "layer" not in a and b["layer"]["name"] == "belief_talk"


@pytest.mark.parametrize("name", RETRAINED)
def test_pairs_with_a_new_filler_are_played_again(name):
    """`scripts/reference_table.py --reuse`: a pair of version 8 is version 9's unless
    a retrained filler plays in it, as the learner or the opponent."""
    check_one_retrained(TASKS_V8, TASKS_V9, name, same="sport-10")


def test_results_v9_are_the_pinned_tasks():
    """The shipped results of version 9: every task, every pair, 500 games, the digests; only
    the pairs with city-13's or online-10's filler were played again, the rest come from
    version 8."""
    check_results_reused(9, *RETRAINED)


def test_the_standard_attacker_still_starts_from_version_4s_filler():
    """`mafia exploit --start filler` starts from the filler file tasks version 4 pinned: the
    new files do not move the standard attacker."""
    for t, old in OLD.items():
        check_attacker_from_version_4(TASKS_V9, t, old)
