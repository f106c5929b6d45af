# The version of each game's rules, in one small module: the rules modules take their
# RULES_VERSION from here, and the board reports all of them (HELLO) without importing the
# rules themselves (Cargocube's alone is ~25 KB of heap).
#
# Bump a game's number whenever a change makes an old game replay differently: other legal
# actions in some position, another order of the notation's fields, another binary action
# encoding. A game log names the version it was played under (docs/log-format.md).

RULES = (
    ("cargocube", 1),
    ("cephalopod", 1),
    ("kubitva", 1),
    ("formula99", 1),
)


def version(game):
    for name, v in RULES:
        if name == game:
            return v
    raise ValueError("no rules version for '%s'" % game)


def text():
    """`cargocube/1,cephalopod/1,kubitva/1`: what HELLO reports and a deploy stamps."""
    return ",".join(["%s/%d" % r for r in RULES])
