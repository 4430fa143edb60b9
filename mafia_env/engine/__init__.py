"""The rules as a pure state machine: no PettingZoo, no numpy.

`game.Game` holds the state as plain data and takes one action at a time; `turns` writes
each kind of turn once (its legality beside its effect), `rules` types every knob, `spec`
declares what a game of one variant at one table size contains, `events` says who saw what,
`eras` the rules of earlier eras, `errors` what bad input raises, and `knowledge` what a
seat knows for sure (the belief and the worlds it cannot tell apart are answered by a layer
above, handed in with `knowledge.install`; the variants with `spec.register_variants`).
The engine imports nothing of the package above it.
"""
