"""How many presses a revision-A board could save by settling a look-alike move later.

    .venv/bin/python bench/cargocube/lookback.py [GAMES] [--chooser purposeful|near-best|random]

`inference.least_presses` counts the presses occupancy sensors force on a board that knows
each move before the next one: an action that changes no sensor, or the same sensors as another
legal action, costs a press at least. A board may instead keep every reading of such a move
and wait: the moves that follow are often legal after one reading only (the cube rolled onto
one stack, not the other, is the one that rolls on; the activation value a reading gives runs
out, or does not, when the turn passes). This bench plays the same games (same seeds, same
chooser) and, for each look-alike action, follows every other reading through the actions that
come after it, as the sensors see them (a net occupancy change, a declared move with no
trace, an `end`), until none of them fits any more. With a window of K actions:

- a look-alike that only later actions tell apart within K costs no press;
- a move with no trace costs its declaration (`confirm`) still, and which one it was is picked
  then (the player's `next`s, a second press if it was not the likeliest), as on the board: left
  to later moves, it would need a question whenever they do not settle it, even when the move
  made is the likeliest, which the pick at the declaration saves (PICK_DECLARED; until stop 47
  the bench counted that question as free, and so the bound was a little low);
- what K actions do not settle is asked then, the likeliest reading first (the chooser's odds
  at the move), as today: a press, and a second one if the move made was not the likeliest.

Printed per window: presses per action (not `end`) = the forced presses left + the wrong
first guesses (total), and + the `next`s before the move made with the readings left shown
likeliest first, as the board's questions step through them (with next). Window 0 is the
board of today (about least_presses, measured on the played games instead of as an
expectation). The figures are what the sensors and the rules allow a board that keeps the
readings; the board does not do this (docs/board-cargocube.md, "Where revision A's presses
go", with the prototype of stop 47). Printed, never asserted.
"""

import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "bench"), os.path.join(ROOT, "bench", "cargocube")]

from shared_rules.cargocube import rules as cc  # noqa: E402
from firmware.games.cargocube.tracker import packed_delta  # noqa: E402
import benchcli  # noqa: E402

WINDOWS = (0, 1, 2, 4, 8)
READINGS_MAX = 300  # readings of one move followed at most; more: it is taken as never settled
NEVER = 1 << 30
# A move with no trace is picked when declared (the docstring); False: stop 46's count
PICK_DECLARED = True


def seen(pos, action):
    """What the sensors and buttons show of an action: 'end' (the button), 0 (a move with no
    trace, declared with `confirm`) or the packed occupancy change."""
    return "end" if action[0] == cc.END else packed_delta(pos, action)


def _after(pos, action):
    p = pos.copy()
    p.push(action)
    return p


def _follow(readings, event):
    """The readings (notation -> position) after one more action that showed event, or None
    when they grow past READINGS_MAX."""
    out = {}
    for p in readings.values():
        for b in p.legal_actions():
            if seen(p, b) == event:
                q = _after(p, b)
                out[q.notation()] = q
                if len(out) > READINGS_MAX:
                    return None
    return out


def settled_after(played, t, alternative, horizon):
    """How many actions after played[t] the reading alternative (a position) stops fitting
    what the sensors saw (NEVER: not within horizon)."""
    readings = {alternative.notation(): alternative}
    for j in range(1, horizon + 1):
        if t + j >= len(played):
            return NEVER
        pos, action = played[t + j]
        readings = _follow(readings, seen(pos, action))
        if readings is None:
            return NEVER
        readings.pop(_after(pos, action).notation(), None)  # it joined the true game
        if not readings:
            return j
    return NEVER


def play(chooser, seed):
    """The game the bench plays with this seed: [(position before, action)]."""
    from inference import game_positions
    return [(pos.copy(), action) for pos, _, action in game_positions(chooser, seed)]


def presses_by_window(chooser, games, windows=WINDOWS):
    """{window: (forced, misses, nexts)} per action (not `end`), and the number of actions.
    nexts: the `next`s a question needs before the move made when the readings left are shown
    likeliest first (ties in either order), as the board's questions step through them."""
    from inference import chances
    horizon = max(windows)
    actions = 0
    forced = dict.fromkeys(windows, 0.0)
    misses = dict.fromkeys(windows, 0.0)
    nexts = dict.fromkeys(windows, 0.0)
    for seed in range(games):
        played = play(chooser, seed)
        for t, (pos, action) in enumerate(played):
            if action[0] == cc.END:
                continue
            actions += 1
            event = seen(pos, action)
            legal = pos.legal_actions()
            odds = chances(chooser, pos, legal)
            true_key = _after(pos, action).notation()
            mine = 0.0
            others = {}  # notation -> [position, odds]
            for b, p in zip(legal, odds):
                if b[0] == cc.END or seen(pos, b) != event:
                    continue
                q = _after(pos, b)
                key = q.notation()
                if key == true_key:
                    mine += p
                elif key in others:
                    others[key][1] += p
                else:
                    others[key] = [q, p]
            if event and not others:
                continue  # seen, and like no other legal action
            ends = [(settled_after(played, t, q, horizon), p) for q, p in others.values()]
            for w in windows:
                # (a move with no trace: its pick is settled at the declaration, PICK_DECLARED)
                wait = w if event or not PICK_DECLARED else 0
                left = [p for j, p in ends if j > wait]
                if event and not left:
                    continue  # settled by what came after: no press
                forced[w] += 1  # asked, or (no trace) declared
                above = sum(1 for p in left if p > mine)
                ties = sum(1 for p in left if p == mine)
                misses[w] += 1 if above else ties / (ties + 1.0)
                nexts[w] += above + ties / 2.0
    n = max(actions, 1)
    return {w: (forced[w] / n, misses[w] / n, nexts[w] / n) for w in windows}, actions


def main():
    args = sys.argv[1:]
    chooser = "purposeful"
    if "--chooser" in args:
        i = args.index("--chooser")
        chooser = args[i + 1] if i + 1 < len(args) else ""
        del args[i:i + 2]
    from inference import PICKS
    if chooser not in PICKS:
        raise benchcli.UsageError("--chooser wants one of %s, not %r" % (", ".join(PICKS), chooser))
    games = benchcli.number(args[0], "GAMES") if args else 200
    t0 = time.time()
    rows, actions = presses_by_window(chooser, games)
    print("Revision A, %s play, %d games, %d actions (not `end`): presses per action a board"
          " needs at least if it may settle a look-alike move up to K actions later" % (
              chooser, games, actions))
    print("  %6s %8s %8s %8s %8s %10s" % ("K", "forced", "misses", "total", "nexts",
                                         "with next"))
    for w in WINDOWS:
        forced, miss, step = rows[w]
        print("  %6d %8.3f %8.3f %8.3f %8.3f %10.3f" % (w, forced, miss, forced + miss, step,
                                                     forced + step))
    print("(forced: moves with no trace, declared, and look-alikes the K actions after them do"
          " not tell apart, asked; misses: second presses where the move made was not the"
          " likeliest reading left; total: a board that needs one more press for any other;"
          " nexts: the `next`s before the move made with the readings left shown likeliest"
          " first; with next: a board that steps through them so, as the board's questions do;"
          " K 0: each move settled before the next, as the board does; %.0f s)" % (
              time.time() - t0))


if __name__ == "__main__":
    sys.exit(benchcli.run(main, __doc__))
