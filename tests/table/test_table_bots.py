"""The table's default bot: the filler (issue 28), else the league bot, else the rule bots,
else random (issue 20)."""

from __future__ import annotations

import asyncio
import logging

import pytest

import mafia_env.seating.policies as registry
from baselines.rule import RulePolicy
from mafia_env.seating.policies import RandomPolicy
from mafia_env.table.bots import BotShelf
from mafia_env.table.settings import DEFAULT_BOTS, TableConfig

pytest.importorskip("torch")


def test_the_default_bot_is_the_filler():
    assert TableConfig().default_bot == "filler" == DEFAULT_BOTS[0]
    assert TableConfig.from_json({}).default_bot == "filler"
    assert DEFAULT_BOTS[1:] == ("league", "rule", "random")


def test_the_league_bot_sits_where_it_is_shipped(league_dir, caplog):
    from baselines.ppo import PPOPolicy  # torch: after the module's importorskip

    shelf = BotShelf()
    config = TableConfig(variant="sport", humans=(1,), bots={2: "random"}, default_bot="league")
    with caplog.at_level(logging.INFO, "mafia_env.table.bots"):
        assert shelf.settle(config, 10) is config
    assert not caplog.records
    bots = shelf.seat_bots(config, 10, seed=3)
    assert isinstance(bots[1], RandomPolicy)  # a seat the host named keeps its bot
    assert all(isinstance(bots[s], PPOPolicy) for s in range(2, 10))
    assert bots[2].agent is bots[3].agent  # one network shared by every seat


def test_no_league_file_for_the_variant_falls_back_to_rule(league_dir, caplog):
    shelf = BotShelf()
    config = TableConfig(variant="minimal", humans=(1,))
    with caplog.at_level(logging.INFO, "mafia_env.table.bots"):
        settled = shelf.settle(config, 10)
    assert settled.default_bot == "rule" and settled.variant == "minimal"
    assert "default bot 'league' cannot play minimal with 10 players" in caplog.text
    assert "'rule' sits instead" in caplog.text
    assert isinstance(shelf.seat_bots(settled, 10, seed=0)[4], RulePolicy)
    # nor at another table size of a shipped variant (the file is for 10 seats)
    assert shelf.settle(TableConfig(variant="sport"), 8).default_bot == "rule"


def test_without_torch_league_falls_back_to_rule_then_random(monkeypatch, caplog):
    def no_torch(**kwargs):
        raise ModuleNotFoundError("No module named 'torch'")

    monkeypatch.setitem(registry._REGISTRY, "filler", no_torch)  # the networks need torch
    monkeypatch.setitem(registry._REGISTRY, "league", no_torch)
    shelf = BotShelf()
    with caplog.at_level(logging.INFO, "mafia_env.table.bots"):
        assert shelf.settle(TableConfig(), 10).default_bot == "rule"
        monkeypatch.setitem(registry._REGISTRY, "rule", no_torch)
        assert shelf.settle(TableConfig(), 10).default_bot == "random"
    assert "'random' sits instead" in caplog.text
    # a bot the host chose is not replaced: it loads, or the table is refused
    assert shelf.settle(TableConfig(default_bot="random"), 10).default_bot == "random"
    assert shelf.settle(TableConfig(default_bot="ppo"), 10).default_bot == "ppo"


def test_a_table_shows_the_bot_that_sits(league_dir):
    async def go():
        from mafia_env.table.core import Table

        t = Table(TableConfig(variant="minimal", humans=(1,), seed=1, bot_delay=0))
        assert t.config.default_bot == "rule"
        assert set(t.bot_names.values()) == {"rule"}
        t = Table(TableConfig(variant="sport", humans=(1,), seed=1, bot_delay=0))
        assert set(t.bot_names.values()) == {"league"}

    asyncio.run(go())


def test_the_page_offers_the_default_bot(league_dir):
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from mafia_env.table.server import create_app

    with TestClient(create_app(records_dir=None)) as c:
        options = c.get("/api/options").json()
        assert options["defaults"]["bot"] == "filler" and "league" in options["bots"]
        assert "filler" in options["bots"]
        body = {"variant": "minimal", "humans": [1], "bot_delay": 0, "seed": 1}
        assert c.post("/api/tables", json=body).status_code == 200
