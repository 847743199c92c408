"""``python -m patience_engine``: the ``patience`` command (``patience_engine.cli``)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
