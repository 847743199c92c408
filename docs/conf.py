"""Sphinx configuration of the patience-engine documentation (Markdown through MyST).

Build with warnings as errors, as CI does:
``python -m sphinx -W --keep-going -b html docs docs/_build/html``.
The API reference is generated from the docstrings of the installed package.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Dict, List

import patience_engine

project = "patience-engine"
author = "patience-engine contributors"
release = patience_engine.__version__
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]

# Headings get anchors, so pages can link to a section: rules.md#text-formats.
myst_heading_anchors = 3
# ```python blocks in the pages are doctests; they render as code.
myst_enable_extensions = ["colon_fence"]

# One page per public module, found by walking the package, so a new module is
# documented without editing this site (private modules, _name, are left out).
# Each module's page is its automodule alone (docs/_templates/autosummary/module.rst):
# the summary tables of the default template would repeat every docstring's first
# sentence, cut at the first ". ", which can fall inside a literal such as ``1 .. 9``.
autosummary_generate = True
templates_path = ["_templates"]
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autoclass_content = "class"
napoleon_google_docstring = False
napoleon_numpy_docstring = True




def _reexported_elsewhere() -> Dict[str, List[str]]:
    """Per public module, the classes of its ``__all__`` that another module documents.

    A class exported by more than one public module (``Row`` of ``survey.store``
    and of ``survey``; ``IllegalMoveError`` of a private module, exported by
    ``patience_engine`` and its ``reference``) would otherwise be described twice,
    which Sphinx refuses or reports as ambiguous. It is documented where it is
    defined when that module is public, else under the shortest module name that
    exports it.
    """
    public = ["patience_engine"] + [
        info.name for info in pkgutil.walk_packages(patience_engine.__path__, "patience_engine.")
        if not any(part.startswith("_") for part in info.name.split("."))
    ]
    exporters: Dict[int, List[str]] = {}
    names: Dict[int, str] = {}
    homes: Dict[int, str] = {}
    for module_name in public:
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if isinstance(obj, type):
                exporters.setdefault(id(obj), []).append(module_name)
                names[id(obj)] = name
                if obj.__module__ in public:
                    homes[id(obj)] = obj.__module__
    excluded: Dict[str, List[str]] = {}
    for key, modules in exporters.items():
        home = homes.get(key) or min(modules, key=lambda module: (len(module), module))
        for module in modules:
            if module != home:
                excluded.setdefault(module, []).append(names[key])
    return excluded


# Read by docs/_templates/autosummary/module.rst.
autosummary_context = {"exclude_members": _reexported_elsewhere()}

html_theme = "alabaster"
html_title = f"patience-engine {release}"
