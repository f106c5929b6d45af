"""What `cargoboard serve` works out itself of a «Формула 99» board it follows (docs/web.md).

The board answers `state` (its `diff=`, the places where it differs from the game) from
console.py, which it loads for the request and drops after: asked at every piece moved during a
mismatch, that would load code on the board at each change. The same places follow from what
the board already tells: its stable occupancy (`occ`, answered by the app, no game code) kept up
to date from the `change` events, and the position it reported. They are worked out here with
the board's own code (the tracker's sense vector and evidence, console.py's place names), so
they are the places the board's `state` would give.
"""

from firmware.games.formula99 import console
from firmware.games.formula99 import tracker as T
from shared_rules.formula99 import rules as R


def mismatch_places(position, occupancy):
    """The places where a board with this occupancy (the 16-byte bitmap of `occ`) differs from
    the position (its notation): those a piece is missing from, then those a piece stands on
    where none belongs, as the board's `state` names them in `diff=` (3y2, s3, f3, control)."""
    tracker = T.Tracker(R.Position.parse(position))
    tracker.observed = tracker.sense(occupancy)
    return console.owed_names(tracker)
