# The CodinGame Spring Challenge 2025 puzzle's 12 test cases for `cargoboard cephalopod paths`,
# (depth, board rows, published answer), as several public solutions transcribe them; the two
# depth-1 cases are the ones the issue quotes. Shared by tests/cephalopod/test_cephalopod_cli.py (the first 7,
# fast) and bench/cephalopod/cephalopod.py (all 12, timed); the last 5 take around a second each.

OFFICIAL = [
    (20, "0 6 0/2 2 2/1 6 1", 322444322),
    (20, "5 0 6/4 5 0/0 6 4", 951223336),
    (1, "5 5 5/0 0 5/5 5 5", 36379286),
    (1, "6 1 6/1 0 1/6 1 6", 264239762),
    (8, "6 0 6/0 0 0/6 1 5", 76092874),
    (24, "3 0 0/3 6 2/1 0 2", 661168294),
    (36, "6 0 4/2 0 2/4 0 0", 350917228),
    (32, "0 0 0/0 5 4/1 0 5", 999653138),
    (40, "0 0 4/0 2 4/1 3 4", 521112022),
    (40, "0 5 4/0 3 0/0 3 0", 667094338),
    (20, "0 5 1/0 0 0/4 0 1", 738691369),
    (20, "1 0 0/3 5 2/1 0 0", 808014757),
]
FAST = 7  # OFFICIAL[:FAST] take well under a second together
