"""A game as the board's store logs it, for the game-log tests, drivers and bench/log.py: a list
of steps, one a record: bytes (an action, the rules core's encoding), None (a take-back), "f"
(finish), "x" (abandon), ("d", payload) (a doubt record: the log is then of format version 2).
As a text file (for the MicroPython drivers): `a HEX`, `u`, `f`, `x`, `d HEX` (`d -` for an
empty one), one a line. Everything but random_steps runs under the MicroPython unix port too."""

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


def with_doubts(steps, every=11, seed=3):
    """steps with a doubt record after every `every`-th one (payloads of 0..80 seeded bytes,
    every third empty: what the log layer stores is opaque to it). CPython only."""
    import random
    rng = random.Random(seed)
    out = []
    for i, s in enumerate(steps):
        out.append(s)
        if i % every == every - 1 and s not in ("f", "x"):
            n = 0 if (i // every) % 3 == 2 else rng.randrange(4, 81)
            out.append(("d", bytes(rng.randrange(256) for _ in range(n))))
    return out


def needs_version(steps):
    """The log format version a log of steps needs (2 with a doubt record)."""
    for s in steps:
        if isinstance(s, tuple):
            return 2
    return 1


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
        elif isinstance(s, tuple):
            out.append((LW.DOUBT, s[1]))
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
    elif isinstance(s, tuple):
        gl.doubt(s[1])
    else:
        gl.append(s)


def steps_text(steps):
    lines = []
    for s in steps:
        if s is None:
            lines.append("u")
        elif s == "f" or s == "x":
            lines.append(s)
        elif isinstance(s, tuple):
            lines.append("d " + (s[1].hex() or "-"))
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
            elif w[0] == "d":
                steps.append(("d", b"" if w[1] == "-" else bytes.fromhex(w[1])))
            else:
                steps.append(w[0])
    return steps
