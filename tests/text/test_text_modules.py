"""The `mafia_env.text` package: its modules, the names it exports, and quiet fallbacks."""

from __future__ import annotations

import logging

import mafia_env
import mafia_env.text
from mafia_env.text import TextPolicy, observer, reply, text_policy

EXPORTED = {
    "FALLBACKS",
    "MAX_LENGTH",
    "STATS",
    "Defer",
    "Reply",
    "ReplyError",
    "TextObserver",
    "TextPolicy",
    "choices_from_text",
    "match_reply",
    "parse_reply",
    "read_reply",
}


def test_the_package_exports_every_name_the_module_did():
    assert set(mafia_env.text.__all__) == EXPORTED
    home = {**vars(observer), **vars(reply), **vars(text_policy)}
    for name in EXPORTED:
        assert getattr(mafia_env.text, name) is home[name], name
    assert mafia_env.text.TextObserver.__module__ == "mafia_env.text.observer"
    assert mafia_env.text.read_reply.__module__ == "mafia_env.text.reply"
    assert mafia_env.text.TextPolicy.__module__ == "mafia_env.text.text_policy"


def test_a_policy_warns_of_its_fallbacks_once(caplog):
    """Every fallback is counted and logged; only the policy's first is a warning."""
    env = mafia_env.env("sport", obs_mode="text")
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    bot = TextPolicy(lambda prompt: "no idea", retries=0)
    with caplog.at_level(logging.DEBUG, logger="mafia_env.text"):
        for _ in range(5):
            bot.act(obs["observation"], obs["action_mask"])
    assert bot.stats["fallbacks"] == len(bot.fallbacks) == 5
    mine = [r for r in caplog.records if r.name == "mafia_env.text.text_policy"]
    assert [r.levelno for r in mine] == [logging.WARNING] + [logging.DEBUG] * 4
    assert "further fallbacks are logged at DEBUG" in mine[0].getMessage()
    other = TextPolicy(lambda prompt: "no idea", retries=0)  # another policy warns again
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="mafia_env.text"):
        other.act(obs["observation"], obs["action_mask"])
    assert len([r for r in caplog.records if r.name == "mafia_env.text.text_policy"]) == 1
