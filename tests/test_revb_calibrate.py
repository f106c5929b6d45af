"""Revision B's per-cell zero (firmware/system/calib.py) on the virtual board: the real
firmware under the MicroPython unix port, and `cargoboard deploy --rev b`'s build on the
emulated RP2040 (whose scan converts them on its ADC), read the field model's ADC sums, whose sensors have
zero errors made large here (Noise.zero_mt 1.2 mT, the datasheet's typical is 0.5). An empty
cell with eight cubes around it, each turned to add to its sensor's own zero error, reads
occupied on an uncalibrated board; once `calibrate` took the zeros on the empty board they
come back from the flash after a power cut and the same cell reads empty."""

import pytest

from cargoboard.sim import REVB_HEAP
from picotarget import TARGETS, require, scanning
from cargoboard.sim.pico import fsimage
from cargoboard.sim.script import Session, UNCALIBRATED
from cargoboard.sim.world import revb_physics
from shared_rules.cargocube.board import SIZE, around, cell_name

ZERO_MT = 1.2


def _session(tmp_path, target="unix", **kw):
    """A revision-B virtual board: the firmware under the unix port, or `cargoboard deploy --rev
    b`'s build on the emulated RP2040, whose analog front end (sim/pico/devices.mjs,
    HallFrontEnd) the same field model feeds."""
    noise = revb_physics().Noise(zero_mt=ZERO_MT, shift_mm=0.0, place_mm=0.0, br_spread=False)
    require(target)
    if target == "unix":
        kw["heapsize"] = REVB_HEAP
    return scanning(Session(out=lambda line: None, noise=noise, revision="B", target=target,
                            flash=tmp_path / "flash.img", **kw))


def _occupied(s):
    _, final = s.query("occ")
    bits = bytes.fromhex(final.split()[2])
    return {cell_name(c) for c in range(SIZE * SIZE) if (bits[c >> 3] >> (c & 7)) & 1}


def _put(world, t, item, spare):
    """A new piece `item` on top of t (through the hand if t holds pieces)."""
    if world.stacks[t]:
        world.drop(spare, item)
        world.lift(spare)
        world.place(t)
    else:
        world.drop(t, item)


