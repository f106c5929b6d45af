"""Which module draws which game kind (the pictures' side of cargoboard.rules).

A drawing module has: `svg(pos, before=None, action_text=None, ply=None, total=None, title=None)`
(a standalone SVG document whose layers are `<g id="cb-board">`, `<g id="cb-pieces">`,
`<g id="cb-overlay">`, the scores `<text id="cb-score-SEAT">` and `<text id="cb-caption">`),
`pieces(pos)` ({key: SVG fragment}, joined in key order they make the pieces layer),
`overlay(before, action_text)`, `caption(pos, ply, total, action_text, mover)` and
`text_board(pos, color=False)` for the terminal.
"""

import importlib

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
