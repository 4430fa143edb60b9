"""What one seat may know of a game: seats, narration and legal actions, in plain words.

Both the web table and the terminal mode build their screens from `seat_view`, so the rule
"a player is told only what that player may know" lives in one place: narration comes from
the events the seat saw, roles from the seat's own role, its teammates and public reveals,
the acting seat of a night turn is never named, and legal actions go to the acting seat only.
"""

from __future__ import annotations

import inspect
from typing import Any

from mafia_env import narrate as narrate_module
from mafia_env.engine.events import PUBLIC, Ev
from mafia_env.engine.game import SPEECH_TURNS, Turn
from mafia_env.engine.roles import Role

# The turns whose acting player everyone at a real table sees (speeches and votes); in a
# night turn the table is asleep, so who acts is private.
PUBLIC_TURNS = frozenset({*SPEECH_TURNS, Turn.VOTE, Turn.CRASH_VOTE})
NIGHT = "night"

# Groups of buttons, in the order a player reads them; a kind not listed here (a variant's
# own act) gets its own group after these, titled by its name.
GROUPS: dict[str, str] = {
    "pass": "",
    "nominate": "Nominate a player",
    "vote": "Vote to remove",
    "vote_yes": "Remove all the tied players?",
    "vote_no": "Remove all the tied players?",
    "night": "Night action",
    "claim_role": "Say: I am the ...",
    "claim_check": "Say: I checked ...",
    "accuse": "Say: this player is mafia",
    "vouch": "Say: this player is town",
}
PASS_WORDS: dict[Turn, str] = {
    Turn.SPEECH: "End my speech",
    Turn.LAST_WORD: "End my last word",
    Turn.TIE_SPEECH: "End my speech",
    Turn.VOTE: "Abstain",
    Turn.MAFIA_KILL: "Hold fire",
    Turn.DON_CHECK: "Skip the check",
    Turn.SHERIFF_CHECK: "Skip the check",
    Turn.MONOLOGUE: "End my monologue",
    Turn.DOCTOR: "Skip the heal",
    Turn.MANIAC: "Refuse to shoot",
    Turn.HUNT: "No hunt tonight",
}
NIGHT_WORDS: dict[Turn, tuple[str, str]] = {  # turn -> (group title, verb)
    Turn.MAFIA_KILL: ("Shoot a player", "Shoot player"),
    Turn.DON_CHECK: ("Check a player: is this the sheriff?", "Check player"),
    Turn.SHERIFF_CHECK: ("Check a player: is this mafia?", "Check player"),
    Turn.PUTANA: ("Visit a player (blocks them tonight)", "Visit player"),
    Turn.DOCTOR: ("Heal a player", "Heal player"),
    Turn.MANIAC: ("Shoot a player", "Shoot player"),
}


def languages() -> tuple[str, ...]:
    """Return the narration languages this build offers (English at least)."""
    langs = getattr(narrate_module, "LANGS", None) or getattr(narrate_module, "LANGUAGES", None)
    return tuple(langs) if langs else ("en",)


def narration(events: list, seat: int | None, lang: str = "en", talk=None) -> list[str]:
    """Return the moderator's lines for `seat` (None: the public lines), in `lang`, with the
    table talk's remarks (`Game.talk`)."""
    params = inspect.signature(narrate_module.narrate).parameters
    options: dict[str, Any] = {}
    if lang != "en" and "lang" in params:
        options["lang"] = lang
    if talk is not None and "talk" in params:
        options["talk"] = talk
    return narrate_module.narrate(events, seat, **options)


def known_roles(game: Any, seat: int | None) -> dict[int, str]:
    """Return the roles `seat` knows: its own, its teammates', public reveals; all at the end."""
    if game.over:
        return {s: r.label for s, r in enumerate(game.roles)}
    known: dict[int, str] = {}
    for kind, actor, target, value, seen_by in game.events:
        if kind == Ev.REVEAL and seen_by == PUBLIC:
            known[target] = Role(value).label
        elif seat is None or seen_by == PUBLIC or not (seen_by >> seat & 1):
            continue
        elif kind == Ev.ROLE and actor == seat:
            known[seat] = Role(value).label
        elif kind == Ev.TEAMMATE and actor == seat:
            known[target] = Role(value).label
    return known


def public_phase(game: Any) -> str:
    """Return the phase everyone sees: the public turn's name, "night" or "over"."""
    if game.over:
        return "over"
    if game.turn in PUBLIC_TURNS:
        return Turn(game.turn).name.lower()
    return NIGHT


def action_groups(env: Any, seat: int) -> list[dict[str, Any]]:
    """Return the legal actions of `seat` now, grouped by kind, in plain words ([] if none)."""
    game = env.unwrapped.game
    if game.over or game.actor != seat:
        return []
    turn = Turn(game.turn)
    groups: dict[str, dict[str, Any]] = {}
    for index in env.unwrapped.legal_actions():
        words = env.unwrapped.describe_action(index).split()
        kind, args = words[0], words[1:]
        label, text, title = _words(turn, kind, args)
        key = "vote_yes" if kind == "vote_no" else kind
        if key == "claim_check":
            key = f"claim_check {args[1]}"
            title = f"Say: I checked ... and they are {args[1]}"
        group = groups.setdefault(key, {"kind": kind, "title": title, "actions": []})
        group["actions"].append({"id": int(index), "label": label, "text": text})
    order = list(GROUPS)
    return sorted(
        groups.values(), key=lambda g: order.index(g["kind"]) if g["kind"] in order else 99
    )


def _words(turn: Turn, kind: str, args: list[str]) -> tuple[str, str, str]:
    """Return (button label, full sentence, group title) of one action."""
    title = GROUPS.get(kind, kind.replace("_", " ").capitalize())
    if kind == "pass":
        text = PASS_WORDS.get(turn, "Pass")
        return text, text, title
    if kind == "vote_yes":
        return "Yes", "Yes: remove them all", title
    if kind == "vote_no":
        return "No", "No: keep them", title
    if kind == "claim_role":
        return args[0], f"Say: I am the {args[0]}", title
    if kind == "claim_check":
        return args[0], f"Say: I checked player {args[0]}: {args[1]}", title
    if kind == "night" and turn in NIGHT_WORDS:
        title, verb = NIGHT_WORDS[turn]
        return args[0], f"{verb} {args[0]}", title
    sentences = {
        "nominate": "Nominate player",
        "vote": "Vote against player",
        "accuse": "Say: player {} is mafia",
        "vouch": "Say: player {} is town",
    }
    if kind in sentences and args:
        s = sentences[kind]
        return args[0], s.format(args[0]) if "{}" in s else f"{s} {args[0]}", title
    text = " ".join([kind.replace("_", " "), *args])
    return (args[0] if args else text), text, title


def seat_view(env: Any, seat: int | None, lang: str = "en") -> dict[str, Any]:
    """Return everything `seat` (0-based; None = a spectator) may know now, JSON-ready."""
    u = env.unwrapped
    game = u.game
    roles = known_roles(game, seat)
    phase = public_phase(game)
    actor = game.actor if phase not in (NIGHT, "over") else -1
    nominees = set(game.today.nominees) if phase not in (NIGHT, "over") else set()
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
    return {
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
        "narration": narration(game.events, seat, lang, game.talk),
        "may_talk": seat is not None and u.may_talk(u.possible_agents[seat]),
        "actions": [] if seat is None else action_groups(env, seat),
        "winner": u.winner,
    }


__all__ = ["action_groups", "known_roles", "languages", "narration", "public_phase", "seat_view"]
