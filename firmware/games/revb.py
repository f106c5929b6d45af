# Revision B's plug-in registry: game name -> the module path of a plug-in that also reads the
# steps of the level scanner (linear Hall sensors, docs/board-cargocube.md "Revision B"). Data
# only: the revision-B App (firmware/system/app_revb.py) registers these over REGISTRY's
# entries; a game without a line here plays on revision B from occupancy, as on revision A.

REGISTRY = [
    ["cargocube", "firmware.games.cargocube.plugin_revb"],
]
