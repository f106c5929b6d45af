"""What a page shows of a followed board: the board's snapshot (cargoboard.web.boards) turned
into what one audience may see. The position is the one the board reported, drawn by the same
code as the SVG export (cargoboard.export.diagram); hidden information goes through the game's
seat_view/action_view hooks, so a seat's view holds its own hidden things and nobody else's,
and the table's view (seat None) holds nobody's."""

from __future__ import annotations

import logging
import re

from cargoboard.export import diagram
from cargoboard.rules import rules_errors, rules_for, seat_letters

log = logging.getLogger("cargoboard.web")


def _parse(kind, text):
    rules = rules_for(kind)
    return rules.Position.parse(text)


MISMATCH_RED = "#d00000"
# a place's square in a drawing: a cell, or «Формула 99»'s start zones, finish cells and
# control room (by data-cell: s3, f3, control)
_CELL_RECT = re.compile(r'<rect [^>]*data-kind="(?:cell|zone|finish|control)"[^>]*>')
_ATTR = re.compile(r'([a-z-]+)="([^"]*)"')


def mismatch_text(cells):
    """The cells the board asks to put right, in words (the drawing marks them red; not
    everybody sees red)."""
    if not cells:
        return ""
    return "No legal move explains the board: put %s %s right (blinking on the board, marked " \
           "red in the drawing); nothing is lost." % (
               "cell" if len(cells) == 1 else "cells", ", ".join(cells))


def mark_cells(svg, cells):
    """The drawing with the given cells marked red, as the board's LEDs blink them: a layer
    `<g id="cb-mismatch">` on top of the pieces, a red frame and a light red wash over each
    cell's square (the drawing's place rects, by their `data-cell` name)."""
    want = set(cells)
    marks = []
    for m in _CELL_RECT.finditer(svg):
        a = dict(_ATTR.findall(m.group(0)))
        if a.get("data-cell") in want:
            marks.append('<rect x="%s" y="%s" width="%s" height="%s" fill="%s" '
                         'fill-opacity=".3" stroke="%s" stroke-width="5" data-kind="mismatch" '
                         'data-cell="%s"/>' % (a.get("x"), a.get("y"), a.get("width"),
                                               a.get("height"), MISMATCH_RED, MISMATCH_RED,
                                               a["data-cell"]))
    if not marks:
        return svg
    end = svg.rindex("</svg>")
    return svg[:end] + '<g id="cb-mismatch">' + "".join(marks) + "</g>" + svg[end:]


def board_view(snap, seat=None):
    """A JSON-ready dict of snap as seat (None: the table) may see it."""
    kind = snap.get("game")
    view = {k: snap[k] for k in ("key", "port", "connected", "status", "board", "fw", "app",
                                 "game", "tracker", "shown", "notice", "time")}
    view.update(seat=seat, position=None, svg=None, phase=None, scores=[], to_move=None,
                seats=[], private=[], actions=[], over=False, moves=[], candidates=[],
                last=None, drawing_error=None, mismatch=[], mismatch_text="")
    if snap.get("tracker") == "mismatch":
        view["mismatch"] = list(snap.get("mismatch") or [])
        view["mismatch_text"] = mismatch_text(view["mismatch"])
    text = snap.get("position")
    if not kind or text is None:
        return view
    try:
        shown, private = diagram.seat_view(kind, text, seat)
        view["moves"] = [diagram.action_view(kind, a, seat) for a in snap["moves"]]
        view["candidates"] = [diagram.action_view(kind, a, seat) for a in snap["candidates"]]
        last = snap.get("last")
        view["last"] = diagram.action_view(kind, last, seat) if last else None
    except diagram.NoDiagram:
        # a game the host cannot draw (a test plug-in): its position is shown as the board
        # wrote it, since nothing can say what in it is hidden only for games without hooks
        view.update(position=text, moves=list(snap["moves"]),
                    candidates=list(snap["candidates"]), last=snap.get("last"),
                    drawing_error="no drawing for game '%s'" % kind)
        return view
    view["position"] = shown
    view["private"] = list(private)
    view["actions"] = [list(a) for a in diagram.seat_actions(kind, text, seat)]
    try:
        pos = _parse(kind, shown)
        draw = diagram.for_kind(kind)
        before = None
        if snap.get("before") and view["last"]:
            before = _parse(kind, diagram.seat_view(kind, snap["before"], seat)[0])
        ply = len(snap["moves"])
        letters = seat_letters(pos)
        mover = letters[before.to_move] if before is not None else None
        view["svg"] = draw.svg(pos, before, view["last"] if before is not None else None,
                               ply=ply, total=ply, title="%s, board %s, after %d action%s" % (
                                   diagram.title(kind), snap.get("board") or snap["port"], ply,
                                   "" if ply == 1 else "s"))
        if view["mismatch"]:
            view["svg"] = mark_cells(view["svg"], view["mismatch"])
        view["phase"] = draw.phase_text(pos)
        sc = pos.scores()
        view["scores"] = [[letters[s], sc[s]] for s in pos.seats]
        view["seats"] = [letters[s] for s in pos.seats]
        view["over"] = pos.is_over()
        view["to_move"] = None if pos.is_over() else letters[pos.to_move]
        view["mover"] = mover
    except Exception as e:
        # the rules' error: the board's text does not parse here. Anything else is a bug of
        # ours: the page says it all the same (the board's state still shows), and the console
        # gets its traceback (it went nowhere)
        if not isinstance(e, rules_errors()):
            log.exception("drawing table %s's position (%s)", snap.get("key"), kind)
        view["drawing_error"] = "cannot draw the board's position: %s" % (
            str(e).splitlines() or [type(e).__name__])[0]
    return view
