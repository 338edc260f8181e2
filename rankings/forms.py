"""The organisers' forms of the rankings."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from league.permissions import managed_clubs


class ImportForm(forms.Form):
    """An EMA results file and what its header block may not say."""

    file = forms.FileField(label=_("EMA results file (CSV or XLSX)"))
    club = forms.ModelChoiceField(label=_("Imported by the club"), queryset=None)
    name = forms.CharField(label=_("Tournament"), max_length=160, required=False)
    end_date = forms.DateField(
        label=_("Last day"), required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    days = forms.IntegerField(label=_("Days"), min_value=1, max_value=10, required=False)
    countries = forms.IntegerField(label=_("Countries"), min_value=1, max_value=100, required=False)
    mers = forms.BooleanField(
        label=_("MERS tournament (counts in the ranking)"), required=False, initial=True
    )
    qualification = forms.BooleanField(label=_("Qualification required"), required=False)

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = managed_clubs(user).order_by("name")
        self.fields["name"].help_text = _("Left empty: the file's “Tournament” line.")
        self.fields["end_date"].help_text = _("Left empty: the file's “End date” line.")


class MergeForm(forms.Form):
    """Two player records of one person, by their numbers (the number in a player page's address)."""

    kept = forms.IntegerField(label=_("Player to keep (number)"), min_value=1)
    merged = forms.IntegerField(label=_("Player to merge into it (number)"), min_value=1)
    reason = forms.CharField(label=_("Why they are one person"), max_length=300, required=False)

    def clean(self) -> dict[str, Any]:
        from league.models import Player

        data = super().clean()
        for name in ("kept", "merged"):
            if data.get(name):
                player = Player.objects.filter(pk=data[name]).select_related("club").first()
                if player is None:
                    self.add_error(name, _("No player has this number."))
                else:
                    data[name] = player
        return data
