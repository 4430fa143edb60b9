"""What one seat may know of a game: seats, narration and legal actions, in the seat's words.

Both the web table and the terminal mode build their screens from `seat_view`, so the rule
"a player is told only what that player may know" lives in one place: narration comes from
the events the seat saw, roles from the seat's own role, its teammates and public reveals,
the acting seat of a night turn is never named, and legal actions go to the acting seat only.
Every word comes from the language tables (`mafia_env.lang.<code>`: ``TABLE`` for buttons,
``ACTIONS`` for the sentence of an action, ``PAGE`` for the page around them), and the
table's own words (`mafia_env.table.words`: the page's newer words, the server's messages).
"""

from __future__ import annotations

from typing import Any

from mafia_env.engine.events import PUBLIC, Ev, Perceiver
from mafia_env.engine.game import PUBLIC_TURNS, Act, Turn
from mafia_env.engine.roles import Role
from mafia_env.lang import LANGS, describe, say, table
from mafia_env.narrate import narrate
from mafia_env.table.words import PAGE

NIGHT = "night"
# Groups of buttons, in the order a player reads them; others follow in the order met.
ORDER = ("pass", "nominate", "vote", "crash_vote", "night", "claim_role", "claim_check")


def languages() -> tuple[str, ...]:
    """Return the languages a seat may choose."""
    return LANGS


def narration(events: list, seat: int | None, lang: str = "en", talk=None) -> list[str]:
    """Return the moderator's lines for `seat` (None: the public lines), in `lang`, with the
    table talk's remarks (`Game.talk`)."""
    return narrate(events, seat, lang=lang, talk=talk)


class SeatLog:
    """The moderator's lines one seat heard, in one language, with flags for the page.

    Each line says whether it was told to the seat alone (``private``), whether the seat
    itself acted (``mine``), and whether it opens a day or a night (``mark``), so the page
    highlights lines without reading their words. `update` reads only the new events.
    """

    def __init__(self, seat: int | None, lang: str = "en"):
        self.seat, self.lang = seat, lang
        self.lines: list[dict[str, Any]] = []
        self._read = 0
        self._roles: dict[int, Role] = {}  # actors' roles, as narration words a check

    def update(self, events: list, talk: list | None = None) -> list[dict[str, Any]]:
        """Add the lines of the events not read yet (`talk`: the game's table talk, which
        its TALK events index); return every line so far."""
        seat = self.seat
        for e in events[self._read :]:
            kind, actor, _, value, seen_by = e
            if kind == Ev.ROLE:
                self._roles[actor] = Role(value)
            private = seen_by != PUBLIC
            if private and (seat is None or not seen_by >> seat & 1):
                continue
            text = say(e, self.lang, self._roles.get(actor), talk)
            if text:
                mark = "day" if kind == Ev.DAY else NIGHT if kind == Ev.NIGHT else ""
                mine = seat is not None and (private or actor == seat)
                self.lines.append({"text": text, "private": private, "mine": mine, "mark": mark})
        self._read = len(events)
        return self.lines


class _KnownRoles(Perceiver):
    """The roles one seat (None: a watcher) has been shown, as events reached it."""

    def __init__(self, seat: int | None):
        self.seat = seat
        self.known: dict[int, str] = {}
        super().__init__()

    def _on_reveal(self, actor: int, target: int, value: int) -> None:
        self.known[target] = Role(value).label

    def _saw_role(self, seat: int, actor: int, target: int, value: int) -> None:
        if seat == self.seat:
            self.known[seat] = Role(value).label

    def _saw_teammate(self, seat: int, actor: int, target: int, value: int) -> None:
        if seat == self.seat:
            self.known[target] = Role(value).label

    def _saw_don_introduced(self, seat: int, actor: int, target: int, value: int) -> None:
        if seat == self.seat:  # ONLINE-N2: the team now knows its don
            self.known[actor] = Role.DON.label


def known_roles(game: Any, seat: int | None) -> dict[int, str]:
    """Return the roles `seat` knows: its own, its teammates', public reveals; all at the end."""
    if game.over:
        return {s: r.label for s, r in enumerate(game.roles)}
    told = _KnownRoles(seat)
    told.catch_up(game.events)
    return told.known


def public_phase(game: Any) -> str:
    """Return the phase everyone sees: the public turn's name, "night" or "over"."""
    if game.over:
        return "over"
    if game.turn in PUBLIC_TURNS:
        return Turn(game.turn).name.lower()
    return NIGHT


def action_groups(env: Any, seat: int, lang: str = "en") -> list[dict[str, Any]]:
    """Return the legal actions of `seat` now, grouped, in the words of `lang` ([] if none)."""
    u = env.unwrapped
    game = u.game
    if game.over or game.actor != seat:
        return []
    turn = Turn(game.turn)
    groups: dict[str, dict[str, Any]] = {}
    for index in u.legal_actions():
        act, target, value = u.layout.decoded[index]
        kind, key, title, label = _button(u, turn, Act(act), target, value, lang)
        text = label if act == Act.PASS else describe(act, target, value, turn, lang)
        group = groups.setdefault(key, {"kind": kind, "title": title, "actions": []})
        group["actions"].append({"id": int(index), "label": label, "text": text})
    rank = {k: i for i, k in enumerate(ORDER)}
    return sorted(groups.values(), key=lambda g: rank.get(g["kind"], len(ORDER)))


