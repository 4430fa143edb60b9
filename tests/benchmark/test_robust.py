"""The robustness benchmark (issue 45): cells paired with the rule bots on the same deals."""

from __future__ import annotations

import json
import math
import sys
import types
from pathlib import Path

import numpy as np
import pytest

from baselines import robust
from baselines.robust import (
    MIXES,
    Cell,
    DealSeating,
    Style,
    cells_of,
    held_seats,
    paired_interval,
    play_arm,
    resolve_styles,
    t_quantile,
)
from mafia_env.engine.roles import TEAM_NAMES
from mafia_env.errors import ConfigError
from mafia_env.seating.policies import load_policy
from mafia_env.tasks import get_task

ROOT = Path(__file__).resolve().parents[2]
SPORT, FORUM = get_task("sport-10"), get_task("forum-10")
RANDOM, RULE_V2 = Style("random", "random", "stand-in"), Style("rule_v2", "rule_v2", "stand-in")


def cell(task=SPORT, side="town", style=RANDOM, mix="full") -> Cell:
    return Cell(task, side, style, MIXES[mix])


# ------------------------------------------------------------------ the interval


@pytest.mark.parametrize(
    ("df", "t"),  # two-sided 95% critical values of Student's t, from the tables
    [(1, 12.706205), (2, 4.302653), (4, 2.776445), (5, 2.570582), (10, 2.228139),
     (30, 2.042272), (499, 1.964729)],
)  # fmt: skip
def test_t_quantile_is_the_tables(df, t):
    assert t_quantile(0.975, df) == pytest.approx(t, abs=1e-6)


def test_the_paired_interval_of_a_known_example():
    # differences 1, 0, 0, 1, -1: mean 0.2, sd sqrt(0.7), t(0.975, 4) 2.776445
    got = paired_interval([1, 0, 0, 1, -1])
    half = 2.776445 * math.sqrt(0.7) / math.sqrt(5)
    assert got["mean"] == pytest.approx(0.2)
    assert got["sd"] == pytest.approx(math.sqrt(0.7))
    assert got["lo"] == pytest.approx(0.2 - half, abs=1e-6)
    assert got["hi"] == pytest.approx(min(1.0, 0.2 + half), abs=1e-6)
    assert got["n"] == 5
    assert paired_interval([0.0] * 7) == {"mean": 0.0, "lo": 0.0, "hi": 0.0, "sd": 0.0, "n": 7}
    assert paired_interval([1.0])["lo"] == -1.0  # one deal: nothing known
    wide = paired_interval([1, -1])  # the interval never leaves [-1, 1]
    assert wide["lo"] == -1.0 and wide["hi"] == 1.0


# ------------------------------------------------------------------ pairing


def test_both_arms_see_the_same_deal_per_seed():
    """The pairing: deal g of each arm is the seed's deal (roles by seat), in both arms."""
    seen: dict[str, dict[int, tuple]] = {"filler": {}, "rule": {}}
    c = cell(style=RULE_V2, mix="half-rule")
    for arm, name in (("filler", "random"), ("rule", "rule")):  # random in P's place: P
        play_arm(c, name, 6, done=lambda g, env, a=arm: seen[a].setdefault(g, roles(env)))
    assert seen["filler"] == seen["rule"] and sorted(seen["rule"]) == list(range(6))
    import mafia_env

    env = mafia_env.raw_env(SPORT.variant, SPORT.num_players, **SPORT.play_knobs())
    for g, dealt in seen["rule"].items():
        env.reset(seed=SPORT.seed + g)
        assert roles(env) == dealt
    assert len(set(seen["rule"].values())) > 1  # the deals differ from seed to seed


def roles(env) -> tuple[int, ...]:
    return tuple(int(r) for r in env.unwrapped.game.roles)


