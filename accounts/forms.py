"""The players' side's forms: small, each one field or two, validated again by the services."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from league.models import Player


class ClaimForm(forms.Form):
    code = forms.CharField(label=_("Claim code"), max_length=32, strip=True)


class VisibilityForm(forms.Form):
    visibility = forms.ChoiceField(label=_("Who sees my page"), choices=Player.Visibility.choices)


class PrivacyForm(forms.Form):
    """What my page shows beyond my name and results: a box per field, ticked = public."""

    public_full_name = forms.BooleanField(label=_("My full name"), required=False)
    public_club = forms.BooleanField(label=_("My club"), required=False)
    public_country = forms.BooleanField(label=_("My country"), required=False)
    public_ema_number = forms.BooleanField(label=_("My EMA number"), required=False)
    public_statistics = forms.BooleanField(label=_("My statistics and charts"), required=False)
    public_ratings = forms.BooleanField(label=_("My ratings"), required=False)


class CloseForm(forms.Form):
    """Closing an account asks for its password: a phone left unlocked must not be enough."""

    password = forms.CharField(label=_("Password"), widget=forms.PasswordInput, max_length=128)


class LinkForm(forms.Form):
    email = forms.EmailField(label=_("The player's e-mail address"), max_length=254)
