"""Move inference benchmark: whole games played by a modelled hand on the firmware's scanner
and Cargocube plug-in (the same code as on the board, run in this process for speed; the tests
run it under MicroPython through the virtual board), on board revision A (Hall switches:
occupancy) and revision B (linear Hall sensors: occupancy and steps, docs/hardware.md).

    .venv/bin/python bench/cargocube/inference.py [GAMES [EXPANSION_GAMES]] [--jobs N] [--rev a|b]
                                        [--chooser purposeful|near-best|random] [--adc-lsb X]
                                        [--noise MM:P] [--plays-on] [--wait K]

(--rev and --chooser keep only those rows: the goals of issue 12 are the purposeful rows.
--adc-lsb sets revision B's ADC noise, RMS steps per conversion, default 1 as the datasheets
give it: a check of how much the figures depend on that guess. --noise MM:P replaces revision
B's four noise rows by one, the bottom cube shifting up to MM mm and a stack nudged with chance
P at each lift and put-down, and sets the expansions' revision-B rows (else 0.5 mm, no bumps)
the same: `--noise 1:0` and `--noise 0.5:0.05` give docs/hardware.md's expansion table's 1 mm
and bumps columns. `--noise 1:0.3`, six times the bumps row's rate at 1 mm, is where
a question left open turned the next move red. --plays-on: the player leaves a question the
board asks about the move just made unanswered and plays on, as a hasty player does; it answers
only what the board still asks, or shows red, after the next move. --wait K: revision A's
games are set up with the option wait=K, a look-alike settled by up to K later moves,
firmware/games/cargocube/waiting.py (default: the board's, 2; --wait 0 asks at once); revision
B's rows are the same either way.) Each row also counts the
times the board lit red (a mistake shown: nothing explained the board for MISMATCH_MS), while
the hand made its move and after it; the tracker's mistake state that ends sooner (a tip's
first frames on revision B's hand model, docs/hardware.md) lights nothing and is not counted.

Two move choosers: `random` picks uniformly among the legal actions (stacks everywhere: the
hardest case for occupancy sensors), `purposeful` plays the hint's choice 4 times in 5 (cubes go
toward the own terminal, high activations), like people trying to win, and else any legal
action; `near-best` (revision A only, not a goal's row) is the same player whose other moves
are among the hint's first three, to show what the uniform ones cost. The hand lifts first or
tips the cube over, drags pieces across cells, hesitates, hovers and bounces (cargoboard.games.cargocube.hand);
on revision B its lifts and put-downs also shift the bottom cube of the stack it works on (up to
0.25, 0.5 or 1 mm) and, in the "bumps" rows, nudge a neighbouring stack 1 time in 20
(cargoboard.games.cargocube.hallfield: the field model, ADC noise and DNL). The player presses
only what the LEDs ask for (cargoboard.games.cargocube.play). Rows run on N processes (default 2).
Printed, never asserted.
Wrong: games where the board committed an action that is not the hand's and does not end in the
same position as the hand's (cargoboard.games.cargocube.play checks every commit). An action that
ends in the same position is right: the board offers such actions once and records the first in
its order (a hop through a wind rose or straight on: docs/board-cargocube.md, "Moves that end in
the same position"), and the player answers a question by the position the move ends in.
The presses are also split by what each was for, beside the floor occupancy sensors force on the
same games (revision A: the actions that change no sensor or the same as another legal action).

The expansions get their own rows (EXPANSION_GAMES games each, default 40): «Пирамида»,
«Бастион» with the walking teleport, both, and both with the teleport and 8 players, with the
actions of each new kind and the share taken with no button; revision A with the random
chooser, revision B (bottom cubes shifting <= 0.5 mm, or as --noise says) with each chooser
asked for.
"""

import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "host"), os.path.join(ROOT, "bench")]

from shared_rules.cargocube import rules as cc  # noqa: E402
from firmware.games.cargocube import tracker as T  # noqa: E402
from firmware.games.cargocube.plugin import MISMATCH_MS, Game  # noqa: E402
from shared_rules.cargocube.engine import best_action, rank  # noqa: E402
from cargoboard.games.cargocube.play import PRESS_CAUSES, GameStats, play_game  # noqa: E402
import benchcli  # noqa: E402  (bench/: --help, the numbers on the command line)

