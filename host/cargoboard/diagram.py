"""Which module draws which game kind (the pictures' side of cargoboard.rules).

A drawing module has: `svg(pos, before=None, action_text=None, ply=None, total=None, title=None)`
(a standalone SVG document whose layers are `<g id="cb-board">`, `<g id="cb-pieces">`,
`<g id="cb-overlay">`, the scores `<text id="cb-score-SEAT">` and `<text id="cb-caption">`),
`pieces(pos)` ({key: SVG fragment}, joined in key order they make the pieces layer),
`overlay(before, action_text)`, `caption(pos, ply, total, action_text, mover)` and
`text_board(pos, color=False)` for the terminal. The SVG helpers and the caption's wording
below are shared by the drawing modules.
"""

import importlib
from xml.sax.saxutils import escape

MODULES = {
    "cargocube": "cargoboard.draw_cargocube",
    "cephalopod": "cargoboard.draw_cephalopod",
}


class NoDiagram(ValueError):
    pass


def for_kind(kind):
    """The drawing module of a game kind; NoDiagram (a ValueError) if there is none yet."""
    name = MODULES.get(kind)
    if name is None:
        raise NoDiagram("no diagram for game kind '%s' yet (diagrams exist for: %s)"
                        % (kind, ", ".join(sorted(MODULES))))
    return importlib.import_module(name)


# -- shared by the drawing modules ---------------------------------------------------------------

def attr(value):
    return '"%s"' % escape(str(value), {'"': "&quot;"})


def tag(name, attrs, body=None):
    a = "".join(" %s=%s" % (k, attr(v)) for k, v in attrs)
    if body is None:
        return "<%s%s/>" % (name, a)
    return "<%s%s>%s</%s>" % (name, a, body, name)


def num(v):
    return ("%.1f" % v).rstrip("0").rstrip(".")


def text(x, y, cls, body, extra=()):
    return tag("text", [("x", num(x)), ("y", num(y)), ("class", cls)] + list(extra), escape(body))


def caption_line(phase, ply, total, action_text=None, mover=None):
    """The line under a diagram: where in the game, the last action, then phase (whose turn,
    in the game's own words)."""
    parts = ["ply %d of %d" % (ply, total)]
    if action_text:
        parts.append("%s played %s" % (mover, action_text) if mover else action_text)
    parts.append(phase)
    return " \u00b7 ".join(parts)
