# Writes a flash image with one open game log, under the MicroPython unix port (the board's own
# store code on a littlefs image file): tests/test_sim_log.py then boots the virtual board on it.
#
#   driver_mkflash.py IMAGE KIND VARIANT SEATS START_FILE STEPS_FILE
#
# STEPS_FILE: the steps to log (tests/logsteps.py: `a HEX` an action's encoding, `u` a
# take-back, one a line). Prints the log's size.

import sys
from firmware.drivers import flashdev
from firmware.system.gamelog import GameLog
from logsteps import log_step, read_steps

image, kind, variant, seats, start_file, steps_file = sys.argv[1:7]
dev = flashdev.FileBlockDev.open(image)
root = flashdev.mount(dev, "/flash", dev.is_new())
gl = GameLog(root, "sim-made")
with open(start_file) as f:
    start = f.read().strip()
n = gl.begin(kind, variant, seats, start, None, 1, 0)
for s in read_steps(steps_file):
    log_step(gl, s)
print(gl.size(n))