def _spare(c):
    """A cell far from c where a piece is dropped before the hand puts it on a stack."""
    return next(k for k in (12, 20, 100, 108)
                if max(abs(k % SIZE - c % SIZE), abs(k // SIZE - c // SIZE)) > 2)


def _trap(world):
    """(cell, [(neighbour, items)]): the inner cell whose sensor has the largest zero error
    and, put on the world, pieces around it whose fields there have the error's sign: a stack
    of 2 on each orthogonal neighbour, a cube on each diagonal one, each piece turned (of the
    24 orientations) to give the most, found by trying them."""
    inner = [c for c in range(SIZE * SIZE) if 2 <= c % SIZE <= SIZE - 3 and
             2 <= c // SIZE <= SIZE - 3]
    c = max(inner, key=lambda k: abs(world.zero[k]))
    sign = 1 if world.zero[c] > 0 else -1
    spare = _spare(c)
    ring = []
    for k, t in enumerate(around(c)):
        items = []
        for level in range(2 if k % 2 == 0 else 1):   # N, E, S, W: stacks of 2
            best = None
            for item in range(24):
                _put(world, t, item, spare)
                v = sign * world.fields()[c]
                world.take(t)
                if best is None or v > best[0]:
                    best = (v, item)
            _put(world, t, best[1], spare)
            items.append(best[1])
        ring.append((t, items))
    return c, ring


def _surround(s, c, ring):
    for t, items in ring:
        for item in items:
            _put(s.world, t, item, _spare(c))
    s.wait(200)


def _clear(s, ring):
    for t, _ in ring:
        while s.world.stacks[t]:
            s.world.take(t)
    s.wait(200)


@pytest.mark.parametrize("target", TARGETS)
def test_calibrate_takes_the_zeros_out_and_the_flash_keeps_them(tmp_path, target):
    s = _session(tmp_path, target, calibrate=False)
    try:
        assert any(e.startswith(UNCALIBRATED) for e in s.events), s.events
        c, picks = _trap(s.world)                            # (the pieces are put)
        ring = {cell_name(t) for t, _ in picks}
        s.wait(200)
        # uncalibrated, the empty cell's zero error and its neighbours' fields read a piece
        assert _occupied(s) == ring | {cell_name(c)}
        # with pieces on the board the zeros are not taken: the cells are named
        _, final = s.query("calibrate")
        assert final.startswith("err calibrate: the board must be clear"), final
        assert all(name in final for name in ring), final
        _clear(s, picks)
        _, final = s.query("calibrate")
        assert final.startswith("ok calibrated max="), final
        big = int(final.split("max=")[1])
        worst = max(abs(z) for z in s.world.zero)
        assert abs(big - 100 * worst) <= 6, (big, worst)   # the largest zero, 0.01 mT
        s.events.clear()
        s.restart()                                          # a power cut: zeros from the flash
        # a revision-B virtual board names its HAL apart from revision A's `hal=sim`
        hal = "sim-revb" if target == "unix" else "rp2040-revb"
        assert any(e.startswith("evt boot") and e.endswith(" hal=" + hal) for e in s.events), \
            s.events
        _, hello = s.query("hello")
        assert " hal=%s " % hal in hello, hello
        assert not any("not calibrated" in e or "error" in e for e in s.events), s.events
        _surround(s, c, picks)
        assert _occupied(s) == ring
        _, final = s.query("status")
        assert " errors=0 " in final, final
    finally:
        s.close()


def test_a_fresh_virtual_board_is_calibrated_at_bring_up(tmp_path):
    s = _session(tmp_path)
    try:
        # while the scans are averaged a `new` is refused (a game would start on a HAL
        # without its deadband, and the zeros would change under it)
        s.ser.write(b"calibrate\n")
        s.ser.flush()
        s.step(3)
        _, final = s.query("new cargocube polygon SN")
        assert final.startswith("err calibrating"), final
        s.step(30)
        c, picks = _trap(s.world)
        s.wait(200)
        assert _occupied(s) == {cell_name(t) for t, _ in picks}
        # and a script may calibrate again on an empty board
        _clear(s, picks)
        _, final = s.query("calibrate")
        assert final.startswith("ok calibrated max="), final
    finally:
        s.close()


@pytest.mark.parametrize("content", [b"", b"\x01" + bytes(100), b"\x07" + bytes(242)])
def test_a_damaged_zero_file_boots_uncalibrated_says_so_and_stays(tmp_path, content):
    image = tmp_path / "flash.img"
    fsimage.write_files(image, [("hall_zero", content)])   # a new littlefs image holding it
    s = _session(tmp_path)   # (no bring-up: the board does not say it has no zeros)
    try:
        said = [e for e in s.events if "not calibrated" in e]
        assert said and "hall_zero is damaged" in said[0] and "kept" in said[0], s.events
        # the version byte the file has, whatever its size (it said 0 for a wrong size)
        assert "version %d" % (content[0] if content else 0) in said[0] or not content, said
        assert not any(e.startswith(UNCALIBRATED) for e in s.events), s.events
        assert not any("error" in e for e in s.events), s.events
        assert "Traceback" not in "".join(s.runner.logs) + s.runner.stderr_text()
        _, final = s.query("status")
        assert " errors=0 " in final, final
    finally:
        s.close()
    assert fsimage.read_file(str(image), "hall_zero") == content


def test_a_board_resuming_a_game_uncalibrated_starts_and_plays_on(tmp_path):
    """A revision-B flash with a game in play and no zeros (served uncalibrated, or older than
    the calibration): the virtual board's bring-up `calibrate` is refused while a game plays,
    and the board started no more (`cannot start the simulated board`). It plays on, and says
    it is not calibrated."""
    s = _session(tmp_path, calibrate=False)
    try:
        s.execute("new-game cargocube polygon SN")
        assert s.query("status")[1].startswith("ok state=play"), s.query("status")
    finally:
        s.close()
    s = _session(tmp_path)   # the same flash: the game resumes, then the bring-up
    try:
        assert any(e.startswith(UNCALIBRATED) for e in s.events), s.events
        assert s.query("status")[1].startswith("ok state=play")
        _, final = s.query("calibrate")
        assert final.startswith("err calibrate: a game is in play"), final
    finally:
        s.close()


def test_calibrate_weighs_the_sensors_own_fields_so_no_zero_error_blocks_it(tmp_path):
    """A DRV5055's zero at 3.3 V is 1.65 V +- 60 mV (+-2.0 mT) and the mid-supply divider's
    1 % resistors add +-0.55 mT: an empty cell of a board never calibrated may read 2.55 mT.
    `calibrate` weighed the fields after the zeros against 1.50 mT: such a board, or one whose
    new sensor's zero differs from the old one's, was refused for good. It now weighs what
    the sensors give (no zero taken off) against CAL_CLEAR, 3.00 mT, which a cube still
    exceeds (6.06 mT at least, 3.21 with the whole zero error against it)."""
    from hardware import pinmap_revb as PM
    noise = revb_physics().Noise(zero_mt=2.5, shift_mm=0.0, place_mm=0.0, br_spread=False)
    s = Session(out=lambda line: None, noise=noise, revision="B", heapsize=REVB_HEAP,
                flash=tmp_path / "flash.img", calibrate=False)
    refused = "err calibrate: the board must be clear (|field| > 3.00 mT on %s)"
    try:
        zero = s.world.zero
        worst = max(abs(z) for z in zero)
        assert 1.5 < worst < PM.CAL_CLEAR / 100, worst
        # a cube is still seen on the cell whose zero error works most against it
        bare = s.world.fields()[60]
        s.world.drop(60, 0)
        up = s.world.fields()[60] > bare  # the sign of this cube's own field
        s.world.take(60)
        inner = [k for k in range(SIZE * SIZE) if 0 < k % SIZE < SIZE - 1 and
                 0 < k // SIZE < SIZE - 1]
        c = min(inner, key=lambda k: zero[k] if up else -zero[k])
        s.world.drop(c, 0)
        s.wait(200)
        _, final = s.query("calibrate")
        assert final == refused % cell_name(c), final
        s.world.take(c)
        s.wait(200)
        _, final = s.query("calibrate")
        assert final.startswith("ok calibrated max="), final
        assert abs(int(final.split("max=")[1]) - 100 * worst) <= 6, (final, worst)
        # a sensor replaced: the new part's zero is the old one's mirrored, 2 x apart
        k = max(range(SIZE * SIZE), key=lambda j: abs(zero[j]))
        zero[k] = -zero[k]
        s.wait(200)
        _, final = s.query("calibrate")
        assert final.startswith("ok calibrated max="), final
        s.wait(200)
        s.world.drop(c, 0)   # calibrated: a cube is refused as before
        s.wait(200)
        _, final = s.query("calibrate")
        assert final == refused % cell_name(c), final
    finally:
        s.close()
