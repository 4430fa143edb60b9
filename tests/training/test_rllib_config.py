"""The RLlib run config and checkpoint dispatch: checks that need no Ray installed."""

from __future__ import annotations

import json

import pytest

from baselines.rllib.rllib_config import RLlibConfig, load_config, parse_config
from baselines.shipped import load_policy
from mafia_env.errors import ConfigError


def test_shipped_config_loads_with_its_scale_settings():
    cfg = load_config("configs/rllib/sport.yaml")
    assert cfg.variant == "sport" and cfg.num_players == 10
    assert (cfg.num_env_runners, cfg.num_envs_per_env_runner, cfg.num_learners) == (2, 8, 0)
    assert cfg.policies == "shared" and cfg.hidden == (256, 256)
    assert cfg.env_config() == {
        "variant": "sport",
        "num_players": 10,
        "knobs": {},
        "tag_team": False,
    }


def test_missing_keys_take_defaults_and_per_team_tags_agents():
    cfg = parse_config({"policies": "per_team"})
    assert cfg == RLlibConfig(policies="per_team")
    assert cfg.env_config()["tag_team"] is True


def test_unknown_key_is_an_error_naming_it_and_the_allowed_keys():
    with pytest.raises(ConfigError, match=r"unknown keys \['num_workers'\]; allowed keys: variant"):
        parse_config({"num_workers": 4})


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"num_env_runners": "2"}, r"num_env_runners must be int; got '2'"),
        ({"num_env_runners": True}, r"num_env_runners must be int; got True"),
        ({"num_learners": -1}, r"num_learners must be >= 0; got -1"),
        ({"num_envs_per_env_runner": 0}, r"num_envs_per_env_runner must be >= 1; got 0"),
        ({"policies": "per_role"}, r"policies must be one of shared, per_team; got 'per_role'"),
        ({"train_batch_size": 200}, r"minibatch_size \(256\) must be <= train_batch_size \(200\)"),
        ({"hidden": [64, 0]}, r"hidden must be a list of positive ints"),
        ({"ray_address": 5}, r"ray_address must be str or null; got 5"),
        ({"variant": "chess"}, r"unknown variant 'chess'"),
        ({"knobs": {"no_such_knob": 1}}, r"unknown knob .no_such_knob. for variant .sport."),
        ({"num_players": 3}, r"supports 6 to 14 players; got num_players=3"),
    ],
)
def test_bad_values_are_errors_that_say_what_is_allowed(data, message):
    with pytest.raises(ConfigError, match=message):
        parse_config(data)


def test_env_check_needs_an_illegal_action_mode_that_keeps_the_game_going():
    """RLlib's env check steps one unmasked random action; with illegal_action=raise it fails."""
    with pytest.raises(ConfigError, match=r"env_check: true .*illegal_action: foul"):
        parse_config({"env_check": True, "knobs": {"illegal_action": "raise"}})
    assert parse_config({"env_check": True}).env_check  # the default terminates (COMMON-7)
    assert parse_config({"env_check": True, "knobs": {"illegal_action": "foul"}}).env_check


def test_config_file_errors(tmp_path):
    with pytest.raises(ConfigError, match=r"config file '.*nope.yaml' not found"):
        load_config(tmp_path / "nope.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("variant: [sport\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_config(bad)
    bad.write_text("- sport\n")
    with pytest.raises(ConfigError, match="a config is a mapping"):
        load_config(bad)


def test_rllib_checkpoint_without_our_run_config_is_a_clear_error(tmp_path):
    (tmp_path / "rllib_checkpoint.json").write_text(json.dumps({"type": "Algorithm"}))
    with pytest.raises(ConfigError, match=r"has no mafia_rllib.json: it was not saved by"):
        load_policy(tmp_path)
