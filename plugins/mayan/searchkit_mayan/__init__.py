"""The Mayan puzzle (NOIP 2011, Luogu P1312) for searchkit.

Modules: ``board`` (packed boards and the rules), ``bound`` (an admissible
lower bound), ``parse`` (the judge's input format), ``search`` (a temporary
depth-first solver and command line).  Nothing is imported here, so loading
the package costs nothing.
"""
