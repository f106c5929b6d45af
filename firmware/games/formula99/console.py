# «Формула 99» on the board: what the plug-in reads and answers as text — a new game's options
# and the console's commands (docs/serial-protocol.md, docs/board-formula99.md). Rare next to
# the frames: the plug-in imports this module when it needs it and drops it after, with the
# notation (plugin.drop_text), so that a game in play keeps neither in the heap.

from shared_rules.formula99 import rules as R
from shared_rules.formula99 import cards as C
from shared_rules.formula99 import track as TK
from firmware.games.formula99 import tracker as T
from firmware.hal import word_range

LEVELS = {"1": 1, "2": 2, "3": 3, "L1": 1, "L2": 2, "L3": 3, "l1": 1, "l2": 2, "l3": 3}


def new_position(options):
    """The start of a new game from its options: `layout` (the level), `seats` (the
    civilisations), `deal` (digital cards: the deck's seed). ValueError naming a bad one."""
    layout = options.get("layout") or options.get("variant") or "L1"
    level = LEVELS.get(layout)
    if level is None:
        raise ValueError("layout %s: the level, L1, L2 or L3" % layout)
    seats = options.get("seats") or "15"
    civs = []
    for ch in seats:
        if ch < "1" or ch > "9" or (civs and int(ch) <= civs[-1]):
            raise ValueError("seats %s: civilisations 1-9 in ascending order, e.g. 1357" % seats)
        civs.append(int(ch))
    deal = options.get("deal")
    if deal is not None:
        try:
            deal = int(deal)
        except ValueError:
            deal = -1
        if deal < 0 or deal >= 0x80000000:
            raise ValueError("deal=%s: the deck's seed, 0 to 2147483647" % options.get("deal"))
    try:
        return R.start_position(len(civs), level, seed=deal, civs=civs)
    except R.RulesError as e:
        raise ValueError(str(e))


def _sense_name(i):
    """A sense index's place: the track cell's name (3y2, 4r), s3 / f3 (civilisation 3's start
    zone / finish cell), control."""
    if i < T.ZONE:
        return TK.name(i)
    if i < T.FIN:
        return "s%d" % (i - T.ZONE + 1)
    if i < T.CTRL:
        return "f%d" % (i - T.FIN + 1)
    return "control"


def owed_names(t):
    """The places a piece is missing from, then those a piece stands on where none belongs (the
    tracker's owed()), by the board's names: `state`'s diff= and the web view's marks
    (host/cargoboard/games/formula99/live.py)."""
    fill, clear = t.owed()
    return [_sense_name(i) for i in fill + clear]


def _diff_names(t):
    """Where the board differs from the position (CATCHUP, MISMATCH), owed_names; `-` if none."""
    if t.state != T.MISMATCH and t.state != T.CATCHUP:
        return "-"
    return ",".join(owed_names(t)) or "-"


def command(game, words):
    """The answer to a console command for the plug-in `game` (None: not the game's)."""
    cmd = words[0].lower()
    t = game.tracker
    pos = game.pos
    if cmd == "pos":
        return "ok " + pos.notation()
    if cmd == "state":
        return "ok state=%s actor=%s card=%s actions=%d diff=%s%s" % (
            T.STATE_NAMES[t.state], _actor_name(pos),
            C.name(t.card) if t.card else "-", pos.ply(), _diff_names(t),
            " picker=options" if _options_open(game) else "")
    if cmd == "candidates":
        return _candidates(game, t, pos)
    if cmd == "history":  # [FROM [COUNT]], as every game's (a host pages a long game)
        lo, hi = word_range(words, pos.ply())
        return "ok " + " ".join(_history_texts(pos, lo, hi))
    if cmd == "legal":
        return "ok " + " ".join([pos.format_action(a) for a in pos.legal_actions()])
    if cmd == "pool":
        return "ok " + " ".join([C.name(c) for c in range(1, 55) if c not in pos.discard()])
    if cmd == "hands":
        return "ok " + " ".join(["%d=%d" % (pos.civ(s), pos.hand_size(s)) for s in pos.seats])
    if cmd == "act" and len(words) == 2:
        try:
            a = pos.parse_action(words[1])
        except R.RulesError as e:
            return "err %s" % (e,)
        t.act(a)
        game._after(game.now)
        return "ok " + words[1]
    if cmd == "card" and len(words) == 2:
        card = C.parse(words[1])
        if not card:
            return "err %s is no card (e.g. 7h, Ts, Xr)" % words[1]
        if not t.enter_card(card):
            return "err %s fits nothing now (the pool: `pool`; legal: `legal`)" % words[1]
        game._after(game.now)
        return "ok " + words[1]
    return None


def _actor_name(pos):
    if pos.is_over():
        return "-"
    who = pos.to_move
    return "chance" if who < 0 else str(pos.civ(who))


def _options_open(game):
    return game.pick == game.PICK_OPTION and game.pick_list


def _history_texts(pos, lo, hi):
    """The texts of the history's actions lo..hi-1, each written in the position it was taken
    in: the game is taken back to action lo and played on again (its actions read one by one,
    no list of the whole game: a long game's list was a 4 KB block the heap could not give)."""
    n = pos.ply()
    if hi <= lo:
        return []
    out = []
    try:
        pos.take_back_to(lo)
        while pos.ply() < hi:
            a = pos.action_at(pos.ply())
            out.append(pos.format_action(a))
            pos.push(a)
    finally:
        while pos.ply() < n:  # (whatever happened: the game back as it was)
            pos.push(pos.action_at(pos.ply()))
    return out


def _candidates(game, t, pos):
    """The question's candidates, the action ready, or the option picker's options (what
    `next` and `confirm` go through now), and which one is shown."""
    if _options_open(game):
        cands = list(game.pick_list)
        shown = game.pick_index
    elif t.state == T.ASKING:
        cands = list(t.candidates)
        shown = t.index
    elif t.state == T.READY and t.ready is not None:
        cands = [t.ready]
        shown = 0
    else:
        cands = []
        shown = 0
    lines = ["cand %d %s" % (i, pos.format_action(cands[i])) for i in range(len(cands))]
    lines.append("ok %d shown=%d state=%s" % (len(cands), shown, T.STATE_NAMES[t.state]))
    return "\n".join(lines)
