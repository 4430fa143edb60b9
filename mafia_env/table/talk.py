"""A bot's table talk at the table: its speech acts said in words, in the table's language.

A bot speaks in structured speech acts (COMMON-5: claims, check reports, accusations,
vouches, a nomination, a question); the moderator's log tells each as an act. At the table a
bot's speech also carries one remark of table talk, said as the speech ends (`Table._voice`),
that puts its acts in a speaker's words (`words.TALK`, several ways to say each, picked by a
random stream the table seeds from the game). It says only what the acts said, which is
public: nothing a bot knows goes into its words unless it chose to say it. What a bot
decides to say is its policy's; a policy that talks for itself (a language model's
``talk``) is not voiced again.
"""

from __future__ import annotations

import random
from typing import Any

from mafia_env.engine.events import TALK_LIMIT
from mafia_env.engine.kinds import Act
from mafia_env.engine.roles import Role
from mafia_env.lang import table
from mafia_env.table.words import TALK

# the sentence of each speech act (`words.TALK`); an act not here (a new kind) is not voiced
_KEYS = {
    Act.CLAIM_ROLE: "claim_role",
    Act.ACCUSE: "accuse",
    Act.VOUCH: "vouch",
    Act.NOMINATE: "nominate",
    Act.ASK: "ask",
}


def sentence(act: int, target: int, value: int, lang: str, rng: random.Random) -> str | None:
    """Return one speech act (`Act`, 0-based target, value) as a speaker says it in `lang`;
    None for an act that is not speech."""
    words = TALK.get(lang, TALK["en"])
    try:
        kind = Act(act)
    except ValueError:
        return None
    if kind is Act.CLAIM_CHECK:
        key = "claim_black" if value == 1 else "claim_red"
    else:
        key = _KEYS.get(kind)
    if key is None:
        return None
    fields: dict[str, Any] = {"t": target + 1}
    if kind in (Act.CLAIM_ROLE, Act.ASK):
        fields["role"] = table(lang).ROLES[Role(value).label]
    return rng.choice(words[key]).format(**fields)


def voice(acts: list[tuple[int, int, int]], lang: str, rng: random.Random) -> str:
    """Return a speech's acts as one remark in `lang` ("" if none is speech), at most
    TALK_LIMIT characters: the sentences that fit, in order."""
    said: list[str] = []
    size = 0
    for act, target, value in acts:
        text = sentence(act, target, value, lang, rng)
        if text is None:
            continue
        if size + len(text) + bool(said) > TALK_LIMIT:
            break
        said.append(text)
        size += len(text) + (len(said) > 1)
    return " ".join(said)


__all__ = ["sentence", "voice"]
