"""`cargoboard play formula99`: a hot-seat game in the terminal, engines for any seats.

The program deals the cards from a seeded deck (the full view: it knows every card) and shows
each player only what they may see: the public board, their own hand and the cards of their own
charges. Before a player's hidden information appears the screen is cleared and a hand-over
screen asks for that player to take the seat (Enter); the screen is cleared again before the
next player's turn. Cards shown by the rules (a charge that triggers, a dash's or a ram's draw)
are shown to everyone. At the end every hand and charge is revealed.

The loop reads and writes through functions (`inp`, `out`), so the tests drive it with scripted
input; `clear` is the ANSI clear on a terminal, a separator line otherwise.
"""

import os

from shared_rules.formula99 import engine as E
from shared_rules.formula99 import rules as R
from cargoboard.games.formula99 import draw
from cargoboard.store import played_now

HELP = """Type an action in the action notation (docs/rules/formula99.md §10), e.g.
  s1-1b1   1b2-2y1   1r-3b1/y   lay:3y2=Qh   block:4r   lift:3y2   end   pass   draw1
  7h:brake   Kc:ram:1b2>2y1   go:3b2/y!2r   as7   def   nodef
Commands: legal (the legal actions), board (the position again), help, quit."""


class Quit(Exception):
    pass


def parse_engine_seats(text, pos):
    """Seats played by the engine from '--engine SEATS': civilisation digits ('37'), 'all' or
    'none'; ValueError naming the problem."""
    if text in (None, "", "none"):
        return set()
    letters = pos.SEAT_LETTERS
    if text == "all":
        return set(pos.seats)
    out = set()
    for ch in text:
        if ch not in letters:
            raise ValueError("--engine %s: %r is no civilisation in play (these play: %s)"
                             % (text, ch, ", ".join(letters)))
        out.add(letters.index(ch))
    return out


class HotSeat:
    def __init__(self, players=2, level=1, seed=None, engine="", inp=input, out=print,
                 clear=None, samples=4):
        if seed is None:
            seed = int.from_bytes(os.urandom(4), "big") & 0x7FFFFFFF
        self.seed = seed
        self.pos = R.start_position(players, level, seed)
        self.start = self.pos.notation()
        self.played = played_now()  # when it began: the saved record's `played`
        self.engines = parse_engine_seats(engine, self.pos)
        self.inp = inp
        self.out = out
        self.clear = clear or (lambda: out("\n" + "=" * 72 + "\n"))
        self.samples = samples
        self.viewer = None  # the human seat whose hidden information is on the screen

    # -- screens ----------------------------------------------------------------------------

    def name(self, seat):
        return draw.civ_label(self.pos.civ(seat))

    def hand_over(self, seat):
        """Clear the screen and wait for the seat's player before showing their cards."""
        self.clear()
        self.out("Hand the board to %s (only they look now), then press Enter." % self.name(seat))
        self.inp("")
        self.clear()
        self.viewer = seat

    def show(self):
        self.out(draw.picture(self.pos, viewer=self.viewer))

    # -- the loop ---------------------------------------------------------------------------

    def run(self):
        """Play until the game ends (returns the winners) or a player quits (Quit)."""
        pos = self.pos
        self.out("«Формула 99», %d players, level %d, seed %d (the same seed deals the same "
                 "cards). Engines: %s." % (len(pos.seats), pos.level, self.seed,
                                            ", ".join(self.name(s) for s in sorted(self.engines))
                                            or "none"))
        while not pos.is_over():
            who = pos.to_move
            if who < 0:
                self.chance()
            elif who in self.engines:
                self.engine_turn(who)
            else:
                self.human(who)
        self.clear()
        self.viewer = None
        self.out(draw.picture(pos, reveal=True))
        self.out("Game over: %s wins after %d actions." % (self.name(pos.winners()[0]),
                                                        pos.ply()))
        return pos.winners()

    def chance(self):
        pos = self.pos
        a = pos.legal_actions()[0]  # the full view holds the card
        self.out("Card shown: %s" % pos.format_action(a)[1:])
        pos.push(a)

    def engine_turn(self, seat):
        pos = self.pos
        a = E.choose(pos, seat, self.samples, self.seed + pos.ply())
        self.out("%s (engine): %s" % (self.name(seat), self.public_text(a)))
        pos.push(a)

    def public_text(self, a):
        """The action as everyone sees it (a laid charge's card hidden)."""
        return self.pos.public().format_action(R.public_action(a))

    def human(self, seat):
        pos = self.pos
        if self.viewer != seat:
            self.hand_over(seat)
            self.show()
        while True:
            text = self.inp("%s> " % self.name(seat)).strip()
            if text == "quit":
                raise Quit()
            if text in ("help", "?"):
                self.out(HELP)
                continue
            if text == "legal":
                self.out(" ".join(pos.format_action(a) for a in pos.legal_actions()))
                continue
            if text == "board":
                self.show()
                continue
            if not text:
                continue
            try:
                a = pos.parse_action(text)
            except R.RulesError as e:
                self.out("not taken: %s" % e)
                continue
            pos.push(a)
            if not pos.is_over() and pos.to_move == seat:
                self.show()
            return

    def record(self):
        """(start position, action texts) of the game so far, in the full view."""
        p = R.Position.parse(self.start)
        texts = []
        for a in self.pos.history():
            texts.append(p.format_action(a))
            p.push(a)
        return self.start, texts
