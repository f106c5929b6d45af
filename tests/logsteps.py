"""A game as the board's store logs it, for the game-log tests, drivers and bench/log.py: a list
of steps, one a record: bytes (an action, the rules core's encoding), None (a take-back), "f"
(finish), "x" (abandon). As a text file (for the MicroPython drivers): `a HEX`, `u`, `f`, `x`,
one a line. Everything but random_steps runs under the MicroPython unix port too."""

from firmware.system import logwrite as LW


def random_steps(seed=1, n=1 << 30, players=2, cards=True, undo_rate=0.06):
    """A seeded random Cargocube game: random legal actions until the game is over or there are
    n steps, a take-back instead now and then (at undo_rate). (steps, the position at the end).
    CPython only (random.Random)."""
    import random
    from shared_rules.cargocube import rules as cc
    rng = random.Random(seed)
    pos = cc.start_position(players, cards=cards)
    steps = []
    while len(steps) < n and not pos.is_over():
        if pos.ply() and rng.random() < undo_rate:
            pos.pop()
            steps.append(None)
            continue
        a = rng.choice(pos.legal_actions())
        pos.push(a)
        steps.append(cc.encode_action(a))
    return steps, pos


def as_records(steps):
    """The (kind, payload) list logformat.parse() gives for a log of steps."""
    out = []
    for s in steps:
        if s is None:
            out.append((LW.UNDO, b""))
        elif s == "f":
            out.append((LW.FINISH, b""))
        elif s == "x":
            out.append((LW.ABANDON, b""))
        else:
            out.append((LW.ACTION, s))
    return out


def log_step(gl, s):
    """Log one step with a firmware.system.gamelog.GameLog."""
    if s is None:
        gl.undo()
    elif s == "f":
        gl.finish()
    elif s == "x":
        gl.close()
    else:
        gl.append(s)


def steps_text(steps):
    lines = []
    for s in steps:
        if s is None:
            lines.append("u")
        elif s == "f" or s == "x":
            lines.append(s)
        else:
            lines.append("a " + s.hex())
    return "\n".join(lines) + "\n"


def read_steps(path):
    steps = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "a":
                steps.append(bytes.fromhex(w[1]))
            elif w[0] == "u":
                steps.append(None)
            else:
                steps.append(w[0])
    return steps
