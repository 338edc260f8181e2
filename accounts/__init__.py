"""Players' own side: their accounts (django-allauth), the link to their league profile, their page
(``/me/``), following players without an account, privacy, their data, and calendar feeds.

The top layer beside ``config``: it reads tournaments, scoring and league and nothing below imports it.
"""
