"""Sphinx configuration of napkit's rules site (issue 7).

Build it with ``sphinx-build -W -b html docs docs/_build/html`` after
``pip install -e '.[docs]'``. The pages of the law book, the rulesets, the comparison, the
decisions register, the schemas, the conformance cases and the worked hands are written at build
time by the extension ``napkit.site`` from spec/, the suite and the engine.
"""

project = "napkit"
author = "the napkit authors"
copyright = "the napkit authors"

extensions = ["myst_parser", "napkit.site"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build"]
root_doc = "index"

myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3

html_theme = "furo"
html_title = "napkit: the rules of Nap"
html_static_path = ["_static"]
html_css_files = ["napkit.css"]
html_show_sourcelink = False
