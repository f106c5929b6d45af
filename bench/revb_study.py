"""Revision B, the quick model: for every action of whole games, what the sensors would see
(occupancy and steps, from the field model with the hand's noise) and how many legal actions fit
it. Static (the whole action seen at once, no timing), like the estimate in issue 12.

    .venv/bin/python bench/revb_study.py [GAMES]
"""

import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "host")]

from shared_rules import cargocube as cc  # noqa: E402
from firmware import tracker as T  # noqa: E402
from firmware import cargocube_steps as S  # noqa: E402
from cargoboard.hand import physical_steps  # noqa: E402
from cargoboard.sim.hallfield import HallWorld, Noise  # noqa: E402
from inference import pick_purposeful, pick_random  # noqa: E402

REPORT = 4           # the scanner reports steps from 0.04 mT
ADC_STEP_SIGMA = 1.8  # 0.01 mT: two readings of 8 conversions each


def observe(world, pos, action, rng):
    """Perform action on the world; return (occupancy diff, steps)."""
    before = world.fields()
    occ0 = [bool(world.stacks[c]) for c in range(121)]
    for step in physical_steps(pos, action):
        if step[0] == "move":
            world.lift(step[1])
            world.place(step[2])
    pos.push(action)
    world.sync_items(pos)
    pos.pop()
    after = world.fields()
    diff = tuple(c for c in range(121) if occ0[c] != bool(world.stacks[c]))
    steps = {}
    for c in range(121):
        if occ0[c] and world.stacks[c]:
            v = int(round(100 * (after[c] - before[c]) + rng.gauss(0, ADC_STEP_SIGMA)))
            if abs(v) >= REPORT:
                steps[c] = v
    return diff, steps


def study(pick, noise, games, seed0=0):
    out = {"actions": 0, "unique": 0, "wrong": 0, "none": 0, "many": 0, "occ_unique": 0}
    for n in range(games):
        seed = seed0 + n
        rng = random.Random(seed)
        pos = cc.start_position((2, 3, 4)[seed % 3], cards=seed % 4 != 0)
        world = HallWorld(noise, seed=seed)
        world.load_position(pos)
        for _ in range(400):
            legal = pos.legal_actions()
            if not legal:
                break
            a = pick(pos, legal, rng)
            if a[0] == cc.END:
                pos.push(a)
                continue
            diff, steps = observe(world, pos, a, rng)
            same = [b for b in legal if b[0] != cc.END and T.action_delta(pos, b) == diff]
            preds = [(b, S.predict(pos, b), S.hand_cells(pos, b)) for b in same]
            fit = [b for b, p, h in preds if S.fits(p, h, steps, diff)]
            if not fit:  # a step that fits no legal action: a nudged stack, if one explains
                fit = [b for b, p, h in preds if S.fits(p, h, steps, diff, bumps=1)]
            out["actions"] += 1
            out["occ_unique"] += len(same) == 1 and diff != ()
            if len(fit) == 1:
                if fit[0] == a:
                    out["unique"] += 1
                else:
                    out["wrong"] += 1
            elif not fit:
                out["none"] += 1
            else:
                out["many"] += 1
            pos.push(a)
    return out


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    print("quick model: %d games per row; share of actions (not `end`) that exactly one legal"
          " action fits" % games)
    print("%-11s %-18s %8s %9s %7s %7s %7s %7s" % ("chooser", "noise", "actions", "one fits",
                                                  "wrong", "none", "several", "time s"))
    for name, pick in (("purposeful", pick_purposeful), ("random", pick_random)):
        for shift, bump in ((0.25, 0), (0.5, 0), (1.0, 0), (0.5, 0.05)):
            t0 = time.time()
            r = study(pick, Noise(shift_mm=shift, bump_rate=bump), games)
            n = max(1, r["actions"])
            print("%-11s %-18s %8d %8.1f%% %7d %7d %7d %7.1f" % (
                name, "shift<=%gmm bump %g" % (shift, bump), r["actions"], 100.0 * r["unique"] / n,
                r["wrong"], r["none"], r["many"], time.time() - t0))


if __name__ == "__main__":
    main()
