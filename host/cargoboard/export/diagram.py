"""The pictures' framework: it asks each game for its drawing module, the game's `draw` part
(`cargoboard/games/<kind>/draw.py`, found through the host registry cargoboard.games).

A drawing module has: `svg(pos, before=None, action_text=None, ply=None, total=None, title=None,
action=None, drawn=None)` (a standalone SVG document whose layers are `<g id="cb-board">`, `<g
id="cb-pieces">`, `<g id="cb-overlay">`, the scores `<text id="cb-score-SEAT">` and `<text
id="cb-caption">`; action: the rules' action of action_text when the caller has it parsed,
as a replay of a whole game has, GameRecord.replay; drawn: pieces(pos) when the caller drew
them already, as the HTML replay has for its frames), `pieces(pos)` ({key: SVG fragment},
joined in key order they make the pieces layer), `overlay(before, action_text, action=None)`,
`caption(pos, ply, total, action_text, mover)`,
`phase_text(pos)` (whose turn and what is left of it, or the result) and
`text_board(pos, color=False)` for the terminal.

Hidden information (hands): a game whose positions hold what not every seat may see has
`seat_view(text, seat)` in its drawing module: the position (notation) as seat (a seat letter,
None for everybody: the table's page, spectators) may see it, with what others hold hidden
(it must still parse and draw), and the seat's own hidden things as lines of text; and
`action_view(text, seat)`: an action as that seat may see it; and `seat_actions(text, seat)`:
what the seat may do from its own page (play a card: the board command it sends).
`cargoboard serve` shows every position, action and candidate through them (see seat_view()
below); games without them are public.

The SVG helpers below (attributes, tags, numbers, a grid cell's pixels, the caption line and the
document around the layers) are shared by the drawing modules, so every kind's SVG has the same
shell.
"""

from xml.sax.saxutils import escape, unescape

from cargoboard import games
from cargoboard.clikit import InputError


class NoDiagram(InputError):
    """A game kind with no drawing (yet): a ValueError, one line on the command line."""


def for_kind(kind):
    """The drawing module of a game kind; NoDiagram (a ValueError) if there is none yet."""
    draw = games.part(kind, "draw")
    if draw is None:
        have = [k for k in games.kinds() if games.has_part(k, "draw")]
        raise NoDiagram("no diagram for game kind '%s' yet (diagrams exist for: %s)"
                        % (kind, ", ".join(sorted(have))))
    return draw


def title(kind):
    """The game's name for titles («Формула 99», not formula99): its drawing module's TITLE."""
    try:
        return getattr(for_kind(kind), "TITLE", kind.capitalize())
    except NoDiagram:
        return kind.capitalize()


def seat_view(kind, text, seat=None):
    """(the position text that seat may see, [the seat's own hidden things]); every game
    without hidden information shows everything to everybody."""
    hook = getattr(for_kind(kind), "seat_view", None)
    return hook(text, seat) if hook else (text, [])


def action_view(kind, text, seat=None):
    hook = getattr(for_kind(kind), "action_view", None)
    return hook(text, seat) if hook else text


def seat_actions(kind, text, seat):
    """What seat may do from its own page now: [(label, board command)], e.g. play a card of
    its hand. A game with hidden hands has `seat_actions(text, seat)` in its drawing module;
    the web page sends only a command this list holds, for that seat, with its token."""
    hook = getattr(for_kind(kind), "seat_actions", None)
    return [tuple(a) for a in hook(text, seat)] if hook and seat else []


def has_hidden(kind):
    """Whether a game kind hides something from some seats (then its pages need seat links)."""
    try:
        return hasattr(for_kind(kind), "seat_view")
    except NoDiagram:
        return False


# -- shared by the drawing modules -------------------------------------------------------------

def svg_attr(value):
    """An attribute value, quoted and escaped."""
    return '"%s"' % escape(str(value), {'"': "&quot;"})


def svg_tag(name, attrs, body=None):
    a = "".join(" %s=%s" % (k, svg_attr(v)) for k, v in attrs)
    if body is None:
        return "<%s%s/>" % (name, a)
    return "<%s%s>%s</%s>" % (name, a, body, name)


def svg_num(v):
    """A coordinate with at most one decimal, no trailing zeros."""
    return ("%.1f" % v).rstrip("0").rstrip(".")


def svg_text(x, y, cls, body, extra=()):
    return svg_tag("text", [("x", svg_num(x)), ("y", svg_num(y)), ("class", cls)] + list(extra),
                   escape(body))


