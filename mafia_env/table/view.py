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

from mafia_env.engine.events import PUBLIC, Ev, Outcome, Perceiver, seat_sequence
from mafia_env.engine.game import PUBLIC_TURNS, Act, Turn
from mafia_env.engine.roles import Role, Team
from mafia_env.lang import LANGS, describe, say, table
from mafia_env.narrate import narrate
from mafia_env.table.words import BOT_NAMES, PAGE

NIGHT = "night"
VOTE_TURNS = frozenset({Turn.VOTE, Turn.OPEN_VOTE})
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
    # a vote's buttons in nomination order, as the count runs (CLUB-E7, ONLINE-V7)
    order = {c: i for i, c in enumerate(game.vote.candidates)} if turn in VOTE_TURNS else {}
    for index in u.legal_actions():
        act, target, value = u.layout.decoded[index]
        kind, key, title, label = _button(u, turn, Act(act), target, value, lang)
        text = label if act == Act.PASS else describe(act, target, value, turn, lang)
        group = groups.setdefault(key, {"kind": kind, "title": title, "actions": []})
        rank = order.get(target, len(order)) if act == Act.VOTE else 0
        group["actions"].append({"id": int(index), "label": label, "text": text, "_rank": rank})
    for group in groups.values():
        group["actions"].sort(key=lambda a: a.pop("_rank"))
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
    by = nominators(game) if nominees else {}
    silenced = game.silenced_on
    seats = [
        {
            "seat": s + 1,
            "alive": bool(game.alive[s]),
            "fouls": int(game.fouls[s]),
            # SPORT-F1: the day whose speech his fouls take (public: the fouls are)
            "silent_day": silenced[s] if silenced[s] >= max(game.day, 1) else None,
            "role": roles.get(s),
            "acting": s == actor,
            "nominated": s in nominees,
            "nominated_by": by.get(s + 1, []) if s in nominees else [],
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
        "vote": vote_view(game, seat, phase),
        "fouls": {"mute": int(u.rules.fouls_mute), "out": int(u.rules.fouls_remove)},
        "ending": ending(game) if game.over else None,
    }
    if with_narration:
        view["narration"] = narration(game.events, seat, lang, game.talk)
    return view


def _public(game: Any) -> Any:
    """Yield today's public events (from the last DAY on), in order."""
    events = game.events
    start = len(events)
    while start > 0 and events[start - 1][0] != Ev.DAY:
        start -= 1
    for k in range(start, len(events)):
        if events[k][4] == PUBLIC:
            yield events[k]


def nominators(game: Any) -> dict[int, list[int]]:
    """Return who nominated each nominee of today (seats 1..n): the speaker who nominated
    him, or the players who named him in the nomination round (CLUB-E1)."""
    by: dict[int, list[int]] = {}
    named: dict[int, list[int]] = {}
    for kind, actor, target, _, _ in _public(game):
        if kind == Ev.NAME:
            named.setdefault(target + 1, []).append(actor + 1)
        elif kind == Ev.NOMINATE:
            who = [actor + 1] if actor >= 0 else named.get(target + 1, [])
            by.setdefault(target + 1, sorted(set(who)))
    return by


def vote_view(game: Any, seat: int | None, phase: str) -> dict[str, Any] | None:
    """Return today's vote as `seat` may know it (None: no nominee today), JSON-ready.

    ``rows`` are the nominees of the round in nomination order, each with who nominated
    him and, once public, the hands raised for him (an open count, CLUB-E7 and ONLINE-V7:
    after his own count, before the next nominee's; a hidden ballot: when it resolves,
    COMMON-8), ``counting`` the nominee whose count runs now, ``mine`` the seat's own vote
    in the round under way (known to him alone until it is public), ``crash`` the vote on
    removing every tied player (SPORT-D3).
    """
    by = nominators(game)
    order: list[int] = []
    rows: dict[int, dict[str, Any]] = {}
    abstain: list[int] = []
    crash: dict[str, Any] | None = None
    rounds = 0
    for kind, actor, target, value, _ in _public(game):
        if kind == Ev.NOMINATE and not rounds and target + 1 not in rows:
            order.append(target + 1)
            rows[target + 1] = {"seat": target + 1, "hands": None, "silent": []}
        elif kind == Ev.VOTING:
            rounds += 1
            order = [c + 1 for c in seat_sequence(value)]
            rows = {c: {"seat": c, "hands": None, "silent": []} for c in order}
            abstain, crash = [], None
        elif kind == Ev.COUNT and target + 1 in rows:
            rows[target + 1]["hands"] = [s + 1 for s in range(game.n) if value >> s & 1]
        elif kind == Ev.BALLOT:
            if target < 0:
                abstain.append(actor + 1)
            elif target + 1 in rows:
                row = rows[target + 1]
                row["hands"] = [*(row["hands"] or []), actor + 1]
                if value:
                    row["silent"].append(actor + 1)
        elif kind == Ev.CRASH:
            crash = {"seats": [s + 1 for s in range(game.n) if value >> s & 1], "yes": [], "no": []}
        elif kind == Ev.CRASH_BALLOT and crash is not None:
            crash["yes" if value else "no"].append(actor + 1)
    if not order:
        return None
    v = game.vote
    counting = None
    if phase == "open_vote" and 0 <= v.counted < len(v.candidates):
        counting = v.candidates[v.counted] + 1
    return {
        "open": bool(game.rules.vote_count == "open"),
        "started": rounds > 0,
        "revote": rounds > 1,
        "rows": [{**rows[c], "by": by.get(c, [])} for c in order],
        "counting": counting,
        "abstain": abstain,
        "crash": crash,
        "mine": _my_vote(game, seat, phase),
    }


def _my_vote(game: Any, seat: int | None, phase: str) -> dict[str, Any] | None:
    """Return `seat`'s own vote in the round under way: his, before it is public."""
    if seat is None or phase not in ("vote", "open_vote", "crash_vote"):
        return None
    v = game.vote
    if phase == "crash_vote":
        said = [yes for voter, yes in v.crash_ballots if voter == seat]
        return {"kind": "yes" if said[0] else "no"} if said else None
    mine = [(target, silent) for voter, target, silent in v.ballots if voter == seat]
    if not mine:
        return None
    target, silent = mine[-1]
    if target < 0:
        return {"kind": "abstain"}
    kind = "silent" if silent else "hand" if phase == "open_vote" else "vote"
    return {"kind": kind, "seat": target + 1}


def ending(game: Any) -> dict[str, Any]:
    """Return why the game ended (a key of the page's ``endings``, and its fields)."""
    if game.winner is None:  # stopped by an illegal action (COMMON-7: terminate)
        return {"key": "terminated", "s": game.offender + 1}
    alive = game.alive
    teams = game.teams
    black = sum(1 for s in range(game.n) if alive[s] and teams[s] is Team.MAFIA)
    others = sum(1 for s in range(game.n) if alive[s] and teams[s] is not Team.MAFIA)
    w = Outcome(game.winner)
    if w is Outcome.TOWN:
        maniac = any(t is Team.MANIAC for t in teams)
        return {"key": "town_maniac" if maniac else "town"}
    if w is Outcome.MAFIA:
        return {"key": "mafia_majority" if black > others else "mafia_parity"}
    if w is Outcome.MANIAC:
        return {"key": "maniac"}
    if game.truncated:
        return {"key": "draw_days", "d": game.rules.day_limit(game.n)}
    return {"key": "draw_stuck"}


def page_words(lang: str) -> dict[str, Any]:
    """Return the words the page shows in `lang`: its frame, the role names, the languages."""
    mod = table(lang)
    return {
        "lang": lang,
        "page": {**mod.PAGE, **PAGE.get(lang, PAGE["en"])},
        "roles": mod.ROLES,
        "bots": BOT_NAMES.get(lang, BOT_NAMES["en"]),
        "languages": {code: table(code).NAME for code in LANGS},
    }


__all__ = [
    "PUBLIC_TURNS",
    "SeatLog",
    "action_groups",
    "ending",
    "known_roles",
    "languages",
    "narration",
    "page_words",
    "public_phase",
    "seat_view",
    "vote_view",
]
