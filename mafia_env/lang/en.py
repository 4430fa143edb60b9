"""English: what the moderator says, keyed by event name (see `mafia_env.lang`)."""

from __future__ import annotations

NAME = "English"

ROLES = {
    "civilian": "civilian",
    "sheriff": "sheriff",
    "doctor": "doctor",
    "putana": "putana",
    "mafia": "mafia",
    "don": "don",
    "maniac": "maniac",
}
COLORS = ("red", "black")
ANSWERS = ("yes", "no", "I don't know")  # by Answer
HUNT_AS = (" as mafia", " as the maniac")  # FORUM-N4: the status a hunter guesses

EVENTS = {
    "ROLE": "Player {a}, your role is {role}.",
    "TEAMMATE": "Player {a}, player {t} is on your team ({role}).",
    "NIGHT": {
        "zero": "The zero night falls: the mafia open their eyes and meet.",
        "night": "Night {v} falls. The town goes to sleep.",
    },
    "DAY": "Day {v} begins.",
    "SPEAK": {
        "SPEECH": "Player {a}, your speech.",
        "LAST_WORD": "Player {a}, your last word.",
        "TIE_SPEECH": "Player {a}, a short speech before the re-vote.",
        "MONOLOGUE": "Player {a}, your minute of monologue.",
    },
    "CLAIM_ROLE": "Player {a}: I am the {role}.",
    "CLAIM_CHECK": "Player {a}: I checked player {t}: {color}.",
    "ACCUSE": "Player {a}: player {t} is black.",
    "VOUCH": "Player {a}: player {t} is red.",
    "NOMINATE": {
        "by": "Player {a} nominates player {t}.",
        "round": "Player {t} is nominated.",
    },
    "END_SPEECH": "Player {a} ends the speech.",
    "NO_VOTE": {
        "NO_NOMINEES": "Nobody was nominated: no vote today.",
        "SINGLE_NOMINEE_DAY1": "A single nominee on day 1: no vote.",
    },
    "VOTING": {
        "one": "The vote: player {order} is nominated.",
        "many": "The vote: players {order} are nominated, in this order.",
    },
    "BALLOT": {
        "vote": "Player {a} votes for player {t}.",
        "silent": "Player {a} did not vote: the vote goes to player {t}, the last nominee.",
        "abstain": "Player {a} abstains.",
    },
    "TIE": "The vote is tied between players {seats}.",
    "CRASH": "Who is for removing all of players {seats}?",
    "CRASH_BALLOT": {
        "yes": "Player {a} votes yes: remove them all.",
        "no": "Player {a} votes no.",
    },
    "SPARED": {
        "NO_VOTES": "Nobody received a vote: nobody leaves.",
        "TIE": "The vote is tied: nobody leaves today.",
        "CRASH_FAILED": "No majority to remove them all: nobody leaves.",
        "NO_MAJORITY": "No strict majority: the nominee stays.",
    },
    "ELIMINATED": {
        "VOTE": "Player {t} is voted out and leaves the table.",
        "NIGHT": "Player {t} was killed in the night.",
        "FOUL": "Player {t} is removed for fouls.",
        "MAFIA": "Player {t} was killed by the mafia.",
        "MANIAC": "Player {t} was killed by the maniac.",
        "COMPANION": "Player {t} spent the night with the putana and leaves with her.",
        "HUNTED": "Player {t} was caught by the town's hunt.",
        "HUNTER": "Player {t} fell in a failed hunt.",
        "FORFEIT": "Player {t} leaves: the mafia could not agree on a victim.",
        "REMOVED": "Player {t} is removed from the game by the moderator, without a last word.",
    },
    "MISS": "Nobody was killed tonight.",
    "MORNING": "Morning comes.",
    "SHOT": {
        "shot": "Player {a} shoots at player {t}.",
        "hold": "Player {a} holds fire.",
    },
    "CHECK": {
        "sheriff_yes": "Player {a}, player {t} is black: mafia.",
        "sheriff_no": "Player {a}, player {t} is not mafia.",
        "don_yes": "Player {a}, yes: player {t} is the sheriff.",
        "don_no": "Player {a}, no: player {t} is not the sheriff.",
        "yes": "Player {a}, your check of player {t}: yes.",
        "no": "Player {a}, your check of player {t}: no.",
    },
    "VISIT": "Player {a}, you spend the night with player {t}: they cannot act tonight.",
    "BLOCKED": {
        "DON_CHECK": "Player {a}, the putana is with you tonight: you cannot check; your "
        "choice of victim still counts.",
        "SHERIFF_CHECK": "Player {a}, the putana is with you tonight: you cannot check.",
        "DOCTOR": "Player {a}, the putana is with you tonight: you cannot heal.",
        "MANIAC": "Player {a}, the putana is with you tonight: you cannot shoot.",
    },
    "HEAL": "Player {a}, you heal player {t} tonight.",
    "HEAL_STATE": {
        "some": "Player {a}, your last heal that counts: player {t}; self-heals used: {v}.",
        "none": "Player {a}, no heal of yours counts from last night; self-heals used: {v}.",
    },
    "DON_INTRODUCED": "Player {a} introduces himself to the mafia: he is the don.",
    "ASK": "Player {a} asks player {t}: are you the {role}?",
    "ANSWER": {
        "YES": "Player {a} answers: yes.",
        "NO": "Player {a} answers: no.",
        "DONT_KNOW": "Player {a} answers: I don't know.",
    },
    "NAME": "Player {a} names player {t}.",
    "HUNT": "Player {a}, you request a hunt on player {t}{hunt_as}.",
    "EXECUTOR": "Player {a} names player {t} to carry out the shot.",
    "FOUL": "Player {t} gets a foul ({v} in all).",
    "SILENCED": "Player {t} has no speech today for fouls.",
    "REVEAL": "Player {t} was the {role}.",
    "GAME_OVER": {
        "TOWN": "The town wins.",
        "MAFIA": "The mafia wins.",
        "MANIAC": "The maniac wins.",
        "DRAW": "The game is a draw.",
    },
    "TERMINATED": "The game is stopped: player {a} made an illegal move.",
    "TALK": 'Player {a} says: "{text}".',
}

