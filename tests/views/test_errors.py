"""Bad input gets a clear error that says what was wrong and what is allowed."""

from __future__ import annotations

import copy

import numpy as np
import pytest
import yaml

import mafia_env
from mafia_env.errors import ConfigError, IllegalActionError, MafiaError, RecordError
from mafia_env.variants import HERE, load_variant, parse_variant


def sport_data():
    return yaml.safe_load((HERE / "sport.yaml").read_text())


def test_unknown_variant_lists_variants():
    with pytest.raises(ConfigError, match=r"unknown variant 'poker'.*minimal.*sport"):
        mafia_env.env("poker")


def test_unknown_knob_lists_knobs():
    with pytest.raises(ConfigError, match=r"unknown knob 'speed'.*knobs are:.*speech_acts"):
        mafia_env.env("sport", speed=3)


@pytest.mark.parametrize(
    ("knob", "value", "message"),
    [
        ("tie", "coin", r"knob 'tie' must be one of .*'revote_then_crash'"),
        ("speech_acts", 0, r"knob 'speech_acts' must be >= 1"),
        ("speech_acts", "4", r"knob 'speech_acts' must be an integer"),
        ("claims", "yes", r"knob 'claims' must be true or false"),
        ("illegal_action", "ignore", r"'raise', 'foul', 'terminate'"),
    ],
)
def test_bad_knob_value_says_what_is_allowed(knob, value, message):
    with pytest.raises(ConfigError, match=message):
        mafia_env.env("sport", **{knob: value})


@pytest.mark.parametrize("n", [5, 15, "10", 0])
def test_out_of_range_table_size(n):
    with pytest.raises(ConfigError, match=r"'sport' supports 6 to 14 players"):
        mafia_env.env("sport", num_players=n)


@pytest.mark.parametrize(
    ("roles", "message"),
    [
        (["civilian"] * 10, r"deals 10 civilian, but the 10-player table of 'sport' is"),
        (["civilian"] * 9, r"a list of 10 role names"),
        (["wizard"] + ["civilian"] * 9, r"unknown role 'wizard'; roles are civilian"),
        ("sheriff", r"a list of 10 role names"),
    ],
)
def test_wrong_role_list(roles, message):
    with pytest.raises(ConfigError, match=message):
        mafia_env.env("sport", roles=roles)


def test_mafia_count_too_large():
    with pytest.raises(ConfigError, match=r"mafia_count=5 is too many for 10 players"):
        mafia_env.env("minimal", mafia_count=5)


def test_bad_obs_and_render_modes():
    with pytest.raises(ConfigError, match=r"unknown obs_mode 'pixels'"):
        mafia_env.env("sport", obs_mode="pixels")
    with pytest.raises(ConfigError, match=r"unknown render_mode 'rgb_array'.*ansi"):
        mafia_env.env("sport", render_mode="rgb_array")


def test_illegal_and_malformed_actions():
    env = mafia_env.env("sport", illegal_action="raise")
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match=r"outside 0\.\.\d+.*legal actions: 0 \(pass\)"):
        env.step(10_000)
    with pytest.raises(IllegalActionError, match=r"must be an integer index"):
        env.step(1.5)
    with pytest.raises(IllegalActionError, match=r"None is only for agents whose game is over"):
        env.step(None)
    env.step(np.int64(0))  # numpy integers are fine
    with pytest.raises(IllegalActionError, match=r"unknown action kind 'shoot'"):
        env.action_id("shoot", 3)
    with pytest.raises(IllegalActionError, match=r"needs a target seat 1\.\.10"):
        env.action_id("nominate", 11)
    with pytest.raises(IllegalActionError, match=r"claim_role needs a role of this variant"):
        env.action_id("claim_role", value="maniac")


def test_before_reset_and_after_game_over():
    env = mafia_env.env("sport")
    with pytest.raises(MafiaError, match=r"call reset\(\) first"):
        env.step(0)
    with pytest.raises(MafiaError, match=r"call reset\(\) first"):
        env.observe("player_1")
    env.reset(seed=0)
    with pytest.raises(MafiaError, match=r"unknown agent 'player_11'"):
        env.observe("player_11")
    rng = np.random.default_rng(0)
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    with pytest.raises(MafiaError, match=r"the game is over.*call reset\(\)"):
        env.step(0)
    with pytest.raises(MafiaError, match=r"the game is over: no more fouls"):
        env.foul("player_1")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.pop("roles"), r"missing keys \['roles'\]"),
        (lambda d: d.update(colour="red"), r"unknown keys \['colour'\]"),
        (lambda d: d["roles"].pop(7), r"one table for each size 6\.\.14"),
        (lambda d: d["roles"][10].update(civilian=5), r"roles\[10\] deals 9 roles to 10 seats"),
        (lambda d: d["roles"][10].update(wizard=1, civilian=5), r"unknown role 'wizard'"),
        (lambda d: d["rules"].pop("fouls_mute"), r"knobs \['fouls_mute'\] are not set"),
        (lambda d: d["defaults"].update(fouls_mute=3), r"in both rules and defaults"),
        (lambda d: d["defaults"].update(colour=1), r"unknown knobs \['colour'\]"),
        (lambda d: d["defaults"].update(tie="coin"), r"knob 'tie' must be one of"),
        (lambda d: d["players"].update(default=20), r"min <= default <= max"),
    ],
)
def test_bad_variant_file(edit, message):
    data = copy.deepcopy(sport_data())
    edit(data)
    with pytest.raises(ConfigError, match=message):
        parse_variant(data)


def test_corrupt_variant_file_names_the_file(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: [unclosed\n")
    with pytest.raises(ConfigError, match=r"bad\.yaml: cannot read the variant file"):
        load_variant(bad)


def test_bad_records():
    env = mafia_env.env("sport")
    env.reset(seed=3)
    for _ in range(5):
        env.step(env.action_id("pass"))
    good = env.record()
    assert mafia_env.replay(good).game.events == env.game.events
    first = good["moves"][0][0]  # the seat of the first move (SPORT-N3's meeting: a mafia one)
    cases = [
        (["not", "a", "dict"], r"a record must be a JSON object \(dict\); got list"),
        ({**good, "format": 9}, r"record 'format' is 9; supported: 1"),
        ({k: v for k, v in good.items() if k != "seed"}, r"record is missing \['seed'\]"),
        ({**good, "variant": "poker"}, r"unknown variant 'poker'"),
        ({**good, "moves": [*good["moves"], [9, 0]]}, r"'moves'\[5\]: player_9 moves, but it is"),
        ({**good, "moves": [[first, "x"]]}, r"'moves'\[0\]: the action must be an index 0\.\.\d+"),
        (
            {**good, "moves": [[first, 10_000]]},
            r"'moves'\[0\]: the action must be an index .* got 10000",
        ),
        ({**good, "winner": "town"}, r"record 'winner' is 'town', but replaying its moves gives"),
    ]
    for record, message in cases:
        with pytest.raises(RecordError, match=message):
            mafia_env.replay(record)
