"""Only what pyproject.toml cannot say: the exploration queries in cypher/browser/ (kept at the top of the
repository, where people look for them) ship in the wheel as the package `memgraph.browser`, one copy, so
`memgraph cypher --query NAME` works from an installed wheel. Everything else is in pyproject.toml."""

from setuptools import find_namespace_packages, setup

setup(
    # namespace discovery: the statement folders (memgraph/cypher/...) hold data only, no __init__.py
    packages=[*find_namespace_packages(include=["memgraph*"]), "memgraph.browser"],
    package_dir={"memgraph.browser": "cypher/browser"},
)
