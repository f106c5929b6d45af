"""A tiny game plug-in for the firmware tests (not a real game; lives in tests/, not firmware/).

Options: layout 'row' (default: pieces on b2..f2) or 'pair' (b2, c2); seats 'SN' (default).
Rules: a move is one piece leaving a committed cell and one arriving on an empty cell. Every
move has three candidate readings worth 1, 2 or 3 points (to exercise next/confirm/resolve):
`next` cycles the shown candidate, `confirm` commits it (scores it for the seat to move, turn
passes), `undo` takes back the last commit in the position (not on the board), `end` emits
`evt end`. Position notation: "<occupied cells, comma-joined>:<seat to move>:<scoreS>.<scoreN>".
"""

from firmware import hal as H
from firmware.drivers.leds import SEAT_COLOUR, YELLOW, BLINK_FAST, BLINK_SLOW

LAYOUTS = {"row": (12, 13, 14, 15, 16), "pair": (12, 13)}
SEATS = "SWNE"


class Game:
    def __init__(self, options):
        self.emit = options.get("emit") or (lambda t: None)
        layout = options.get("layout", "row")
        if layout not in LAYOUTS:
            raise ValueError("unknown layout '%s' (row pair)" % layout)
        seats = options.get("seats", "SN")
        self.seats = []
        for ch in seats:
            i = SEATS.find(ch)
            if i < 0:
                raise ValueError("bad seats '%s'" % seats)
            self.seats.append(i)
        self.occ = bytearray(16)
        for c in LAYOUTS[layout]:
            H.bit_set(self.occ, c, 1)
        self.mask = bytearray(self.occ)
        self.score = [0, 0, 0, 0]
        self.turn_i = 0
        self.cands = []
        self.shown = 0
        self.history = []
        self.started = False

    def setup_mask(self):
        return self.mask

    def start(self):
        self.started = True

    def _pos(self, occ, score, turn_i):
        cells = []
        for c in range(H.N_CELLS):
            if H.bit_get(occ, c):
                cells.append(H.cell_name(c))
        sc = ".".join([str(score[s]) for s in self.seats])
        return "%s:%s:%s" % (",".join(cells), SEATS[self.seats[turn_i]], sc)

    def notation(self):
        return self._pos(self.occ, self.score, self.turn_i)

    def _result(self, cand):
        src, dst, k = cand
        occ = bytearray(self.occ)
        H.bit_set(occ, src, 0)
        H.bit_set(occ, dst, 1)
        score = list(self.score)
        score[self.seats[self.turn_i]] += k
        return occ, score, (self.turn_i + 1) % len(self.seats)

    def on_change(self, occ, now_ms):
        gone = []
        new = []
        for c in range(H.N_CELLS):
            a = H.bit_get(self.occ, c)
            b = H.bit_get(occ, c)
            if a and not b:
                gone.append(c)
            elif b and not a:
                new.append(c)
        if len(gone) == 1 and len(new) == 1:
            self.cands = [(gone[0], new[0], k) for k in (1, 2, 3)]
            self.shown = 0
            self.emit("candidates %d" % len(self.cands))
        else:
            self.cands = []

    def _action(self, cand):
        return "%s-%s+%d" % (H.cell_name(cand[0]), H.cell_name(cand[1]), cand[2])

    def on_button(self, bit, now_ms):
        if bit == H.NEXT and self.cands:
            self.shown = (self.shown + 1) % len(self.cands)
        elif bit == H.CONFIRM and self.cands:
            cand = self.cands[self.shown]
            self.history.append((bytearray(self.occ), list(self.score), self.turn_i))
            self.occ, self.score, self.turn_i = self._result(cand)
            self.cands = []
            self.emit("action " + self._action(cand))
        elif bit == H.UNDO and self.history:
            self.occ, self.score, self.turn_i = self.history.pop()
            self.emit("undo")
        elif bit == H.END:
            self.emit("end")

    def tick(self, now_ms):
        pass

    def paint(self, p, frame_no):
        seat = self.seats[self.turn_i]
        for c in range(H.N_CELLS):
            if H.bit_get(self.occ, c):
                p.cell(c, SEAT_COLOUR[seat], 64)
        if self.cands:
            src, dst, k = self.cands[self.shown]
            p.cell(src, YELLOW, 255, BLINK_SLOW)
            p.cell(dst, YELLOW, 255, BLINK_FAST)
        p.turn(seat)
        for s in self.seats:
            p.score(s, self.score[s], 9)

    def command(self, words):
        if words[0] == "pos":
            return self.notation()
        if words[0] == "candidates":
            lines = []
            i = 0
            for cand in self.cands:
                occ, score, t = self._result(cand)
                lines.append("cand %d %s %s" % (i, self._action(cand), self._pos(occ, score, t)))
                i += 1
            lines.append("ok %d shown=%d" % (len(self.cands), self.shown))
            return "\n".join(lines)
        if words[0] == "boom":
            raise RuntimeError("test plug-in exploded on purpose")
        return None

    def scores(self):
        return self.score
