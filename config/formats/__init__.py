"""The project's own number and date formats, per language (``FORMAT_MODULE_PATH``).

Django's formats apply to every language; a module here overrides only the names it defines, the rest
coming from Django's own module for that language.
"""
