"""``python -m baselines.evaluate``: see `baselines.evaluate.command`."""

from baselines.evaluate.command import main
from mafia_env.commands import run

raise SystemExit(run(main, what="mafia evaluate"))
