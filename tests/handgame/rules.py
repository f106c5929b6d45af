"""The hidden-hand toy game's rules (see __init__); MicroPython-compatible."""

from shared_rules import geometry as G

DECK = ("2clubs", "5hearts", "7spades", "9diamonds", "jclubs", "qhearts")
RANKS = {"2": 2, "5": 5, "7": 7, "9": 9, "j": 11, "q": 12}
SEAT_LETTERS = "SN"
CORNERS = (0, G.SIZE - 1, G.N_CELLS - G.SIZE, G.N_CELLS - 1)  # out of play


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
                c not in CORNERS]

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
