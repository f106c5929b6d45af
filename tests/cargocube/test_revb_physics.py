"""Revision B's physics (cargoboard.games.cargocube.hallfield) against the field model it
samples (circuit.magnet), and the firmware's step predictions (firmware/games/cargocube/steps.py, from the
generated firmware/games/cargocube/field.py) against that physics: one model, three uses."""

import math
import random

from circuit import magnet as M
from cargoboard.games.cargocube.hand import physical_steps
from cargoboard.games.cargocube import hallfield as HF
from cargoboard.games.cargocube import world as CW
from firmware.games.cargocube import steps as S
from firmware.games.cargocube import field as field_revb
from shared_rules.cargocube import rules as cc
from shared_rules.cargocube import board as g
from shared_rules.cargocube import orient


def test_field_tables_are_generated_from_the_model():
    assert M.FIELD_TABLES_PY.read_text() == M.render_tables(), \
        "firmware/games/cargocube/field.py: run `python -m circuit.magnet --tables`"
    assert field_revb.STEP[1] == 43 and field_revb.STEP[2] == 10      # 0.43 / 0.10 mT


def test_fits_follow_the_field_model_within_a_hundredth_of_a_millitesla():
    f = HF.fits()
    mag = M.MAGNET
    depth = M.sensor_depth_mm()
    rng = random.Random(3)
    for _ in range(60):
        d = rng.randrange(8)
        i, j = rng.choice([(0, 0), (0, 0), (1, 0), (-1, 1), (0, -1)])
        level = rng.randrange(3)
        card = rng.random() < 0.3 and (i, j) == (0, 0)
        x, y = HF._disc(rng, 1.0)
        dx, dy = i * M.CELL_PITCH_MM + x, j * M.CELL_PITCH_MM + y
        axis = tuple(c / math.sqrt(3) for c in HF.DIAGONALS[d])
        z = depth + HF.height_mm(level, card)
        exact = M.field(f.br, mag["d_mm"], mag["l_mm"], axis, (-dx, -dy, -z))[2]
        assert abs(f.bz(d, dx, dy, level, card) - exact) < 0.01, (d, i, j, level, card)


def test_orientation_decides_the_sign_of_a_cube_at_its_sensor():
    seen = {}
    for o in range(orient.COUNT):
        d = S.DIAG[o]
        seen[d] = seen.get(d, 0) + 1
        up = HF.DIAGONALS[d][2] > 0
        assert up == (orient.FACES[o * 6] in (0, 3, 4)), orient.name(o)   # B, 3 or 4 on top
    assert sorted(seen.values()) == [3] * 8                   # each diagonal: 3 orientations
    # rolling a cube over flips the vertical sense of its magnet or keeps it, as the table says
    w = HF.HallWorld(HF.Noise(shift_mm=0, place_mm=0, br_spread=False, zero_mt=0, gain_tol=0))
    c = g.parse_cell("e5")
    w.stacks[c] = [orient.START]
    w.phys[c] = [[0.0, 0.0, 1.0]]
    w._dirty.add(c)
    base = w.fields()[c]
    assert abs(base - field_revb.STEP[0] / 100.0) < 0.01
    for o in (orient.parse("O1"), orient.parse("32"), orient.parse("14"), orient.parse("4B")):
        w.stacks[c].append(o)
        w.phys[c].append([0.0, 0.0, 1.0])
        w._dirty.add(c)
        step = w.fields()[c] - base
        sign = 1 if orient.FACES[o * 6] in (0, 3, 4) else -1
        assert abs(step - sign * field_revb.STEP[1] / 100.0) < 0.01, orient.name(o)
        w.stacks[c].pop()
        w.phys[c].pop()
        w._dirty.add(c)


