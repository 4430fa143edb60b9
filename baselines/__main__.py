"""``python -m baselines``: the ``mafia`` command (`baselines.cli`)."""

import sys

from baselines.cli import main

sys.exit(main())
