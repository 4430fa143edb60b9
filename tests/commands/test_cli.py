"""A newcomer's first hour (issue 50): one `mafia` command, help with defaults, progress,
runs never overwritten, a wheel that carries its data, one line for a missing extra, clear
errors for damaged files, an arena that shows a dead model server, flags that do what they say.
"""

from __future__ import annotations

import dataclasses
import io
import json
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import mafia_env
from baselines import cli
from baselines.resources import config_names, config_path, data_dir
from baselines.runs import claim_dir, free_file, fresh_dir
from mafia_env.commands import progress, showing_progress
from mafia_env.errors import ConfigError, MafiaError, MissingExtraError, RecordError
from mafia_env.seating.terminal import play

ROOT = Path(__file__).resolve().parents[2]


def without(monkeypatch, module: str, *importers: str) -> None:
    """Make `module` missing (``sys.modules[name] = None``), and forget the modules that
    imported it (`importers`: prefixes), so that importing them again meets the gap."""
    for name in list(sys.modules):
        if name == module or name.startswith(f"{module}.") or name.startswith(importers or "\0"):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, module, None)


# ------------------------------------------------------------------ the mafia command


def test_mafia_lists_every_command_and_its_python_m_form(capsys):
    assert cli.main([]) == 0
    text = capsys.readouterr().out
    for name, command in cli.COMMANDS.items():
        assert f"  {name}" in text and f"python -m {command.python_m}" in text
    for needed in ("play", "replay", "table", "train", "evaluate", "benchmark", "exploit"):
        assert needed in cli.COMMANDS
    assert "arena" in cli.COMMANDS


def test_the_console_script_is_declared():
    tomllib = pytest.importorskip("tomllib")
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert data["project"]["scripts"]["mafia"] == "baselines.cli:main"


def test_an_unknown_command_is_named_with_the_nearest(capsys):
    assert cli.main(["bench"]) == 2
    assert "did you mean 'benchmark'?" in capsys.readouterr().err


HELPED = [n for n in cli.COMMANDS if n != "table"]


@pytest.mark.parametrize("name", HELPED)
def test_every_command_has_help_with_defaults_and_choices(name, capsys):
    extra = {"rllib": "ray"}.get(name)  # train's and exploit's help need no torch
    if extra:
        pytest.importorskip(extra)
    assert cli.main([name, "--help"]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"usage: mafia {name}")
    if name in ("play", "model", "benchmark", "replay"):
        assert "(default: " in text
    if name == "play":
        assert "{city,club,forum,minimal,online,sport}" in text and "(default: rule)" in text
    if name in ("benchmark", "exploit"):
        assert "sport-10" in text and "city-13" in text  # the task's choices


def test_python_m_forms_still_run():
    for module in ("mafia_env.seating.terminal", "baselines.benchmark", "baselines"):
        out = subprocess.run(
            [sys.executable, "-m", module, "--help"], capture_output=True, text=True, cwd=ROOT
        )
        assert out.returncode == 0, out.stderr
        assert "usage:" in out.stdout


# ------------------------------------------------------------------ missing extras


def test_the_ppo_bot_without_torch_names_the_extra(monkeypatch):
    """(In the core venv, without torch, the same as it is for a user.)"""
    without(monkeypatch, "torch", "baselines.ppo", "baselines.plugin", "baselines.filler")
    with pytest.raises(MissingExtraError, match=r"needs torch.*pip install 'mafia-env\[train\]'"):
        mafia_env.single_agent("sport-10", opponents="ppo")
    err = io.StringIO()
    with pytest.raises(MafiaError) as e:
        play("sport", bots="ppo", seed=1, inp=io.StringIO(""), out=err)
    assert "\n" not in str(e.value) and "mafia-env[train]" in str(e.value)


