"""``python -m paperchat``: the command line."""

from paperchat.cli import main

if __name__ == "__main__":
    main()