# Goals of issue 12: revision B with no button on 97 % of the actions under purposeful play with
# bottom-cube shifts up to 0.5 mm; revision A at most 0.35 presses per action, purposeful.
GOAL_B_NO_BUTTON = 0.97
GOAL_A_PRESSES = 0.35

# (revision, noise: (shift mm, bump rate) or None, chooser)
ROWS = [("A", None, "purposeful"), ("A", None, "near-best"), ("A", None, "random")] + [
    ("B", noise, chooser) for noise in ((0.25, 0.0), (0.5, 0.0), (1.0, 0.0), (0.5, 0.05))
    for chooser in ("purposeful", "random")]


def noise_name(noise):
    if noise is None:
        return "occupancy"
    shift, bump = noise
    return "shift<=%gmm%s" % (shift, ", bumps %d%%" % round(100 * bump) if bump else "")

def traceless_share(pick, games=20):
    """Share of chosen actions (not `end`) that change no sensor at all, and that another legal
    action would explain equally (same cells toggled): a floor set by the sensors."""
    import random
    rng = random.Random(99)
    total = empty = same = 0
    for n in range(games):
        pos = cc.start_position((2, 4)[n % 2], cards=True)
        for _ in range(400):
            legal = pos.legal_actions()
            if not legal:
                break
            a = pick(pos, legal, rng)
            if a[0] != cc.END:
                total += 1
                dl = T.action_delta(pos, a)
                if not dl:
                    empty += 1
                elif sum(1 for b in legal if b[0] != cc.END and T.action_delta(pos, b) == dl) > 1:
                    same += 1
            pos.push(a)
    return empty / total, same / total


def pick_random(pos, legal, rng):
    return legal[rng.randrange(len(legal))]


def pick_purposeful(pos, legal, rng):
    if rng.random() < 0.8:
        return best_action(pos)
    return legal[rng.randrange(len(legal))]


def pick_near_best(pos, legal, rng):
    """purposeful, but the other moves are among the hint's first three (engine.rank): a player
    who knows what they do. Not a goal's row: it shows how much of revision A's presses the
    purposeful player's uniform other moves cost."""
    if rng.random() < 0.8:
        return best_action(pos)
    ranked = rank(pos, legal)
    return ranked[rng.randrange(min(3, len(ranked)))]


PICKS = {"purposeful": pick_purposeful, "near-best": pick_near_best, "random": pick_random}


def chances(chooser, pos, legal):
    """The chance that the chooser picks each of legal in pos (the pick_* above, as numbers)."""
    n = len(legal)
    if chooser == "random":
        return [1.0 / n] * n
    hint = best_action(pos)
    top = legal if chooser == "purposeful" else rank(pos, legal)[:3]
    return [(0.8 if a == hint else 0.0) + (0.2 / len(top) if a in top else 0.0) for a in legal]


def game_positions(chooser, seed):
    """The rules' side of the game play_game plays with this seed and chooser (its players,
    cards and picks): (position, its legal actions, the action chosen) before each action, the
    position pushed on after the caller has looked (one position object, not copies)."""
    rng = random.Random(seed)
    pos = cc.start_position((2, 3, 4)[seed % 3], cards=seed % 4 != 0)
    for _ in range(400):
        legal = pos.legal_actions()
        if not legal:
            return
        action = PICKS[chooser](pos, legal, rng)
        yield pos, legal, action
        pos.push(action)


def least_presses(chooser, games):
    """What occupancy sensors and the chooser allow a board that settles each move before the
    next, on the positions of the bench's games (the same seeds, so the same games as play_game
    plays): per action (not `end`), as exact expectations over the chooser at each position,
    (floor, misses, nexts). Actions with the same net change of occupancy (none, or another
    legal action's) are told apart only by a press: the floor. Among such look-alikes the board
    can show first only one, at best the likeliest; the chooser's other picks need a second
    press at least (misses), and stepping through the look-alikes one `next` at a time in the
    best order costs nexts. So no board that settles each move before the next one does better
    than floor + misses, nor one with `next` than floor + nexts, on average. (A board also sees
    how a move went, e.g. the cells a slide passes: that can tell a few look-alikes apart, so
    the figures are what the net change allows. A board that keeps every reading of a
    look-alike and lets the moves after it tell them apart needs fewer:
    bench/cargocube/lookback.py.)"""
    actions = forced = misses = nexts = 0.0
    for seed in range(games):
        for pos, legal, _ in game_positions(chooser, seed):
            p = chances(chooser, pos, legal)
            same = {}
            for i in range(len(legal)):
                if legal[i][0] != cc.END:
                    actions += p[i]
                    same.setdefault(T.action_delta(pos, legal[i]), []).append(p[i])
            for delta, ps in same.items():
                if delta and len(ps) == 1:
                    continue  # seen, and like no other legal action: no press
                ps.sort(reverse=True)
                forced += sum(ps)
                misses += sum(ps[1:])
                nexts += sum(ps[k] * k for k in range(1, len(ps)))
    actions = max(actions, 1e-9)
    return forced / actions, misses / actions, nexts / actions


