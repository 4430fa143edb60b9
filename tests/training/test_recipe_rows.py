"""The recipes drop the rows where a seat had no choice (issue 31 item 2)."""

from __future__ import annotations

import pytest

from tests.training.test_recipes import recipe


def test_torchrl_recipe_keeps_only_the_rows_with_a_choice():
    torch = pytest.importorskip("torch")
    pytest.importorskip("torchrl")
    r = recipe("torchrl_ppo")
    batch = r.make_env("minimal", None, seed=0).rollout(60, break_when_any_done=False)
    mask = batch[r.MASK]
    acting = mask[..., :-1].any(-1)  # [T, n]
    batch["advantage"] = torch.randn(*acting.shape, 1)
    batch["value_target"] = torch.randn(*acting.shape, 1)
    rows = r.decisions(batch)
    assert 0 < rows.batch_size[0] == int(acting.sum()) < acting.numel() / 2  # most rows wait
    assert rows["player", "action_mask"][..., :-1].any(-1).all()  # each kept row chooses
    assert not rows["player", "action_mask"][..., -1].any()  # ... and never waits
    assert torch.equal(rows["advantage"].squeeze(), batch["advantage"][acting].squeeze())
    assert torch.equal(
        rows["player", "observation", "observation"].squeeze(1),
        batch["player", "observation", "observation"][acting],
    )
