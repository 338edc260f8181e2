"""The forms of registration: the organiser's settings, the public sign-up form (its fields are the ones
the organiser asks), the check-in search and the seating of the players who checked in."""

from __future__ import annotations

import secrets
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from league.countries import country_choices
from tournaments.services import MAX_ROUNDS

from .models import Opening


class OpeningForm(forms.ModelForm):
    """Dates, places, waiting list, approval, and which fields the public form asks."""

    class Meta:
        model = Opening
        fields = [
            "opens_at",
            "closes_at",
            "capacity",
            "waiting_list",
            "approval",
            "ask_ema_number",
            "ask_country",
            "ask_club",
            "ask_email",
        ]
        widgets = {
            "opens_at": forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
            "closes_at": forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["capacity"].min_value = 1
        self.fields["capacity"].widget.attrs["min"] = 1
        for name in ("ask_ema_number", "ask_country", "ask_club", "ask_email"):
            self.fields[name].label = _("Asks: %(field)s") % {"field": self.fields[name].label}


class SignUpForm(forms.Form):
    """The public form; ``opening`` decides which fields it has and which are required."""

    name = forms.CharField(
        label=_("Name"),
        max_length=80,
        help_text=_("As it should appear in the standings."),
    )
    ema_number = forms.CharField(
        label=_("EMA number"),
        max_length=20,
        help_text=_("8 digits, leading zeros included (e.g. 04390002)."),
    )
    country = forms.ChoiceField(label=_("Country"))
    club = forms.CharField(label=_("Club"), max_length=120)
    email = forms.CharField(
        label=_("E-mail"),
        max_length=254,
        widget=forms.EmailInput,
        help_text=_("Where your confirmation and your check-in link are sent."),
    )
    form_key = forms.CharField(widget=forms.HiddenInput, max_length=64, required=False)

    def __init__(self, *args: Any, opening: Opening, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["country"].choices = [("", "—"), *country_choices()]
        if not self.is_bound:
            self.initial.setdefault("form_key", secrets.token_urlsafe(24))
        for name in ("ema_number", "country", "club", "email"):
            ask = getattr(opening, f"ask_{name}")
            if ask == Opening.Ask.NO:
                del self.fields[name]
            else:
                self.fields[name].required = ask == Opening.Ask.REQUIRED


class SearchForm(forms.Form):
    q = forms.CharField(label=_("Search"), max_length=80, required=False)


class SeatForm(forms.Form):
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=MAX_ROUNDS)


class TapForm(forms.Form):
    undo = forms.BooleanField(required=False)
