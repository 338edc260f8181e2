"""Forms of the league's manage pages. They parse and show input; the services decide what is valid.

The event form shows every ruleset setting in plain words (the engine's ``Setting.meaning``), initialised
from a preset, so an organiser reads "Kiriage mangan: 4 han 30 fu … are paid as mangan" rather than a
JSON key; only the settings that differ from the preset are sent to the service as overrides.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, FieldDoesNotExist, ValidationError
from django.http import QueryDict
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy, ngettext

from scoring.engine import PRESETS, SETTINGS, Ruleset, RulesetError, make_ruleset
from scoring.engine.ruleset import POINTS_MAX

from .countries import country_choices
from .engine_text import engine_message, preset_label
from .models import Event, Player
from .services import EVENT_DETAILS, PASTE_MAX_CHARS, PASTE_MAX_LINES, RESULTS_SETTINGS

DEFAULT_PRESET = "ema2016"

# Lazy strings: shown in the reader's language (``_words`` turns them into text).
# Words for choice values whose key alone reads badly (or is an English word a reader needs in their
# language); the other values are Japanese terms (hanchan, atamahane, sanbaiman, yaku), shown as they are.
CHOICE_WORDS: dict[str, Any] = {
    "own_back": gettext_lazy("own deposit back, the nearest the rest"),
    "seat_order": gettext_lazy("earlier seat places higher"),
    "reverse_mangan": gettext_lazy("reverse mangan at the table"),
    "one_more_hand": gettext_lazy("one more hand"),
    "end_after_hand": gettext_lazy("end after the current hand"),
    "none": gettext_lazy("no time limit"),
    "first": gettext_lazy("to the first place"),
    "lost": gettext_lazy("lost"),
    "each": gettext_lazy("each winner"),
    "win": gettext_lazy("all three win"),
    "abort": gettext_lazy("abortive draw"),
    "split": gettext_lazy("split"),
    "deduction": gettext_lazy("deduction"),
    "forbidden": gettext_lazy("forbidden"),
    "nearest": gettext_lazy("nearest"),
}

POINTS_LIMIT = POINTS_MAX  # the engine's bound, so the field says it before the engine does


def _country_options() -> list[tuple[str, str]]:
    """Every country, named in the active language (a callable, so the language is the request's)."""
    return [("", "—"), *country_choices()]


def preset_choices() -> list[tuple[str, str]]:
    return [(name, preset_label(name)) for name in PRESETS]


def chosen_preset(value: Any) -> str:
    """The preset named by a query parameter, or the default for anything else (never an error)."""
    return value if isinstance(value, str) and value in PRESETS else DEFAULT_PRESET


def _words(value: str) -> str:
    text = str(CHOICE_WORDS.get(value, value.replace("_", " ")))
    return text[:1].upper() + text[1:]


class UmaWidget(forms.MultiWidget):
    """Four number inputs side by side: 1st, 2nd, 3rd, 4th place."""

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        places = (
            gettext_lazy("Uma for 1st place"),
            gettext_lazy("Uma for 2nd place"),
            gettext_lazy("Uma for 3rd place"),
            gettext_lazy("Uma for 4th place"),
        )
        super().__init__(
            [forms.NumberInput(attrs={"aria-label": label, "inputmode": "numeric"}) for label in places],
            attrs,
        )

    def decompress(self, value: Any) -> list[Any]:
        if isinstance(value, list | tuple) and len(value) == 4:
            return list(value)
        return [None, None, None, None]


class UmaField(forms.MultiValueField):
    """Uma as four whole numbers of points; the engine checks that they sum to 0 and do not increase."""

    widget = UmaWidget

    def __init__(self, **kwargs: Any) -> None:
        fields = [forms.IntegerField(min_value=-POINTS_LIMIT, max_value=POINTS_LIMIT) for _ in range(4)]
        super().__init__(fields=fields, require_all_fields=True, **kwargs)

    def compress(self, data_list: list[Any]) -> list[int] | None:
        return list(data_list) if data_list else None


def setting_field(name: str) -> forms.Field:
    """The form field for one ruleset setting, labelled with what it means (in the reader's language:
    the engine marks each meaning for the catalogues)."""
    setting = SETTINGS[name]
    label = gettext(setting.meaning)
    if name == "uma":
        return UmaField(label=label)
    if setting.kind is bool:
        return forms.BooleanField(label=label, required=False)
    if setting.kind is int:
        return forms.IntegerField(
            label=label,
            min_value=0,
            max_value=POINTS_LIMIT,
            widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        )
    if setting.kind is str:
        return forms.ChoiceField(label=label, choices=[(c, _words(c)) for c in setting.choices])
    return forms.MultipleChoiceField(
        label=label,
        required=False,
        choices=[(c, _words(c)) for c in setting.choices],
        widget=forms.CheckboxSelectMultiple,
    )


class RulesForm(forms.Form):
    """An event's rules as a preset plus settings in plain words: shared by the new-event form, the
    edit form and scoring's rules-change page, so the rules are entered the same way everywhere.

    ``rules`` (an event's current ruleset) fills the settings in with what the event plays now; without
    it, or when ``preset`` names another preset (the organiser chose it in the select), the settings
    start from that preset.
    """

    preset = forms.ChoiceField(
        label=gettext_lazy("Rules preset"),
        choices=preset_choices,
        help_text=gettext_lazy(
            "Choosing a preset fills in its settings below; change any setting your event plays differently."
        ),
    )

    def __init__(
        self, *args: Any, preset: str | None = None, rules: Ruleset | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        if rules is not None and (preset is None or preset == rules.preset):
            preset, values = rules.preset, rules.to_dict()
        else:
            preset = chosen_preset(preset)
            values = PRESETS[preset]
        self.fields["preset"].initial = preset
        for name in SETTINGS:
            field = setting_field(name)
            field.initial = values[name]
            self.fields[name] = field

    def clean(self) -> dict[str, Any]:
        """Ask the engine about the settings now, so that a ruleset error shows with the other errors
        (the service asks again before saving: the engine stays the one place for these rules)."""
        cleaned = super().clean() or {}
        if "preset" in cleaned and all(name in cleaned for name in SETTINGS):
            try:
                make_ruleset(cleaned["preset"], self.overrides())
            except RulesetError as exc:
                self.add_error(exc.field if exc.field in self.fields else None, engine_message(exc))
        return cleaned

    def setting_fields(self) -> list[forms.BoundField]:
        """The ruleset settings, for the template's "Rules" fieldset."""
        return [self[name] for name in SETTINGS]

    def overrides(self) -> dict[str, Any]:
        """The settings that differ from the chosen preset (call after ``is_valid()``)."""
        base = PRESETS[self.cleaned_data["preset"]]
        out: dict[str, Any] = {}
        for name, setting in SETTINGS.items():
            value = self.cleaned_data[name]
            if setting.kind is tuple and name != "uma":
                value = [c for c in setting.choices if c in value]
                if sorted(value) == sorted(base[name]):
                    continue
            if value != base[name]:
                out[name] = value
        return out

    def ruleset(self) -> Ruleset:
        """The effective ruleset the form describes (call after ``is_valid()``)."""
        return make_ruleset(self.cleaned_data["preset"], self.overrides())

    def rules_items(self) -> list[tuple[str, str]]:
        """The submitted rules as (name, value) pairs, to hand the same proposal to another page or form
        (the confirmation's hidden inputs, the query string of scoring's rules page); with them the
        settings that decide what a substitute's game counts for (``RESULTS_SETTINGS``), which change
        with the rules once the event has games."""
        names = sorted({"preset", *SETTINGS, *(f"uma_{i}" for i in range(4)), *RESULTS_SETTINGS})
        items: list[tuple[str, str]] = []
        for key in names:
            if key not in self.data:
                continue
            values = self.data.getlist(key) if hasattr(self.data, "getlist") else self.data[key]
            items.extend((key, str(v)) for v in (values if isinstance(values, list | tuple) else [values]))
        return items

    def rules_query(self) -> str:
        """The submitted rules as a query string (see ``rules_items``)."""
        query = QueryDict(mutable=True)
        for key, value in self.rules_items():
            query.appendlist(key, value)
        return query.urlencode()


def substitute_credit_field() -> forms.ChoiceField:
    """How a substitute's game counts for the player it replaces (the event form and the rules page)."""
    return forms.ChoiceField(
        required=False,
        label=gettext_lazy("Games played by a substitute"),
        choices=Event.SubstituteCredit.choices,
        initial=Event.SubstituteCredit.REGISTERED,
        help_text=gettext_lazy("Tournaments: how a substitute's game counts for the player it replaces."),
    )


def substitute_fixed_result_field() -> forms.IntegerField:
    return forms.IntegerField(
        required=False,
        label=gettext_lazy("Fixed result for a replaced player"),
        initial=0,
        min_value=-200_000,
        max_value=200_000,
        help_text=gettext_lazy("In points, when substitutes earn a fixed result."),
    )


class EventRulesForm(RulesForm):
    """Scoring's rules page: the rules and how a substitute's game counts, the settings that decide an
    event's results once it has games (changed together, each game replayed under them).

    A proposal without the substitute settings (a link made before they were part of it) keeps the
    event's own."""

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, rules=event.rules, **kwargs)
        self.event = event
        self.fields["substitute_credit"] = substitute_credit_field()
        self.fields["substitute_credit"].initial = event.substitute_credit
        self.fields["substitute_fixed_result"] = substitute_fixed_result_field()
        self.fields["substitute_fixed_result"].initial = event.substitute_fixed_result

    def substitutes(self) -> dict[str, Any]:
        """The proposed substitute settings (call after ``is_valid()``): blank ones stay as they are."""
        credit = self.cleaned_data.get("substitute_credit") or self.event.substitute_credit
        fixed = self.cleaned_data.get("substitute_fixed_result")
        return {
            "substitute_credit": credit,
            "substitute_fixed_result": self.event.substitute_fixed_result if fixed is None else fixed,
        }

    def substitute_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in RESULTS_SETTINGS]