def _play(task):
    """One chunk of games of one row (a worker process): (row, GameStats, cpu seconds)."""
    row, spec, seeds, adc_lsb, plays_on, wait = task
    rev, noise, chooser = spec
    pick = PICKS[chooser]
    hall = None
    if noise is not None:
        from cargoboard.games.cargocube.hallfield import Noise
        hall = Noise(shift_mm=noise[0], bump_rate=noise[1], adc_lsb=adc_lsb)
    tot = GameStats()
    t0 = time.process_time()
    for seed in seeds:
        tot.add(play_game(seed, players=(2, 3, 4)[seed % 3], cards=seed % 4 != 0, pick=pick,
                          noise=hall, plays_on=plays_on, wait=wait if hall is None else 0))
    return row, tot, time.process_time() - t0


def _chunks(games, chunk=10):
    """Seeds 0..games-1 in runs of chunk (a task each: the processes share the work evenly)."""
    return [range(k, min(games, k + chunk)) for k in range(0, games, chunk)]


def _map(fn, tasks, jobs):
    """[fn(task) for task in tasks], on jobs processes."""
    if jobs > 1:
        import multiprocessing
        with multiprocessing.Pool(jobs) as pool:
            return pool.map(fn, tasks, chunksize=1)
    return [fn(t) for t in tasks]


def run_rows(rows, games, jobs):
    """{row: (GameStats, cpu seconds)} for the rows, games seeds 0.. each, on jobs processes."""
    results = _map(_play, [(r, ROWS[r], seeds, ADC_LSB, PLAYS_ON, WAIT) for r in rows
                           for seeds in _chunks(games)], jobs)
    out = {r: (GameStats(), 0.0) for r in rows}
    for row, st, secs in results:
        tot, cpu = out[row]
        tot.add(st)
        out[row] = (tot, cpu + secs)
    return out


def _run_chunk(task):
    """Games of one expansion row (a worker process): GameStats."""
    chooser, seeds, kw, shift, adc_lsb, wait = task
    noise = None
    if shift is not None:  # (shift mm, bump rate)
        from cargoboard.games.cargocube.hallfield import Noise
        noise = Noise(shift_mm=shift[0], bump_rate=shift[1], adc_lsb=adc_lsb)
    pick = PICKS[chooser]
    tot = GameStats()
    for seed in seeds:
        tot.add(play_game(seed, pick=pick, noise=noise, wait=wait if noise is None else 0,
                          **kw))
    return tot


def run(chooser, games, kw, shift=None, jobs=1):
    """GameStats of games seeded 0.. of one expansion row (kw: play_game's players, cards,
    teleport), on revision A, or B with shift = (bottom cubes shifting up to MM, bump rate);
    on jobs processes."""
    tot = GameStats()
    for st in _map(_run_chunk, [(chooser, seeds, kw, shift, ADC_LSB, WAIT)
                                for seeds in _chunks(games)], jobs):
        tot.add(st)
    return tot


def presses(tot):
    return sum(v[2] for k, v in tot.by_kind.items() if k != "end")


EXPANSION_NOISE = (0.5, 0.0)  # revision B's expansion rows: (shift mm, bump rate); --noise MM:P
EXPANSION_ROWS = (
    ("pyramid 2p", dict(cards="pyramid", players=2)),
    ("bastion+T 4p", dict(cards="bastion", teleport=True, players=4)),
    ("both 4p", dict(cards="both", players=4)),
    ("both+T 8p", dict(cards="both", teleport=True, players=8)),
)
EXPANSION_KINDS = ("activation", "roll", "step", "booster", "ride", "teleport", "turn",
                   "biohazard")


