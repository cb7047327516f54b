"""How napkit writes for people and for files; the command line and the reports both use it.

- :mod:`~napkit.output.files`: napkit's one policy for every output file (replaced whole or
  not at all; never an input);
- :mod:`~napkit.output.records`: where a record goes (standard output or such a file);
- :mod:`~napkit.output.progress`: the progress of a long command, on standard error;
- :mod:`~napkit.output.pages`: the web pages (the report of a run, the comparison of programs,
  the rules sheet), drawn from the Jinja2 templates in ``templates/`` with autoescaping on.
- :mod:`~napkit.output.tables`: tables for the terminal, columns measured as they print and
  every cell made safe to print.
"""