# What an action means, by act and (where it reads differently) by the kind of turn.
ACTIONS = {
    "PASS": {
        "*": "Pass.",
        "SPEECH": "End your speech.",
        "LAST_WORD": "End your last word.",
        "TIE_SPEECH": "End your speech.",
        "VOTE": "Do not vote.",
        "MAFIA_KILL": "Hold your fire tonight.",
        "DON_CHECK": "Skip the check tonight.",
        "SHERIFF_CHECK": "Skip the check tonight.",
        "PUTANA": "Stay home tonight.",
        "DOCTOR": "Heal nobody tonight.",
        "MANIAC": "Do not shoot tonight.",
        "HUNT": "Request no hunt.",
        "MONOLOGUE": "End your monologue.",
    },
    "NOMINATE": {"*": "Nominate player {t}.", "NAMING": "Name player {t}."},
    "VOTE": {"*": "Vote for player {t}."},
    "NIGHT": {
        "*": "Choose player {t} tonight.",
        "MAFIA_KILL": "Shoot player {t}.",
        "DON_CHECK": "Check whether player {t} is the sheriff.",
        "SHERIFF_CHECK": "Check whether player {t} is mafia.",
        "PUTANA": "Spend the night with player {t}.",
        "DOCTOR": "Heal player {t}.",
        "MANIAC": "Shoot player {t}.",
    },
    "CLAIM_ROLE": {"*": "Say: I am the {role}."},
    "CLAIM_CHECK": {"*": "Say: I checked player {t}: {color}."},
    "ACCUSE": {"*": "Say: player {t} is black."},
    "VOUCH": {"*": "Say: player {t} is red."},
    "VOTE_YES": {"*": "Vote yes: remove all the tied players."},
    "VOTE_NO": {"*": "Vote no: keep them all."},
    "ASK": {"*": "Ask player {t}: are you the {role}?"},
    "ANSWER": {"*": "Answer: {answer}."},
    "REVEAL_DON": {"*": "Introduce yourself to the mafia as the don."},
    "EXECUTOR": {"*": "Name player {t} to carry out the shot."},
    "HUNT": {"*": "Request a hunt on player {t}{hunt_as}."},
}

UI = {
    "you_are": "You are player {a} at a table of {n}. The moderator has told you:",
    "your_turn": "It is your turn. Your legal actions:",
    "not_your_turn": "It is not your turn: wait.",
    "game_over": "The game is over.",
    "reply": "Reply with the number of one action.",
    "bad_reply": "{reply!r} is not one of your legal actions; reply with a number 1..{k} or an "
    "action's text. Your legal actions:",
    "not_acting": "{agent} is not acting now; {actor} is.",
    "ambiguous_reply": "{reply!r} names more than one of your legal actions ({which}); "
    "reply with one number 1..{k}. Your legal actions:",
}

# Replies (`mafia_env.text.read_reply`): words before a chosen number ("I choose 3"), and
# the words that begin table talk after the choice ("3. Say: ...").
REPLY_LABELS = (
    "answer",
    "choice",
    "choose",
    "chose",
    "action",
    "option",
    "number",
    "pick",
    "select",
    "reply",
    "go with",
    "move",
)
TALK_MARKERS = ("say",)
