# The game plug-in registry: game name -> the module path of its plug-in (a module with a class
# `Game`, docs/firmware.md). Data only: the system imports a plug-in by this name when a game of
# it is set up (load() in firmware/system/plugins.py), never before. A new game adds its folder
# firmware/games/<game>/ (plugin.py, tracker.py) and one line here. The first entry is the
# board's boot game.

REGISTRY = [
    ["cargocube", "firmware.games.cargocube.plugin"],
    ["cephalopod", "firmware.games.cephalopod.plugin"],   # docs/board-cephalopod.md
    ["kubitva", "firmware.games.kubitva.plugin"],         # docs/board-kubitva.md
    ["formula99", "firmware.games.formula99.plugin"],     # docs/board-formula99.md
    ["selftest", "firmware.games.selftest.plugin"],       # bring-up test (docs/bringup.md)
]
