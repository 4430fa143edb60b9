"""Evaluation and ratings: intervals, a tiny config end to end, and clear config errors."""

from __future__ import annotations

import csv
import json
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from baselines.evaluate import (
    evaluate,
    load_config,
    main,
    matchup_tasks,
    parse_config,
    play_chunk,
    summarize,
    wilson,
)
from baselines.ratings import main as ratings_main
from mafia_env.errors import ConfigError
from tests.scripting import Table

TINY = {
    "variant": "minimal",
    "num_players": 6,
    "games": 30,
    "seed": 1,
    "workers": 1,
    "matchups": [
        {"town": "random", "mafia": "random"},
        {"name": "rule town", "town": "rule", "mafia": "random"},
    ],
    "ratings": {"policies": ["random", "rule"], "games": 5},
}


def write(tmp_path, data, name="eval.yaml"):
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def test_wilson_interval_known_values():
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_evaluate_tiny_config_end_to_end(tmp_path, capsys):
    pytest.importorskip("matplotlib")  # the chart (extra: train)
    pytest.importorskip("openskill")  # the ratings (extra: train)
    out = tmp_path / "out"
    path = write(tmp_path, {**TINY, "out": str(out)})
    assert main(["--config", str(path), "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "rule town" in printed and "mafia" in printed
    report = json.loads((out / "report.json").read_text())
    assert [m["name"] for m in report["matchups"]] == ["town=random vs mafia=random", "rule town"]
    for m in report["matchups"]:
        assert m["games"] == 30
        assert sum(o["count"] for o in m["outcomes"].values()) == 30
        town = m["outcomes"]["town"]
        assert town["low"] <= town["rate"] <= town["high"]
        assert 0.0 <= m["measures"]["town_votes_on_mafia"]["rate"] <= 1.0
        assert m["days"]["mean"] >= 1
    with (out / "report.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 2 * 3  # two matchups x (town, mafia, draw)
    assert (out / "winrates.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    table = json.loads((out / "ratings.json").read_text())
    assert {(r["policy"], r["team"]) for r in table} == {
        (p, t) for p in ("random", "rule") for t in ("town", "mafia")
    }
    assert all(r["games"] == 10 for r in table)  # 4 pairings x 5 games, 2 per entity and team


def test_ratings_cli_prints_a_table(tmp_path, capsys):
    pytest.importorskip("openskill")  # extra: train
    path = write(tmp_path, {**TINY, "out": str(tmp_path / "r")})
    assert ratings_main(["--config", str(path), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "ordinal" in out and "rule" in out
    assert (tmp_path / "r" / "ratings.json").exists()


def test_sheriff_measure_is_reported_where_a_sheriff_plays(tmp_path):
    cfg = parse_config(
        {"variant": "sport", "games": 4, "matchups": [{"town": "rule", "mafia": "random"}]}
    )
    games = play_chunk(matchup_tasks(cfg, 0, cfg.matchups[0].policies, 4)[0])
    assert len(games) == 4 and all(g["sheriff"] for g in games)
    # the rule sheriff finds a black player in most games against random mafia
    assert sum(g["sheriff_found_mafia"] for g in games) >= 1


def test_games_do_not_depend_on_the_number_of_workers():
    """Seeds come from the matchup and game index, so chunks replay exactly."""
    cfg = parse_config({**TINY, "games": 30})
    tasks = matchup_tasks(cfg, 1, cfg.matchups[1].policies, 30)
    assert [t.games for t in tasks] == [25, 5]
    assert play_chunk(tasks[1]) == play_chunk(tasks[1])
    one = evaluate(cfg, progress=False)
    two = evaluate(replace(cfg, workers=2), progress=False)
    assert one == two


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"colour": "red"}, r"unknown keys \['colour'\]; allowed keys:"),
        ({"variant": "chess"}, r"unknown variant 'chess'; variants are: .*minimal"),
        (
            {"matchups": [{"town": "smart", "mafia": "random"}]},
            r"matchups\[0\].town: unknown policy 'smart'",
        ),
        (
            {"matchups": [{"town": "rule"}]},
            r"matchups\[0\] must give a policy for each team of 'minimal' \(town, mafia\)",
        ),
        ({"games": 0}, r"games must be >= 1; got 0"),
        ({"num_players": 50}, r"supports 3 to 20 players; got num_players=50"),
        ({"ratings": {"policies": ["rule"]}}, r"ratings.policies must list at least two"),
    ],
)
def test_bad_config_fails_with_a_clear_message(tmp_path, change, message):
    path = write(tmp_path, {**TINY, **change})
    with pytest.raises(ConfigError, match=message):
        load_config(path)


def test_missing_config_file_fails_clearly(tmp_path, capsys):
    missing = tmp_path / "nope.yaml"
    with pytest.raises(ConfigError, match=r"config file .*nope.yaml' not found"):
        load_config(missing)
    assert main(["--config", str(missing)]) == 2
    assert "error: config file" in capsys.readouterr().err


@pytest.mark.parametrize(
    "path",
    sorted((Path(__file__).resolve().parents[2] / "configs" / "eval").glob("*.yaml")),
    ids=lambda p: p.stem,
)
def test_shipped_eval_configs_are_valid(path):
    """Every shipped config validates, names its own variant and rates rule against random."""
    cfg = load_config(path)
    assert cfg.variant == path.stem
    assert {"rule", "random"} <= {p for m in cfg.matchups for p in m.policies.values()}
    assert cfg.games >= 2000


ONLINE_DEAL = ["sheriff", "doctor", "mafia", "civilian", "civilian"]
ONLINE_DEAL += ["don", "civilian", "mafia", "civilian", "civilian"]


@pytest.mark.parametrize(("shots", "saves"), [({3: 1, 6: 1, 8: 1}, 1), ({3: 1, 6: 1, 8: 4}, 0)])
def test_doctor_save_is_a_heal_on_the_player_the_shot_would_kill(shots, saves):
    """ONLINE-N5: a heal on the mafia's agreed victim saves him; on a split shot it saves none."""
    t = Table("online", ONLINE_DEAL)
    t.speeches()
    t.night({**shots, 2: 1})
    assert 1 in t.alive and t.phase != "over"
    g = summarize(t.game, 0)
    assert (g["doctor_heals"], g["doctor_saves"]) == (1, saves)
