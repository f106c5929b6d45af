"""A toy game with hidden hands, on every layer at once, for the web tests (not a real game;
lives in tests/). It tests the "what a seat may see" mechanism of cargoboard serve the way
«Формула 99» will use it: the board knows every hand (digital cards) and reports them in its
position; the host's pages show each seat its own hand and nobody another's.

Rules: seats S and N hold three cards each, dealt from DECK alternately. A turn: the mover puts
a piece on an empty cell and so plays the first card of their hand onto it; before that it may
pick which card comes first (`lead CARD` on the board, a button on its seat's page). The game is over
when both hands are empty; a seat scores the ranks of the cards it played.

Notation: `S:2clubs.7spades.jclubs,N:5hearts.9diamonds.qhearts;e5=S2clubs,f6=N5hearts;S`
(hands; played cards with who played them; the seat to move). A hand nobody may see is
written `?N` (N cards): `S:?3,N:5hearts...`; such a position parses and draws, but cannot be
played on. Actions: `CARD@CELL`.

Layers: the rules (Position, RulesError, ...; MicroPython-compatible), the board plug-in
(class Game, registered as `--plugin handgame=tests.handgame`), the host's drawing module with
the hooks seat_view/action_view/seat_actions (host only: imports cargoboard inside the
functions).
"""

from shared_rules import geometry as G

DECK = ("2clubs", "5hearts", "7spades", "9diamonds", "jclubs", "qhearts")
RANKS = {"2": 2, "5": 5, "7": 7, "9": 9, "j": 11, "q": 12}
SEAT_LETTERS = "SN"


class RulesError(ValueError):
    pass


class Position:
    SEAT_LETTERS = SEAT_LETTERS

    def __init__(self):
        self.hands = [[], []]       # None: hidden (only its size known, in self.hidden)
        self.hidden = [0, 0]
        self.cells = {}             # cell -> (card, seat)
        self.to_move = 0
        self.seats = [0, 1]
        self._history = []

    @classmethod
    def start(cls):
        p = cls()
        for i in range(len(DECK)):
            p.hands[i % 2].append(DECK[i])
        return p

    @classmethod
    def parse(cls, text):
        p = cls()
        try:
            hands, cells, turn = text.strip().split(";")
            for part in hands.split(","):
                seat, cards = part.split(":")
                s = SEAT_LETTERS.index(seat)
                if cards.startswith("?"):
                    p.hands[s] = None
                    p.hidden[s] = int(cards[1:])
                else:
                    p.hands[s] = [c for c in cards.split(".") if c]
            for part in cells.split(","):
                if part:
                    cell, played = part.split("=")
                    c = G.parse_cell(cell)
                    if c < 0:
                        raise ValueError("no cell " + cell)
                    p.cells[c] = (played[1:], SEAT_LETTERS.index(played[0]))
            p.to_move = SEAT_LETTERS.index(turn)
        except ValueError as e:
            raise RulesError("not a handgame position: %s (%s)" % (text, e))
        return p

    def copy(self):
        p = Position()
        p.hands = [None if h is None else list(h) for h in self.hands]
        p.hidden = list(self.hidden)
        p.cells = dict(self.cells)
        p.to_move = self.to_move
        p._history = list(self._history)
        return p

    def hand_text(self, s):
        h = self.hands[s]
        return "?%d" % self.hidden[s] if h is None else ".".join(h)

    def notation(self):
        cells = [G.cell_name(c) + "=" + SEAT_LETTERS[self.cells[c][1]] + self.cells[c][0]
                 for c in sorted(self.cells)]
        return "%s;%s;%s" % (",".join([SEAT_LETTERS[s] + ":" + self.hand_text(s)
                                       for s in (0, 1)]), ",".join(cells),
                             SEAT_LETTERS[self.to_move])

    def legal_actions(self):
        h = self.hands[self.to_move]
        if h is None:
            raise RulesError("the mover's hand is hidden: no legal actions known")
        if self.is_over():
            return []
        return [(card, c) for card in h for c in range(121) if c not in self.cells and
                G.CELL_KIND[c] != G.CORNER]

    def push(self, a):
        card, c = a
        h = self.hands[self.to_move]
        if h is None or card not in h or c in self.cells:
            raise RulesError("illegal action %s" % self.format_action(a))
        h.remove(card)
        self.cells[c] = (card, self.to_move)
        self._history.append(a)
        self.to_move = 1 - self.to_move

    def pop(self):
        card, c = self._history.pop()
        self.to_move = 1 - self.to_move
        del self.cells[c]
        self.hands[self.to_move].insert(0, card)

    def history(self):
        return list(self._history)

    def ply(self):
        return len(self._history)

    def format_action(self, a):
        return "%s@%s" % (a[0], G.cell_name(a[1]))

    def parse_action(self, text):
        card, _, cell = text.partition("@")
        c = G.parse_cell(cell)
        if c < 0 or card not in DECK:
            raise RulesError("not a handgame action: %s" % text)
        return (card, c)

    def scores(self):
        out = [0, 0]
        for card, s in self.cells.values():
            out[s] += RANKS[card[0]]
        return out

    def is_over(self):
        return all(h is not None and not h for h in self.hands)

    def winners(self):
        sc = self.scores()
        best = max(sc)
        return [s for s in (0, 1) if sc[s] == best]


