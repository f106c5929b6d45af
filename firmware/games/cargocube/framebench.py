# What the frame-time benchmark (firmware/bench_frame.py) needs of Cargocube: a busy mid-game
# position to start from and the cells whose lift starts a legal action. Loaded only by the
# benchmark (on the board: `mpremote run firmware/bench_frame.py cargocube`).

import gc

from shared_rules.cargocube import rules as cc

MID_SEED = 6
MID_ACTIONS = 40
BOOST_FIRST = 20
SEATS = {2: "SN", 3: "SWN", 4: "SWNE", 8: "12345678"}


def mid_game_notation(cards=True, teleport=False, players=4):
    """The busy mid-game position: from cc.start_position(players, cards, teleport), MID_ACTIONS
    actions picked by a tiny LCG (seed MID_SEED) from legal_actions(), booster uses preferred
    for the first BOOST_FIRST actions so that cards lie on the board, and on until the next
    turn's activation is due (every cube the mover may activate can be lifted); as notation."""
    pos = cc.start_position(players, cards=cards, teleport=teleport)
    x = MID_SEED
    i = 0
    while i < MID_ACTIONS or pos.actions_left:
        if pos.is_over():
            break
        legal = pos.legal_actions()
        if i < BOOST_FIRST:
            boosts = [a for a in legal if a[0] == cc.BOOST]
            if boosts:
                legal = boosts
            boosts = None
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        a = legal[(x >> 8) % len(legal)]
        legal = None
        gc.collect()
        pos.push(a)
        i += 1
    return pos.notation()


def options(words):
    """The new-game options of the bench game from `key=value` words, as serial `new` takes
    them: players=2|3|4|8 (default 4), cards=none|base|pyramid|bastion|both (default base),
    teleport=0|1; the game starts from the mid-game position of that start."""
    players, cards, teleport = 4, True, False
    for w in words:
        k, _, v = w.partition("=")
        if k == "players" and v in ("2", "3", "4", "8"):
            players = int(v)
        elif k == "cards" and v in ("base", "pyramid", "bastion", "both", "none"):
            cards = True if v == "base" else (False if v == "none" else v)
        elif k == "teleport" and v in ("0", "1"):
            teleport = v == "1"
        else:
            raise ValueError("bench word %s: players=2|3|4|8, cards=none|base|pyramid|bastion|"
                             "both, teleport=0|1" % w)
    return {"seats": SEATS[players], "position": mid_game_notation(cards, teleport, players)}


def lift_cells(game):
    """Cells whose lift is the start of a legal action (not a booster use: its card lies in
    the terminal)."""
    from firmware.games.cargocube.tracker import action_delta
    pos = game.pos
    out = []
    for a in pos.legal_actions():
        if a[0] != cc.END and a[0] != cc.BOOST and a[1] not in out:
            if a[1] in action_delta(pos, a):
                out.append(a[1])
    return out


def lift_state(game):
    """The tracker's state and how many destinations it lights, e.g. `moving/3`."""
    from firmware.games.cargocube.tracker import STATE_NAMES
    tr = game.tracker
    return "%s/%d" % (STATE_NAMES[tr.state], len(tr.targets))
