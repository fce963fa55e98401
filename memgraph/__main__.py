"""`python -m memgraph` runs the CLI."""

from memgraph.cli import main

main()
