# «Формула 99» on the board: what the plug-in does once a game (its set-up, the set-up's mask,
# the start, a resume's replay, a position loaded, the log's header). Plugin._once imports this
# module for one call and drops it after, so that a game in play does not keep its code in the
# heap (docs/board-formula99.md "Measured").

from shared_rules.formula99 import rules as R
from shared_rules.formula99 import track as TK
from firmware.games.formula99 import tracker as T
from firmware.drivers import leds as L
from firmware import hal as H
from firmware.system import logwrite as LW
from firmware.hal import const

_MAP_LEVEL = const(14)  # the track's map, under everything
LANE_COLOUR = (L.BLUE, L.YELLOW)  # blue lane, yellow lane; red cells in RED (dim, steady)
# The rules core's undo log kept in the heap: 2 chunks of 384 bytes, the last 7-46 actions (27
# in the median of random games); an older one is taken back by replaying the game from its
# start (rules.py keep_undo). Unbounded, a game of 400 actions held 9 KB of the heap in pieces.
_UNDO_CHUNKS = const(2)


def init(game, options):
    """Game.__init__: the game of a new game's options, or of options["position"]. (Nothing
    made here may stay referenced by the game: a function of this module would keep the whole
    module in the heap.)"""
    start = options.get("position")
    if start is not None:  # an empty position= is a bad position, not a new game
        pos = _parse(game, start)
    else:
        # a new game's options are read by console.py, loaded for them and dropped after
        # (a position read stays here: console.py loaded beside the notation's reader left
        # the digital-cards resume of tests/formula99/test_formula99_sim.py no 512-byte hole at
        # 192 KiB)
        from firmware.games.formula99 import console
        try:
            pos = console.new_position(options)
        finally:
            console = None
            game.drop_text()
    pos.keep_undo(_UNDO_CHUNKS)
    game.grid, game.start_grid, game.finish_grid = TK.grid_tables()
    # (cell, colour, level, blink) lit besides the bars: the track's map first, kept for
    # the whole game (Overlay.keep), then what the state shows, drawn over it.
    # Room for the map's 63 cells and 122 lit over them (24 whole games played by the hand
    # model lit at most 57).
    game.overlay = L.Overlay(H.N_CELLS + 64)
    track_map(game, game.overlay)
    game.bars = []  # (led, colour, level, blink) drawn on the side bars
    game.now = 0
    game.mismatch_since = -1
    game._shown = -1  # the state the LEDs show (none yet)
    game.paint_version = 0
    game.pick_suit = 0
    game.pick_list = []
    game.pick_index = 0
    set_position(game, pos)


def _parse(game, text):
    try:
        pos = R.Position.parse(text)
    except R.RulesError as e:
        raise ValueError("bad position: %s" % (e,))
    finally:
        game.drop_text()
    return pos


def set_position(game, pos):
    game.pos = pos
    game.tracker = T.Tracker(pos)
    game._over_told = False
    game.end_by = -1  # the seat whose `end` waits for the board to come to rest (plugin.py)
    game.pick = game.PICK_NONE
    game._rebuild()


def load(game, text):
    """A position loaded (the console's `load`)."""
    pos = _parse(game, text)
    pos.keep_undo(_UNDO_CHUNKS)
    set_position(game, pos)


def start(game):
    pos = game.pos
    game.emit("formula99 start L%d seats=%s ply=%d" % (pos.level, pos.SEAT_LETTERS, pos.ply()))
    game._tell_over()
    game._rebuild()


def log_header(game):
    pos = game.pos
    return ("L%d" % pos.level, pos.SEAT_LETTERS, pos.notation(), game.rules_version)


def setup_mask(game):
    """The position's pieces: at the start, two ships in each start zone in play."""
    m = bytearray(H.BITMAP_BYTES)
    v = T.expected(game.pos)
    for i in range(72):
        if v[i]:
            _set_bit(m, game.grid[i])
    for k in range(9):
        for j in range(v[T.ZONE + k]):
            _set_bit(m, game.start_grid[2 * k + j])
        if v[T.FIN + k]:
            _set_bit(m, game.finish_grid[k])
    if v[T.CTRL]:
        _set_bit(m, TK.CONTROL_GRID)
    return m


def _set_bit(m, g):
    m[g >> 3] |= 1 << (g & 7)


def resume(game, records):
    """Replay the game log's records (after a power cut) into the game's position."""
    pos = game.pos
    if pos.full:
        pos.set_lay_card(R.LAY_FIRST)  # the lays of the card logged only (rules.py)
    undone = False  # the last record takes an action back: the board may still show it
    for kind, payload in records:
        if kind == LW.ACTION:
            if pos.full and payload[0] == R.K_LAY:
                pos.set_lay_card(payload[3] & 63)
            pos.push(R.decode_action(pos, payload, 0)[0])
            if pos.full:
                pos.set_lay_card(R.LAY_FIRST)
            undone = False
        elif kind == LW.UNDO:
            pos.pop()
            undone = True
    set_position(game, pos)
    if undone:
        # As after the take-back itself (Tracker.press_undo): the whole board is owed, nothing
        # is read until it shows the position (a power cut before the pieces were put back
        # must not read the action again).
        game.tracker.state = T.CATCHUP
    game.emit("formula99 resumed ply=%d" % pos.ply())
    game._tell_over()


def track_map(game, out):
    """The track's cells, dim, under everything: the overlay's kept entries."""
    out.forget()
    for c in range(72):
        if TK.is_track(c):
            out.add(game.grid[c], L.RED if TK.is_red(c) else LANE_COLOUR[c & 1], _MAP_LEVEL, 0)
    out.keep()
