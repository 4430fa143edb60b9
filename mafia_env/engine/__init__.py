"""The rules as a pure state machine: no PettingZoo, no numpy.

`game.Game` holds the state as plain data and takes one action at a time; `turns` writes
each kind of turn once (its legality beside its effect), `rules` types every knob, `spec`
declares what a game of one variant at one table size contains, `events` says who saw what,
and `resample` deals again what a seat cannot know (for information-set search).
"""
