"""``python -m paperchat`` runs the CLI."""

from paperchat.cli import main

main()
