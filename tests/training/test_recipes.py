"""The recipes of scripts/recipes: each library trains on Mafia, then plays the rule bots.

Each test runs a recipe for a few updates and checks what must hold whatever was learned:
no illegal action (the envs raise on one), the final rewards have the right sign, and
training changed the loss. A library that is not installed skips its test.
"""

from __future__ import annotations

import importlib
import inspect
import math
import sys
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test

import mafia_env

RECIPES = Path(__file__).resolve().parents[2] / "scripts" / "recipes"
sys.path.insert(0, str(RECIPES))


def recipe(name: str):
    return importlib.import_module(name)


def moved(losses: list[float]) -> bool:
    return len(losses) >= 2 and all(map(math.isfinite, losses)) and len(set(losses)) > 1


def right_signs(finals: list[list[float]]) -> bool:
    """Each finished table: a win (+1) for one team and a loss (-1) for the rest, or a draw."""
    return all(set(f) == {0.0} or set(f) == {-1.0, 1.0} for f in finals)


# ------------------------------------------------------------------ SuperSuit


OBS_WRAPPERS = ["flatten_v0", "normalize_obs_v0", "frame_stack_v1", "agent_indicator_v0"]
OBS_WRAPPERS += ["pad_observations_v0", "dtype_v0"]


@pytest.mark.parametrize("name", OBS_WRAPPERS)
def test_supersuit_observation_wrappers_on_the_flat_views(name):
    ss = pytest.importorskip("supersuit")
    wrap = getattr(ss, name)
    extra = {"dtype_v0": (np.float64,)}.get(name, ())
    # parallel_api_test samples a flat observation's actions without the mask: fouls
    par = mafia_env.parallel_env("sport", obs_mode="flat", illegal_action="foul")
    parallel_api_test(wrap(par, *extra), num_cycles=200)
    api_test(wrap(mafia_env.env("sport", obs_mode="flat"), *extra), num_cycles=200)


def test_supersuit_black_death():
    pytest.importorskip("supersuit")
    from supersuit import black_death_v3
    from supersuit.multiagent_wrappers.black_death import black_death_par

    fixed_upstream = "terminations | truncations" in inspect.getsource(black_death_par.step)
    wrap = black_death_v3 if fixed_upstream else recipe("supersuit_sb3").black_death
    par = mafia_env.parallel_env("sport", obs_mode="flat", illegal_action="foul")
    parallel_api_test(wrap(par), num_cycles=400)


def test_supersuit_vector_envs_keep_the_masks():
    pytest.importorskip("supersuit")
    env = recipe("supersuit_sb3").make_vec_env("sport", None, tables=2, seed=3)
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(300):
        masks = env.env_method("action_masks")
        assert len(masks) == env.num_envs == 20
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        env.step(actions)  # the parallel view raises on an illegal action
    assert right_signs(env.finals) and env.finals


@pytest.mark.slow
def test_recipe_supersuit_sb3():
    pytest.importorskip("supersuit")
    pytest.importorskip("sb3_contrib")
    out = recipe("supersuit_sb3").main(["--steps", "1024", "--eval-games", "6"])
    assert moved(out["losses"])
    assert out["finals"] and right_signs(out["finals"])
    assert all(0 <= r <= 1 for r in out["win_rate"].values())


# ------------------------------------------------------------- sb3-contrib


def test_maskable_ppo_smoke():
    """sb3-contrib's MaskablePPO trains on the view unchanged."""
    sb3 = pytest.importorskip("sb3_contrib")
    env = mafia_env.single_agent("minimal", seat=1, opponents="random")
    model = sb3.MaskablePPO(
        "MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0, device="cpu"
    )
    model.learn(total_timesteps=256)
    obs, _ = env.reset(seed=1)
    action, _ = model.predict(obs, action_masks=env.action_masks())
    assert env.action_masks()[int(action)]


@pytest.mark.slow
def test_recipe_sb3_single():
    pytest.importorskip("sb3_contrib")
    out = recipe("sb3_single").main(["--steps", "512", "--eval-games", "4"])
    assert moved(out["losses"])
    for g in out["games"]:  # the seat's return is its team's result
        expected = 0.0 if g["winner"] == "draw" else (1.0 if g["team"] == g["winner"] else -1.0)
        assert g["return"] == expected


# ------------------------------------------------------------------- TorchRL


