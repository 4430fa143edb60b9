"""Text observations for language-model agents, and the reply adapter.

`TextObserver` keeps, for every seat, the lines the moderator has told that seat so far
(public events and its own private ones, in the table's language), appending each new event
once as it happens. An observation is that story, then the seat's legal actions as a
numbered list in plain words::

    You are player 3 at a table of 10. The moderator has told you:
    Player 3, your role is sheriff.
    ...
    It is your turn. Your legal actions:
    1. End your speech.
    2. Nominate player 1.
    Reply with the number of one action.

`parse_reply(env, reply)` turns a reply into the action index, read as models write it
("2", "**2**", "(2)", "I choose 2", "Answer: 2", ``{"action": 2}``, "nominate player 1",
the short name "nominate 1", "end speech"), and raises a `ReplyError` naming the legal
choices for a reply that names none of them or two different ones; `read_reply` also
returns the table talk a reply adds ("2. Say: I trust player 5."). `TextPolicy` wraps a
text-in, text-out function (a language model) as a `Policy`, with counted fallbacks.

| module | |
|---|---|
| `mafia_env.text.observer` | the seats' stories and menus: `TextObserver`, `MAX_LENGTH` |
| `mafia_env.text.reply` | reading replies: `read_reply`, `parse_reply`, `ReplyError` |
| `mafia_env.text.text_policy` | a language model as a policy: `TextPolicy`, `Defer`, `FALLBACKS` |
"""

from __future__ import annotations

from mafia_env.text.observer import MAX_LENGTH, TextObserver
from mafia_env.text.reply import (
    Reply,
    ReplyError,
    choices_from_text,
    match_reply,
    parse_reply,
    read_reply,
)
from mafia_env.text.text_policy import FALLBACKS, STATS, Defer, TextPolicy

__all__ = [
    "FALLBACKS",
    "MAX_LENGTH",
    "STATS",
    "Defer",
    "Reply",
    "ReplyError",
    "TextObserver",
    "TextPolicy",
    "choices_from_text",
    "match_reply",
    "parse_reply",
    "read_reply",
]
