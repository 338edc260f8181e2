"""Forms of the scoring pages. A form turns what the organiser picked into an engine ``Hand``; the engine
then says whether that hand can happen, and its message lands on the field it names."""

from __future__ import annotations

import re
import secrets
from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from league.collation import order_by_name
from league.engine_text import WIND_WORDS, engine_message, wind_name
from league.models import Hanchan, Player

from . import engine, yaku_picker
from .describe import ABORT_WORDS, RESULT_WORDS
from .engine.logs.yaku import YAKU_BY_NAME
from .engine.tiles import TileHand, score_tiles
from .services.hanchan import default_played_on

WINDS = engine.WINDS
HAN_CHOICES = [("", "han")] + [(str(h), f"{h} han") for h in range(1, 14)]
FU_CHOICES = [("", "fu")] + [(str(f), f"{f} fu") for f in sorted(engine.value.VALID_FU)]
YAKUMAN_CHOICES = [
    ("", "—"),
    ("1", gettext_lazy("yakuman")),
    ("2", gettext_lazy("double yakuman")),
    ("3", gettext_lazy("triple yakuman")),
]
EXTRA_WINS = (2, 3)


def seat_labels(names: list[str], dealer: int) -> list[tuple[str, str]]:
    """Seat choices showing each player's wind in the coming hand: "Ann (East)"."""
    return [(str(s), _seat_label(names[s], (s - dealer) % 4)) for s in range(4)]


def _seat_label(name: str, wind: int) -> str:
    """A player with their wind: "Ann (East)"."""
    return gettext("%(name)s (%(wind)s)") % {"name": name, "wind": wind_name(wind)}


def allowed_results(rules: engine.Ruleset) -> list[str]:
    results = ["ron", "tsumo", "draw"]
    if rules.abortive_draws:
        results.append("abort")
    if rules.allows_chombo():
        results.append("chombo")
    return results


def _seat(value: str | None) -> int | None:
    return int(value) if value not in (None, "") else None


def _int(value: str | None) -> int | None:
    return int(value) if value not in (None, "") else None


MAX_DORA = 40
"""The most dora (or ura dora) a hand can show: five indicators, each pointing at up to four tiles, and
then some. Anything above is a typing slip."""

# The situational yaku a hand entered as tiles cannot see in its tiles: picked, they reach the calculator.
_TILE_FLAGS = {
    "double_riichi": "double_riichi",
    "ippatsu": "ippatsu",
    "haitei_raoyue": "haitei",
    "houtei_raoyui": "houtei",
    "rinshan_kaihou": "rinshan",
    "chankan": "chankan",
    "tenhou": "tenhou",
    "chiihou": "chiihou",
}


def new_entry_key() -> str:
    """A fresh random key for one rendered entry form (22 URL-safe characters)."""
    return secrets.token_urlsafe(16)


_ENTRY_KEY = re.compile(r"^[A-Za-z0-9_-]{8,40}$")


