"""`cargoboard play kubitva`: КУБитва for two people at one computer, in the terminal.

The board is drawn after every input line (cargoboard.games.kubitva.draw.text_board, in colour on
a terminal); the player to move types actions in the notation of docs/rules/kubitva.md, several
on one line if they like (`c4n c5n c6e`), or a command:

    legal        the legal actions          hint     the engine's choice
    undo         take back the last action (and the engine's replies before it)
    board        draw the board again       help     this list
    quit         stop (the game is saved first if --save was given)

`--engine S|N|SN` lets the engine (shared_rules/kubitva/engine.py) play that side (both: a whole
game without input). `--save FILE` writes the game, when it ends or on quit, as a game file of
docs/export.md, JSON for a name ending in .json, the text record for .txt (any other name is
refused before the game: `cargoboard import FILE` tells the form by the suffix and stores it);
the file must not exist yet.
A mistyped or illegal action is one line saying why; nothing of its line is played then.
Ctrl-C or end of input ends the session as `quit` does.
"""

import os
import sys

from shared_rules.kubitva import engine
from shared_rules.kubitva import rules as kb
from cargoboard.games.kubitva import draw
from cargoboard.store import played_now

HELP = "\n\n".join(__doc__.split("\n\n")[1:3]).strip("\n")  # the input and the commands
COMMANDS = ("legal", "hint", "undo", "board", "help", "quit")


class Session:
    """One game at the terminal: the position, who the engine plays, where output goes."""

    def __init__(self, pos, variant, engine_sides="", out=None, color=False, save=None):
        self.pos = pos
        self.start = pos.notation()
        self.played = played_now()  # when it began: the record's `played`
        self.variant = variant
        self.engine_sides = [kb.SEAT_LETTERS.index(s) for s in engine_sides]
        self.out = out or sys.stdout
        self.color = color
        self.save = save
        self.finished = False  # finish() has run

    def write(self, text=""):
        self.out.write(text + "\n")

    def board(self):
        self.write(draw.text_board(self.pos, self.color))

    def engine_turns(self):
        """Let the engine play while it is to move; one line per engine turn."""
        pos = self.pos
        played = []
        while not pos.is_over() and pos.to_move in self.engine_sides:
            side = kb.SEAT_LETTERS[pos.to_move]
            a = engine.best_action(pos)
            played.append(pos.format_action(a))
            pos.push(a)
            if a == kb.END or pos.is_over():
                self.write("%s (engine) plays %s" % (side, " ".join(played)))
                played = []
        return pos.is_over()

    def command(self, line):
        """Run one input line; returns False when the session should stop."""
        pos = self.pos
        words = line.split()
        if not words:
            return True
        word = words[0].lower()
        if word in ("quit", "exit", "q"):
            return False
        if word == "help":
            self.write(HELP)
            return True
        if word == "board":
            self.board()
            return True
        if word == "legal":
            self.write(" ".join(pos.format_action(a) for a in pos.legal_actions()) or "-")
            return True
        if word == "hint":
            a = engine.best_action(pos)
            self.write("hint: " + (pos.format_action(a) if a is not None else "-"))
            return True
        if word == "undo":
            self.undo()
            self.board()
            return True
        done = 0
        for text in words:
            try:
                if pos.is_over():
                    raise kb.RulesError("the game is over before %s" % text)
                pos.push(pos.parse_action(text))
                done += 1
            except kb.RulesError as e:
                for _ in range(done):  # the line is played whole or not at all
                    pos.pop()
                self.write("not played: %s%s" % (e, " (nor the rest of the line)"
                                                  if len(words) > 1 else ""))
                return True
        if not pos.is_over() and pos.to_move in self.engine_sides:
            self.engine_turns()
        self.board()
        return True

    def undo(self):
        """Take back the last action, and the engine's actions before it back to a human's."""
        pos = self.pos
        if not pos.ply():
            self.write("nothing to take back")
            return
        pos.pop()
        while pos.ply() and pos.to_move in self.engine_sides:
            pos.pop()

    def record(self):
        from cargoboard.store import GameRecord
        return GameRecord("kubitva", self.variant, "SN", self.start,
                          [self.pos.format_action(a) for a in self.pos.history()],
                          source="play", played=self.played)

    def finish(self):
        """Say the result and save the game (once: a Ctrl-C while it runs does not do it
        again)."""
        if self.finished:
            return
        self.finished = True
        pos = self.pos
        if pos.is_over():
            sc = pos.scores()
            self.write("%s (land S=%d N=%d)" % (draw.phase_text(pos), sc[0], sc[1]))
        if self.save:
            from cargoboard.export.gamefile import save_game
            save_game(self.record(), self.save)
            self.write("saved %d actions to %s" % (pos.ply(), self.save))

    def run(self, lines):
        """Play reading input lines from the iterable `lines` (stdin); returns 0."""
        self.board()
        if self.engine_turns():
            self.board()
        for line in self._prompted(lines):
            if not self.command(line):
                break
            if self.pos.is_over():
                break
        self.finish()
        return 0

    def _prompted(self, lines):
        it = iter(lines)
        while not self.pos.is_over():
            self.out.write("%s> " % kb.SEAT_LETTERS[self.pos.to_move])
            self.out.flush()
            try:
                line = next(it)
            except StopIteration:
                self.write("")
                return
            yield line


def main(args):
    """`cargoboard play kubitva` with parsed args (map, position, engine, save, no_color)."""
    from cargoboard.clikit import UsageError
    from cargoboard.export.gamefile import check_save_file
    sides = (args.engine or "").upper()
    if any(s not in kb.SEAT_LETTERS for s in sides) or len(set(sides)) != len(sides):
        raise UsageError("--engine takes S, N or SN, not %r" % args.engine)
    if args.save:
        check_save_file(args.save)
    if args.position:
        pos = kb.Position.parse(args.position)
        variant = "position"
    else:
        pos = kb.named_position(args.map)
        if pos is None:
            raise UsageError("no КУБитва map %r (maps: %s)" % (
                args.map, ", ".join(name for name, _ in kb.MAPS)))
        variant = args.map
    # colour on a terminal unless --no-color or NO_COLOR (no-color.org), as `replay` does
    color = not args.no_color and sys.stdout.isatty() and os.environ.get("NO_COLOR") is None
    session = Session(pos, variant, sides, sys.stdout, color, args.save)
    try:
        return session.run(sys.stdin)
    except KeyboardInterrupt:  # Ctrl-C: the game is saved as on quit, then exit 130
        session.write("")
        session.finish()
        return 130
