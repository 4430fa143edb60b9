"""``python -m mafia_env.records game.json``: print a record's narration (`story`)."""

from __future__ import annotations

import sys

from mafia_env.records.story import main

sys.exit(main())