def cell_origin(c, cols, rows, cell, margin):
    """Top-left pixel of grid cell c (numbered from a1, row by row) on a board of cols x rows
    cells of `cell` px, drawn `margin` px in from the picture's top-left, row 1 at the bottom
    (north up)."""
    return margin + (c % cols) * cell, margin + (rows - 1 - c // cols) * cell


def cell_centre(c, cols, rows, cell, margin):
    """Centre pixel of grid cell c (as cell_origin)."""
    x, y = cell_origin(c, cols, rows, cell, margin)
    return x + cell / 2, y + cell / 2


def two_side_scores(pos, cell, margin, letters, fills, dx=0):
    """The two sides' scores under a board of pos.cols x pos.rows cells (Cephalopod's, КУБитва's):
    [(x, y, its SVG text)] for side 0 then 1, x the middle of the board's left or right half
    (the score drawn dx from it), y the line under the board."""
    scores = pos.scores()
    width = pos.cols * cell
    y = margin + pos.rows * cell + margin + 12
    out = []
    for s in (0, 1):
        letter = letters[s]
        x = margin + width / 4 + s * width / 2
        out.append((x, y, svg_text(x + dx, y, "sc", "%s %d" % (letter, scores[s]), [
            ("fill", fills[s]), ("data-kind", "score"), ("data-seat", letter),
            ("data-score", scores[s]), ("id", "cb-score-" + letter)])))
    return out


def caption_line(phase, ply, total, action_text=None, mover=None):
    """The caption under a diagram: where in the game, the last action, then `phase` (whose
    turn, or the result)."""
    parts = ["ply %d of %d" % (ply, total)]
    if action_text:
        parts.append("%s played %s" % (mover, action_text) if mover else action_text)
    parts.append(phase)
    return " \u00b7 ".join(parts)


ABANDONED = "game abandoned"  # the note on the last position of a game dropped before its end


def with_caption_note(doc, note):
    """An SVG document made by svg_document with note added to the end of its caption line
    (the last position of an abandoned game says so)."""
    head, sep, rest = doc.partition('data-kind="caption">')
    text, end, tail = rest.partition("</text>")
    if not sep or not end:
        return doc
    return head + sep + text + escape(" \u00b7 " + note) + end + tail


def svg_document(pos, width, height, title, style, board, pieces, overlay, scores, caption,
                 defs=""):
    """The standalone SVG document of a position: the layers in their order (board, the pieces
    dict joined in key order, overlay, scores) and the caption line at the bottom."""
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" class="cb" width="%d" height="%d" '
        'viewBox="0 0 %d %d" data-position=%s>' % (width, height, width, height,
                                                     svg_attr(pos.notation())),
        "<title>%s</title>" % escape(title),
        "<style>%s</style>" % style,
    ]
    if defs:
        parts.append(defs)
    parts += [
        '<rect width="%d" height="%d" fill="#fff"/>' % (width, height),
        '<g id="cb-board">%s</g>' % board,
        '<g id="cb-pieces">%s</g>' % "".join(f for _, f in sorted(pieces.items())),
        '<g id="cb-overlay">%s</g>' % overlay,
        '<g id="cb-scores">%s</g>' % scores,
        svg_text(width / 2, height - 14, "cap", caption, [("id", "cb-caption"),
                                                           ("data-kind", "caption")]),
        "</svg>",
    ]
    return "\n".join(parts) + "\n"


def step_svg(draw, positions, actions, n, title=None, abandoned=False, parsed=None,
             drawn=None):
    """The SVG document of step n of a game (the position after n actions, the action that led
    to it marked): `export --format svg --at N` and every step of the HTML replay. abandoned:
    the game was dropped before its end; its last step says so. parsed: the rules' actions of
    the texts `actions` (GameRecord.replay), so that the drawing need not parse the action
    again; None: it does. drawn: draw.pieces(positions[n]), if the caller drew them already
    (the HTML replay, for its frames), so that they are not drawn again."""
    last = len(positions) - 1
    extra = {"action": parsed[n - 1]} if parsed is not None and n else {}
    if drawn is not None:
        extra["drawn"] = drawn
    doc = draw.svg(positions[n], positions[n - 1] if n else None, actions[n - 1] if n else None,
                   ply=n, total=last, title=title, **extra)
    return with_caption_note(doc, ABANDONED) if abandoned and n == last else doc


LAYERS = ("board", "pieces", "overlay", "scores")


def document_layers(doc):
    """{"board", "pieces", "overlay", "scores": the layer's inner SVG, "caption": the caption's
    text, "position": the position's notation (its data-position)} of a document svg_document
    wrote: what the HTML replay puts into its page at each step, so that it shows what the SVG
    export shows. Every text in a layer is escaped, so the layers' opening tags, each at the
    start of a line, split the document unambiguously."""
    out = {}
    head, sep, rest = doc.partition(" data-position=\"")
    value, end, _ = rest.partition('"')
    if not sep or not end or "\n" in head:
        raise ValueError("not an SVG document of diagram.svg_document (no data-position)")
    out["position"] = unescape(value, {"&quot;": '"'})  # as svg_attr escaped it
    ends = ['</g>\n<g id="cb-%s">' % name for name in LAYERS[1:]] + ["</g>\n<text "]
    at = doc.find('\n<g id="cb-board">')
    for name, end in zip(LAYERS, ends):
        start = doc.find('<g id="cb-%s">' % name, at)
        stop = doc.find(end, start)
        if at < 0 or start < 0 or stop < 0:
            raise ValueError("not an SVG document of diagram.svg_document (no %s layer)" % name)
        out[name] = doc[start + len('<g id="cb-%s">' % name):stop]
        at = stop
    head, sep, rest = doc[at:].partition('data-kind="caption">')
    text, end, _ = rest.partition("</text>")
    if not sep or not end:
        raise ValueError("not an SVG document of diagram.svg_document (no caption)")
    out["caption"] = unescape(text)
    return out
