"""``python -m mafia_env.replay game.json``: print a record's narration (`mafia_env.story`).

Run this module with ``-m``; never import it. ``mafia_env.replay`` is the function that
plays a record back (`mafia_env.playback.replay`), and importing a module of the same name
would hide it; the command line's code is `mafia_env.story`.
"""

from __future__ import annotations

import sys

if __name__ != "__main__":
    raise ImportError(
        "mafia_env.replay is the function that plays a record back (mafia_env.playback.replay),"
        " not a module to import; the command line's code is mafia_env.story, and"
        " `python -m mafia_env.replay` runs it"
    )

from mafia_env.story import main

sys.exit(main())
