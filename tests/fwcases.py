"""Runner for the device test cases (tests/fwcases_*.py): each module holds functions named
case_*, plain code that runs under CPython and under the MicroPython unix port alike.
tests/test_firmware_cases.py runs every case under both."""


def list_cases(g):
    names = [k for k in g if k.startswith("case_")]
    names.sort()
    return names


def run_cases(g):
    """Run the cases of a module (its globals); print failures and 'N passed, M failed'."""
    passed = failed = 0
    for name in list_cases(g):
        try:
            g[name]()
            passed += 1
        except Exception as e:
            failed += 1
            print("FAIL", name, type(e).__name__, e)
    print("%d passed, %d failed" % (passed, failed))
