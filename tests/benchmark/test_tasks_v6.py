"""Benchmark tasks of version 6 (issue 45): club-10's seat-filler retrained (it talks, under the
layer its file records), sport-10's trained further, city-13's seats the rule bots on the
maniac's side as well as the town's; every other file and seat is version 5's, and so are the
other pairs."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

import baselines.shipped as shipped
from baselines import pins
from baselines.belief_talk import BeliefTalk
from baselines.filler import BySide
from baselines.pins import PINS_V5, PINS_V6
from mafia_env.engine.roles import TEAM_NAMES
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError
from mafia_env.seating.policies import load_policy
from mafia_env.tasks import LATEST, TASKS_BY_VERSION, TASKS_V5, TASKS_V6, get_task
from tests.benchmark.test_benchmark import _script
from tests.benchmark.test_tasks_v4 import shipped_results
from tests.benchmark.test_tasks_v5 import (
    FILLER_V6,
    TALK,
    check_filler_files,
    earlier_results,
    same_definition,
)

# Version 6: version 5's tables, seeds, games, opponents and rules; sport-10's and club-10's
# filler files are others; the digests hash who plays which side of a shipped bot too
# (`pins.SEATED_V6`).
PINNED_V6 = {
    "sport-10": "b36c88f314526de8",
    "city-13": "15125711294dfed4",
    "club-10": "3227cb8da0b895b2",
    "online-10": "f50dff115d610a9d",
    "forum-10": "e50fc03c9fb0f90e",
    "minimal-10": "1c6f8aaa6ab4d40e",
}


def test_version_6_definitions_are_pinned():
    assert LATEST >= 6 and TASKS_BY_VERSION[6] is TASKS_V6  # the latest: test_tasks_v7.py
    assert {name: pins.digest(task) for name, task in TASKS_V6.items()} == PINNED_V6
    assert list(TASKS_V6) == list(TASKS_V5)
    assert {**PINS_V6, "club-10": PINS_V5["club-10"], "sport-10": PINS_V5["sport-10"]} == PINS_V5
    assert PINS_V6["club-10"] == {**PINS_V5["club-10"], "filler": "355cddf430b9e6d3"}
    assert PINS_V6["sport-10"] == {**PINS_V5["sport-10"], "filler": "e28ee3492a535372"}
    for name, task in TASKS_V6.items():
        v5 = TASKS_V5[name]
        same_definition(task, v5, 6)
        for opp in pins.SHIPPED_OPPONENTS:
            retrained = name in ("sport-10", "club-10") and opp == "filler"
            assert (pins.pin(task, opp) != pins.pin(v5, opp)) is retrained
            assert (pins.shipped_file(task, opp) != pins.shipped_file(v5, opp)) is retrained
            moved = name == "city-13" and opp == "filler"
            assert (pins.seated(task, opp) != pins.seated(v5, opp)) is moved
        assert pins.digest(task) != pins.digest(v5)  # another version
        assert get_task(name, 6) is task
    assert pins.seated(TASKS_V6["city-13"], "filler") == {"town": "rule", "maniac": "rule"}
    assert pins.seated(TASKS_V5["city-13"], "filler") == {"town": "rule"}


def test_the_filler_pins_are_the_shipped_files_and_club_10s_talks():
    """Every task's filler file is the one pinned (forum-10's, retrained for version 7, under
    filler/v6/, minimal-10's, retrained for version 8, under filler/v7/, city-13's and
    online-10's, others for version 9, under filler/v8/, club-10's, stamped for version 10,
    under filler/v9/: `pins.RETIRED`); club-10's (retrained) plays under the talk layer its
    file records, reading no belief piece, and version 5's task plays the file it pinned
    (filler/v5/club.pt), which reads the piece."""
    check_filler_files(TASKS_V6, FILLER_V6)
    pytest.importorskip("torch")
    from baselines.ppo.checkpoint import PPOPolicy

    club = TASKS_V6["club-10"]
    spec = GameSpec.make("club", 10, **club.play_knobs())
    now = load_policy("filler", spec, seed=1, **pins.load_options(club, "filler"))
    assert isinstance(now, BeliefTalk) and isinstance(now.inner, PPOPolicy)
    assert {k: getattr(now, k) for k in TALK} == TALK and not now.inner.obs_options
    old = load_policy("filler", spec, seed=1, **pins.load_options(TASKS_V5["club-10"], "filler"))
    assert isinstance(old, PPOPolicy) and old.obs_options == {"belief": "deduction"}


def test_city_13_filler_plays_the_maniac_by_the_rule_bots_and_version_5_by_its_network():
    """The latest filler of city-13 hands the maniac's rows, as the town's, to one rule-bot
    policy; version 5's task loads it with the network on the maniac's side
    (`pins.load_options`), and the option ``sides`` names the sides outright."""
    pytest.importorskip("torch")
    from baselines.ppo.checkpoint import PPOPolicy

    spec = GameSpec.make("city", 13, **TASKS_V6["city-13"].play_knobs())
    town, mafia, maniac = (TEAM_NAMES.index(t) for t in ("town", "mafia", "maniac"))
    # (versions 4-8's file, retired for version 9: `pins.RETIRED`, its seats named outright)
    file = shipped.SHIPPED / "filler/v8/city-13.pt"
    mine = pins.load_options(TASKS_V6["city-13"], "filler")
    assert mine == {"file": file, "sides": {"town": "rule", "maniac": "rule"}}
    now = load_policy("filler", spec, seed=1, **mine)
    assert isinstance(now, BySide) and isinstance(now.default, PPOPolicy)
    assert type(now.policies[town]).__name__ == "RulePolicy"
    assert now.policies[maniac] is now.policies[town] and now.policies[mafia] is now.default
    latest = load_policy("filler", spec, seed=1)  # the latest file: seated alike
    assert isinstance(latest, BySide) and latest.policies[maniac] is latest.policies[town]
    opts = pins.load_options(TASKS_V5["city-13"], "filler")
    assert opts == {"file": file, "sides": {"town": "rule"}}
    old = load_policy("filler", spec, seed=1, **opts)
    assert old.policies[maniac] is old.default and old.policies[town] is not old.default
    assert isinstance(load_policy("filler", spec, seed=1, file=file, sides={}), PPOPolicy)
    assert not isinstance(load_policy("filler", spec, seed=1, sides={}), BySide)
    with pytest.raises(ConfigError, match=r"sides must map a side to one of rule"):
        load_policy("filler", spec, seed=1, sides={"maniac": "league"})
    with pytest.raises(ConfigError, match="names no team"):
        load_policy("filler", spec, seed=1, sides={"cops": "rule"})
    # where no task plays the file, no side is handed over
    sport = GameSpec.make("sport", 10, **TASKS_V6["sport-10"].play_knobs())
    assert not isinstance(load_policy("filler", sport, seed=1), BySide)


def test_the_maniac_moves_are_the_rule_bots_moves():
    """The maniac's rows of the filler's batch get the rule bots' moves (one policy, its town
    rows first, as `BySide` asks it), the mafia's rows the network's."""
    pytest.importorskip("torch")
    from baselines.rule import RulePolicy
    from mafia_env.vector import VectorMafia

    spec = GameSpec.make("city", 13)
    filler = load_policy("filler", spec, seed=3)
    vec = VectorMafia("city", 16, 13, seed=5, backend="python")
    obs, masks, info = vec.reset()
    seen = 0
    for _ in range(60):
        team = info["team"]
        town, mafia, maniac = (team == TEAM_NAMES.index(t) for t in ("town", "mafia", "maniac"))
        net = filler.default.act_batch(obs[mafia], masks[mafia]) if mafia.any() else None
        rule = RulePolicy(spec=spec, seed=3)
        ref = np.empty(len(obs), dtype=np.int64)
        for rows in (town, maniac):
            if rows.any():
                ref[rows] = rule.act_batch(obs[rows], masks[rows])
        filler.seed(3)
        got = filler.act_batch(obs, masks)
        if net is not None:
            np.testing.assert_array_equal(got[mafia], net)
        np.testing.assert_array_equal(got[town | maniac], ref[town | maniac])
        seen += int(maniac.sum())
        filler.seed(3)
        obs, masks, _, _, info = vec.step(got)
    assert seen > 0


def test_pairs_against_city_13_filler_are_played_again():
    """`scripts/reference_table.py --reuse`: a pair of version 5 is version 6's unless city-13's
    filler holds the other side (its maniac's seat is another bot's now) or club-10's filler
    plays in it (retrained); the filler as the learner on city-13 plays town and mafia, seated
    as in version 5, so those pairs stay."""
    script = _script()
    results = earlier_results(TASKS_V5, ("city-13", "club-10"))
    known = script.reusable(results, [TASKS_V6["city-13"], TASKS_V6["club-10"]])
    assert not any(o == "filler" for _, t, _, o in known)
    assert not any(p == "filler" and t == "club-10" for p, t, _, _ in known)
    assert ("filler", "city-13", "town", "rule") in known
    assert ("filler", "city-13", "mafia", "league") in known
    assert ("rule", "club-10", "mafia", "league") in known
    assert len(known) == 8 + 8 + 8  # city-13: both, not vs filler; club-10: the rule bots'


def test_results_v6_are_the_pinned_tasks():
    """The shipped results of version 6: every task, every pair, 500 games, the digests; only
    the pairs against city-13's filler and with sport-10's or club-10's were played again, the
    rest come from version 5."""
    for policy, r in shipped_results(6):
        for x in r["rows"]:
            retrained = r["task"] in ("sport-10", "club-10") and "filler" in (policy, x["opponent"])
            new = retrained or (r["task"] == "city-13" and x["opponent"] == "filler")
            assert ("from_version" not in x) if new else (x.get("from_version") == 5)


def test_the_standard_attacker_starts_from_version_4s_filler():
    """`mafia exploit --start filler` starts from the filler file tasks version 4 pinned: the
    retrained fillers (sport-10's, club-10's) do not move the standard attacker."""
    from baselines.exploit import start_file

    for name, task in TASKS_V6.items():
        old = pins.shipped_file(get_task(name, 4), "filler")
        assert start_file(task, "filler") == old
        assert hashlib.sha256(old.read_bytes()).hexdigest()[:16] == pins.PINS_V4[name]["filler"]
    club = TASKS_V6["club-10"]
    assert start_file(club, "filler") == shipped.SHIPPED / "filler/v5/club.pt"
    assert start_file(club, "league") == shipped.shipped_checkpoint("club", 10, "league")
