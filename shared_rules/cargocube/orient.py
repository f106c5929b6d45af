# The 24 orientations of a cargo cube and how rolling changes them.
#
# Faces: B (back), O (blank) and the pip faces 1..4; opposite pairs B-O, 1-3, 2-4. With B on top
# the pips run 1, 2, 3, 4 clockwise seen from above. An orientation is named by the face on top and
# the face toward the south: the start orientation is "B1" (B up, 1 south, 2 west, 3 north, 4 east).
# Orientations are small ints 0..23 (by name, sorted: name(o)) so that a stack of cubes
# is a list of small ints and a roll is one table look-up.

FACE_CHARS = "B1234O"  # face ids 0..5
PIPS = (0, 1, 2, 3, 4, 0)  # pips per face id: B and O count nothing
FACE_B = 0
FACE_O = 5

# A full orientation as a 6-tuple of face ids: (up, down, north, east, south, west).
_UP = 0
_DOWN = 1
_SIDE = (2, 3, 4, 5)  # by direction N, E, S, W


def _roll_faces(f, d):
    # The face toward d goes down, the face up now faces d, the face down now faces away from d,
    # the face away from d comes up; the two perpendicular faces stay.
    g = list(f)
    toward = _SIDE[d]
    away = _SIDE[(d + 2) % 4]
    g[_DOWN] = f[toward]
    g[toward] = f[_UP]
    g[away] = f[_DOWN]
    g[_UP] = f[away]
    return tuple(g)


_START_FACES = (0, 5, 3, 4, 1, 2)  # B up, O down, 3 north, 4 east, 1 south, 2 west


def _all_faces():
    seen = [_START_FACES]
    i = 0
    while i < len(seen):
        for d in range(4):
            g = _roll_faces(seen[i], d)
            if g not in seen:
                seen.append(g)
        i += 1
    return seen


def _name(f):
    return FACE_CHARS[f[_UP]] + FACE_CHARS[f[4]]


_faces = _all_faces()
_faces.sort(key=_name)
# FACES[o * 6 + k]: face id k (up, down, north, east, south, west) of orientation o; one flat
# table (24 little tuples would cost the board ~1.5 KB of heap). faces(o) spells them.
FACES = bytes(x for f in _faces for x in f)
# NAME_CHARS[2 * o:2 * o + 2]: the name of orientation o (one string, not 24: name(o)).
NAME_CHARS = "".join([_name(f) for f in _faces])
COUNT = len(_faces)  # 24

# TOP[o]: face id on top; DOWN[o]: face id underneath; VALUE[o]: pips on top (0 for B and O).
TOP = bytes(f[_UP] for f in _faces)
DOWN = bytes(f[_DOWN] for f in _faces)
VALUE = bytes(PIPS[f[_UP]] for f in _faces)

# ROLL[o * 4 + d]: the orientation after rolling toward direction d (N, E, S, W).
ROLL = bytes(_faces.index(_roll_faces(f, d)) for f in _faces for d in range(4))

del _faces


def name(o):
    """The two-character name of orientation o, such as 'B1'."""
    return NAME_CHARS[2 * o:2 * o + 2]


def parse(text):
    """Orientation id of a two-character name such as 'B1'; -1 if no such orientation."""
    if len(text) == 2:
        i = NAME_CHARS.find(text)
        while i >= 0:
            if not i & 1:  # a name starts at an even place; an odd match spans two names
                return i >> 1
            i = NAME_CHARS.find(text, i + 1)
    return -1


START = parse("B1")


def faces(o):
    """(up, down, north, east, south, west) as face characters, for display and tests."""
    return "".join(FACE_CHARS[FACES[o * 6 + k]] for k in range(6))
