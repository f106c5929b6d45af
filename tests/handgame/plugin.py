"""The hidden-hand toy game on the board: its firmware plug-in (docs/firmware.md)."""

from handgame.rules import Position

class Game:
    def __init__(self, options):
        self.emit = options.get("emit") or (lambda t: None)
        self.pos = Position.start()
        self.occ = bytearray(16)
        self.paint_version = 0

    def setup_mask(self):
        return None  # nothing to lay out: the board starts empty

    def start(self):
        self.emit("state idle")

    def on_change(self, occ, now_ms):
        for c in range(121):
            now = (occ[c >> 3] >> (c & 7)) & 1
            was = (self.occ[c >> 3] >> (c & 7)) & 1
            if now and not was and c not in self.pos.cells and not self.pos.is_over():
                h = self.pos.hands[self.pos.to_move]
                a = (h[0], c)
                self.pos.push(a)
                self.emit("auto %s -> %s" % (self.pos.format_action(a), self.pos.notation()))
                self.paint_version += 1
        self.occ[:] = occ

    def on_button(self, bit, now_ms):
        pass

    def tick(self, now_ms):
        pass

    def paint(self, painter, frame_no):
        from firmware.drivers import leds as L
        for c in self.pos.cells:
            painter.cell(c, L.SEAT_COLOUR[2 * self.pos.cells[c][1]], 200, 0)

    def scores(self):
        sc = self.pos.scores()
        return [sc[0], 0, sc[1], 0]

    def command(self, words):
        cmd = words[0]
        if cmd == "pos":
            return "ok " + self.pos.notation()
        if cmd == "state":
            return "ok state=%s diff=- actions=%d" % ("over" if self.pos.is_over() else "idle",
                                                      self.pos.ply())
        if cmd == "history":
            from firmware import hal as H
            lo, hi = H.word_range(words, self.pos.ply())
            return "ok " + " ".join([self.pos.format_action(a) for a in self.pos.history()[lo:hi]])
        if cmd == "candidates":
            return "ok 0 shown=0 fit=0 state=idle"
        if cmd == "lead" and len(words) == 2:
            # the mover picks the card its next piece plays (from its seat's page)
            h = self.pos.hands[self.pos.to_move]
            if words[1] not in h:
                return "err %s is not in the mover's hand" % words[1]
            h.remove(words[1])
            h.insert(0, words[1])
            return "ok"
        return None
