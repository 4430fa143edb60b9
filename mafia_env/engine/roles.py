"""Roles and teams."""

from __future__ import annotations

from enum import IntEnum


class Team(IntEnum):
    TOWN = 0
    MAFIA = 1
    MANIAC = 2


class Role(IntEnum):
    CIVILIAN = 0
    SHERIFF = 1
    DOCTOR = 2
    PUTANA = 3
    MAFIA = 4
    DON = 5
    MANIAC = 6

    @property
    def team(self) -> Team:
        return ROLE_TEAM[self]

    @property
    def label(self) -> str:
        return self.name.lower()


ROLE_TEAM = {
    Role.CIVILIAN: Team.TOWN,
    Role.SHERIFF: Team.TOWN,
    Role.DOCTOR: Team.TOWN,
    Role.PUTANA: Team.TOWN,
    Role.MAFIA: Team.MAFIA,
    Role.DON: Team.MAFIA,
    Role.MANIAC: Team.MANIAC,
}
ROLE_NAMES = tuple(r.label for r in Role)
TEAM_NAMES = tuple(t.name.lower() for t in Team)


def role_from_name(name: str) -> Role:
    """Return the role called `name`, or raise a ValueError listing the role names."""
    try:
        return Role[name.upper()]
    except (KeyError, AttributeError):
        raise ValueError(f"unknown role {name!r}; roles are {', '.join(ROLE_NAMES)}") from None