class EventDetailsForm(forms.Form):
    """What an event is besides its rules: shared by the new-event and edit forms."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    # An <input type="date"> reads only ISO dates: never the language's own format (10.01.2025 in Polish
    # would show an empty field, and saving would blank the date).
    start_date = forms.DateField(
        label=gettext_lazy("Start date"),
        required=False,
        widget=forms.DateInput({"type": "date"}, format="%Y-%m-%d"),
    )
    end_date = forms.DateField(
        label=gettext_lazy("End date"),
        required=False,
        widget=forms.DateInput({"type": "date"}, format="%Y-%m-%d"),
    )
    city = forms.CharField(label=gettext_lazy("City"), max_length=80, required=False)
    country = forms.ChoiceField(label=gettext_lazy("Country"), choices=_country_options, required=False)
    visibility = forms.ChoiceField(label=gettext_lazy("Visibility"), choices=Event.Visibility.choices)
    min_games = forms.IntegerField(
        label=gettext_lazy("Minimum games"),
        min_value=0,
        max_value=10_000,
        initial=0,
        help_text=gettext_lazy("Games a player needs to be ranked in the standings (0: everyone is ranked)."),
    )
    tie_break = forms.ChoiceField(
        required=False,
        label=gettext_lazy("Standings tie-breaks"),
        choices=Event.TieBreak.choices,
        initial=Event.TieBreak.POINTS_PLACEMENT_GAMES,
    )
    substitute_credit = substitute_credit_field()
    substitute_fixed_result = substitute_fixed_result_field()
    ema_days = forms.IntegerField(
        required=False, label=gettext_lazy("Days (MERS)"), initial=1, min_value=1, max_value=3
    )
    ema_qualification = forms.BooleanField(
        label=gettext_lazy("Qualification required (MERS)"), required=False
    )
    # -- the tournament day (tournaments/links.py, tournaments/clock.py): tournaments only ------------
    round_minutes = forms.IntegerField(
        required=False,
        label=gettext_lazy("Round length (minutes)"),
        initial=90,
        min_value=1,
        max_value=600,
        help_text=gettext_lazy("The round clock's length; each round can be given more time on the day."),
    )
    table_entry = forms.BooleanField(
        required=False,
        initial=True,
        label=gettext_lazy("Tables enter their own games"),
        help_text=gettext_lazy(
            "Each table gets a link and a QR code on its score slip while its round is open."
        ),
    )
    table_entry_mode = forms.ChoiceField(
        required=False,
        label=gettext_lazy("Tables enter"),
        choices=Event._meta.get_field("table_entry_mode").choices,
        initial="hands",
        help_text=gettext_lazy("For the tables' links issued from now on."),
    )
    confirmation = forms.ChoiceField(
        required=False,
        label=gettext_lazy("Confirmation of tables' games"),
        choices=Event.Confirmation.choices,
        initial=Event.Confirmation.NONE,
        help_text=gettext_lazy(
            "Whether a game a table enters counts at once, once you confirm it, or once its four players "
            "confirm it with the codes printed on the slip."
        ),
    )
    standings_hidden_after_round = forms.IntegerField(
        required=False,
        label=gettext_lazy("Hide standings after round"),
        min_value=1,
        max_value=99,
        help_text=gettext_lazy(
            "For a final reveal: the public standings (page, download, wall screen) stop at this round "
            "until you release them on the tournament page. Leave blank to show every round."
        ),
    )
    # -- an online event (scoring/online.py): shown on the event page, checked when importing logs ----
    online = forms.ChoiceField(
        required=False,
        label=gettext_lazy("Played online"),
        choices=Event.Online.choices,
        initial="",
        help_text=gettext_lazy("For a league or tournament played on Tenhou or Mahjong Soul."),
    )
    online_lobby = forms.CharField(
        required=False,
        max_length=Event._meta.get_field("online_lobby").max_length,
        label=gettext_lazy("Lobby or contest id"),
        help_text=gettext_lazy(
            "The Tenhou lobby (e.g. L1234) or the Mahjong Soul contest id, shown on the event page so that "
            "players find it. Imported games from another lobby are pointed out."
        ),
    )

    EVENT_DEFAULTS = {
        "tie_break": Event.TieBreak.POINTS_PLACEMENT_GAMES,
        "substitute_credit": Event.SubstituteCredit.REGISTERED,
        "substitute_fixed_result": 0,
        "ema_days": 1,
        "round_minutes": 90,
        "table_entry_mode": "hands",
        "confirmation": Event.Confirmation.NONE,
    }
    DETAILS = EVENT_DETAILS  # the fields update_event accepts: one list for the form and the service
    # Settings of the tournament day: shown for a tournament only (a league has no rounds), and not on
    # the new-event form, whose service takes the details it knows: they are set on the edit page.
    TOURNAMENT_DAY = (
        "round_minutes",
        "table_entry",
        "table_entry_mode",
        "confirmation",
        "standings_hidden_after_round",
    )
    ONLINE = ("online", "online_lobby")  # like the tournament day: set on the edit page

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for name, default in self.EVENT_DEFAULTS.items():  # optional settings left blank: the defaults
            if name in self.fields and cleaned.get(name) in (None, ""):
                cleaned[name] = default
        lobby = (cleaned.get("online_lobby") or "").strip()
        if "online" in self.fields and lobby and not cleaned.get("online"):
            self.add_error(
                "online_lobby",
                gettext_lazy("A lobby or contest id needs the site: choose Tenhou or Mahjong Soul above."),
            )
        return cleaned

    @classmethod
    def initial_from(cls, event: Event) -> dict[str, Any]:
        """The form's initial values from an event (the country as its code)."""
        initial = {name: getattr(event, name) for name in cls.DETAILS}
        initial["country"] = event.country.code if event.country else ""
        return initial

    def details(self) -> dict[str, Any]:
        """The cleaned event details, as ``league.services.update_event`` takes them (those the form
        shows: a league's edit form has no tournament-day settings, which then stay as they are)."""
        return {name: self.cleaned_data[name] for name in self.DETAILS if name in self.fields}

    def event_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name not in SETTINGS and name != "preset"]