def test_play_and_train_without_torch_are_one_line(monkeypatch, capsys):
    without(monkeypatch, "torch", "baselines.ppo", "baselines.train", "baselines.plugin")
    assert cli.main(["play", "--bots", "ppo", "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install 'mafia-env[train]'" in err
    assert cli.main(["train", "--config", "ppo/sport"]) == 2
    err = capsys.readouterr().err
    assert err == "error: mafia train needs torch, which is not installed: " + (
        "pip install 'mafia-env[train]'\n"
    )


def test_train_and_exploit_help_need_no_torch(monkeypatch, capsys):
    """Their help and their argument errors come before torch is imported; a run needs it."""
    without(monkeypatch, "torch", "baselines.ppo", "baselines.train", "baselines.exploit")
    for name in ("train", "exploit"):
        assert cli.main([name, "--help"]) == 0
        text = capsys.readouterr().out
        assert text.startswith(f"usage: mafia {name}") and "--config" in text
    assert cli.main(["exploit", "--policy", "rule", "--task", "sport-11", "--steps", "1"]) == 2
    assert "no task 'sport-11'" in capsys.readouterr().err
    assert cli.main(["exploit", "--policy", "rule", "--task", "sport-10", "--steps", "1"]) == 2
    assert (
        capsys.readouterr().err
        == "error: mafia exploit needs torch, which is not installed: "
        + ("pip install 'mafia-env[train]'\n")
    )


def test_openspiel_without_pyspiel_names_the_extra(monkeypatch):
    without(monkeypatch, "pyspiel", "mafia_env.openspiel")
    with pytest.raises(ImportError, match=r"pip install 'mafia-env\[openspiel\]'") as e:
        import mafia_env.openspiel  # noqa: F401
    assert isinstance(e.value, MissingExtraError) and e.value.name == "pyspiel"


def test_the_llm_policy_without_openai_names_the_extra(monkeypatch):
    without(monkeypatch, "openai")
    with pytest.raises(MissingExtraError, match=r"needs openai.*mafia-env\[llm\]"):
        mafia_env.seating.policies.load_policy(
            "llm", "minimal", model="m", base_url="http://127.0.0.1:9"
        )


def test_the_arena_without_openskill_stops_before_playing(monkeypatch, capsys, tmp_path):
    without(monkeypatch, "openskill")
    path = tmp_path / "a.yaml"
    path.write_text(
        "variant: minimal\npolicies: [{name: a, policy: rule}, {name: b, policy: random}]\n"
    )
    assert cli.main(["arena", "--config", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == "error: the arena's ratings needs openskill, which is not installed: " + (
        "pip install 'mafia-env[llm]'\n"
    )


def test_progress_without_tqdm_prints_lines_with_an_eta(monkeypatch, capsys):
    without(monkeypatch, "tqdm")
    with showing_progress(True):
        bar = progress(10, "games", "game")
        bar.update(4)
        bar.close()
    err = capsys.readouterr().err
    assert err.startswith("games: 4/10 (40%)") and "ETA" in err
    with showing_progress(False):
        bar = progress(10, "games")
        bar.update(10)
        bar.close()
    assert capsys.readouterr().err == ""  # --quiet, and every library call


# ------------------------------------------------------------------ damaged files


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "the file is empty (0 bytes)"),
        (None, "the file is truncated or damaged"),
        (b"variant: sport\n", "it is not a torch file"),
    ],
)
def test_a_damaged_checkpoint_says_what_is_wrong_and_what_is_expected(tmp_path, content, message):
    pytest.importorskip("torch")
    from baselines.ppo.checkpoint import read_checkpoint

    path = tmp_path / "x.pt"
    if content is None:  # a shipped file, cut short
        content = (ROOT / "baselines" / "checkpoints" / "minimal.pt").read_bytes()[:3000]
    path.write_bytes(content)
    with pytest.raises(ConfigError) as e:
        read_checkpoint(path)
    assert message in str(e.value)
    assert "expected a PPO checkpoint written by baselines.ppo.save_checkpoint" in str(e.value)
    with pytest.raises(ConfigError, match="no checkpoint at"):
        read_checkpoint(tmp_path / "missing.pt")


def test_an_empty_record_and_an_empty_config_say_so(tmp_path):
    from mafia_env import yaml_config
    from mafia_env.records import load_record

    (tmp_path / "r.json").write_text("")
    with pytest.raises(RecordError, match="the file is empty; a record is the JSON object"):
        load_record(tmp_path / "r.json")

    @dataclasses.dataclass(frozen=True)
    class Example:
        name: str = "x"

    (tmp_path / "c.yaml").write_text("# nothing\n")
    with pytest.raises(ConfigError, match=r"c\.yaml: the config is empty"):
        yaml_config.load(Example, tmp_path / "c.yaml")


# ------------------------------------------------------------------ runs never overwritten


def test_a_second_run_takes_a_new_folder_and_force_empties_the_first(tmp_path):
    run = tmp_path / "ppo_sport_1"
    assert fresh_dir(run) == run  # free
    claim_dir(run)
    assert fresh_dir(run) == run  # empty: still free
    (run / "checkpoint.pt").write_text("first")
    assert fresh_dir(run) == tmp_path / "ppo_sport_1-2"
    claim_dir(tmp_path / "ppo_sport_1-2")
    (tmp_path / "ppo_sport_1-2" / "x").write_text("second")
    assert fresh_dir(run) == tmp_path / "ppo_sport_1-3"
    assert fresh_dir(run, force=True) == run and (run / "checkpoint.pt").exists()  # not yet
    claim_dir(run, force=True)
    assert list(run.iterdir()) == []
    (tmp_path / "r.json").write_text("{}")
    with pytest.raises(ConfigError, match="--force to overwrite it"):
        free_file(tmp_path / "r.json")
    free_file(tmp_path / "r.json", force=True)


@pytest.mark.slow
def test_training_twice_keeps_both_runs_and_draws_a_learning_curve(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("matplotlib")
    from baselines.ppo import make_config, train

    cfg = make_config(
        {
            "variant": "minimal",
            "total_timesteps": 1024,
            "num_envs": 8,
            "num_steps": 64,
            "hidden_size": 16,
            "eval_every": 1,
            "eval_games": 4,
            "final_eval_games": 4,
            "run_dir": str(tmp_path),
        }
    )
    lines: list[str] = []
    first = train(cfg, log=lines.append)
    second = train(cfg, log=lines.append)
    assert Path(first["run_dir"]).name == "ppo_minimal_1"
    assert Path(second["run_dir"]).name == "ppo_minimal_1-2"
    assert any("holds an earlier run: this one writes" in line for line in lines)
    png = Path(first["run_dir"]) / "learning_curve.png"
    assert second["curve_png"] and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    def files(run: str) -> list[str]:  # a run's files, its one event file by kind
        return sorted(p.name.split(".1")[0] for p in Path(run).iterdir())

    before = files(first["run_dir"])
    assert before == ["agent.pt", "checkpoint.pt", "events.out.tfevents", "learning_curve.png"]
    forced = train(cfg, log=lines.append, force=True)
    assert forced["run_dir"] == first["run_dir"]
    assert files(first["run_dir"]) == before  # one run's files: the first run's are gone
    # a resume that fails (a checkpoint of another variant) leaves nothing behind
    other = make_config({**dataclasses.asdict(cfg), "variant": "sport", "exp_name": "other"})
    with pytest.raises(ConfigError):
        train(other, resume=first["checkpoint"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ppo_minimal_1", "ppo_minimal_1-2"]
    assert files(first["run_dir"]) == before


def test_resuming_a_checkpoint_outside_a_run_writes_a_run_folder(tmp_path):
    """A checkpoint with no run beside it (a shipped file, a copy) is read, never written
    beside: the resumed run writes run_dir/<run_name> (scripts/bench_trainer.py resumes the
    shipped sport weights)."""
    pytest.importorskip("torch")
    from baselines.ppo import make_config, train

    cfg = make_config(
        {
            "variant": "minimal",
            "total_timesteps": 512,
            "num_envs": 8,
            "num_steps": 64,
            "hidden_size": 16,
            "final_eval_games": 1,
            "run_dir": str(tmp_path / "runs"),
        }
    )
    first = train(cfg, log=lambda s: None)
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    copy = shelf / "minimal.pt"
    copy.write_bytes(Path(first["checkpoint"]).read_bytes())
    more = make_config({**dataclasses.asdict(cfg), "total_timesteps": 1024})
    resumed = train(more, resume=copy, log=lambda s: None)
    assert [p.name for p in shelf.iterdir()] == ["minimal.pt"]
    assert Path(resumed["run_dir"]).parent == tmp_path / "runs"
    assert Path(resumed["run_dir"]).name == "ppo_minimal_1-2"
    assert resumed["global_step"] == 1024


@pytest.mark.slow
def test_reproducing_a_checkpoint_reruns_into_the_same_folder():
    pytest.importorskip("torch")
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "reproduce_checkpoints.py"), "--list"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert all(" --force " in line for line in out.splitlines())


# ------------------------------------------------------------------ the wheel's data


def test_a_wheel_carries_every_config_and_the_results_the_code_reads(tmp_path):
    """setup.py's build_py (what a wheel packs) copies configs/ and results/v3 into the
    package, where `baselines.resources` finds them (no C build: build_py alone)."""
    setuptools = pytest.importorskip("setuptools")
    if int(setuptools.__version__.split(".")[0]) < 77:  # pyproject.toml's build requirement
        pytest.skip(f"setuptools {setuptools.__version__} is older than the build needs (77)")
    out = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr
    data = tmp_path / "baselines" / "_data"
    want = sorted(p.relative_to(ROOT) for p in (ROOT / "configs").rglob("*.yaml"))
    want += sorted(p.relative_to(ROOT) for p in (ROOT / "results" / "v3").glob("*.json"))
    for rel in want:
        assert (data / rel).read_bytes() == (ROOT / rel).read_bytes(), rel
    # the package's own data too: variants, the table's page, the checkpoints
    for rel in ("mafia_env/variants/sport.yaml", "mafia_env/table/static/index.html"):
        assert (tmp_path / rel).is_file(), rel
    assert (tmp_path / "baselines" / "checkpoints" / "filler" / "sport.pt").is_file()
    # tasks version 4's sport-10 filler (`baselines.pins.RETIRED`), which version 4 plays
    assert (tmp_path / "baselines" / "checkpoints" / "filler" / "v4" / "sport.pt").is_file()
    manifest = (ROOT / "MANIFEST.in").read_text()  # an sdist carries them for its wheel
    assert "recursive-include configs *.yaml" in manifest and "results/v3/*.json" in manifest


def test_the_code_reads_its_data_through_resources():
    pytest.importorskip("torch")  # baselines.exploit
    from baselines import exploit, ismcts

    assert data_dir("configs") / "exploit" / "default.yaml" == exploit.DEFAULT_CONFIG
    assert data_dir("results/v3") == exploit.STRONGEST_FROM
    assert data_dir("configs") / "ismcts" == ismcts.CONFIGS
    for name in ("ppo/sport", "ppo/sport.yaml", "configs/ppo/sport.yaml"):
        assert config_path(name).resolve() == data_dir("configs") / "ppo" / "sport.yaml"
    assert config_path("nowhere.yaml") == Path("nowhere.yaml")
    assert "eval/sport" in config_names("eval")


# ------------------------------------------------------------------ the arena


def test_the_arena_says_a_dead_model_never_played_and_fails(tmp_path, capsys, caplog):
    pytest.importorskip("openai")
    pytest.importorskip("openskill")
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    dead = {"model": "m", "base_url": f"http://127.0.0.1:{port}/v1", "timeout": 2}
    cfg = {
        "variant": "minimal",
        "deals": 1,
        "concurrency": 2,
        "replays": False,
        "out": str(tmp_path / "arena"),
        "policies": [
            {"name": "model", "policy": "llm", "options": {**dead, "max_retries": 0}},
            {"name": "rule", "policy": "rule"},
        ],
    }
    path = tmp_path / "arena.yaml"
    path.write_text(json.dumps(cfg))
    assert cli.main(["arena", "--config", str(path), "--quiet"]) == 3
    out, err = capsys.readouterr()
    assert "MODEL DID NOT PLAY" in out and "first error: APIConnectionError" in out
    assert "model did not play" in err
    warnings = [r for r in caplog.records if "fallback" in r.getMessage()]
    assert 1 <= len(warnings) <= 2 and "APIConnectionError" in warnings[0].getMessage()
    summary = json.loads((tmp_path / "arena" / "summary.json").read_text())
    assert summary["failed"] == ["model"]
    assert summary["model_use"]["model"]["failed_share"] == 1.0


# ------------------------------------------------------------------ flags


def test_evaluate_games_bounds_the_ratings_too(tmp_path, capsys):
    pytest.importorskip("openskill")
    from baselines.evaluate.command import main

    cfg = {
        "variant": "minimal",
        "games": 50,
        "workers": 1,
        "out": str(tmp_path / "e"),
        "matchups": [{"town": "rule", "mafia": "random"}],
        "ratings": {"policies": ["rule", "random"], "games": 400},
    }
    path = tmp_path / "e.yaml"
    path.write_text(json.dumps(cfg))
    assert main(["--config", str(path), "--games", "2", "--quiet"]) == 0
    report = json.loads((tmp_path / "e" / "report.json").read_text())
    assert [m["games"] for m in report["matchups"]] == [2]
    table = json.loads((tmp_path / "e" / "ratings.json").read_text())
    assert {r["games"] for r in table} == {4}  # 2 games x 2 pairings per (policy, team)
    # a second run writes beside the first
    assert main(["--config", str(path), "--games", "2", "--quiet"]) == 0
    assert (tmp_path / "e-2" / "report.json").exists()
    assert "holds an earlier run: this one writes" in capsys.readouterr().out


def test_exploit_steps_are_whole_updates_and_say_so():
    pytest.importorskip("torch")
    from baselines.exploit import whole_updates
    from baselines.ppo import make_config

    cfg = make_config({"num_envs": 64, "num_steps": 128})
    assert whole_updates(8192 * 3, cfg) == (3, None)
    updates, note = whole_updates(4096, cfg)
    assert updates == 1 and note.startswith("--steps 4,096 runs as 1 whole update of 8,192")
    updates, note = whole_updates(1_000_000, cfg)
    assert updates == 122 and "999,424 steps per side" in note


def test_exploit_task_has_choices_and_a_clear_error(capsys):
    pytest.importorskip("torch")
    from baselines.exploit import main

    assert main(["--policy", "rule", "--task", "sport-9", "--steps", "1"]) == 2
    err = capsys.readouterr().err
    assert "no task 'sport-9' in version 20; tasks: sport-10" in err


def test_a_benchmark_with_games_is_marked_non_standard():
    from baselines.benchmark import describe

    row = {"side": "town", "opponent": "rule", "win_rate": 0.5, "ci95": [0.1, 0.9], "games": 4}
    base = {"task": "sport-10", "version": 4, "headline": 0.5, "rows": [row]}
    smoke = describe({**base, "standard": False, "games_per_pair": 4})
    assert "NON-STANDARD: 4 games a pair, not the protocol's 500" in smoke.splitlines()[0]
    assert "NON-STANDARD" not in describe({**base, "standard": True, "games_per_pair": 500})


def test_play_never_overwrites_a_record_without_force(tmp_path, capsys, monkeypatch):
    """`mafia play --record FILE` refuses an existing FILE (or a missing folder) before the
    game, so nobody plays a game that cannot be saved; `--force` overwrites it."""
    path = tmp_path / "game.json"
    path.write_text("an earlier game")
    game = ["play", "--variant", "minimal", "--seed", "3", "--record"]
    assert cli.main([*game, str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path} exists" in err and "--force" in err
    assert path.read_text() == "an earlier game"
    assert cli.main([*game, str(tmp_path / "no" / "game.json")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert cli.main([*game, str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # the person's turns: the default
    assert cli.main([*game, str(path), "--force"]) == 0
    record = json.loads(path.read_text())
    assert record["variant"] == "minimal" and record["moves"] and mafia_env.replay(record)
    capsys.readouterr()


def test_play_says_which_bots_it_seats():
    out = io.StringIO()
    play("minimal", seat=2, bots="rule", seed=3, inp=io.StringIO(""), out=out)
    assert out.getvalue().splitlines()[0] == (
        "minimal rules, 10 players: you are player 2; the rule bots play the other 9 seats."
    )


# ------------------------------------------------------------------ API edges


def finished(env):
    env.reset(seed=1)
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[-1]))
    return env


@pytest.mark.parametrize("backend", ["python", "auto"])
def test_last_after_the_game_says_why(backend):
    env = mafia_env.env("minimal", backend=backend)
    finished(env)
    with pytest.raises(MafiaError, match=r"the game is over and every agent has been stepped"):
        env.last()


def test_a_task_name_as_a_variant_points_to_the_task_and_the_rules():
    with pytest.raises(ConfigError) as e:
        mafia_env.env("sport-10")
    text = str(e.value)
    assert "single_agent('sport-10')" in text and "mafia_env.env('sport', num_players=10)" in text
    with pytest.raises(ConfigError) as e:
        mafia_env.env("chess")
    assert "single_agent" not in str(e.value)


def test_an_unknown_knob_gets_the_nearest_names():
    with pytest.raises(ConfigError, match=r"did you mean 'heal_self'"):
        mafia_env.env("city", heal_slef=1)
    with pytest.raises(ConfigError, match=r"did you mean 'num_players'"):
        mafia_env.env("sport", num_player=10)
    with pytest.raises(ConfigError, match=r"knobs are: check_skip"):  # nothing near: the list
        mafia_env.env("sport", zzzz=1)


def test_wrong_types_are_named_as_types():
    with pytest.raises(ConfigError, match=r"num_players must be an integer: .*got '10', a str"):
        mafia_env.env("sport", num_players="10")
    with pytest.raises(ConfigError, match=r"got the string 'civilian': give a list"):
        mafia_env.env("sport", roles="civilian")


def test_a_knob_of_a_role_the_variant_never_deals_is_warned_of():
    with pytest.warns(mafia_env.KnobWarning, match=r"'heal_self' sets a rule of the doctor.*"):
        mafia_env.env("sport", heal_self=3)
    with pytest.warns(mafia_env.KnobWarning, match=r"deals no putana.*changes nothing"):
        mafia_env.env("online", putana_self=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # none of these warns
        assert mafia_env.env("city", heal_self=2).rules.heal_self == 2  # city has a doctor
        # an earlier era's rules set such knobs everywhere: its records and tasks play
        from mafia_env.engine.eras import earlier_rules

        mafia_env.env("sport", **earlier_rules("sport", 1))
        mafia_env.single_agent("sport-10", opponents="random")


def test_a_parallel_step_without_an_actor_names_it():
    par = mafia_env.parallel_env("sport")
    par.reset(seed=1)
    (actor,) = par.acting  # the zero night's meeting: one black player at a time
    with pytest.warns(mafia_env.IllegalActionWarning, match=rf"no action for {actor}, which"):
        par.step({})
    strict = mafia_env.parallel_env("sport", illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(mafia_env.IllegalActionError, match=rf"no action for {actor}"):
        strict.step({})


@pytest.mark.parametrize("mode", ["vector", "flat"])
def test_the_parallel_acting_flag_is_in_infos_in_every_mode(mode):
    par = mafia_env.parallel_env("sport", obs_mode=mode, acting_info=True)
    _, infos = par.reset(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(60):
        acting = [a for a in par.agents if infos[a]["acting"]]
        assert acting == par.acting
        actions = {a: int(rng.choice(np.flatnonzero(infos[a]["action_mask"]))) for a in acting}
        _, _, _, _, infos = par.step(actions)
        if not par.agents:
            break
    plain = mafia_env.parallel_env("sport")  # the default Dict mode: the mask only
    _, infos = plain.reset(seed=2)
    assert set(infos["player_1"]) == {"action_mask"}