def named_position(text):
    return Position.start() if text == "deal" else None


def perft(pos, depth):
    if depth == 0:
        return 1
    n = 0
    for a in pos.legal_actions():
        pos.push(a)
        n += perft(pos, depth - 1)
        pos.pop()
    return n


# --- the board plug-in (docs/firmware.md) ------------------------------------------------------

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
        from firmware import leds as L
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


# --- the host's drawing module, with the hidden-information hooks (cargoboard.diagram) ----------

CELL = 40


def seat_view(text, seat=None):
    """The position as seat may see it: the other hands as their sizes only; the seat's own
    hand as lines for its page."""
    pos = Position.parse(text)
    mine = []
    for s in (0, 1):
        if SEAT_LETTERS[s] == seat:
            mine = ["%s (card %d of %d)" % (c, i + 1, len(pos.hands[s]))
                    for i, c in enumerate(pos.hands[s] or [])]
        elif pos.hands[s] is not None:
            pos.hidden[s] = len(pos.hands[s])
            pos.hands[s] = None
    return pos.notation(), mine


def seat_actions(text, seat):
    """The mover picks which of its cards its next piece plays: `lead CARD`."""
    pos = Position.parse(text)
    s = SEAT_LETTERS.find(seat) if seat else -1
    if s != pos.to_move or pos.hands[s] is None:
        return []
    return [("play %s next" % card, "lead " + card) for card in pos.hands[s][1:]]


def action_view(text, seat=None):
    return text  # a played card lies face up: every action is public


def pieces(pos):
    from cargoboard.diagram import svg_text
    out = {}
    for c, (card, s) in pos.cells.items():
        x, y = (c % 11) * CELL + CELL / 2, (10 - c // 11) * CELL + CELL / 2
        out[c] = svg_text(x, y, "card", card, [("data-kind", "card"), ("data-cell",
                                                                       G.cell_name(c))])
    return out


def overlay(before, action_text):
    return ""


def phase_text(pos):
    if pos.is_over():
        return "game over, winner %s" % " ".join(SEAT_LETTERS[s] for s in pos.winners())
    return "%s to move" % SEAT_LETTERS[pos.to_move]


def caption(pos, ply, total, action_text=None, mover=None):
    from cargoboard.diagram import caption_line
    return caption_line(phase_text(pos), ply, total, action_text, mover)


def svg(pos, before=None, action_text=None, ply=None, total=None, title=None):
    from cargoboard.diagram import svg_document, svg_text
    if ply is None:
        ply = total = pos.ply()
    size = 11 * CELL
    grid = "".join('<rect x="%d" y="%d" width="%d" height="%d" fill="#eee" stroke="#ccc"/>' % (
        (c % 11) * CELL, (10 - c // 11) * CELL, CELL, CELL) for c in range(121))
    sc = pos.scores()
    scores = "".join(svg_text(60 + 200 * s, size + 14, "sc", "%s %d" % (SEAT_LETTERS[s], sc[s]),
                              [("id", "cb-score-" + SEAT_LETTERS[s]), ("data-kind", "score")])
                     for s in (0, 1))
    hands = "".join(svg_text(60 + 200 * s, size + 34, "hand", "%s holds %d" % (
        SEAT_LETTERS[s], pos.hidden[s] if pos.hands[s] is None else len(pos.hands[s])))
        for s in (0, 1))
    return svg_document(pos, size, size + 70, title or "handgame", ".card{font-size:9px}",
                        grid, pieces(pos), overlay(before, action_text), scores + hands,
                        caption(pos, ply, total, action_text))


def text_board(pos, color=False):
    return pos.notation()
