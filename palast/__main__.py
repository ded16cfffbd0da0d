"""``python -m palast``: the command line."""

from palast.cli import main

main()
