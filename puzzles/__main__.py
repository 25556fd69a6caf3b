"""``python -m puzzles``: the puzzle commands on their own."""

import sys

from .cli import main

sys.exit(main())