@pytest.mark.parametrize(
    ("task", "side", "mix"),
    [(SPORT, "town", "full"), (SPORT, "mafia", "half-rule"), (FORUM, "maniac", "rule-town"),
     (FORUM, "town", "half-style")],
)  # fmt: skip
def test_rule_against_rule_differs_by_zero_on_every_deal(task, side, mix):
    """Two arms with the same policies play the same games: no deal differs."""
    c = cell(task, side, RULE_V2, mix)
    mine, theirs = play_arm(c, "rule", 8), play_arm(c, "rule", 8)
    assert mine == theirs and "?" not in mine
    got = robust.cell_result(c, mine, theirs)
    assert got["diff"] == {"mean": 0.0, "lo": 0.0, "hi": 0.0, "sd": 0.0, "n": 8}


def test_a_tiny_cell_reports_both_arms_and_the_difference():
    result = robust.run_robust("random", [cell(mix="full")], deals=6)
    (c,) = result["cells"]
    assert c["deals"] == 6 and len(c["winners"]["policy"]) == 6
    a = np.array([w == "t" for w in c["winners"]["policy"]], dtype=float)
    b = np.array([w == "t" for w in c["winners"]["baseline"]], dtype=float)
    assert c["policy"]["win_rate"] == pytest.approx(a.mean())
    assert c["baseline"]["win_rate"] == pytest.approx(b.mean())
    assert c["diff"]["mean"] == pytest.approx(a.mean() - b.mean())
    assert c["diff"] == paired_interval(a - b)
    (s,) = result["summary"]
    assert s["split"] == "stand-in" and s["diff"] == c["diff"]
    json.dumps(result)  # every figure is JSON


def test_draws_score_as_the_option_says():
    winners = "tdmx"
    assert robust.scores(winners, "town").tolist() == [1, 0, 0, 0]
    assert robust.scores(winners, "town", 0.5).tolist() == [1, 0.5, 0, 0]
    assert robust.scores(winners, "maniac").tolist() == [0, 0, 0, 1]


def test_reused_baseline_arms_are_not_played_again(tmp_path, monkeypatch):
    c = cell(style=RULE_V2)
    first = robust.run_robust("rule", [c], deals=5)
    path = tmp_path / "rule.json"
    path.write_text(json.dumps(first))
    known = robust.read_known([path], 5, "rule", SPORT.version)
    assert known == {c.key: first["cells"][0]["winners"]["baseline"]}
    assert robust.read_known([path], 6, "rule", SPORT.version) == {}  # other deals: not the same
    played = []
    real = robust.play_arm
    monkeypatch.setattr(robust, "play_arm", lambda *a, **k: played.append(a[1]) or real(*a, **k))
    again = robust.run_robust("rule", [c], deals=5, known=known)
    assert played == ["rule"] and again["cells"][0]["diff"]["mean"] == 0.0


def test_the_serial_arms_play_on_one_torch_thread(monkeypatch):
    torch = pytest.importorskip("torch")
    from baselines import benchmark

    before = torch.get_num_threads()
    torch.set_num_threads(2)
    seen = set()
    real = benchmark.observation
    monkeypatch.setattr(
        benchmark, "observation", lambda *a: seen.add(torch.get_num_threads()) or real(*a)
    )
    try:
        robust.run_robust("rule", [cell(style=RULE_V2)], deals=2)
        assert seen == {1} and torch.get_num_threads() == 2  # and the caller's pool after
    finally:
        torch.set_num_threads(before)


# ------------------------------------------------------------------ mixed tables


def test_mixed_tables_hold_a_share_of_the_side_chosen_by_the_deal():
    seats = [0, 1, 3, 4, 5, 6, 7]
    chosen = {s: held_seats(s, seats, 0.5) for s in range(40)}
    for seed, held in chosen.items():
        assert len(held) == 3 and set(held) <= set(seats) and held == sorted(held)
        assert held_seats(seed, seats, 0.5) == held  # the same deal, the same seats
    assert len({tuple(h) for h in chosen.values()}) > 5  # the deal chooses
    assert held_seats(3, [2, 8], 0.5) in ([2], [8])  # at least one seat
    assert len(held_seats(3, [2, 8, 9], 0.5)) == 1


