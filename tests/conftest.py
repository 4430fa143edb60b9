"""Fixtures shared by several test files."""

from __future__ import annotations

import pytest


@pytest.fixture()
def league_dir(tmp_path, monkeypatch):
    """A league folder holding a small untrained SPORT-10 file, and none for other variants."""
    pytest.importorskip("torch")
    import baselines.policy as shipped
    from baselines.ppo import make_agent, make_config, save_checkpoint
    from mafia_env.vector import VectorMafia

    cfg = make_config({"variant": "sport", "hidden_size": 16, "run_dir": str(tmp_path)})
    vec = VectorMafia("sport", 1, seed=0)
    folder = tmp_path / "league"
    save_checkpoint(folder / "sport.pt", make_agent(cfg, vec.obs_size, vec.action_size), cfg, vec)
    monkeypatch.setitem(shipped.SHIPPED_FOLDERS, "league", folder)
    return folder