def expansions(games, rev="A", chooser="random", jobs=1):
    """The expansions' rows: revision A, or revision B with bottom cubes shifting <= 0.5 mm
    (or as --noise MM:P asks)."""
    shift = None
    board = "revision A"
    if rev == "B":
        shift = EXPANSION_NOISE
        board = "revision B, bottom cubes shifting <= %g mm%s" % (
            shift[0], ", bumps %d%%" % round(100 * shift[1]) if shift[1] else "")
    print()
    print("The expansions (%s): %d games each, %s chooser, actions and the share that"
          " needed no button" % (board, games, chooser))
    print("%-13s %6s %7s %10s %6s  %s" % ("game", "games", "actions", "no button", "wrong",
                                          "  ".join("%-10s" % k for k in EXPANSION_KINDS)))
    for name, kw in EXPANSION_ROWS:
        tot = run(chooser, games, kw, shift, jobs)
        cols = []
        for kind in EXPANSION_KINDS:
            a, b, p = tot.by_kind.get(kind, (0, 0, 0))
            cols.append("%-10s" % ("%d %.0f%%" % (a, 100.0 * (a - b) / a) if a else "-"))
        print("%-13s %6d %7d %9.1f%% %6d  %s" % (name, tot.games, tot.actions,
                                                100.0 * tot.no_button / max(1, tot.actions),
                                                tot.wrong, "  ".join(cols)))
        for f in tot.failures[:3]:
            print("  failure: " + f)
    print("(per kind: actions, and the share of them taken with no button)")


def on_virtual_board(games=10, actions=80):
    """The same measure through the virtual board: the firmware under the MicroPython unix port,
    the script hand (lift, place, press; no habits), `resolve` after every action."""
    import re
    import tempfile
    from cargoboard.games.cargocube.scriptgen import game_script
    from cargoboard.sim.script import run_script
    total = no_button = 0
    t0 = time.time()
    for seed in range(games):
        players = (2, 3, 4)[seed % 3]
        script, final = game_script(seed=seed, players=players, actions=actions, check_every=0)
        kinds = [a[0] for a in final.history()]
        fd, path = tempfile.mkstemp(suffix=".txt")
        with os.fdopen(fd, "w") as f:
            f.write(script)
        out = []
        status = run_script(path, out=out.append)
        os.unlink(path)
        if status != 0:
            print("  virtual board game %d FAILED" % seed)
            continue
        presses = []
        for line in out:
            m = re.search(r"resolved.*?(\d+) press", line)
            if m:
                presses.append(int(m.group(1)))
        for kind, p in zip(kinds, presses):
            if kind != cc.END:
                total += 1
                no_button += p == 0
    return games, total, no_button, time.time() - t0


def quick_model(pick, shift, bump, games):
    """The static estimate of issue 12 (revision B): for every action of whole games, what the
    sensors would see when it is done (occupancy and steps from the field model with the hand's
    noise, all at once, no timing) and whether exactly one legal action fits it."""
    from firmware.games.cargocube import steps as S
    from cargoboard.games.cargocube.hand import physical_steps
    from cargoboard.games.cargocube.hallfield import HallWorld, Noise
    actions = one = wrong = 0
    for seed in range(games):
        rng = random.Random(seed)
        pos = cc.start_position((2, 3, 4)[seed % 3], cards=seed % 4 != 0)
        world = HallWorld(Noise(shift_mm=shift, bump_rate=bump), seed=seed)
        world.load_position(pos)
        for _ in range(400):
            legal = pos.legal_actions()
            if not legal:
                break
            a = pick(pos, legal, rng)
            if a[0] != cc.END:
                before = world.fields()
                occ0 = [bool(world.stacks[c]) for c in range(121)]
                for step in physical_steps(pos, a):
                    if step[0] == "turn":
                        world.turn(step[1], step[2])
                    else:
                        world.lift(step[1])
                        world.place(step[2])
                pos.push(a)
                world.sync_items(pos)
                pos.pop()
                after = world.fields()
                diff = tuple(c for c in range(121) if occ0[c] != bool(world.stacks[c]))
                steps = {}
                for c in range(121):
                    if occ0[c] == bool(world.stacks[c]):  # (empty cells see the move too)
                        v = int(round(100 * (after[c] - before[c]) + rng.gauss(0, 1.8)))
                        if abs(v) >= 4:
                            steps[c] = v
                same = [b for b in legal if b[0] != cc.END and T.action_delta(pos, b) == diff]
                preds = [(b, S.predict(pos, b), S.hand_cells(pos, b)) for b in same]
                fit = [b for b, p, h in preds if S.fits(p, h, steps, diff)]
                if not fit:
                    fit = [b for b, p, h in preds if S.fits(p, h, steps, diff, 1)]
                actions += 1
                one += len(fit) == 1 and fit[0] == a
                wrong += len(fit) == 1 and fit[0] != a
            pos.push(a)
    return actions, one, wrong


