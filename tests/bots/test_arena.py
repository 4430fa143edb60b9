"""The arena: duplicate deals, rotated seats, win rates, ratings, model use, records, pages."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

pytest.importorskip("openai")
pytest.importorskip("openskill")

import mafia_env
from baselines.arena import (
    format_summary,
    main,
    parse_config,
    ratings,
    run,
    schedule,
)
from baselines.scripted_model import ChatServer, messy, well_formed
from mafia_env.errors import ConfigError


def config(url: str, tmp_path, **extra):
    data = {
        "variant": "sport",
        "deals": 2,
        "seed": 3,
        "concurrency": 3,
        "out": str(tmp_path / "arena"),
        "policies": [
            {"name": "model", "policy": "llm",
             "options": {"model": "scripted", "base_url": url, "timeout": 5, "max_retries": 0}},
            {"name": "random", "policy": "random"},
            {"name": "rule", "policy": "rule"},
        ],
        **extra,
    }  # fmt: skip
    return parse_config(data)


def test_every_policy_plays_every_seat_of_every_deal(tmp_path):
    cfg = config("http://127.0.0.1:9/v1", tmp_path, deals=3)
    games = schedule(cfg, 10)
    assert len(games) == 3 * 3
    for deal in range(3):
        seats = [g[2] for g in games if g[0] == deal]
        for s in range(1, 11):
            assert sorted(x[s] for x in seats) == ["model", "random", "rule"]


@pytest.mark.slow
def test_an_arena_run_reports_rates_ratings_model_use_records_and_pages(tmp_path):
    with ChatServer(well_formed, seed=2) as server:
        cfg = config(server.url, tmp_path)
        results, summary = run(cfg)
    assert summary["games"] == len(results) == 6 and summary["marked"] == 0
    assert sum(summary["outcomes"].values()) == 6
    for name, w in summary["win_rates"].items():
        assert w["all"]["games"] == 2 * 10  # every seat of every deal, once
        assert w["side:town"]["games"] + w["side:mafia"]["games"] == 20
        assert sum(v["games"] for k, v in w.items() if k.startswith("role:")) == 20
        assert 0 <= w["all"]["lo"] <= w["all"]["rate"] <= w["all"]["hi"] <= 1
        wins = sum(
            g["winner"] == g["teams"][s - 1]
            for g in results
            for s, p in g["seats"].items()
            if p == name
        )
        assert w["all"]["wins"] == wins
    assert set(summary["ratings"]) == {"model", "random", "rule"}
    assert {"all", "side:town", "side:mafia"} <= set(summary["ratings"]["rule"])
    use = summary["model_use"]
    assert set(use) == {"model"}  # only the model counts calls
    assert use["model"]["fallbacks"] == use["model"]["invalid"] == 0
    assert use["model"]["calls"] == use["model"]["moves"] > 0
    assert use["model"]["tokens_per_call"] > 0 and use["model"]["latency_per_call_s"] > 0
    assert summary["timing"]["wall_s_per_model_call"] > 0
    out = tmp_path / "arena"
    assert json.loads((out / "summary.json").read_text())["games"] == 6
    table = (out / "results.md").read_text()
    assert table == format_summary(summary) + "\n"
    assert "| model |" in table and "OpenSkill" in table and "Wilson" in table
    records = sorted((out / "records").glob("*.json"))
    assert len(records) == 6
    for path, g in zip(records, results, strict=True):
        record = json.loads(path.read_text())
        assert record["meta"]["seats"] == {str(s): p for s, p in g["seats"].items()}
        env = mafia_env.replay(record)
        assert env.winner == g["winner"]
    pages = sorted((out / "replays").glob("*.html"))
    assert len(pages) == 6
    page = pages[0].read_text()
    data = json.loads(re.search(r'<script id="data" type="application/json">(.*?)</script>',
                                page, re.S).group(1))  # fmt: skip
    assert set(data["lines"]) == {"moderator", "table", *(f"player {s}" for s in range(1, 11))}
    record = json.loads(records[0].read_text())
    assert data["moves"] == len(record["moves"])
    for view, counts in data["counts"].items():
        assert len(counts) == data["moves"] + 1
        assert counts == sorted(counts) and counts[-1] == len(data["lines"][view])
    assert len(data["lines"]["moderator"]) > len(data["lines"]["table"])


def test_failed_calls_mark_games_and_may_be_left_out(tmp_path):
    with ChatServer(messy(slow=1.0, p_slow=0.05), seed=5) as server:
        cfg = config(server.url, tmp_path, deals=1, variant="minimal", exclude_marked=True)
        cfg.policies[0].options["timeout"] = 0.2
        results, summary = run(cfg)
    use = summary["model_use"]["model"]
    assert use["timeouts"] > 0 and use["invalid"] > 0
    assert use["fallbacks"] >= use["timeouts"]
    marked = [g for g in results if g["marked"]]
    assert marked and summary["marked"] == len(marked) == use["marked"]
    assert summary["counted"] == len(results) - len(marked)
    assert all(json.loads(json.dumps(g["record"]))["meta"]["marked"] for g in marked)


def test_ratings_put_the_policy_that_always_wins_first():
    two = [{"name": "a", "policy": "rule"}, {"name": "b", "policy": "random"}]
    cfg = parse_config({"variant": "minimal", "policies": two})
    results = []
    for k in range(20):
        teams = ["town"] * 5 + ["mafia"] * 2
        seats = {s: ("a" if (s + k) % 2 else "b") for s in range(1, 8)}
        winner = Counter(t for s, t in enumerate(teams, 1) if seats[s] == "a").most_common(1)
        results.append({"seats": seats, "teams": teams, "winner": winner[0][0]})
    r = ratings(cfg, results)
    assert r["a"]["all"]["ordinal"] > r["b"]["all"]["ordinal"]


def test_config_errors(tmp_path):
    with pytest.raises(ConfigError, match="distinct names"):
        twins = [{"name": "x", "policy": "rule"}, {"name": "x", "policy": "random"}]
        parse_config({"variant": "sport", "policies": twins})
    with pytest.raises(ConfigError, match="unknown variant"):
        parse_config({"variant": "chess", "policies": []})
    bad = tmp_path / "bad.yaml"
    bad.write_text("variant: sport\npolicies: [{name: a, policy: rule}]\n")
    assert main(["--config", str(bad)]) == 2