def test_a_mixed_table_seats_p_the_mates_and_the_style():
    import mafia_env

    spec = robust.table_of(SPORT)
    p, style, mates = (load_policy("random", spec, seed=s) for s in range(3))
    table = DealSeating("town", p, style, 0.5, mates)
    env = mafia_env.raw_env(SPORT.variant, SPORT.num_players, **SPORT.play_knobs())
    for seed in range(SPORT.seed, SPORT.seed + 10):
        env.reset(seed=seed)
        game = env.unwrapped.game
        players = table.players(game)
        town = [s for s, t in enumerate(game.teams) if TEAM_NAMES[int(t)] == "town"]
        mine = [s for s in range(game.n) if players[s] is p]
        assert mine == held_seats(game.seed, town, 0.5)  # the engine's seed of the deal
        assert all(players[s] is mates for s in set(town) - set(mine))
        assert all(players[s] is style for s in range(game.n) if s not in town)
    with pytest.raises(ConfigError):
        DealSeating("town", p, style, 0.5)  # a share needs mates


# ------------------------------------------------------------------ sides


def test_the_maniac_is_a_side_of_its_own_where_the_deal_has_one():
    styles = [RANDOM]
    every = list(MIXES.values())
    got = {(c.task.name, c.side, c.mix.name) for c in cells_of([SPORT, FORUM], styles, every)}
    sport = {(s, m) for t, s, m in got if t == "sport-10"}
    assert sport == {(s, m) for s in ("town", "mafia") for m in ("full", "half-rule", "half-style")}
    forum = {(s, m) for t, s, m in got if t == "forum-10"}
    assert ("maniac", "full") in forum and ("maniac", "half-rule") not in forum  # one seat
    assert {("town", "rule-maniac"), ("town", "rule-mafia"), ("maniac", "rule-town")} <= forum
    assert ("town", "rule-town") not in forum
    assert not {c for c in got if c[1] == "maniac" and c[0] == "sport-10"}


def test_the_rule_maniac_mix_seats_the_rule_bots_on_the_maniac():
    """Forum-10 town against a random mafia and a rule-bot maniac (the issue's example)."""
    import mafia_env

    c = cell(FORUM, "town", RANDOM, "rule-maniac")
    table = robust.seating(c, "random")
    env = mafia_env.raw_env(FORUM.variant, FORUM.num_players, **FORUM.play_knobs())
    env.reset(seed=FORUM.seed)
    players = table.players(env.unwrapped.game)
    by_team = {TEAM_NAMES[int(t)]: type(players[s]).__name__
               for s, t in enumerate(env.unwrapped.game.teams)}  # fmt: skip
    assert by_team == {"town": "RandomPolicy", "mafia": "RandomPolicy", "maniac": "RulePolicy"}
    assert table.teams["town"] is not table.default  # P and the style: two bots
    winners = play_arm(cell(FORUM, "maniac", RANDOM, "full"), "rule", 4)
    assert len(winners) == 4 and set(winners) <= set("tmxd")


# ------------------------------------------------------------------ styles


def test_style_names_resolve_and_unknown_ones_are_named():
    got = resolve_styles("rule_v2, random")
    assert [(s.name, s.policy, s.split) for s in got] == [
        ("rule_v2", "rule_v2", "stand-in"),
        ("random", "random", "stand-in"),
    ]
    with pytest.raises(ConfigError, match=r"unknown style 'nobody'.*policies: .*random"):
        resolve_styles("random,nobody")


def test_the_zoo_sets_resolve_through_baselines_zoo(monkeypatch):
    info = types.SimpleNamespace
    fake = types.ModuleType("baselines.zoo")
    fake.STYLES = {"liars": info(split="train"), "quiet": info(split="held_out")}
    fake.TRAIN, fake.HELD_OUT = ("liars",), ("quiet",)
    monkeypatch.setitem(sys.modules, "baselines.zoo", fake)
    assert [(s.name, s.policy, s.split) for s in resolve_styles("all")] == [
        ("liars", "style:liars", "train"),
        ("quiet", "style:quiet", "held_out"),
    ]
    assert [s.split for s in resolve_styles("held_out")] == ["held_out"]
    assert [s.policy for s in resolve_styles("style:quiet,random")] == ["style:quiet", "random"]
    with pytest.raises(ConfigError, match="the zoo's styles: liars, quiet"):
        resolve_styles("loud")