def press_table(rows, res, least):
    """Presses per action by what they were for (cargoboard.games.cargocube.play.PRESS_CAUSES),
    beside the floor of occupancy sensors on the same games (actions that change no sensor or
    the same as another legal action: a press each, whatever the board does)."""
    print()
    print("presses per action by what they were for; floor: actions that change no sensor or the"
          " same as another legal action (a press each on occupancy sensors), same games:")
    short = {"declare": "declare", "answer": "answer", "take before": "take-bef",
             "take last": "take-last", "next hint": "next-hint", "next other": "next-oth",
             "undo": "undo", "end again": "end-again"}
    print("  %-3s %-22s %-11s %6s | %s | %6s %7s | %6s %6s" % (
        "rev", "sensors / noise", "chooser", "floor",
        " ".join("%9s" % short[c] for c in PRESS_CAUSES), "total", "over", "least", "next"))
    for i in rows:
        rev, noise, chooser = ROWS[i]
        tot, cpu = res[i]
        n = max(1, tot.actions)
        floor = tot.forced / n if rev == "A" else None
        total = presses(tot) / n
        bound = least.get(i)
        print("  %-3s %-22s %-11s %6s | %s | %6.3f %7s | %6s %6s" % (
            rev, noise_name(noise), chooser, "%.3f" % floor if floor is not None else "-",
            " ".join("%9.3f" % (tot.press_causes.get(c, 0) / n) for c in PRESS_CAUSES), total,
            "%+.3f" % (total - floor) if floor is not None else "-",
            "%.3f" % (bound[0] + bound[1]) if bound else "-",
            "%.3f" % (bound[0] + bound[2]) if bound else "-"))
    print("  (declare: `confirm` for a move the board did not see or still waits for; answer:"
          " `confirm` of a question the board asked; take-bef: `confirm` of a missed move shown,"
          " because a second unseen move came before playing on could take it, where letting it"
          " stand 3 s did not; take-last: the same for the game's last move; next-hint / next-oth: `next` past the first"
          " candidate, the move being the hint's choice / another; undo: out of a question"
          " without the move; end-again: `end` pressed again, counted with `end` and not in total;"
          " floor and over: revision A only; least / next: the fewest presses per action a board"
          " that settles each move before the next can need on average with what occupancy"
          " sensors see of these games and this chooser, and one that steps through look-alike"
          " moves with `next`: floor + first guesses the chooser makes wrong / + the `next`s in"
          " the best order (least_presses); a board that waits for later moves to tell"
          " look-alikes apart may need fewer: bench/cargocube/lookback.py)")


ADC_LSB = 1.0  # --adc-lsb (handed to the workers in their tasks: any start method)
PLAYS_ON = False  # --plays-on (the same)
WAIT = int(Game.WAIT)  # --wait K: revision A's games with the option wait=K (the same)