def _compare_games(games, plies):
    """Random games (players, cards, teleport, seed) on a noise-free board (pieces centred,
    nominal magnets): each action's predicted steps against the physics at every cell occupied
    before and after, within 0.03 mT, or the card's field where a card came or went on top of
    the pieces there (the firmware does not predict it). Also the world's stacks against the
    position's layout (CW.physical_stack). Returns (cells compared, of them with a card on top
    come or gone)."""
    noise = HF.Noise(shift_mm=0, place_mm=0, br_spread=False, zero_mt=0, gain_tol=0)
    card_top = 100 * HF.fits().card_on[1] + 3
    assert 8 < card_top < 15
    checked = on_top = 0
    for players, cards, teleport, seed in games:
        rng = random.Random(seed)
        pos = cc.start_position(players, cards=cards, teleport=teleport)
        w = HF.HallWorld(noise, seed=seed)
        w.load_position(pos)
        for _ in range(plies):
            legal = pos.legal_actions()
            if not legal:
                break
            a = legal[rng.randrange(len(legal))]
            before = w.fields()
            occ = [bool(w.stacks[c]) for c in range(121)]
            tops = [len(w.stacks[c]) > 1 and w.stacks[c][-1] >= HF.CARD_BASE for c in range(121)]
            pred = S.predict(pos, a)
            for step in physical_steps(pos, a):
                if step[0] == "move":
                    w.lift(step[1])
                    w.place(step[2])
            pos.push(a)
            w.sync_items(pos)
            for c in range(121):  # (a card's code is the world's: the rules drop a lid's)
                assert [min(it, HF.CARD_BASE) for it in CW.physical_stack(pos, c)] == \
                    [min(it, HF.CARD_BASE) for it in w.stacks[c]], g.cell_name(c)
            after = w.fields()
            for c in range(121):
                if occ[c] and w.stacks[c]:
                    got = 100 * (after[c] - before[c])
                    card = tops[c] != (len(w.stacks[c]) > 1 and w.stacks[c][-1] >= HF.CARD_BASE)
                    on_top += card
                    assert abs(got - pred.get(c, 0)) <= (card_top if card else 3), (
                        cc.format_action(a), g.cell_name(c), got, pred.get(c, 0))
                    checked += 1
    return checked, on_top


def test_firmware_predictions_match_the_physics_of_real_actions():
    checked, on_top = _compare_games([((2, 4)[seed % 2], True, False, seed) for seed in range(3)],
                                     120)
    assert checked > 300 and on_top == 0


def test_predictions_match_the_physics_with_the_expansions_and_eight_seats():
    """As above, with both expansions, the teleport and 8 seats: every kind of piece has its
    magnet's direction (seats 4-7, dead keepers, the teleport once raised IndexError), and a
    card that lies on pieces (a biohazard on a cube, the sacrifice card on its keeper) is laid
    out on top, where the firmware cannot see it: its magnet, a cube up, moves that cell's
    reading by 0.10 mT, either sign, less than the cube below shifts under the hand."""
    checked, on_top = _compare_games([(8, "both", True, seed) for seed in range(4)], 150)
    assert checked > 300 and on_top >= 5, (checked, on_top)


def test_hand_shifts_stay_within_the_recess_and_move_the_reading():
    w = HF.HallWorld(HF.Noise(shift_mm=1.0), seed=5)
    pos = cc.start_position(2, cards=False)
    w.load_position(pos)
    c = next(c for c in range(121) if len(pos.stacks[c]) == 1)
    moved = 0
    for _ in range(40):
        before = w.fields()[c]
        w._shift(c)
        x, y = w.phys[c][0][:2]
        assert math.hypot(x, y) <= M.PLACEMENT_TOL_MM + 1e-9
        moved += abs(w.fields()[c] - before) > 0.05
    assert moved > 10


def test_adc_reads_mid_scale_empty_and_its_dnl_codes_are_wide():
    w = HF.HallWorld(HF.Noise(zero_mt=0, gain_tol=0), seed=1)
    sums = w.adc_sums()
    assert len(sums) == 123
    k = HF.PM.SAMPLES
    mid = k * (HF.adc_code(2048.0, w.noise.dnl_lsb) - 0.5)     # below 2048: the spike at 1536
    assert all(abs(s - mid) < 40 for s in sums[:121])           # no field: mid-scale
    assert abs(sums[121] - mid) < 40 and sums[122] == 0         # the references
    xs = [1500 + 0.25 * i for i in range(300)]
    ys = [HF.adc_code(x, 8.0) for x in xs]
    assert all(b >= a for a, b in zip(ys, ys[1:]))               # monotonic
    assert sum(1 for y in ys if y == 1536) == 8 * 4 + 1          # one code 8 steps wider
