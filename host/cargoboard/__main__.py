"""`python -m cargoboard` == the `cargoboard` console script."""

import sys

from cargoboard.cli import main

if __name__ == "__main__":
    sys.exit(main())