def _button(u: Any, turn: Turn, act: Act, target: int, value: int, lang: str):
    """Return (kind, group key, group title, button label) of one action."""
    mod = table(lang)
    words = mod.TABLE
    groups = words["groups"]
    seat = str(target + 1)
    if act is Act.PASS:
        label = words["pass"].get(turn.name, words["pass"]["*"])
        if turn is Turn.VOTE and u.rules.silent_vote == "last_nominee" and u.game.vote.candidates:
            label = words["silent_vote"].format(t=u.game.vote.candidates[-1] + 1)
        v = u.game.vote  # CLUB-E8: at the last nominee's count a hand kept down counts for him
        last_count = v.candidates and v.counted == len(v.candidates) - 1
        if turn is Turn.OPEN_VOTE and u.rules.silent_vote == "last_nominee" and last_count:
            label = words["last_count"].format(t=v.candidates[-1] + 1)
        return "pass", "pass", "", label
    if act in (Act.VOTE_YES, Act.VOTE_NO):
        label = words["yes"] if act is Act.VOTE_YES else words["no"]
        return "crash_vote", "crash_vote", groups["crash"], label
    if act is Act.CLAIM_ROLE:
        return "claim_role", "claim_role", groups["claim_role"], mod.ROLES[Role(value).label]
    if act is Act.CLAIM_CHECK:
        title = words["claim_check"].format(color=mod.COLORS[value])
        return "claim_check", f"claim_check {value}", title, seat
    if act is Act.ASK:
        title = words["ask"].format(role=mod.ROLES[Role(value).label])
        return "ask", f"ask {value}", title, seat
    if act is Act.ANSWER:  # ONLINE-D6: a gesture, or the answer to a question
        title = groups["gesture"] if turn is Turn.GESTURE else groups["answer"]
        return "answer", "answer", title, mod.ANSWERS[value]
    if act is Act.REVEAL_DON:
        return "reveal_don", "reveal_don", groups["reveal_don"], words["reveal_don"]
    kind = act.name.lower()
    if act is Act.NIGHT:
        title = words["night"].get(turn.name, groups["night"])
    elif act is Act.NOMINATE and turn is Turn.NAMING:
        title = groups["naming"]
    else:
        title = groups.get(kind, kind)
    return kind, kind, title, seat


def seat_view(
    env: Any, seat: int | None, lang: str = "en", with_narration: bool = True
) -> dict[str, Any]:
    """Return everything `seat` (0-based; None = a spectator) may know now, JSON-ready.

    `with_narration` False leaves out the moderator's lines (the table sends them as they
    come, through a `SeatLog`).
    """
    u = env.unwrapped
    game = u.game
    roles = known_roles(game, seat)
    phase = public_phase(game)
    actor = game.actor if phase not in (NIGHT, "over") else -1
    # the nominees stand until the vote; a last word comes after it
    shown = phase not in (NIGHT, "over", "last_word")
    nominees = {s for s in game.today.nominees if game.alive[s]} if shown else set()
    seats = [
        {
            "seat": s + 1,
            "alive": bool(game.alive[s]),
            "fouls": int(game.fouls[s]),
            "role": roles.get(s),
            "acting": s == actor,
            "nominated": s in nominees,
        }
        for s in range(game.n)
    ]
    view = {
        "variant": u.rules.name,
        "title": u.rules.title,
        "num_players": game.n,
        "you": None if seat is None else seat + 1,
        "role": None if seat is None else roles.get(seat),
        "day": int(game.day),
        "phase": phase,
        "actor": None if actor < 0 else actor + 1,
        "your_turn": seat is not None and not game.over and game.actor == seat,
        "seats": seats,
        "actions": [] if seat is None else action_groups(env, seat, lang),
        "may_talk": seat is not None and u.may_talk(u.possible_agents[seat]),
        "winner": u.winner,
    }
    if with_narration:
        view["narration"] = narration(game.events, seat, lang)
    return view


def page_words(lang: str) -> dict[str, Any]:
    """Return the words the page shows in `lang`: its frame, the role names, the languages."""
    mod = table(lang)
    return {
        "lang": lang,
        "page": {**mod.PAGE, **PAGE.get(lang, PAGE["en"])},
        "roles": mod.ROLES,
        "languages": {code: table(code).NAME for code in LANGS},
    }


__all__ = [
    "PUBLIC_TURNS",
    "SeatLog",
    "action_groups",
    "known_roles",
    "languages",
    "narration",
    "page_words",
    "public_phase",
    "seat_view",
]
