"""``python -m paperchat``: the command line, exiting with :func:`paperchat.cli.main`'s status."""

import sys

from paperchat.cli import main

if __name__ == "__main__":
    sys.exit(main())
