"""Which apps' models have tables in the site's database (``DATABASE_ROUTERS``)."""

from __future__ import annotations

from typing import Any

WITHOUT_TABLES = frozenset({"django_rq"})
"""Apps whose models are admin hooks with no table (django-rq's dashboard): never migrated, never
dumped — ``dumpdata`` would otherwise read a table that does not exist and end the backup with an error."""


class TablesOfTheSiteOnly:
    """Every app's models live in the one database, except those of :data:`WITHOUT_TABLES`."""

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool | None:
        return False if app_label in WITHOUT_TABLES else None
