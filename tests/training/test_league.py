"""League training (PFSP, snapshots, exploiters, resume) and exploitability at a budget."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from baselines.exploit import main as exploit_main  # noqa: E402
from baselines.ppo import make_config, read_checkpoint, train  # noqa: E402
from baselines.ppo.league import pfsp_weights  # noqa: E402
from baselines.ppo.ppo_config import load_config, with_overrides  # noqa: E402
from baselines.ppo.ppo_train import Mixture  # noqa: E402
from baselines.ppo.rollout import Opponents  # noqa: E402
from baselines.train import main as train_main  # noqa: E402
from mafia_env.errors import ConfigError  # noqa: E402
from mafia_env.vector import VectorMafia  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = ("sport", "city", "club", "online", "forum", "minimal")


def tiny(tmp_path: Path, **over):
    base = {
        "exp_name": "lg",
        "variant": "sport",
        "total_timesteps": 6 * 512,
        "num_envs": 8,
        "num_steps": 64,
        "hidden_size": 16,
        "eval_every": 0,
        "final_eval_games": 4,
        "snapshot_every": 2,
        "pool_size": 2,
        "imitate_steps": 300,
        "imitate_epochs": 1,
        "run_dir": str(tmp_path),
        "league": {
            "self_play": 0.2,
            "fixed": ["rule", "random"],
            "exploiter_every": 3,
            "exploiter_updates": 3,
            "max_exploiters": 1,
        },
    }
    return make_config({**base, **over})


def scalars(run_dir: str) -> dict[str, list[float]]:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    acc = EventAccumulator(run_dir, size_guidance={"scalars": 0})
    acc.Reload()
    return {tag: [e.value for e in acc.Scalars(tag)] for tag in acc.Tags()["scalars"]}


def test_pfsp_weights_favour_members_that_still_win():
    w = pfsp_weights({"hard": 0.2, "even": 0.5, "beaten": 1.0, "new": None}, 2.0, 0.05)
    assert sum(w.values()) == pytest.approx(1.0)
    assert w["hard"] > w["even"] > w["beaten"] > 0
    assert w["new"] == pytest.approx(w["even"])  # no games yet: taken as 0.5
    assert w["hard"] / w["even"] == pytest.approx(0.64 / 0.25)
    assert w["beaten"] / w["even"] == pytest.approx(0.05 / 0.25)  # the floor
    assert pfsp_weights({"a": 0.9, "b": 0.1}, 0.0, 0.05) == {"a": 0.5, "b": 0.5}  # p=0: uniform


def test_a_member_the_learner_always_beats_is_drawn_rarely_but_not_never():
    rng = np.random.default_rng(0)
    opp = Opponents(10, 1, rng, window=100)
    for name in ("beaten", "strong"):
        opp.add(name, object.__new__(type("P", (), {"observes": "vector"})))
    opp.windows[("beaten", "town")].extend([1.0] * 100)  # the learner wins every game
    opp.windows[("strong", "mafia")].extend([0.0] * 50 + [1.0] * 50)
    opp.set_weights(pfsp_weights({k: opp.winrate(k) for k in opp.weights}, 2.0, 0.05))
    teams = np.array([0] * 7 + [1] * 3)
    drawn = []
    for _ in range(4000):
        opp.assign(0, teams)
        drawn.append(opp.game[0])
    share = drawn.count("beaten") / len(drawn)
    assert 0.1 < share < 0.25, share  # 0.05 / (0.05 + 0.25) = 0.167
    assert opp.winrate("beaten") == 1.0 and opp.winrate("strong") == 0.5


def test_mixed_tables_give_the_learner_a_share_of_its_team_and_the_member_the_rest():
    member = object.__new__(type("P", (), {"observes": "vector"}))
    teams = np.array([0] * 7 + [1] * 3)
    plain = Opponents(10, 1, np.random.default_rng(0))
    full = Opponents(10, 1, np.random.default_rng(0), mixed=0.0, share=0.5)
    mixed = Opponents(10, 1, np.random.default_rng(0), mixed=0.5, share=0.5)
    for o in (plain, full, mixed):
        o.add("self", None, 1.0)
        o.add("rule", member, 3.0)
    held: dict[tuple[str, int], set[int]] = {}
    for _ in range(2000):
        plain.assign(0, teams)
        full.assign(0, teams)
        # no mixed tables: the same draws as before the option, seat for seat
        assert (plain.game[0], plain.learner_team[0]) == (full.game[0], full.learner_team[0])
        assert (plain.learner_seat[0] == full.learner_seat[0]).all()
        mixed.assign(0, teams)
        seats = mixed.learner_seat[0]
        if mixed.game[0] == "self":
            assert seats.all()  # self-play holds every seat
            continue
        team = int(mixed.learner_team[0])
        assert not (seats & (teams != team)).any()  # only seats of its own team
        held.setdefault((mixed.game[0], team), set()).add(int(seats.sum()))
    # town (7 seats): all 7 or floor(3.5) = 3; mafia (3): all 3 or floor(1.5) = 1
    assert held[("rule", 0)] == {7, 3} and held[("rule", 1)] == {3, 1}


def test_a_mixed_table_rollout_lets_the_member_play_the_learners_mates(tmp_path):
    from baselines.ppo import make_agent
    from baselines.ppo.rollout import Rollout
    from mafia_env.seat_obs import vector_env
    from mafia_env.seating.policies import load_policy

    vec = vector_env("sport", 4, seed=3)
    cfg = tiny(tmp_path, league=None)
    agent = make_agent(cfg, vec.obs_size, vec.action_size)
    opp = Opponents(vec.n, vec.num_envs, np.random.default_rng(0), mixed=1.0, share=0.5)
    opp.add("rule", load_policy("rule", "sport", vec.n, seed=0))
    r = Rollout(vec, 48, opp)
    r.collect(agent, torch.Generator().manual_seed(0))
    learn, seat = r.learn_buf, r.seat_buf
    assert learn.any() and not learn.all()
    for b in range(vec.num_envs):  # the learner's rows are its held seats' turns, no others
        turns = set(seat[learn[:, b], b].tolist())
        assert turns and turns <= set(np.flatnonzero(opp.learner_seat[b]).tolist())


class _Marked:
    """A policy that plays its legal action of lowest index and counts the rows it saw."""

    observes = "vector"

    def __init__(self):
        self.rows = 0

    def act_batch(self, obs, masks):
        self.rows += len(obs)
        return np.asarray(masks).argmax(axis=1)


def test_mixed_mates_hold_the_learners_other_seats_and_the_member_the_other_teams():
    teams = np.array([0] * 7 + [1] * 3)
    opp = Opponents(10, 1, np.random.default_rng(0), mixed=1.0, share=0.5)
    member, mates = _Marked(), _Marked()
    opp.add("style", member)
    opp.set_mates(mates, 0.5)
    kinds = set()
    for _ in range(400):
        opp.assign(0, teams)
        mine, mate = opp.learner_seat[0], opp.mate_seat[0]
        team = teams == opp.learner_team[0]
        assert not (mine & mate).any() and not (mate & ~team).any()
        if mate.any():  # the learner's team is its seats and the mates', nobody else's
            assert (mine | mate).tolist() == team.tolist()
        kinds.add(bool(mate.any()))
    assert kinds == {True, False}  # half the mixed tables each way (mates_share 0.5)
    # a step: each row goes to whoever holds its acting seat
    while not opp.mate_seat[0].any():
        opp.assign(0, teams)
    masks = np.ones((1, 5), dtype=bool)
    out = np.full(1, -1)
    for s in range(10):
        member.rows = mates.rows = 0
        learn = opp.learner_seat[:, s]
        opp.act(np.zeros((1, 3)), masks, learn, out, np.array([s]))
        assert (mates.rows, member.rows) == (
            (1, 0) if opp.mate_seat[0, s] else (0, 0) if learn[0] else (0, 1)
        )
    with pytest.raises(ValueError, match="acting seats"):
        opp.act(np.zeros((1, 3)), masks, np.zeros(1, dtype=bool), out)


def test_rule_bots_of_one_kind_play_a_steps_rows_in_one_call():
    from baselines.ppo.rollout import grouped
    from baselines.zoo import load_style
    from mafia_env.seating.policies import load_policy

    vec = VectorMafia("sport", 32, seed=4)
    obs, masks, _ = vec.reset()
    names = ["rule", "style:framer", "style:vote_first", "style:quiet_town"]
    bots = {n: load_policy(n, "sport", 10, seed=i) for i, n in enumerate(names)}
    other = _Marked()
    rows = np.array_split(np.arange(32), 5)
    plays = [(bots[n], r) for n, r in zip(names, rows, strict=False)] + [(other, rows[4])]
    calls = grouped([*plays, (bots["rule"], np.zeros(0, dtype=int))])
    # the first three share a shape: one call of the first, a style a row; the quiet town
    # (another shape) and the other policy alone
    assert [c[0] for c in calls] == [bots["rule"], bots["style:quiet_town"], other]
    _, joined, (styles, index) = calls[0]
    assert joined.tolist() == np.concatenate(rows[:3]).tolist()
    assert styles == tuple(bots[n].style for n in names[:3])
    assert index.tolist() == [0] * len(rows[0]) + [1] * len(rows[1]) + [2] * len(rows[2])
    assert calls[1][2] is None and calls[2][2] is None
    assert load_style("framer", "sport", 10).mix_key() == bots["rule"].mix_key()
    # an Opponents step: the same actions grouped or not where no draw is made (probs
    # are the styles' own: tests/bots/test_rule_styles_mixed.py), one call for the group
    opp = Opponents(10, 32, np.random.default_rng(0))
    for n in names[:3]:
        opp.add(n, bots[n])
    opp.game = [names[b % 3] for b in range(32)]  # (each game's member, as drawn)
    learn = np.zeros(32, dtype=bool)
    calls_made = []
    rule_act = type(bots["rule"]).act_styles

    def spy(self, *a, **k):
        calls_made.append(self)
        return rule_act(self, *a, **k)

    type(bots["rule"]).act_styles = spy
    try:
        out = np.full(32, -1)
        opp.act(obs, masks, learn, out)
    finally:
        type(bots["rule"]).act_styles = rule_act
    assert calls_made == [bots["rule"]] and masks[np.arange(32), out].all()
    for b in range(32):  # each row as its member's own bot decides it (a draw aside)
        p = bots[opp.game[b]].probs(obs[b], masks[b])
        assert p[out[b]] > 0


def test_mixed_mates_train_beside_the_rule_bots(tmp_path):
    from baselines.ppo import train

    cfg = tiny(
        tmp_path,
        league=None,
        imitate_steps=0,
        mixed_tables=1.0,
        mixed_mates="rule",
        total_timesteps=2 * 512,
    )
    train(cfg)
    with pytest.raises(ConfigError, match="mixed_tables"):
        tiny(tmp_path, mixed_mates="rule")
    with pytest.raises(ConfigError, match="mixed_mates"):
        tiny(tmp_path, mixed_tables=0.5, mixed_mates="no_such_bot")


@pytest.mark.parametrize("key, value", [("mixed_tables", 1.5), ("mixed_share", 1.0)])
def test_bad_mixed_table_options_are_errors(tmp_path, key, value):
    with pytest.raises(ConfigError, match=key):
        tiny(tmp_path, **{key: value})


def test_pfsp_by_side_plays_the_side_the_learner_loses_on(tmp_path):
    # the learner loses every game as town against random and wins every game as mafia: the
    # pair (random, town) is weighed as a hard one, (random, mafia) at the floor
    from baselines.ppo import make_agent
    from baselines.ppo.league import League
    from mafia_env.vector import VectorMafia

    cfg = tiny(tmp_path)
    vec = VectorMafia("sport", 1, seed=0)
    agent = make_agent(cfg, vec.obs_size, vec.action_size)
    league = League(cfg, vec.n, 1, np.random.default_rng(0), agent)
    league.start(agent)
    opp = league.opp
    opp.windows[("random", "town")].extend([0.0] * 100)
    opp.windows[("random", "mafia")].extend([1.0] * 100)
    weights = league.reweigh()
    assert opp.town_share["random"] == pytest.approx(1 / 1.05)
    assert opp.town_share["rule"] == pytest.approx(0.5)  # no games yet: both sides even
    assert weights["random"] > weights["rule"]  # 1 + 0.05 against 0.25 + 0.25
    teams = np.array([0] * 7 + [1] * 3)
    sides = []
    for _ in range(3000):
        opp.assign(0, teams)
        if opp.game[0] == "random":
            sides.append(int(opp.learner_team[0]))
    assert 0.9 < sides.count(0) / len(sides) < 0.99  # town, 1 / 1.05 of the time
    no_sides = tiny(tmp_path, league={**cfg.league.__dict__, "pfsp_sides": False})
    pooled = League(no_sides, vec.n, 1, np.random.default_rng(0), agent)
    pooled.start(agent)
    assert pooled.opp.town_share == {}  # pooled: the side is drawn evenly


@pytest.mark.slow
def test_league_run_logs_members_adds_exploiters_and_resumes(tmp_path):
    cfg = tiny(tmp_path)
    lines: list[str] = []
    result = train(cfg, log=lines.append)
    tags = scalars(result["run_dir"])
    for member in ("rule", "random"):
        assert f"league/winrate_vs_{member}" in tags, sorted(tags)
    for member in ("self", "rule", "random", "snap_0", "snap_6", "exploiter_1", "exploiter_2"):
        assert f"league/weight_{member}" in tags, sorted(tags)
    assert tags["league/exploiter_1/winrate"]  # its own win rate, by its own steps
    assert len(tags["league/exploiter_final_winrate"]) == 2  # updates 3 and 6
    assert any("exploiter_2 wins" in line for line in lines)
    weights = [tags[f"league/weight_{m}"][-1] for m in ("self", "rule", "random")]
    assert weights[0] == pytest.approx(0.2) and all(w > 0 for w in weights)

    ckpt = read_checkpoint(result["checkpoint"], "sport", 10)
    league = ckpt["league"]
    assert list(league["exploiters"]) == ["exploiter_2"]  # max_exploiters: 1, the oldest left
    assert list(league["snapshots"]) == ["snap_4", "snap_6"]  # pool_size: 2
    assert league["made"] == 2 and league["clone"] is not None
    assert "exploiter_2|town" in league["windows"] and "exploiter_1|town" not in league["windows"]

    more = make_config({**cfg.__dict__, "total_timesteps": 9 * 512})
    lines = []
    resumed = train(more, resume=result["checkpoint"], log=lines.append)
    assert resumed["global_step"] == 9 * 512
    assert not any("imitation" in line for line in lines)  # the clone comes from the checkpoint
    again = read_checkpoint(resumed["checkpoint"], "sport", 10)["league"]
    assert list(again["exploiters"]) == ["exploiter_3"] and again["made"] == 3
    assert list(again["snapshots"]) == ["snap_6", "snap_8"]
    for k, v in league["clone"].items():
        assert torch.equal(v, again["clone"][k])


def test_init_weights_begins_from_a_checkpoint_not_the_clone(tmp_path):
    first = tiny(tmp_path, league=None, imitate_steps=0, total_timesteps=512, final_eval_games=2)
    agent_path = train(first, log=lambda s: None)["agent"]
    start = read_checkpoint(agent_path, "sport", 10)["model"]
    cfg = tiny(tmp_path, exp_name="init", init_weights=agent_path, total_timesteps=512)
    lines: list[str] = []
    result = train(cfg, log=lines.append)
    assert any(f"starting from the weights of {agent_path}" in line for line in lines)
    assert not any("imitating" in line for line in lines)  # init_weights replaces the clone
    clone = read_checkpoint(result["checkpoint"], "sport", 10)["league"]["clone"]
    for k, v in start.items():  # the league's exploiters begin from those weights too
        assert torch.equal(v, clone[k])
    with pytest.raises(ConfigError, match="does not fit this config's network"):
        train(tiny(tmp_path, init_weights=agent_path, hidden_size=8), log=lambda s: None)
    with pytest.raises(ConfigError, match="init_weights: no checkpoint at"):
        train(tiny(tmp_path, init_weights=str(tmp_path / "none.pt")), log=lambda s: None)


def test_any_policy_is_an_opponent(tmp_path):
    """`opponents` names self, pool, or any policy load_policy knows, a checkpoint included."""
    cfg = tiny(tmp_path, league=None, imitate_steps=0, total_timesteps=512, final_eval_games=2)
    agent_path = train(cfg, log=lambda s: None)["agent"]
    mixed = make_config(
        {**cfg.__dict__, "opponents": {"self": 1, "pool": 1, "random": 1, agent_path: 1}}
    )
    from baselines.ppo.agent import make_agent
    from mafia_env.vector import VectorMafia

    vec = VectorMafia("sport", 1)
    agent = make_agent(mixed, vec.obs_size, vec.action_size)
    mix = Mixture(mixed, 10, 8, np.random.default_rng(0), agent)
    assert set(mix.opp.weights) == {"self", "pool", "random", agent_path}
    assert type(mix.opp.players[agent_path]).__name__ == "PPOPolicy"
    assert mix.opp.players["self"] is None


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"opponents": {"humans": 1}}, r"unknown opponent\(s\) 'humans' in 'opponents'; allowed"),
        ({"league": {"fixed": ["rule", "ghost"]}}, r"'ghost' in 'league.fixed'; allowed: .*random"),
        ({"league": {}, "opponents": {"rule": 1}}, "a league draws its own opponents"),
        ({"league": {"fixed": [], "self_play": 0.5}}, "league.fixed is empty"),
        ({"league": {"pfsp_floor": 0}}, r"league.pfsp_floor must be in \(0, 1\]"),
        ({"league": {"self_play": 1.5}}, r"league.self_play must be in \[0, 1\]"),
        ({"league": {"exploiters": 3}}, r"league: unknown keys \['exploiters'\]"),
    ],
)
def test_bad_league_configs_are_errors(data, message):
    with pytest.raises(ConfigError, match=message):
        make_config(data)


def test_league_configs_load_one_per_variant():
    paths = {p.stem: p for p in (ROOT / "configs" / "league").glob("*.yaml")}
    assert sorted(paths) == sorted(VARIANTS)
    for variant, path in paths.items():
        cfg = load_config(path)
        assert cfg.variant == variant and cfg.league is not None and cfg.imitate_steps > 0
        assert "ppo" in cfg.league.fixed and cfg.league.exploiter_every > 0
    assert load_config(paths["city"]).num_players == 13  # the benchmark task city-13
    cfg = with_overrides(load_config(paths["sport"]), ["league.max_exploiters=5", "seed=3"])
    assert cfg.league.max_exploiters == 5 and cfg.seed == 3
    with pytest.raises(ConfigError, match="'seed' is not a section"):
        with_overrides(cfg, ["seed.x=1"])


def test_train_cli_runs_a_league_config_with_overrides(tmp_path, capsys):
    args = ["--config", str(ROOT / "configs" / "league" / "minimal.yaml")]
    sets = {
        "total_timesteps": 256, "num_envs": 8, "num_steps": 32, "hidden_size": 16,
        "imitate_steps": 200, "imitate_epochs": 1, "eval_every": 0, "final_eval_games": 2,
        "league.exploiter_every": 1, "league.exploiter_updates": 1, "run_dir": str(tmp_path),
        "init_weights": "null",
    }  # fmt: skip
    for k, v in sets.items():
        args += ["--set", f"{k}={v}"]
    assert train_main(args) == 0
    out = capsys.readouterr().out
    assert "exploiter_1 " in out and "it joins the pool" in out and "final evaluation" in out


EXPLOIT_SETS = [
    "num_envs=8", "num_steps=32", "hidden_size=16", "imitate_steps=300", "imitate_epochs=1",
]  # fmt: skip


def test_exploit_runs_end_to_end_and_writes_json(tmp_path, capsys):
    out = tmp_path / "r.json"
    args = ["--policy", "random", "--task", "sport-10", "--steps", "512", "--games", "6"]
    args += ["--out", str(out), "--set", f"run_dir={tmp_path}"]
    for s in EXPLOIT_SETS:
        args += ["--set", s]
    assert exploit_main(args) == 0
    printed = capsys.readouterr().out
    assert "exploitability of random on sport-10" in printed and "cloning the rule bots" in printed
    r = json.loads(out.read_text())
    assert r["policy"] == "random" and r["task"] == "sport-10"
    assert r["steps_per_side"] == 512 and r["updates_per_side"] == 2 and r["games_per_side"] == 6
    assert set(r["sides"]) == {"town", "mafia"}
    for s in r["sides"].values():
        for key in ("best_response", "clone", "policy", "policy_vs_clone"):
            assert s[key]["games"] == 6
            assert s[key]["lo"] <= s[key]["rate"] <= s[key]["hi"]
        assert s["best_response"]["wins"] + s["policy"]["wins"] <= 6
    rates = [s["best_response"]["rate"] for s in r["sides"].values()]
    assert r["exploitability"] == pytest.approx(np.mean(rates))
    assert Path(r["clone"]).exists()
    # a second policy reuses the cached clone: the same start for every P
    assert exploit_main([*args[:1], "rule", *args[2:], "--force"]) == 0  # over r.json
    assert "(cached)" in capsys.readouterr().out
    assert json.loads(out.read_text())["clone"] == r["clone"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--policy", "nobody", "--task", "sport-10"], "unknown policy 'nobody'"),
        (["--policy", "random", "--task", "sport-99"], "no task 'sport-99' in version 20"),
        (["--policy", "random", "--task", "sport-10", "--steps", "0"], "--steps must be"),
        (["--policy", "random", "--task", "sport-10", "--set", "lr=1"], "unknown keys"),
    ],
)
def test_exploit_bad_arguments_are_clear_errors(tmp_path, capsys, args, message):
    if "--steps" not in args:
        args = [*args, "--steps", "256"]
    args += ["--set", f"run_dir={tmp_path}", *[x for s in EXPLOIT_SETS for x in ("--set", s)]]
    assert exploit_main(args) == 2
    assert message in capsys.readouterr().err