def test_without_the_zoo_its_sets_are_a_clear_error(monkeypatch):
    monkeypatch.setattr(robust, "zoo", lambda: None)
    with pytest.raises(ConfigError, match="does not have yet: name the styles"):
        resolve_styles("train")


def test_summaries_keep_the_sets_apart_and_name_the_worst_cell():
    def fake(style, split, mine, theirs):
        c = cell(style=Style(style, style, split))
        return robust.cell_result(c, mine, theirs)

    cells = [
        fake("a", "train", "tttt", "tmtm"),  # +0.5
        fake("b", "train", "mmmt", "tttt"),  # -0.75
        fake("c", "held_out", "tttm", "tttm"),  # 0
    ]
    got = {s["split"]: s for s in robust.summarise(cells)}
    assert set(got) == {"train", "held_out", "zoo"}
    assert got["train"]["diff"]["mean"] == pytest.approx(-0.125)
    assert got["train"]["worst_by_mean"]["style"] == "b"
    assert got["zoo"]["styles"] == ["a", "b", "c"]
    assert got["zoo"]["diff"]["mean"] == pytest.approx((0.5 - 0.75 + 0) / 3)
    # the zoo's interval is over the per-deal means of the three styles
    per_deal = np.mean([[0, 1, 0, 1], [-1, -1, -1, 0], [0, 0, 0, 0]], axis=0)
    assert got["zoo"]["diff"] == paired_interval(per_deal)


# ------------------------------------------------------------------ the command


def test_the_command_has_help_and_refuses_to_overwrite(tmp_path, capsys):
    from baselines import cli

    assert cli.main(["robust", "--help"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("usage: mafia robust")
    assert "(default: 500)" in text and "(default: rule)" in text and "half-rule" in text
    out = tmp_path / "r.json"
    out.write_text("{}")
    args = ["robust", "--policy", "rule", "--tasks", "sport-10", "--styles", "random"]
    assert cli.main([*args, "--out", str(out), "-q"]) == 2
    assert "--force" in capsys.readouterr().err and out.read_text() == "{}"
    assert cli.main([*args, "--tasks", "nope"]) == 2
    assert cli.main(["robust", "--policy", "rule", "--tasks", "nope", "--styles", "random"]) == 2
    assert "unknown tasks ['nope']" in capsys.readouterr().err


def test_the_command_writes_a_result(tmp_path, capsys):
    from baselines import cli

    out = tmp_path / "r.json"
    argv = ["robust", "--policy", "random", "--tasks", "sport-10", "--styles", "random", "-q",
            "--mixes", "full", "--sides", "town", "--deals", "3", "--out", str(out)]  # fmt: skip
    assert cli.main(argv) == 0
    data = json.loads(out.read_text())
    assert data["kind"] == "robust" and data["policy"] == "random" and data["deals"] == 3
    assert data["command"].startswith("mafia robust --policy random")
    assert [(c["side"], c["mix"], c["style"]) for c in data["cells"]] == [
        ("town", "full", "random")
    ]
    assert "vs random" in capsys.readouterr().out


def test_the_zoo_of_styles_resolves_with_its_sets():
    from baselines.zoo import HELD_OUT, TRAIN

    got = resolve_styles("all")
    assert [s.name for s in got] == [*TRAIN, *HELD_OUT]
    assert {s.split for s in got if s.name in HELD_OUT} == {"held_out"}
    assert all(s.policy == f"style:{s.name}" for s in got)
    result = robust.run_robust("rule", [cell(style=got[0])], deals=3)
    assert result["cells"][0]["split"] == "train" and result["cells"][0]["diff"]["mean"] == 0
