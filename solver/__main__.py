"""``python -m solver`` runs the ``openhand`` command line."""

import sys

from .cli import main

sys.exit(main())