class EntryKeyField(forms.CharField):
    """The hidden key of one rendered entry form: the same form sent twice (a double tap, a resent page)
    carries the same key, which the services store with what it saved (``Hand.entry_key``,
    ``Hanchan.scores_key``) and recognise. Anything that is not such a key is ignored (an empty key: the
    form is then never taken for another), never an error the reader could not see or fix."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, widget=forms.HiddenInput, initial=new_entry_key, **kwargs)

    def to_python(self, value: Any) -> str:
        text = value if isinstance(value, str) else ""
        return text if _ENTRY_KEY.match(text) else ""


class YakuCheckboxes(forms.CheckboxSelectMultiple):
    """The picker's checkboxes, each carrying what ``static/js/yaku-picker.js`` needs to fill han and fu
    (its han closed and open, its yakuman count, whether it needs a closed hand) as data attributes."""

    rules: engine.Ruleset | None = None

    def create_option(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(*args, **kwargs)
        yaku = YAKU_BY_NAME.get(str(option["value"]))
        if yaku is not None:
            option["attrs"].update(
                {
                    "data-han-closed": yaku.han_closed,
                    "data-han-open": yaku.han_open,
                    "data-yakuman": (
                        yaku_picker.yakuman_count(yaku, self.rules) if yaku.is_yakuman and self.rules else 0
                    ),
                    "data-closed-only": "1" if yaku_picker.needs_closed_hand(yaku) else "",
                }
            )
        return option


def _count_field(label: Any, maximum: int = MAX_DORA) -> forms.IntegerField:
    """A small number input for a dora count (empty: not recorded)."""
    return forms.IntegerField(
        required=False,
        min_value=0,
        max_value=maximum,
        label=label,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "count"}),
    )


class HandForm(forms.Form):
    """One hand. A single ron needs four picks: winner, loser, han, fu (ron is preselected)."""

    # The labels name the fields in the error summary above a refused hand (the page writes its own
    # legends and labels beside the inputs, in the same words).
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)
    entry_key = EntryKeyField()
    result = forms.ChoiceField(widget=forms.RadioSelect, initial="ron", label=gettext_lazy("Outcome"))
    winner = forms.TypedChoiceField(
        required=False, widget=forms.RadioSelect, coerce=int, empty_value=None, label=gettext_lazy("Winner")
    )
    loser = forms.TypedChoiceField(
        required=False,
        widget=forms.RadioSelect,
        coerce=int,
        empty_value=None,
        label=gettext_lazy("Discarded by"),
    )
    han = forms.TypedChoiceField(
        required=False, choices=HAN_CHOICES, coerce=int, empty_value=None, label=gettext_lazy("Han")
    )
    fu = forms.TypedChoiceField(
        required=False, choices=FU_CHOICES, coerce=int, empty_value=None, label=gettext_lazy("Fu")
    )
    yakuman = forms.TypedChoiceField(
        required=False, choices=YAKUMAN_CHOICES, coerce=int, empty_value=None, label=gettext_lazy("Yakuman")
    )
    pao = forms.TypedChoiceField(
        required=False, coerce=int, empty_value=None, label=gettext_lazy("Pao (liable)")
    )
    riichi = forms.TypedMultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        coerce=int,
        label=gettext_lazy("Riichi deposits paid this hand"),
    )
    tenpai = forms.TypedMultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        coerce=int,
        label=gettext_lazy("Tenpai at the draw"),
    )
    nagashi = forms.TypedMultipleChoiceField(
        required=False, widget=forms.CheckboxSelectMultiple, coerce=int, label=gettext_lazy("Nagashi mangan")
    )
    seat = forms.TypedChoiceField(
        required=False,
        widget=forms.RadioSelect,
        coerce=int,
        empty_value=None,
        label=gettext_lazy("Offender"),
    )
    reason = forms.ChoiceField(
        required=False,
        label=pgettext_lazy("hand outcome", "Abortive draw"),
        choices=[("", "—")] + list(ABORT_WORDS.items()),
    )
    tiles = forms.CharField(
        required=False,
        max_length=60,
        label=gettext_lazy("Tiles (optional)"),
        help_text=gettext_lazy("Concealed tiles with the winning tile, e.g. 123m456p789s22z555z"),
    )
    win_tile = forms.CharField(required=False, max_length=4, label=gettext_lazy("Winning tile"))
    melds = forms.CharField(
        required=False,
        max_length=80,
        label=gettext_lazy("Melds"),
        help_text=gettext_lazy("e.g. pon:555z, chi:123m"),
    )
    dora = forms.CharField(required=False, max_length=20, label=gettext_lazy("Dora indicators"))
    ura_dora = forms.CharField(
        required=False,
        max_length=20,
        label=gettext_lazy("Ura dora indicators"),
        help_text=gettext_lazy("Turned over after a riichi win, e.g. 4s"),
    )
    # The yaku picker (optional): the picked yaku are stored with the win and give its han (and fu where
    # they fix it); the dora counts are part of the han. See scoring/yaku_picker.py.
    yaku = forms.MultipleChoiceField(required=False, widget=YakuCheckboxes, label=gettext_lazy("Yaku"))
    open_hand = forms.BooleanField(
        required=False,
        label=gettext_lazy("Open hand"),
        help_text=gettext_lazy(
            "The winner called a tile (chi, pon or open kan): some yaku count one han less."
        ),
    )
    dora_count = _count_field(gettext_lazy("Dora"))
    aka_count = _count_field(gettext_lazy("Red fives"))
    ura_count = _count_field(gettext_lazy("Ura dora"))

    def __init__(
        self, *args: Any, rules: engine.Ruleset, names: list[str], state: engine.TableState, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.rules, self.names, self.state = rules, names, state
        seats = seat_labels(names, state.dealer)
        self.fields["result"].choices = [(r, RESULT_WORDS[r]) for r in allowed_results(rules)]
        for name in ("winner", "loser", "seat"):
            self.fields[name].choices = seats
        for name in ("riichi", "tenpai", "nagashi"):
            self.fields[name].choices = seats
        self.fields["pao"].choices = [("", "—")] + seats
        self.multiple_ron = rules.multiple_ron == "each"
        if self.multiple_ron:
            for i in EXTRA_WINS[: 2 if rules.triple_ron == "win" else 1]:
                # Own ids: Django's default for ``winner_2`` is ``id_winner_2``, which is also the id of
                # the main winner's third radio button, so the "Winner 2" label would select that radio.
                self.fields[f"winner_{i}"] = forms.TypedChoiceField(
                    required=False,
                    choices=[("", "—")] + seats,
                    coerce=int,
                    empty_value=None,
                    label=gettext("Winner %(number)d") % {"number": i},
                    widget=forms.Select(attrs={"id": f"id_win{i}_winner"}),
                )
                self.fields[f"han_{i}"] = forms.TypedChoiceField(
                    required=False,
                    choices=HAN_CHOICES,
                    coerce=int,
                    empty_value=None,
                    label=gettext("Han"),
                    widget=forms.Select(attrs={"id": f"id_win{i}_han"}),
                )
                self.fields[f"fu_{i}"] = forms.TypedChoiceField(
                    required=False,
                    choices=FU_CHOICES,
                    coerce=int,
                    empty_value=None,
                    label=gettext("Fu"),
                    widget=forms.Select(attrs={"id": f"id_win{i}_fu"}),
                )
                self.fields[f"yakuman_{i}"] = forms.TypedChoiceField(
                    required=False,
                    choices=YAKUMAN_CHOICES,
                    coerce=int,
                    empty_value=None,
                    label=gettext("Yakuman"),
                    widget=forms.Select(attrs={"id": f"id_win{i}_yakuman"}),
                )
        if not rules.nagashi_mangan:
            del self.fields["nagashi"]
        if not rules.abortive_draws:
            del self.fields["reason"]
        if not rules.pao_yaku:
            del self.fields["pao"]
        picker = self.fields["yaku"]
        picker.choices = [(y.name, yaku_picker.label(y.name)) for y in yaku_picker.PICKABLE]
        picker.widget.rules = rules
        if rules.red_fives > 0:  # no more in a hand than in the set
            self.fields["aka_count"] = _count_field(gettext_lazy("Red fives"), rules.red_fives)
        else:
            del self.fields["aka_count"]  # no red fives in the set: none in any hand
        self.hand: engine.Hand | None = None
        self.tile_score: Any = None

    @property
    def value_notes(self) -> list[str]:
        """Why a win is paid other than as entered: a double yakuman under a ruleset without stacking is
        paid as one yakuman (the record keeps the count; the ruleset decides its worth)."""
        if self.hand is None:
            return []
        return [
            gettext("Paid as one yakuman for %(name)s: this ruleset does not count double yakuman.")
            % {"name": self.names[win.winner]}
            for win in self.hand.wins
            if engine.paid_as_one_yakuman(win.value, self.rules)
        ]

    @property
    def extra_win_numbers(self) -> list[int]:
        return [i for i in EXTRA_WINS if f"winner_{i}" in self.fields]

    @property
    def has_extra_wins(self) -> bool:
        """Whether a second winner is already filled in (the double-ron part then shows open)."""
        return any(self[f"winner_{i}"].value() not in (None, "") for i in self.extra_win_numbers)

    @property
    def extra_win_rows(self) -> list[list[forms.BoundField]]:
        """The second and third winners' fields, one row per winner, for the template."""
        return [
            [self[f"{name}_{i}"] for name in ("winner", "han", "fu", "yakuman")]
            for i in self.extra_win_numbers
        ]

    @property
    def yaku_groups(self) -> list[tuple[str, list[dict[str, Any]]]]:
        """The picker's checkboxes in their groups, each with the han it adds, for the template."""
        widgets = {str(w.data["value"]): w for w in self["yaku"].subwidgets}
        groups = []
        for title, names in yaku_picker.GROUPS:
            items = []
            for name in names:
                yaku = YAKU_BY_NAME[name]
                if yaku.is_yakuman:
                    count = yaku_picker.yakuman_count(yaku, self.rules)
                    han = gettext("yakuman") if count == 1 else gettext("double yakuman")
                elif not yaku.han_open:
                    han = gettext("%(han)s han, closed") % {"han": yaku.han_closed}
                elif yaku.han_open != yaku.han_closed:
                    han = gettext("%(han)s han, open %(open)s") % {
                        "han": yaku.han_closed,
                        "open": yaku.han_open,
                    }
                else:
                    han = gettext("%(han)s han") % {"han": yaku.han_closed}
                items.append(
                    {
                        "widget": widgets[name],
                        "han": han,
                        "name": name,
                        "romaji": yaku_picker.romaji(name),
                        "english": yaku_picker.meaning(name),  # empty when it repeats the romaji
                        "yakuman": yaku.is_yakuman,
                    }
                )
            groups.append((str(title), items))
        return groups

    @property
    def yaku_picked(self) -> bool:
        """Whether the picker holds yaku (its part of the form then shows open)."""
        return bool(self["yaku"].value())

    @property
    def yakuman_picked(self) -> bool:
        """Whether a yakuman is picked (the folded yakuman group then shows open)."""
        return any(YAKU_BY_NAME[n].is_yakuman for n in self["yaku"].value() or () if n in YAKU_BY_NAME)

    def _counts(self, cleaned: dict[str, Any]) -> tuple[int | None, int | None, int | None]:
        """The dora, red-five and ura dora counts as typed (None: left empty, or no red fives in the set)."""
        return cleaned.get("dora_count"), cleaned.get("aka_count"), cleaned.get("ura_count")

    def _value_from_picks(
        self, cleaned: dict[str, Any], winner: int, tsumo: bool, typed: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """The win's value and facts from the picked yaku, checked against what was typed; None (with
        the errors on their fields) if the yaku cannot go together or disagree with the typed value."""
        picks = cleaned.get("yaku") or []
        riichi_paid = winner in (cleaned.get("riichi") or [])
        closed = not cleaned.get("open_hand")
        problems = yaku_picker.check_picks(
            picks,
            closed=closed,
            tsumo=tsumo,
            winner=winner,
            dealer=self.state.dealer,
            deal=self.state.deal,
            riichi_paid=riichi_paid,
            rules=self.rules,
            winner_name=self.names[winner],
        )
        for field, message in problems:
            self.add_error(field if field in self.fields else "yaku", message)
        if problems:
            return None
        dora, aka, ura = self._counts(cleaned)
        picked = yaku_picker.picked_value(
            picks, closed=closed, tsumo=tsumo, dora=dora or 0, aka=aka or 0, ura=ura or 0, rules=self.rules
        )
        if picked.yakuman:
            facts = {"yaku": picked.yaku, "dora": dora, "aka": aka, "ura": ura}
            return {"han": None, "fu": None, "yakuman": typed["yakuman"] or picked.yakuman}, facts
        if typed["yakuman"]:
            self.add_error(
                "yakuman",
                gettext(
                    "Yakuman: none of the picked yaku is a yakuman. Pick the yakuman, or clear this field."
                ),
            )
            return None
        han, fu = typed["han"], typed["fu"]
        assert picked.han is not None
        if han is not None and han != picked.han and not (han == 13 and picked.han >= 13):
            self.add_error(
                "han",
                gettext(
                    "Han: the picked yaku and dora add up to %(picked)s han, not %(han)s. Pick what is "
                    "missing (a yaku, or the dora counts), or correct the han."
                )
                % {"picked": picked.han, "han": han},
            )
            return None
        if picked.han >= 5:
            fu = None
        elif picked.fu is not None:
            if fu is not None and fu != picked.fu:
                self.add_error(
                    "fu", gettext("Fu: %(rule)s, not %(fu)s.") % {"rule": picked.fixed_fu_rule, "fu": fu}
                )
                return None
            fu = picked.fu
        facts = {"yaku": picked.yaku, "dora": dora or 0, "aka": aka or 0, "ura": ura or 0}
        return {"han": picked.han, "fu": fu, "yakuman": None}, facts

    def _value_from_tiles(self, cleaned: dict[str, Any], winner: int, tsumo: bool) -> dict[str, Any] | None:
        if not cleaned.get("tiles"):
            return None
        picks = set(cleaned.get("yaku") or ())
        hand = TileHand(
            tiles=cleaned["tiles"],
            win_tile=cleaned.get("win_tile") or "",
            melds=tuple(m.strip() for m in (cleaned.get("melds") or "").split(",") if m.strip()),
            dora_indicators=cleaned.get("dora") or "",
            ura_dora_indicators=cleaned.get("ura_dora") or "",
            tsumo=tsumo,
            riichi=winner in (cleaned.get("riichi") or []),
            seat_wind=(winner - self.state.dealer) % 4,
            round_wind=min(self.state.deal // 4, 3),
            **{flag: True for name, flag in _TILE_FLAGS.items() if name in picks},
        )
        try:
            score = score_tiles(hand, self.rules)
        except engine.TileError as exc:
            self.add_error(
                exc.field if exc.field in self.fields else "tiles", engine_message(exc, self.names)
            )
            return None
        self.tile_score = score
        if score.yakuman:
            return {"han": None, "fu": None, "yakuman": score.yakuman}
        return {"han": score.han, "fu": score.fu or None, "yakuman": None}

    def _win(
        self, cleaned: dict[str, Any], suffix: str, *, tsumo: bool, pao: int | None
    ) -> engine.Win | None:
        winner = cleaned.get(f"winner{suffix}")
        if winner is None:
            return None
        value = {
            "han": cleaned.get(f"han{suffix}"),
            "fu": cleaned.get(f"fu{suffix}"),
            "yakuman": cleaned.get(f"yakuman{suffix}"),
        }
        facts: dict[str, Any] = {}
        if not suffix:
            from_tiles = self._value_from_tiles(cleaned, winner, tsumo)
            if from_tiles:
                value = from_tiles
                score = self.tile_score
                facts = {"yaku": score.scored or None, "dora": score.dora, "aka": score.aka, "ura": score.ura}
            elif self.errors:
                return None  # the tiles could not be scored: their error says why
            elif cleaned.get("yaku"):
                from_picks = self._value_from_picks(cleaned, winner, tsumo, value)
                if from_picks is None:
                    return None
                value, facts = from_picks
            else:
                facts = self._typed_counts(cleaned, value)
                if facts is None:
                    return None
        if value["yakuman"]:
            value["han"] = value["fu"] = None
        try:
            engine.check_value(engine.HandValue(**value), tsumo=tsumo, rules=self.rules)
        except engine.RuleViolation as exc:
            field = f"{exc.field}{suffix}" if exc.field in ("han", "fu", "yakuman") else f"han{suffix}"
            self.add_error(field if field in self.fields else None, engine_message(exc, self.names))
            return None
        return engine.Win(winner, value["han"], value["fu"], value["yakuman"], pao, **facts)

    def _typed_counts(self, cleaned: dict[str, Any], value: dict[str, Any]) -> dict[str, Any] | None:
        """Dora counts typed without picking yaku: kept as facts, but they cannot be the whole han (dora
        are not a yaku, so a hand has at least one han besides them)."""
        dora, aka, ura = self._counts(cleaned)
        if "aka_count" not in self.fields and (dora is not None or ura is not None):
            aka = 0  # counted, and a set without red fives has none to count
        total = (dora or 0) + (aka or 0) + (ura or 0)
        han = value["han"]
        if han is not None and not value["yakuman"] and total >= han:
            self.add_error(
                "dora_count",
                gettext(
                    "Dora: %(dora)s dora (with red fives and ura dora) leave no han for a yaku in a hand of "
                    "%(han)s han; dora alone are not a yaku."
                )
                % {"dora": total, "han": han},
            )
            return None
        return {"dora": dora, "aka": aka, "ura": ura}

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        result = cleaned.get("result")
        riichi = tuple(cleaned.get("riichi") or ())
        if result in ("ron", "tsumo"):
            tsumo = result == "tsumo"
            if cleaned.get("winner") is None:
                self.add_error("winner", gettext("Pick the winner."))
                return cleaned
            if not tsumo and cleaned.get("loser") is None:
                self.add_error("loser", gettext("Pick who discarded the winning tile."))
                return cleaned
            wins = [self._win(cleaned, "", tsumo=tsumo, pao=cleaned.get("pao"))]
            if not tsumo:
                wins += [self._win(cleaned, f"_{i}", tsumo=False, pao=None) for i in self.extra_win_numbers]
            if self.errors:
                return cleaned
            win_list = [w for w in wins if w is not None]
            if tsumo:
                self.hand = engine.Hand.tsumo(win_list[0], riichi=riichi)
            else:
                self.hand = engine.Hand.ron(cleaned["loser"], *win_list, riichi=riichi)
        elif result == "draw":
            self.hand = engine.Hand.draw(
                tuple(cleaned.get("tenpai") or ()), riichi=riichi, nagashi=tuple(cleaned.get("nagashi") or ())
            )
        elif result == "abort":
            self.hand = engine.Hand.abort(riichi=riichi, reason=cleaned.get("reason") or None)
        elif result == "chombo":
            if cleaned.get("seat") is None:
                self.add_error("seat", gettext("Pick who made the chombo."))
                return cleaned
            self.hand = engine.Hand.chombo(cleaned["seat"], riichi=riichi)
        return cleaned

    def apply_engine_error(self, exc: Any) -> None:
        """Show a service's ValidationError (from the engine) on the fields it names."""
        if hasattr(exc, "error_dict"):
            for field, errors in exc.error_dict.items():
                target = field if field in self.fields else None
                for error in errors:
                    self.add_error(target, error)
        else:
            self.add_error(None, exc)

    @classmethod
    def initial_for(cls, hand: engine.Hand) -> dict[str, Any]:
        """Form values that show an existing hand (for corrections)."""
        data: dict[str, Any] = {
            "result": hand.result,
            "riichi": list(hand.riichi),
            "tenpai": list(hand.tenpai),
            "nagashi": list(hand.nagashi),
            "loser": hand.loser,
            "seat": hand.seat,
            "reason": hand.reason or "",
        }
        for i, win in enumerate(hand.wins):
            suffix = "" if i == 0 else f"_{i + 1}"
            data.update(
                {
                    f"winner{suffix}": win.winner,
                    f"han{suffix}": win.han,
                    f"fu{suffix}": win.fu,
                    f"yakuman{suffix}": win.yakuman,
                }
            )
            if i == 0:
                data["pao"] = win.pao
                # What the hand was made of, as stored: the picker shows it again for a correction.
                data["yaku"] = [y.name for y in win.yaku or () if y.name in yaku_picker.PICKABLE_NAMES]
                data["open_hand"] = not yaku_picker.closed_from_stored(win.yaku or ())
                data["dora_count"], data["aka_count"], data["ura_count"] = win.dora, win.aka, win.ura
        return data


class StartGameForm(forms.Form):
    """Four registered players in seat order, and how the game will be entered."""

    east = forms.ModelChoiceField(queryset=Player.objects.none(), label=WIND_WORDS[0])
    south = forms.ModelChoiceField(queryset=Player.objects.none(), label=WIND_WORDS[1])
    west = forms.ModelChoiceField(queryset=Player.objects.none(), label=WIND_WORDS[2])
    north = forms.ModelChoiceField(queryset=Player.objects.none(), label=WIND_WORDS[3])
    entry_mode = forms.ChoiceField(
        choices=Hanchan.EntryMode.choices,
        initial=Hanchan.EntryMode.HANDS,
        label=gettext_lazy("Entry mode"),
    )
    round_number = forms.IntegerField(
        required=False, min_value=1, max_value=99, label=gettext_lazy("Round number")
    )
    table_number = forms.IntegerField(
        required=False, min_value=1, max_value=999, label=gettext_lazy("Table number")
    )
    played_on = forms.DateField(
        label=gettext_lazy("Played on"),
        help_text=gettext_lazy("The game lists and the standings' date filters go by this date."),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )

    def __init__(self, *args: Any, players: Any, event: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = order_by_name(players)  # "Léa" before "Lukas", whatever the database's collation
        for name in ("east", "south", "west", "north"):
            self.fields[name].queryset = players
        # Today; for a tournament today within the event's dates (the round's date: no Round model).
        self.fields["played_on"].initial = default_played_on(event) if event is not None else None
        if event is None:
            self.fields["played_on"].required = False  # the service then dates the game

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        chosen = [cleaned.get(n) for n in ("east", "south", "west", "north")]
        seen: set[int] = set()
        for name, player in zip(("east", "south", "west", "north"), chosen, strict=True):
            if player is not None:
                if player.pk in seen:
                    self.add_error(
                        name, gettext("%(player)s already has a seat in this game.") % {"player": player}
                    )
                seen.add(player.pk)
        return cleaned

    @property
    def players(self) -> list[Player]:
        return [self.cleaned_data[n] for n in ("east", "south", "west", "north")]


class FinalScoresForm(forms.Form):
    """The four final scores of a game played on paper, and the riichi sticks left on the table."""

    version = forms.IntegerField(widget=forms.HiddenInput, required=False)
    entry_key = EntryKeyField()
    score_0 = forms.IntegerField(min_value=-999_900, max_value=999_900)
    score_1 = forms.IntegerField(min_value=-999_900, max_value=999_900)
    score_2 = forms.IntegerField(min_value=-999_900, max_value=999_900)
    score_3 = forms.IntegerField(min_value=-999_900, max_value=999_900)
    sticks = forms.IntegerField(
        min_value=0, max_value=40, initial=0, label=gettext_lazy("Riichi sticks left on the table")
    )
    chombo_0 = forms.IntegerField(min_value=0, max_value=9, initial=0, required=False)
    chombo_1 = forms.IntegerField(min_value=0, max_value=9, initial=0, required=False)
    chombo_2 = forms.IntegerField(min_value=0, max_value=9, initial=0, required=False)
    chombo_3 = forms.IntegerField(min_value=0, max_value=9, initial=0, required=False)
    # Required by ``record_final_scores`` when a finished game's scores, sticks or chombos change
    # (a correction, like a hand's); a first entry needs none, so the form cannot require it itself.
    reason = forms.CharField(
        required=False,
        max_length=300,
        label=gettext_lazy("Reason (for a correction)"),
        help_text=gettext_lazy(
            "Needed to change the scores, sticks or chombos of a finished game: the history keeps it."
        ),
    )
    played_on = forms.DateField(
        required=False,
        label=gettext_lazy("Played on"),
        help_text=gettext_lazy("Leave it to keep the game's date."),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )

    def __init__(self, *args: Any, names: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for seat, name in enumerate(names):
            self.fields[f"score_{seat}"].label = _seat_label(name, seat)
            self.fields[f"chombo_{seat}"].label = gettext("Chombos of %(name)s") % {"name": name}

    @property
    def score_fields(self) -> list[forms.BoundField]:
        """The four scores (the fields the running total adds up)."""
        return [self[f"score_{s}"] for s in range(4)]

    @property
    def chombo_fields(self) -> list[forms.BoundField]:
        """Chombos per seat: each is a deduction after uma, not part of the scores."""
        return [self[f"chombo_{s}"] for s in range(4)]

    @property
    def scores(self) -> list[int]:
        return [self.cleaned_data[f"score_{s}"] for s in range(4)]

    @property
    def chombos(self) -> list[int]:
        return [self.cleaned_data.get(f"chombo_{s}") or 0 for s in range(4)]


class OrganiserFinalScoresForm(FinalScoresForm):
    """The organiser's final scores, for any game: one entered hand by hand becomes a final-scores game
    (``record_final_scores(switch_mode=True)``); its recorded hands go only when ``replace`` is ticked,
    with a reason (the service asks for both; a table's page never offers this)."""

    replace = forms.BooleanField(
        required=False,
        label=gettext_lazy("Replace the hands recorded by these final scores"),
        help_text=gettext_lazy("The history keeps the hands removed."),
    )


class ReasonForm(forms.Form):
    """Why: corrections, voids, reopenings and early ends are kept in the history with a reason."""

    version = forms.IntegerField(widget=forms.HiddenInput, required=False)
    reason = forms.CharField(required=False, max_length=300, label=gettext_lazy("Reason"))


class EntryModeForm(ReasonForm):
    """Enter a game the other way (``change_entry_mode``): ``replace`` confirms that the result it
    holds is removed (the service asks for it, and the reason, only then)."""

    entry_mode = forms.ChoiceField(choices=Hanchan.EntryMode.choices, widget=forms.HiddenInput)
    replace = forms.BooleanField(required=False, label=gettext_lazy("Remove the final scores entered"))


class PenaltyForm(forms.Form):
    player = forms.ModelChoiceField(queryset=Player.objects.none(), label=gettext_lazy("Player"))
    points = forms.IntegerField(
        max_value=-100,
        min_value=-1_000_000,
        initial=-20000,
        label=gettext_lazy("Points"),
        help_text=gettext_lazy("Negative: taken off the result after uma."),
    )
    kind = forms.ChoiceField(
        choices=[
            ("chombo", pgettext_lazy("penalty kind", "Chombo")),
            ("other", pgettext_lazy("penalty kind", "Other")),
        ],
        label=gettext_lazy("Kind"),
    )
    reason = forms.CharField(max_length=200, label=gettext_lazy("Reason"))
    hanchan = forms.ModelChoiceField(
        queryset=Hanchan.objects.none(), required=False, label=gettext_lazy("Game (optional)")
    )
    round_number = forms.TypedChoiceField(
        required=False,
        coerce=int,
        empty_value=None,
        label=gettext_lazy("Round"),
        help_text=gettext_lazy(
            "The round it was given in: the standings after an earlier round leave it out. "
            "A penalty given with a game belongs to that game's round."
        ),
    )

    def __init__(
        self,
        *args: Any,
        players: Any,
        games: Any,
        rounds: list[int] | None = None,
        current_round: int | None = None,
        **kwargs: Any,
    ) -> None:
        """``rounds`` are the tournament's rounds (none for a league: the field is then left out) and
        ``current_round`` the default, the round being played."""
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = order_by_name(players)
        self.fields["hanchan"].queryset = games
        if not rounds:
            del self.fields["round_number"]  # a league has no rounds
            return
        field = self.fields["round_number"]
        field.choices = [("", gettext("— (no round)"))] + [
            (str(n), gettext("Round %(number)d") % {"number": n}) for n in rounds
        ]
        field.initial = current_round


class PlayedOnForm(forms.Form):
    """When a game was played: the organiser corrects the date on the game page."""

    version = forms.IntegerField(widget=forms.HiddenInput, required=False)
    played_on = forms.DateField(
        label=gettext_lazy("Played on"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    reason = forms.CharField(required=False, max_length=300, label=gettext_lazy("Reason (optional)"))


REASON_MAX = 300  # the history's reason column


class HandNumberForm(forms.Form):
    """The hand a preview is for (``?number=``): a correction of that hand, or none for the next hand.

    A form field rather than ``str.isdigit``, which accepts "²" and 5 000-digit strings that ``int()``
    then refuses with a server error."""

    number = forms.IntegerField(required=False, min_value=1, max_value=100_000)

    def number_or_none(self) -> int | None:
        """The hand number, or None when it is missing or not a sensible hand number."""
        return self.cleaned_data.get("number") if self.is_valid() else None


class CorrectionReasonForm(forms.Form):
    """Why a hand is corrected: bounded like the history's column, and no NUL characters (the database
    refuses them). A missing reason is the service's to refuse, with its own message."""

    correction_reason = forms.CharField(
        required=False, max_length=REASON_MAX, label=gettext_lazy("Reason for the correction")
    )


class PenaltyCancelForm(forms.Form):
    """Why a penalty is cancelled: required, as long as the penalty's column allows."""

    reason = forms.CharField(max_length=200, label=gettext_lazy("Reason"))


class PagingForm(forms.Form):
    """The standings tables' ``page`` and ``per_page`` query values (with or without the second table's
    prefix): whole numbers in a sane range, or they are ignored (a negative or zero page size crashed
    the paginator)."""

    page = forms.IntegerField(min_value=1, max_value=1_000_000)
    per_page = forms.IntegerField(min_value=1, max_value=1000)
