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

Layers, one module each: the rules (`rules.py`: Position, RulesError, ...; MicroPython-compatible), the board plug-in
(`plugin.py`, class Game, registered as `--plugin handgame=handgame.plugin`), the host's drawing module (`draw.py`) with
the hooks seat_view/action_view/seat_actions (host only: imports cargoboard inside the
functions).
"""
