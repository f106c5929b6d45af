"""«Формула 99»'s part in the device build (cargoboard.build, which gathers every game's
FOLDED_CONSTANTS through the game registry): its constant modules, whose integers the build
writes as values into the modules that use them (see cargoboard.build.fold_constants).

{constant module: the modules that star-import it}: a module here loses its module-level
integers on the board (none of them may be changed at run time: they are constants by this
list). The build cache's name hashes this file, so a change here rebuilds.
"""

FOLDED_CONSTANTS = {"shared_rules.formula99.const": ("shared_rules.formula99.rules",),
                    "shared_rules.formula99.track": (),
                    "shared_rules.formula99.cards": (),
                    "firmware.games.formula99.tracker": ()}
