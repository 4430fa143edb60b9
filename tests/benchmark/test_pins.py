"""The benchmark's pins live beside the benchmark (`baselines.pins`), not in the tasks."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from baselines import pins
from mafia_env import tasks
from mafia_env.tasks import TASKS_BY_VERSION, Task

ROOT = Path(__file__).resolve().parents[2]


def test_the_tasks_name_no_file_of_baselines():
    """`mafia_env.tasks` defines the tasks; which shipped files their opponents are is the
    benchmark's business (`baselines.pins`)."""
    text = (ROOT / "mafia_env" / "tasks.py").read_text()
    assert "checkpoints" not in text
    assert not re.search(r"\.pt\b", text)
    assert "sha256" not in text.lower().replace("hashlib.sha256", "")
    assert {f.name for f in dataclasses.fields(Task)}.isdisjoint({"pins", "ppo_sha256"})
    assert not hasattr(tasks, "PINS_V3") and not hasattr(Task, "pin")


def test_every_shipped_opponent_of_a_task_is_pinned():
    for version, by_name in TASKS_BY_VERSION.items():
        assert set(pins.PINS_BY_VERSION[version]) == set(by_name)
        for task in by_name.values():
            shipped = [o for o in task.opponents if o in pins.SHIPPED_OPPONENTS]
            assert shipped and set(pins.pins(task)) == set(shipped)
            assert all(re.fullmatch(r"[0-9a-f]{16}", pins.pin(task, o)) for o in shipped)
            assert pins.pin(task, "rule") == ""


def test_the_pinned_digest_is_the_definition_and_its_pins(monkeypatch):
    """`Task.digest()` hashes the definition alone; `pins.digest` adds the pins, so a new pin
    changes the pinned digest and not the definition's."""
    task = TASKS_BY_VERSION[4]["sport-10"]
    assert task.digest() != pins.digest(task)
    before, definition = pins.digest(task), task.digest()
    assert pins.digest(dataclasses.replace(task, games=3)) != before
    other = {**pins.PINS_V4["sport-10"], "filler": "0" * 16}
    monkeypatch.setitem(pins.PINS_V4, "sport-10", other)
    assert pins.pin(task, "filler") == "0" * 16
    assert pins.digest(task) != before and task.digest() == definition
