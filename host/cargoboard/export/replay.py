"""`cargoboard replay`: step through a stored game in the terminal.

Each step shows the board as text (the drawing module's text_board), the action that led to it
and the scores. Interactive (stdin a terminal): Enter or n next, p back, a number jumps to that
step, f first, l last, q quits. Otherwise (--all, or stdin not a terminal) every step is printed
once, top to bottom.
"""

import textwrap

from cargoboard.clikit import shown as quoted, terminal_text
from cargoboard.export import diagram
from cargoboard.store import score_text
from cargoboard.rules import mover as mover_of

HELP = "keys: Enter/n next, p back, NUMBER go to that step, f first, l last, q quit"


def frame(rec, positions, n, draw=None, color=False):
    """The text of step n (0 = the start) of a game."""
    pos = positions[n]
    total = len(rec.actions)
    if n:
        before = positions[n - 1]
        mover = mover_of(before)
        head = "step %d of %d: %s played %s" % (n, total, mover, rec.actions[n - 1])
    else:
        head = "step 0 of %d: the start" % total
    if draw is None:
        body = "scores %s" % score_text(pos)   # the notation follows
    else:
        body = draw.text_board(pos, color=color)
    return "%s\n%s\n%s\n" % (head, body, pos.notation())


def run(rec, out, inp=None, interactive=False, color=False, start=0, clear=False,
        positions=None):
    """Show the game on out. Non-interactive: every step from start on. Interactive: read
    commands from inp, one per line, until q or the end of the input. positions: rec's
    (rec.positions()), when the caller has worked them out already (`cargoboard replay`, to
    check --from): a long game's replay through the rules is not done twice."""
    from cargoboard.export.gamefile import shown
    rec, positions, _ = shown(rec, positions)  # a game that hides cards shows them at its end
    try:
        draw = diagram.for_kind(rec.kind)
    except diagram.NoDiagram:
        draw = None  # no board picture for this kind: the notation and the scores still show
    last = len(positions) - 1
    if not 0 <= start <= last:
        raise ValueError("game %s has %d actions: the step must be 0..%d"
                         % (rec.id, last, last))
    title = "game %s: %s %s %s, %d actions%s" % (rec.id, rec.kind, terminal_text(rec.variant),
                                                 terminal_text(rec.seats), last,
                                                 ", abandoned" if rec.abandoned else "")
    legend = getattr(draw, "TEXT_LEGEND", None)
    if legend:
        title += "\n" + textwrap.fill(legend, 78)
    if not interactive:
        out.write(title + "\n")
        for n in range(start, last + 1):
            out.write("\n" + frame(rec, positions, n, draw, color))
        return 0
    n = start
    note = HELP
    while True:
        if clear:
            out.write("\x1b[2J\x1b[H")
        out.write("%s\n\n%s%s\n> " % (title, frame(rec, positions, n, draw, color), note))
        out.flush()
        line = inp.readline()
        if not line:
            out.write("\n")
            return 0
        cmd = line.strip().lower()
        note = HELP
        if cmd in ("", "n", "next", "+"):
            if n < last:
                n += 1
            else:
                note = "that was the last step (p back, q quit)"
        elif cmd in ("p", "b", "back", "prev", "-"):
            if n > 0:
                n -= 1
            else:
                note = "this is the start (Enter forward, q quit)"
        elif cmd in ("f", "first"):
            n = 0
        elif cmd in ("l", "last"):
            n = last
        elif cmd in ("q", "quit", "exit"):
            return 0
        elif cmd.isdecimal():
            # (compared as digits: int() refuses more than 4300 of them, which ended the
            # replay with an error, and a long line is quoted cut short: clikit.shown)
            digits = cmd.lstrip("0") or "0"
            if len(digits) <= len(str(last)) and int(digits) <= last:
                n = int(digits)
            else:
                note = "no step %s: the game has steps 0..%d" % (quoted(cmd), last)
        else:
            note = "unknown key %r; %s" % (quoted(cmd), HELP)
