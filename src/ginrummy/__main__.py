"""``python -m ginrummy`` runs the ``gin`` command."""

import sys

from .cli.main import main

sys.exit(main())
