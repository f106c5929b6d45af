"""A served virtual board's pace (Runner.serve, PicoRunner.serve): idle frames keep the wall
clock's pace, and a board slower than real time is never made to wait. A fake clock stands in
for the wall clock and a fake firmware for the process, so nothing here depends on the
machine's load."""

import pytest

from cargoboard.sim import runner as runner_mod
from cargoboard.sim.pico.runner import PicoRunner
from cargoboard.sim.runner import CATCH_UP_S, UnixRunner, WallPace


class FakeClock:
    def __init__(self):
        self.now = 100.0

    def monotonic(self):
        return self.now


@pytest.fixture
def clock(monkeypatch):
    c = FakeClock()
    monkeypatch.setattr(runner_mod.time, "monotonic", c.monotonic)
    return c


def test_idle_frames_are_due_a_period_after_the_last_was_due_not_after_it_ended(clock):
    pace = WallPace(0.010)
    assert pace.wait_s() == pytest.approx(0.010)
    clock.now += 0.010
    clock.now += 0.004            # the frame ran 4 ms
    pace.tick()
    assert pace.wait_s() == pytest.approx(0.006)


def test_a_late_frame_is_not_waited_for_and_far_behind_the_pace_starts_again(clock):
    pace = WallPace(0.010)
    clock.now += 0.035            # the first frame, due at 10 ms, ran 25 ms: two more are due
    pace.tick()
    assert pace.wait_s() == 0
    pace.tick()
    assert pace.wait_s() == 0
    pace.tick()                   # the fourth is due at 40 ms, 5 ms after now
    assert pace.wait_s() == pytest.approx(0.005)
    clock.now += 1.0              # a second behind: no burst of 100 frames to catch up
    pace.tick()
    assert pace.wait_s() == 0
    assert pace.due == clock.now
    assert CATCH_UP_S < 1.0


class Served:
    """A runner whose firmware is fake: each frame (10 ms) and step (1 ms) of emulated time
    costs `cost` of the frame's span in wall time on the fake clock; serial input arrives when
    `input_at` (fake times) says. Records how long serve() asked to wait each time."""

    def __init__(self, clock, cost, frames, input_at=()):
        self.clock, self.cost, self.frames_left = clock, cost, frames
        self.input_at = sorted(input_at)
        self.timeouts, self.ran = [], []

    def install(self, r):
        r._serial_input_within = self.serial_input_within
        r.step = lambda frames=1: self.run(r, "F", 10)
        r.advance = lambda ms=1: self.run(r, "A", ms)

    def serial_input_within(self, timeout):
        self.timeouts.append(timeout)
        if self.input_at and self.input_at[0] <= self.clock.now + timeout:
            self.clock.now = max(self.clock.now, self.input_at.pop(0))
            return True
        self.clock.now += timeout
        return False

    def run(self, r, kind, ms):
        self.ran.append(kind)
        self.clock.now += self.cost * ms / 1000
        self.frames_left -= 1
        if self.frames_left <= 0:
            raise StopIteration


TARGETS = pytest.mark.parametrize("make", [PicoRunner, lambda: UnixRunner(micropython="-")],
                                  ids=["pico", "unix"])


def serve_fake(clock, runner, cost, frames):
    """Serve `runner` over a fake firmware until it has run `frames`; (the fake, wall s)."""
    fake = Served(clock, cost=cost, frames=frames)
    fake.install(runner)
    start = clock.now
    with pytest.raises(StopIteration):
        runner.serve()
    return fake, clock.now - start


@TARGETS
def test_a_board_slower_than_real_time_is_never_made_to_wait(clock, make):
    fake, wall = serve_fake(clock, make(), cost=1.5, frames=50)  # 15 ms of wall a frame
    assert fake.ran == ["F"] * 50
    assert fake.timeouts[0] == pytest.approx(0.010) and max(fake.timeouts[1:]) == 0
    assert wall == pytest.approx(0.010 + 50 * 0.015)


@TARGETS
def test_an_idle_board_keeps_real_time(clock, make):
    fake, wall = serve_fake(clock, make(), cost=0.4, frames=100)  # 4 ms of wall a frame
    # the 100th frame starts 990 ms after the first was due at 10 ms, and costs 4 ms
    assert wall == pytest.approx(1.0 + 0.004)


def test_the_pico_runs_1_ms_steps_unwaited_while_serial_flows_then_keeps_the_pace(clock):
    r = PicoRunner()
    t0 = clock.now
    fake = Served(clock, cost=0.4, frames=60, input_at=[t0 + 0.005])
    fake.install(r)
    with pytest.raises(StopIteration):
        r.serve()
    # the input's 1 ms step, then SERVE_BUSY_MS more (no output from the fake firmware)
    steps = 1 + PicoRunner.SERVE_BUSY_MS
    assert fake.ran[:steps] == ["A"] * steps and set(fake.ran[steps:]) == {"F"}
    assert fake.timeouts[1:steps] == [0] * (steps - 1)
    # back to frames: the first due a frame's period after the busy stretch ended
    assert fake.timeouts[steps] == pytest.approx(0.010)
