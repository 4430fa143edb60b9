"""results/robust/bars.py: issue 45's bars, counted from the 500-deal runs that judged the latest
tasks version's fillers, cover every side of every task and agree with the robustness page."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from baselines import pins
from baselines.robust import team_sizes
from mafia_env.tasks import LATEST, TASKS

ROOT = Path(__file__).parents[2]


def _bars():
    spec = importlib.util.spec_from_file_location("bars", ROOT / "results/robust/bars.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_side_of_every_task_is_judged_or_seated_with_the_rule_bots():
    bars = _bars()
    assert set(bars.SHIPPED) == set(TASKS)
    for name, task in TASKS.items():
        sides = {side for side, size in team_sizes(task).items() if size}
        assert set(bars.SHIPPED[name]) == sides, name
        seated = pins.seated(task, "filler")
        for side, files in bars.SHIPPED[name].items():
            assert (files == bars.RULE) == (seated.get(side) == "rule"), (name, side)
            if files != bars.RULE:
                assert all((bars.RUNS / f).is_file() for f in files), (name, side)


def test_the_count_is_the_robustness_pages():
    """Every judged side has its 28 full-table and 56 mixed-table cells (`table` refuses
    otherwise), and the total below is the one the page gives for the latest version."""
    rows = _bars().table()
    full, mixed = (int(x) for x in re.findall(r"\| all \| \| (\d+) \| (\d+) \|", rows[-1])[0])
    page = (ROOT / "results/robust/README.md").read_text()
    said = re.findall(rf"After version {LATEST}, cells below .*?: (\d+) in all", page, re.S)
    assert said == [str(full + mixed)]


def test_the_cells_below_are_the_tables_count():
    """`--cells` lists as many cells as the table counts below, each with an interval under 0."""
    bars = _bars()
    rows = bars.table()
    full, mixed = (int(x) for x in re.findall(r"\| all \| \| (\d+) \| (\d+) \|", rows[-1])[0])
    listed = bars.below()
    assert len(listed) == full + mixed
    for line in listed:
        lo, hi = (float(x) for x in re.findall(r"\[([-+.\d]+), ([-+.\d]+)\]$", line)[0])
        assert lo <= hi <= 0, line  # (printed to 3 places: -0.000 is below)
