"""Which kinds of message each address gets (``notifications.kinds``): all of them until it turns some
off, on its personal page or from one e-mail's unsubscribe page ("only this kind")."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext

from .kinds import KINDS
from .models import Muted


def muted_kinds(address: str) -> set[str]:
    return set(Muted.objects.filter(address=address.strip().lower()).values_list("kind", flat=True))


def _check(kinds: Iterable[str]) -> set[str]:
    wanted = set(kinds)
    unknown = wanted - set(KINDS)
    if unknown:
        raise ValidationError(
            {"kinds": gettext("Unknown kind of message: %(kinds)s.") % {"kinds": ", ".join(sorted(unknown))}}
        )
    return wanted


@transaction.atomic
def set_wanted(address: str, kinds: Iterable[str]) -> set[str]:
    """``address`` gets exactly the kinds in ``kinds`` from now on (every other kind is muted)."""
    address = address.strip().lower()
    wanted = _check(kinds)
    Muted.objects.filter(address=address, kind__in=wanted).delete()
    have = muted_kinds(address)
    Muted.objects.bulk_create(
        [Muted(address=address, kind=kind) for kind in KINDS if kind not in wanted and kind not in have],
        ignore_conflicts=True,  # the same form sent twice at once
    )
    return set(KINDS) - wanted


def mute(address: str, kind: str) -> bool:
    """Turn one kind off for ``address``; whether it was on until now (a second click is fine)."""
    _check([kind])
    _row, created = Muted.objects.get_or_create(address=address.strip().lower(), kind=kind)
    return created