class EventForm(EventDetailsForm, RulesForm):
    """A new event: who, when, where, and its rules as a preset plus settings in plain words."""

    slug = forms.SlugField(
        label=gettext_lazy("Slug"),
        max_length=80,
        required=False,
        help_text=gettext_lazy("The event's address. Leave blank to make it from the name."),
    )
    kind = forms.ChoiceField(label=gettext_lazy("Kind"), choices=Event.Kind.choices)

    field_order = ["name", "slug", "kind", *EventDetailsForm.DETAILS[1:], "preset"]

    def __init__(self, *args: Any, preset: str = DEFAULT_PRESET, **kwargs: Any) -> None:
        super().__init__(*args, preset=preset, **kwargs)
        for name in (*self.TOURNAMENT_DAY, *self.ONLINE):
            self.fields.pop(name, None)


class EventEditForm(EventDetailsForm, RulesForm):
    """An existing event's details and rules; the slug (its address) and its kind stay as created."""

    field_order = [*EventDetailsForm.DETAILS, "preset"]

    def __init__(self, *args: Any, event: Event, preset: str | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("initial", self.initial_from(event))
        super().__init__(*args, preset=preset, rules=event.rules, **kwargs)
        if event.kind != Event.Kind.TOURNAMENT:
            for name in self.TOURNAMENT_DAY:
                self.fields.pop(name, None)
        elif event.standings_released_at is not None and event.standings_hidden_after_round is not None:
            self._offer_hiding_again(event)

    def _offer_hiding_again(self, event: Event) -> None:
        """After the release, the hidden round alone says nothing any more (the public sees everything):
        the form says so, and offers to hide the rounds after it again, right below it."""
        when = date_format(timezone.localtime(event.standings_released_at), "DATETIME_FORMAT")
        self.fields["standings_hidden_after_round"].help_text = gettext(
            "Released on %(when)s: the public sees every round. A new round here hides the rounds after "
            "it again; to hide them again after the same round, tick the box below."
        ) % {"when": when}
        fields = list(self.fields.items())
        at = [name for name, _field in fields].index("standings_hidden_after_round") + 1
        hide = forms.BooleanField(
            required=False,
            label=gettext_lazy("Hide the standings again"),
            help_text=gettext_lazy(
                "Takes back the release: the public standings stop after the round above again, until "
                "you release them again on the tournament page."
            ),
        )
        self.fields = dict([*fields[:at], ("hide_standings_again", hide), *fields[at:]])

    def details(self) -> dict[str, Any]:
        details = super().details()
        if "hide_standings_again" in self.fields:
            details["hide_standings_again"] = self.cleaned_data.get("hide_standings_again", False)
        return details


class PlayerForm(forms.Form):
    """A player's details: shared by registering a player and editing one."""

    display_name = forms.CharField(
        label=gettext_lazy("Display name"),
        max_length=80,
        help_text=gettext_lazy("The name shown in standings."),
    )
    given_name = forms.CharField(label=gettext_lazy("Given name"), max_length=80, required=False)
    family_name = forms.CharField(label=gettext_lazy("Family name"), max_length=80, required=False)
    ema_number = forms.CharField(
        label=gettext_lazy("EMA number"),
        max_length=20,
        required=False,
        help_text=gettext_lazy("8 digits, leading zeros included (e.g. 04390002). Optional."),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    country = forms.ChoiceField(label=gettext_lazy("Country"), choices=_country_options, required=False)
    # Online names: an imported Tenhou or Mahjong Soul log finds the player by them (scoring/online.py).
    tenhou_name = forms.CharField(
        label=gettext_lazy("Tenhou name"),
        max_length=Player._meta.get_field("tenhou_name").max_length,
        required=False,
        help_text=gettext_lazy("The name they play under on Tenhou, for importing online games. Optional."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    mahjongsoul_name = forms.CharField(
        label=gettext_lazy("Mahjong Soul nickname"),
        max_length=Player._meta.get_field("mahjongsoul_name").max_length,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    mahjongsoul_id = forms.CharField(
        label=gettext_lazy("Mahjong Soul friend ID"),
        max_length=Player._meta.get_field("mahjongsoul_id").max_length,
        required=False,
        help_text=gettext_lazy("Digits, as the friend list shows it. Optional."),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )

    @staticmethod
    def initial_from(player: Player) -> dict[str, Any]:
        """The form's initial values from a saved player."""
        return {
            "display_name": player.display_name,
            "given_name": player.given_name,
            "family_name": player.family_name,
            "ema_number": player.ema_number or "",
            "country": player.country.code if player.country else "",
            "tenhou_name": player.tenhou_name,
            "mahjongsoul_name": player.mahjongsoul_name,
            "mahjongsoul_id": player.mahjongsoul_id,
        }


class PlayerEditForm(PlayerForm):
    """A player's details as their club keeps them: those of :class:`PlayerForm` and who may see their
    page (the player's and their club's decision, never an event's)."""

    visibility = forms.ChoiceField(
        label=gettext_lazy("Player page"),
        choices=Player.Visibility.choices,
        required=False,  # not sent (an older page): left as it is
        help_text=gettext_lazy(
            "Members only: their page needs a login, and the public pages of every event — another "
            "club's public ones too — show their display name and results only."
        ),
    )

    @staticmethod
    def initial_from(player: Player) -> dict[str, Any]:
        return {**PlayerForm.initial_from(player), "visibility": player.visibility}

    def clean_visibility(self) -> str | None:
        return self.cleaned_data.get("visibility") or None


class RegisterPlayerForm(PlayerForm):
    """One player for an event; the service finds them among the club's players or creates them."""

    is_substitute = forms.BooleanField(
        required=False,
        label=gettext_lazy("Substitute"),
        help_text=gettext_lazy(
            "Fills tables and replaces players who drop out; not listed in the standings."
        ),
    )


class RegisterPlayersCsvForm(forms.Form):
    """Several players pasted from a spreadsheet, one per line: a name alone is enough."""

    csv = forms.CharField(
        label=gettext_lazy("Players, one per line"),
        max_length=PASTE_MAX_CHARS,
        widget=forms.Textarea(
            attrs={
                "rows": 6,
                "placeholder": "Ann\nBob, Robert, Smith, 04390002, FR\nCho,,,,, cho_t, ChoMS, 12345678",
            }
        ),
        help_text=format_lazy(
            gettext_lazy(
                "One player per line: the display name, then optionally given name, family name, EMA "
                "number, country, Tenhou name, Mahjong Soul nickname and Mahjong Soul friend ID, in that "
                "order (leave a column empty with two commas: Ann,,,04390002). A line with only a name "
                "registers that player. The country is a two-letter (FR) or EMA (FRA) code. A header line "
                "is ignored. At most {max} lines at a time: paste a longer list in parts."
            ),
            max=PASTE_MAX_LINES,
        ),
    )


def _field_label(key: str) -> str:
    """A field a form does not show, named for people: its model's verbose name (in the reader's
    language), or the key with spaces when no model has it."""
    for model in (Event, Player):
        try:
            return str(model._meta.get_field(key).verbose_name)
        except FieldDoesNotExist:
            continue
    return key.replace("_", " ")


class WithdrawForm(forms.Form):
    """Why a player is withdrawn (the history keeps it): required once they have played, which the
    service checks (a form cannot know)."""

    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=300, required=False)


def add_service_errors(form: forms.Form, exc: ValidationError) -> None:
    """Put a service's ValidationError on the form: on the field it names when the form has that field,
    otherwise at the top of the form (so no message is ever lost)."""
    if not hasattr(exc, "error_dict"):
        form.add_error(None, exc)
        return
    for key, errors in exc.error_dict.items():
        target = key if key in form.fields else None
        if target is None and key != NON_FIELD_ERRORS:
            label = _field_label(key)
            errors = [
                ValidationError(gettext("%(field)s: %(message)s") % {"field": label, "message": m})
                for e in errors
                for m in e.messages
            ]
        form.add_error(target, errors)


RULESET_JSON_MAX = 20_000
"""Characters of a ruleset typed as JSON in the admin: a full ruleset is under 1 000."""


class RulesetJSONField(forms.JSONField):
    """A ruleset as JSON text, parsed without ever failing: too long, nested too deep for the parser
    (RecursionError) or holding an integer of thousands of digits (ValueError) is a form error, where
    Django's JSONField lets those escape as a server error. The engine then checks every value."""

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str) and len(value) > RULESET_JSON_MAX:
            raise ValidationError(
                ngettext(
                    "The rules hold %(count)d character: at most %(max)d.",
                    "The rules hold %(count)d characters: at most %(max)d.",
                    len(value),
                ),
                code="max_length",
                params={"count": len(value), "max": RULESET_JSON_MAX},
            )
        try:
            return super().to_python(value)
        except (ValueError, RecursionError):  # JSONDecodeError is a ValueError
            raise ValidationError(
                gettext_lazy("Enter the rules as valid JSON: a preset name or an object of settings."),
                code="invalid",
            ) from None

    def bound_data(self, data: Any, initial: Any) -> Any:
        """The submitted text shown back as it was when it cannot be parsed (never an exception)."""
        if isinstance(data, str) and len(data) > RULESET_JSON_MAX:
            return forms.fields.InvalidJSONInput(data[:RULESET_JSON_MAX])
        try:
            return super().bound_data(data, initial)
        except (ValueError, RecursionError):
            return forms.fields.InvalidJSONInput(data)


class EventAdminForm(forms.ModelForm):
    """The admin's event form: the ruleset through :class:`RulesetJSONField` (``Event.clean`` then asks
    the engine, which bounds every number)."""

    class Meta:
        model = Event
        fields = "__all__"  # noqa: DJ007 - the admin's own fieldsets decide what shows
        field_classes = {"ruleset": RulesetJSONField}