def test_torchrl_wrapper_specs():
    pytest.importorskip("torchrl")
    from torchrl.envs.utils import check_env_specs

    env = recipe("torchrl_ppo").make_env("sport", None, seed=0)
    check_env_specs(env)
    rollout = env.rollout(200, break_when_any_done=False)  # random actions within the masks
    taken = rollout["player", "action"]
    masks = rollout["player", "action_mask"]
    assert masks.gather(-1, taken.unsqueeze(-1)).all()


@pytest.mark.slow
def test_recipe_torchrl_ppo():
    pytest.importorskip("torchrl")
    out = recipe("torchrl_ppo").main(["--iters", "2", "--frames", "192", "--eval-games", "6"])
    assert moved(out["losses"])
    assert out["finals"] and right_signs(out["finals"])
    assert all(0 <= r <= 1 for r in out["win_rate"].values())


# ------------------------------------------------------------------ Tianshou
# Tianshou 2.0.1 pins pandas < 3 and filelock < 4: it lives in its own venv (`make test`
# builds .venv-tianshou); TIANSHOU_PYTHON names another interpreter that has it.


ROOT = RECIPES.parent.parent


def python_with(module: str, venv: str, variable: str) -> str | None:
    """Return an interpreter that has `module`: this one, $`variable`, or the repo's `venv`."""
    import importlib.util
    import os

    if importlib.util.find_spec(module) is not None:
        return sys.executable
    for python in (os.environ.get(variable), ROOT / venv / "bin" / "python"):
        if python and Path(python).exists():
            return str(python)
    return None


def run_with(module: str, venv: str, variable: str, *args: str, **env: str) -> str:
    import os
    import subprocess

    python = python_with(module, venv, variable)
    if python is None:
        pytest.skip(f"{module} is not installed (make test builds {venv})")
    done = subprocess.run(
        [python, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, **env},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def run_tianshou(*args: str) -> str:
    # Tianshou's replay buffer compiles its index kernels with Numba on first use: about 7 of
    # the 11 s of the recipe's smoke run, for a few hundred transitions that its plain Python
    # functions (the same code) index as fast; the recipe's own runs keep the compiled ones
    return run_with("tianshou", ".venv-tianshou", "TIANSHOU_PYTHON", *args, NUMBA_DISABLE_JIT="1")


@pytest.mark.slow
def test_tianshou_seeds_the_aec_env():
    """Tianshou's tic-tac-toe recipe calls DummyVectorEnv(...).seed(0) on PettingZooEnv."""
    out = run_tianshou(
        "-c",
        "import mafia_env\n"
        "from tianshou.env import DummyVectorEnv, PettingZooEnv\n"
        "envs = DummyVectorEnv([lambda: PettingZooEnv(mafia_env.env('minimal'))] * 2)\n"
        "def seeds():\n"
        "    envs.seed(0)\n"
        "    return [e.game_seed for e in envs.get_env_attr('env')]\n"
        "a, b = seeds(), seeds()\n"
        "assert a[0] is not None and a[0] != a[1], a\n"
        "print(a == b)\n",
    )
    assert out.strip().endswith("True")


@pytest.mark.slow
def test_recipe_tianshou_dqn():
    import json

    out = run_tianshou(
        "scripts/recipes/tianshou_dqn.py", "--iters", "2", "--steps", "64", "--eval-games", "3"
    )
    result = json.loads(out.strip().splitlines()[-1])
    assert moved(result["losses"])
    # each finished game's return is the seat's own result, carried by its own transitions
    assert result["finals"] and set(result["finals"]) <= {-1.0, 0.0, 1.0}
    for g in result["games"]:
        expected = 0.0 if g["winner"] == "draw" else (1.0 if g["team"] == g["winner"] else -1.0)
        assert g["return"] == expected


# ------------------------------------------------------------------- AgileRL
# AgileRL 2.58 pins pettingzoo 1.26.1, gymnasium 1.4 and tensordict 0.13: its own venv
# (`make test` builds .venv-agilerl); AGILERL_PYTHON names another interpreter that has it.


@pytest.mark.slow
def test_recipe_agilerl_ippo():
    import json

    out = run_with(
        "agilerl",
        ".venv-agilerl",
        "AGILERL_PYTHON",
        "scripts/recipes/agilerl_ippo.py",
        *("--iters", "2", "--steps", "64", "--eval-games", "2"),
    )
    result = json.loads(out.strip().splitlines()[-1])
    assert moved(result["losses"])
    assert result["finals"] and right_signs(result["finals"])
    assert all(0 <= r <= 1 for r in result["win_rate"].values())
