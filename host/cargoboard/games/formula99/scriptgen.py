"""Virtual-board scripts of whole «Формула 99» games (docs/virtual-board.md), for the tests and
the benches: a seeded full-view game is played by the chooser of play.py and every action is
written as what the players do at the board.

- a piece that moves: `lift FROM` / `place TO`; a token that leaves the track (a triggered or
  lifted charge, a blockade's token going home): `take CELL`; a token laid: `drop CELL`; a ship
  going to its start zone goes to a free cell of it;
- a card shown or played: `send card X` (or, with `buttons`, the card picker: `press hint`,
  `press next`…, `press confirm`);
- what the sensors cannot see (end, pass, draws, a blockade, a joker's value, a ram's answer, a
  card's play that moves nothing): `send act TEXT` (`press end` for end and pass);
- after each action `resolve POSITION`: the board must track the truth's public position (if it
  waits for `confirm`, as when a ship lands on a charge's cell and no sensor changes, resolve
  presses it).

With `digital` the board holds the deal (`deal=SEED`, docs/board-formula99.md): a card played
or laid is `send card X` (its holder's page's command) before its pieces move, a card shown
needs nothing (the board knows it), and `resolve` names the full position with the cards it
knows shown (the board shows them at once).
"""

from shared_rules.formula99 import cards as C
from shared_rules.formula99 import rules as R
from shared_rules.formula99 import track as TK
from firmware import hal as H
from firmware.games.formula99 import tracker as T
from firmware.games.formula99.plugin import fitting_cards
from cargoboard.games.formula99.play import known, truth_steps

CONTROL = TK.CONTROL_GRID


class Board:
    """Which grid cells hold a piece, to pick start-zone cells and pair moves."""

    def __init__(self, pos):
        self.cell, self.start, self.finish = TK.grid_tables()
        self.occ = set()
        v = T.expected(pos)
        for i in range(T.N_SENSE):
            for j in range(v[i]):
                self.occ.add(self.cells(i)[j])

    def cells(self, i):
        if i < 72:
            return [self.cell[i]]
        if i < T.FIN:
            k = i - T.ZONE
            return [self.start[2 * k], self.start[2 * k + 1]]
        if i < T.CTRL:
            return [self.finish[i - T.FIN]]
        return [CONTROL]

    def verbs(self, effect):
        """Script verbs for an effect (sparse sense-vector change)."""
        leave, arrive = T.pieces(effect)
        out = []
        gone = []
        for i in leave:
            g = [c for c in self.cells(i) if c in self.occ][0]
            self.occ.discard(g)
            gone.append(g)
        came = []
        for i in arrive:
            g = [c for c in self.cells(i) if c not in self.occ][0]
            self.occ.add(g)
            came.append(g)
        while gone and came:
            out.append("lift " + H.cell_name(gone.pop(0)))
            out.append("place " + H.cell_name(came.pop(0)))
        out += ["take " + H.cell_name(g) for g in gone]
        out += ["drop " + H.cell_name(g) for g in came]
        return out


def plays_of(pos, card):
    return [a for a in pos.legal_actions() if a >> 24 == R.K_PLAY and (a >> 18) & 63 == card]


def card_presses(card, pos):
    """The presses of the card picker (opened) for card in pos."""
    su = C.suit(card)
    su = 4 if su < 0 else su
    ranks = [c for c in fitting_cards(pos) if (C.suit(c) if C.suit(c) >= 0 else 4) == su]
    return ["press next"] * su + ["press confirm"] + \
        ["press next"] * ranks.index(card) + ["press confirm"]


def game_script(seed, players=2, level=1, plies=120, how="random", buttons=False,
                check_every=1, digital=False):
    """(script text, final position) of one seeded game: the public one, or with digital the
    full one."""
    start = R.start_position(players, level)
    lines = ["# «Формула 99», %d players, level %d, seed %d (scriptgen)" % (players, level, seed),
             "new-game formula99 L%d %s%s" % (level, start.SEAT_LETTERS,
                                              " deal=%d" % seed if digital else "")]
    board = Board(start)
    n = 0
    truth = start
    for truth, before, after, pa, text, eff in truth_steps(seed, players, level, how, plies):
        k = pa >> 24
        lines.append("# %d. %s" % (truth.ply(), text))
        if digital:
            a = truth.pop()
            text = truth.format_action(a)
            truth.push(a)
            after = known(truth)
            if k == R.K_PLAY or k == R.K_LAY:
                lines.append("send card " + C.name((a >> 18) & 63 if k == R.K_PLAY else a & 63))
            if k == R.K_LAY:
                k = -1  # its token: below
        if digital and k == R.K_SHOW:
            pass  # the board knows the card: its token and its event below
        elif k in (R.K_SHOW, R.K_PLAY):
            card = (pa & 255) if k == R.K_SHOW else (pa >> 18) & 63
            if k == R.K_SHOW:
                # the charge's token comes off first, the card is entered, then its event
                token = T.Tracker(before).shown_effect()
                if token and token[0] in eff:
                    lines += board.verbs(token)
                    eff = [x for x in eff if x != token[0]]
            if digital:
                pass  # sent above
            elif buttons:
                if k == R.K_PLAY:
                    lines.append("press hint")
                lines += card_presses(card, before)
            else:
                lines.append("send card " + C.name(card))
        if eff:
            lines += board.verbs(eff)
        elif k in (R.K_END, R.K_PASS):
            lines.append("press end")
        elif k == R.K_PLAY and len(plays_of(before, card)) == 1:
            pass  # the card's only play: entering the card took it
        elif k != R.K_SHOW:
            lines.append("send act " + text)
        n += 1
        if n % check_every == 0 or truth.is_over():
            lines.append("resolve " + after.notation())
    final = known(truth) if digital else truth.public()
    lines.append("expect " + final.notation())
    return "\n".join(lines) + "\n", final.notation()


# The games the emulated Pico plays (tests/test_pico_games.py): name -> () -> (script, final).
PICO_CASES = {"3-players-level-2": lambda: game_script(5, players=3, level=2, plies=30)}
