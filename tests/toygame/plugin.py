# Toy on the board: its firmware plug-in (the interface of docs/firmware.md), registered at run
# time with `main.py --plugin toy=toygame.plugin` (tests/test_toygame_layers.py). Uses what a
# game may use: the HAL, the drivers (the painter's colours), the log's record kinds and its
# own rules core.
#
# The move is seen whole: the mover's token leaves its cell and stands on a legal destination.
# A lifted token (its cell empty, nothing new yet) is a move under way; any other difference
# from the position lights the differing cells red until the board is put right.

from firmware import hal as H
from firmware.drivers.leds import SEAT_COLOUR, RED, BLINK_FAST
from firmware.system import logwrite as LF
from toygame import rules as R

BOARD_SEAT = (0, 2)  # the rules' seats S, N are the board's seats S (0) and N (2)


def _nothing(*args):
    pass


class Game:
    rules_version = R.RULES_VERSION

    def __init__(self, options):
        self.emit = options.get("emit") or _nothing
        self.record = options.get("record") or _nothing
        self.record_over = options.get("record_over") or _nothing
        self.pos = R.Position.parse(options.get("position") or R.START)
        self.start_text = self.pos.notation()
        self.diff = []
        self.paint_version = 0

    def _occupancy(self):
        occ = bytearray(H.BITMAP_BYTES)
        for c in self.pos.tokens:
            H.bit_set(occ, c, 1)
        return occ

    # -- plug-in interface ----------------------------------------------------------------------
    def setup_mask(self):
        return self._occupancy()

    def start(self):
        pass

    def log_header(self):
        return ("start", "SN", self.start_text, R.RULES_VERSION)

    def resume(self, records):
        for kind, payload in records:
            if kind == LF.ACTION:
                self.pos.push(R.decode_action(self.pos, payload, 0)[0])
            elif kind == LF.UNDO:
                self.pos.pop()

    def on_change(self, occ, now_ms):
        want = self._occupancy()
        gone = []
        new = []
        for c in range(H.N_CELLS):
            a = H.bit_get(want, c)
            b = H.bit_get(occ, c)
            if a and not b:
                gone.append(c)
            elif b and not a:
                new.append(c)
        src = self.pos.tokens[self.pos.to_move]
        diff = []
        if gone == [src] and len(new) == 1 and new[0] in self.pos.legal_actions():
            a = new[0]
            self.pos.push(a)
            self.record(R.encode_action(a))
            self.emit("action " + R.format_action(a))
            if self.pos.is_over():
                self.record_over()
                self.emit("over")
        elif not (gone == [src] and not new):
            diff = gone + new
        if diff != self.diff:
            self.diff = diff
        self.paint_version += 1

    def on_button(self, bit, now_ms):
        pass

    def tick(self, now_ms):
        pass

    def paint(self, p, frame_no):
        for s in self.pos.seats:
            p.cell(self.pos.tokens[s], SEAT_COLOUR[BOARD_SEAT[s]], 255)
        for c in self.diff:
            p.cell(c, RED, 255, BLINK_FAST)
        if not self.pos.is_over():
            p.turn(BOARD_SEAT[self.pos.to_move])

    def command(self, words):
        if words[0] == "pos":
            return self.pos.notation()
        if words[0] == "candidates":
            return "ok 0 shown=0"
        return None

    def scores(self):
        out = [0, 0, 0, 0]
        sc = self.pos.scores()
        for s in self.pos.seats:
            out[BOARD_SEAT[s]] = sc[s]
        return out
