"""The staff console (issue 23, DESIGN §7): the shell every role's pages live in.

This package holds the base templates, the one stylesheet, navigation, the "waiting for
me" dashboard, the one command view and the second factor. The domain apps register what
they add in a ``console.py`` of their own (:mod:`console.registry`); the console itself
imports none of them (``.importlinter``: console sits between tables and casino).
"""