def main():
    global ADC_LSB, PLAYS_ON, EXPANSION_NOISE, WAIT
    args = sys.argv[1:]
    jobs = 2
    if "--wait" in args:
        i = args.index("--wait")
        WAIT = benchcli.number(args[i + 1] if i + 1 < len(args) else "", "--wait K", least=0)
        if WAIT > 8:
            raise benchcli.UsageError("--wait K must be 8 or less, not %d" % WAIT)
        del args[i:i + 2]
    if "--plays-on" in args:
        PLAYS_ON = True
        args.remove("--plays-on")
    if "--noise" in args:
        i = args.index("--noise")
        word = args[i + 1] if i + 1 < len(args) else ""
        mm, _, rate = word.partition(":")
        noise = (benchcli.number(mm, "--noise MM:P", kind=float),
                 benchcli.number(rate, "--noise MM:P", kind=float))
        if noise[0] < 0 or not 0 <= noise[1] <= 1:
            raise benchcli.UsageError("--noise MM:P wants MM >= 0 and a chance P in 0..1, not %r"
                                      % word)
        del args[i:i + 2]
        EXPANSION_NOISE = noise
        ROWS[:] = [r for r in ROWS if r[0] == "A"] + [
            ("B", noise, chooser) for chooser in ("purposeful", "random")]
    if "--adc-lsb" in args:
        i = args.index("--adc-lsb")
        ADC_LSB = benchcli.number(args[i + 1] if i + 1 < len(args) else "", "--adc-lsb X",
                                  kind=float)
        del args[i:i + 2]
    revs = "AB"
    if "--jobs" in args:
        i = args.index("--jobs")
        jobs = benchcli.number(args[i + 1] if i + 1 < len(args) else "", "--jobs N")
        del args[i:i + 2]
    if "--rev" in args:
        i = args.index("--rev")
        revs = args[i + 1].upper()
        del args[i:i + 2]
    choosers = ("purposeful", "near-best", "random")
    if "--chooser" in args:
        i = args.index("--chooser")
        choosers = (args[i + 1],)
        del args[i:i + 2]
    games = benchcli.number(args[0], "GAMES") if args else 200
    expansion_games = benchcli.number(args[1], "EXPANSION_GAMES") if len(args) > 1 else 40
    rows = [i for i, r in enumerate(ROWS) if r[0] in revs and r[2] in choosers]
    print("Move inference: %d games per row, 2/3/4 players, 3 in 4 with base cards, %d processes%s%s"
          % (games, jobs, "" if ADC_LSB == 1.0 else "; revision B's ADC noise %g steps RMS" % ADC_LSB,
             "; revision A with wait=%d%s" % (WAIT, " (the board's default)"
                                              if WAIT == int(Game.WAIT) else "")))
    print()
    t0 = time.time()
    res = run_rows(rows, games, jobs)
    print("%-3s %-22s %-11s %6s %8s %10s %8s %6s %7s" % (
        "rev", "sensors / noise", "chooser", "games", "actions", "no button", "presses", "wrong",
        "cpu s"))
    for i in rows:
        rev, noise, chooser = ROWS[i]
        tot, cpu = res[i]
        print("%-3s %-22s %-11s %6d %8d %9.1f%% %8.3f %6d %7.0f" % (
            rev, noise_name(noise), chooser, tot.games, tot.actions,
            100.0 * tot.no_button / max(1, tot.actions), presses(tot) / max(1, tot.actions),
            tot.wrong, cpu))
    print("(actions: every action but `end`, which is a button by design; presses: button presses"
          " per action; wrong: games where the board took an action the hand did not make"
          " and that does not end in the hand's position;"
          " wall time %.0f s)" % (time.time() - t0))
    print()
    print("causes of presses (actions that needed a button, by the first reason):")
    for i in rows:
        rev, noise, chooser = ROWS[i]
        tot, cpu = res[i]
        print("  %s %-22s %-11s %s" % (rev, noise_name(noise), chooser, ", ".join(
            "%s %d" % kv for kv in sorted(tot.reasons.items(), key=lambda kv: -kv[1])) or "-"))
        for f in tot.failures[:3]:
            print("      failure: " + f)
    print("red shown (a mistake lit: nothing explains what the board sees for %d ms), while the"
          " hand made its move / after it:" % MISMATCH_MS)
    for i in rows:
        rev, noise, chooser = ROWS[i]
        tot, cpu = res[i]
        print("  %s %-22s %-11s %d / %d" % (rev, noise_name(noise), chooser,
                                           tot.reds.get("hand", 0), tot.reds.get("at rest", 0)))
    least = {i: least_presses(ROWS[i][2], games) for i in rows if ROWS[i][0] == "A"}
    press_table(rows, res, least)
    for i in rows:
        rev, noise, chooser = ROWS[i]
        if rev != "A":
            continue
        tot, cpu = res[i]
        print()
        print("revision A, %s: actions that needed a button, by kind" % chooser)
        print("  %-11s %8s %8s %7s %9s" % ("kind", "actions", "button", "share", "presses"))
        for kind in ("activation", "roll", "step", "booster", "end"):
            a, b, p = tot.by_kind.get(kind, (0, 0, 0))
            if kind == "end":
                print("  %-11s %8d %8s %7s %9s" % (kind, a, "(itself)", "", ""))
                continue
            print("  %-11s %8d %8d %6.1f%% %9d" % (kind, a, b, 100.0 * b / max(1, a), p))
    print()
    print("Goals (issue 12):")
    for i in rows:
        rev, noise, chooser = ROWS[i]
        tot, cpu = res[i]
        if not tot.games:
            continue  # (GAMES 0: only the expansions' rows were asked for)
        if rev == "B" and noise == (0.5, 0.0) and chooser == "purposeful":
            v = tot.no_button / max(1, tot.actions)
            print("  revision B, purposeful, shift<=0.5mm: %.1f%% with no button (goal >= %.0f%%): %s"
                  % (100 * v, 100 * GOAL_B_NO_BUTTON, "met" if v >= GOAL_B_NO_BUTTON else "NOT met"))
        if rev == "A" and chooser == "purposeful":
            v = presses(tot) / max(1, tot.actions)
            print("  revision A, purposeful: %.3f presses per action (goal <= %.2f): %s" % (
                v, GOAL_A_PRESSES, "met" if v <= GOAL_A_PRESSES else "NOT met"))
            floor, misses, nexts = least[i]
            print("    the fewest a board that settles each move before the next can need with"
                  " occupancy sensors and this chooser: %.3f (floor %.3f + first guesses the"
                  " chooser makes wrong %.3f); with `next`: %.3f (one that waits for later moves:"
                  " bench/cargocube/lookback.py)" % (floor + misses, floor, misses,
                                                     floor + nexts))
        if rev == "A" and chooser == "near-best":
            floor, misses, nexts = least[i]
            print("  (revision A, near-best: %.3f presses per action, the fewest settling each move"
                  " first: %.3f,"
                  " with `next`: %.3f; not the goal's row)" % (
                      presses(tot) / max(1, tot.actions), floor + misses, floor + nexts))
    wrong = sum(res[i][0].wrong for i in rows)
    alike = sum(res[i][0].alike for i in rows)
    print("  wrong commits over all rows: %d (must be 0); commits of another action than the"
          " hand's that ends in the same position (right): %d" % (wrong, alike))
    if "B" in revs:
        print()
        q = max(10, games // 10)
        print("Revision B, the quick static model of issue 12 (%d games each: the whole action seen at"
              " once, no timing; share that exactly one legal action fits):" % q)
        for chooser, pick in [(c, p) for c, p in (("purposeful", pick_purposeful),
                                                  ("random", pick_random)) if c in choosers]:
            parts = []
            for shift in (0.25, 0.5, 1.0):
                n, one, bad = quick_model(pick, shift, 0.0, q)
                parts.append("<=%gmm %.1f%%%s" % (shift, 100.0 * one / max(1, n),
                                                  " (%d wrong)" % bad if bad else ""))
            print("  %-11s %s" % (chooser, ", ".join(parts)))
    if "B" in revs and expansion_games:
        for chooser in choosers:
            if chooser != "near-best":  # (a revision-A row only)
                expansions(expansion_games, "B", chooser, jobs)
    if "A" in revs:
        if expansion_games:
            expansions(expansion_games, jobs=jobs)
        print()
        n, total, nob, secs = on_virtual_board()
        print("On the virtual board (firmware under MicroPython, script hand, random play, revision A%s):"
              " %d games, %d actions, %.1f%% with no button (%.0f s)" % (
                  "" if WAIT == int(Game.WAIT) else ", the board's default wait=%s" % Game.WAIT,
                  n, total, 100.0 * nob / max(1, total), secs))
        print()
        print("What the sensors allow (revision A, occupancy only): share of chosen actions that")
        for name, pick in (("random", pick_random), ("purposeful", pick_purposeful)):
            empty, same = traceless_share(pick)
            print("  %-11s change no sensor: %5.1f%%   look the same as another legal action: %5.1f%%"
                  % (name, 100 * empty, 100 * same))
        print("  (each needs at least one press: the floor of presses per action on revision A)")
    print("why-legend: no trace = the player pressed confirm after a move the board did not see;"
          " N fit = N moves fit what was seen, picked with next/confirm; settle = a move that may"
          " have ended on a stack was confirmed at the end of the turn or game; mismatch = the"
          " board could not explain the cells until told.")


if __name__ == "__main__":
    sys.exit(benchcli.run(main, __doc__))
