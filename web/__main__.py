"""``python -m web`` runs the ``tableside`` command line."""

import sys

from web.cli import main

sys.exit(main())
