"""Game records: the game as JSON-ready data, played back move by move, told as a story.

- `mafia_env.records.format`: what a record holds (format 4), `make_record`, `load_record`;
- `mafia_env.records.earlier`: records of formats 1 to 3, read under the rules of their time;
- `mafia_env.records.playback`: `replay` (``mafia_env.replay``) plays a record back and checks
  every move;
- `mafia_env.records.story`: a record's narration, and the command line
  ``mafia replay game.json`` (``python -m mafia_env.records``).
"""

from __future__ import annotations

from mafia_env.records.format import FORMAT, FORMATS, load_record, make_record
from mafia_env.records.playback import replay

__all__ = ["FORMAT", "FORMATS", "load_record", "make_record", "replay"]
