"""Revision B device code, run the same under CPython and the MicroPython unix port
(tests/test_revb_device.py compares the outputs): the HAL's logic (firmware/hal/hall.py),
the level scanner (firmware/drivers/levels.py) and the Cargocube step predictions
(firmware/games/cargocube/steps.py). A small LCG makes the inputs, so both interpreters see the
same numbers.

    python tests/driver_revb.py hall|levels|predict
"""

import sys

from firmware.hal import hall as HL
from firmware.drivers.levels import LevelScanner


class Lcg:
    def __init__(self, seed):
        self.x = seed & 0x7FFFFFFF

    def next(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


def run_hall():
    r = HL.HallReader(8, 30000, 3300, 320, 280)
    rng = Lcg(5)
    mid = 8 * 2040
    # per cell a field in ADC codes away from mid: empty, a cube (+-7.4 mT), a card
    field = [0] * HL.N_CELLS
    for c in range(HL.N_CELLS):
        k = rng.next(4)
        field[c] = (0, 275, -275, 700)[k]
    sums = [mid + 8 * f for f in field] + [mid, 0]
    raw = list(sums)
    occ = bytearray(16)
    for frame in range(12):
        new = [v + rng.next(9) - 4 for v in raw]
        if frame == 6:
            new[5] = mid + 8 * 120        # cell 5 drifts to 3.2 mT: on the edge
            new[6] = mid + 8 * 100        # cell 6 to 2.7 mT
        if frame == 9:
            new[5] = mid + 8 * 105        # 2.78 mT: under the release level, empty again
            new[HL.MID] = mid + 200       # the reference jumps: every cell moves at once
        n = HL.settle(new, raw, r.sum_units(3))
        k = r.update(raw, occ)
        print("F %d settled=%d converted=%d occ=%s rough=%s l0=%d l5=%d l6=%d l9=%d" % (
            frame, n, k, "".join(["%02x" % b for b in occ]),
            "".join(["%02x" % b for b in r.rough]), r.levels[0], r.levels[5], r.levels[6],
            r.levels[9]))
    print("zero", r.calibrate(), r.levels[0], r.zero[0])


def run_levels():
    s = LevelScanner(30)
    fields = [700] * 121
    now = 0
    s.update(fields, now)
    script = [
        (40, 3, 743),     # the top of a stack lands on cell 3: a step of +43 that holds
        (20, 7, 650),     # cell 7 dips for 20 ms only (a hand passing over): no step
        (30, 7, 700),
        (50, 9, 703),     # 0.03 mT: below the report level
    ]
    for ms, c, v in script:
        fields = list(fields)
        fields[c] = v
        t_end = now + ms
        while now < t_end:
            now += 10
            if s.update(fields, now):
                print("t=%d version=%d steps=%s" % (now, s.version, sorted((c, s.level[c] - s.base[c]) for c in s.cells)))
    for _ in range(5):
        now += 10
        s.update(fields, now)
    print("cells", sorted(s.cells), "pending", s.pending(), "step3", s.level[3] - s.base[3], "step9", s.level[9] - s.base[9])
    s.explain({3: 40, 4: -8}, (3,), True)
    print("explained", sorted(s.cells), s.base[3], s.base[4], s.level[4] - s.base[4])
    s.shift_base({3: 43})
    print("shifted", sorted(s.cells), s.level[3] - s.base[3])
    s.rebase()
    print("rebased", sorted(s.cells), s.level[3] - s.base[3], s.level[4] - s.base[4])


def run_predict():
    from shared_rules.cargocube import rules as cc
    from firmware.games.cargocube import steps as ST
    print("diag", "".join(["%d" % d for d in ST.DIAG]))
    # (8 seats, both expansions and the teleport: every kind of item the rules core has)
    for players, cards, teleport, seed in ((2, True, False, 3), (4, True, False, 11),
                                           (3, False, False, 7), (8, "both", True, 5)):
        pos = cc.start_position(players, "polygon", cards, teleport)
        rng = Lcg(seed)
        for ply in range(60):
            legal = pos.legal_actions()
            if not legal:
                break
            a = legal[rng.next(len(legal))]
            pred = ST.predict(pos, a)
            lift = ST.predict_lift(pos, a[1]) if a[0] != cc.END else {}
            print("%d %s %s | %s | %s" % (ply, cc.format_action(a), sorted(pred.items()),
                                          sorted(lift.items()), ST.hand_cells(pos, a)))
            pos.push(a)


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "hall"
    {"hall": run_hall, "levels": run_levels, "predict": run_predict}[what]()
