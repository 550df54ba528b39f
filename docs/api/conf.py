"""Sphinx settings of the API reference (``scripts/api-docs.sh``; docs/architecture.md)."""

project = "ginrummy"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon"]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
napoleon_google_docstring = True
napoleon_numpy_docstring = False
exclude_patterns = ["_build"]
html_theme = "alabaster"
napoleon_use_ivar = True  # an "Attributes:" section as fields: no duplicate of a property of the same name
