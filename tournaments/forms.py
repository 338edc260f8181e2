"""Organisers' tournament forms: seating generation, swaps, replacing a player, Swiss rounds."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from league.models import Player
from tournaments.services import MAX_ROUNDS


class SeatingForm(forms.Form):
    rounds = forms.IntegerField(min_value=1, max_value=MAX_ROUNDS, initial=8, label=gettext_lazy("Rounds"))
    seed = forms.IntegerField(
        min_value=1,
        max_value=2**31 - 1,
        required=False,
        label=gettext_lazy("Seed"),
        help_text=gettext_lazy("Same seed, same seating. Leave blank to keep the event's seed."),
    )


class SwapForm(forms.Form):
    round_number = forms.IntegerField(min_value=1, max_value=MAX_ROUNDS, label=gettext_lazy("Round"))
    first = forms.ModelChoiceField(queryset=Player.objects.none(), label=gettext_lazy("Player"))
    second = forms.ModelChoiceField(queryset=Player.objects.none(), label=gettext_lazy("swaps seats with"))


class ReplaceForm(forms.Form):
    player = forms.ModelChoiceField(
        queryset=Player.objects.none(), label=gettext_lazy("Player who drops out")
    )
    substitute = forms.ModelChoiceField(queryset=Player.objects.none(), label=gettext_lazy("Substitute"))
    from_round = forms.IntegerField(min_value=1, max_value=MAX_ROUNDS, label=gettext_lazy("From round"))
    table = forms.IntegerField(
        min_value=1,
        max_value=999,
        required=False,
        label=gettext_lazy("Only at table"),
        help_text=gettext_lazy(
            "Leave blank when the player drops out. A table number replaces only the player's seat at "
            "that table of the first round (a late arrival, or a player seated twice in a round)."
        ),
    )
    reason = forms.CharField(max_length=300, label=gettext_lazy("Reason"))


class SwissForm(forms.Form):
    round_number = forms.IntegerField(min_value=2, max_value=MAX_ROUNDS, label=gettext_lazy("Round"))


# -- the tables' own pages (tournaments/views/table.py) ------------------------------------------------


def _code_field(label: str, help_text: str) -> forms.CharField:
    """A code typed from the score slip on a phone: no autocomplete, capitals, no spelling fixes."""
    return forms.CharField(
        label=label,
        max_length=20,
        help_text=help_text,
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}
        ),
    )


class TableCodeForm(forms.Form):
    code = _code_field(
        gettext_lazy("Table code"),
        gettext_lazy("The six letters and digits printed on your table's score slip."),
    )


class PlayerCodeForm(forms.Form):
    code = _code_field(
        gettext_lazy("Your player code"),
        gettext_lazy(
            "Printed on your own folded strip, handed to you with the score slip: each player types "
            "their own."
        ),
    )


class RefereeForm(forms.Form):
    note = forms.CharField(label=gettext_lazy("What is it about? (optional)"), max_length=200, required=False)
