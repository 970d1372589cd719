"""Sphinx configuration of the nqueens-count documentation (MyST Markdown pages, the API
reference from the installed package's docstrings).  Build: sphinx-build -W docs docs/_build."""

from __future__ import annotations

import sys
from pathlib import Path

import nqueens

sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))

project = "nqueens-count"
author = "The nqueens developers"
release = version = nqueens.__version__
copyright = "2026, the nqueens developers"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "nqueens_cli",  # docs/_ext: the command-line reference, made from the parser
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "_ext"]
myst_heading_anchors = 3

# the reference: every public name, its signature's types as a Parameters list
autodoc_typehints = "description"
# count()'s argument types by name (api.rst says what each holds)
autodoc_type_aliases = {"Workers": "Workers"}
autodoc_member_order = "bysource"
autodoc_default_options = {"members": False}
napoleon_numpy_docstring = True
napoleon_google_docstring = False

html_theme = "furo"
html_title = f"nqueens {version}"
html_static_path = ["_static"]

# options and commands keep their two hyphens and straight quotes in running text
smartquotes = False
