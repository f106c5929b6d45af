"""The exports: a stored game as files and pictures (docs/export.md).

- `gamefile`: the JSON and text forms of a game (export and import). (A board's game log read
  into a game record is the core's cargoboard.logrecord: sync needs it, and it exports nothing.)
- `diagram`: the shared SVG shell; the pictures themselves are each game's
  (`cargoboard/games/<kind>/draw.py`, found through the host registry cargoboard.games).
- `html`: the self-contained HTML replay; `replay`: the terminal replay; `cli`: the
  `export`, `import` and `replay` commands.
"""
