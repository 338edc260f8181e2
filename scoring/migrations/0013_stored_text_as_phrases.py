"""The history's summaries and reasons, and the penalties' reasons, that code wrote as English sentences
before they were stored as data (league/phrases.py): turned into phrases, so that old entries read in the
reader's language too.

Each known sentence is matched by a pattern and rebuilt as the phrase the code writes now; a row is
converted only when that phrase, rendered in English, gives back exactly the stored sentence — anything
else (a sentence written in French or Polish, one cut to its column, a reason a person typed) stays as
it is. Nothing is lost either way: the text columns keep their text.
"""

from __future__ import annotations

import re
from typing import Any

from django.db import migrations

WINDS = ("East", "South", "West", "North")
KINDS = {"Club league": "Club league", "Tournament": "Tournament"}
VISIBILITIES = {"Public": "Public", "Members only (login needed)": "Members only (login needed)"}
DATE = r"\d{4}-\d\d-\d\d"
NUMBER = r"-?\d+"
LABELS = {  # league/phrases.py FIELD_LABELS, English: label -> field
    "name": "name",
    "start date": "start_date",
    "end date": "end_date",
    "city": "city",
    "country": "country",
    "visibility": "visibility",
    "min games": "min_games",
    "tie break": "tie_break",
    "substitute credit": "substitute_credit",
    "substitute fixed result": "substitute_fixed_result",
    "days (MERS)": "ema_days",
    "qualification required (MERS)": "ema_qualification",
    "round minutes": "round_minutes",
    "table entry": "table_entry",
    "table entry mode": "table_entry_mode",
    "confirmation": "confirmation",
    "standings hidden after round": "standings_hidden_after_round",
    "standings released at": "standings_released_at",
    "online": "online",
    "online lobby": "online_lobby",
    "display name": "display_name",
    "given name": "given_name",
    "family name": "family_name",
    "EMA number": "ema_number",
    "Tenhou name": "tenhou_name",
    "Mahjong Soul nickname": "mahjongsoul_name",
    "Mahjong Soul friend ID": "mahjongsoul_id",
    "scores": "scores",
    "sticks": "sticks",
    "chombos": "chombos",
    "chombo penalties": "chombo_penalties",
}


def say(text: str, **params: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"text": text}
    if params:
        data["params"] = params
    return data


def plural(singular: str, plural_: str, number: str, /, **params: Any) -> dict[str, Any]:
    return {"text": singular, "plural": plural_, "count": number, "params": params}


def contextual(context: str, text: str) -> dict[str, Any]:
    return {"text": text, "context": context}


def _int(value: str) -> int:
    return int(value)


def _changes(text: str) -> dict[str, Any] | None:
    """ "field: old → new; …" (a ruleset's change is not parsed: it is rebuilt from before/after)."""
    items = []
    for part in text.split("; "):
        found = re.fullmatch(r"(?P<label>[^:]+): (?P<old>.*) → (?P<new>.*)", part)
        if found is None or found["label"] not in LABELS:
            return None
        old = None if found["old"] == "—" else found["old"]
        new = None if found["new"] == "—" else found["new"]
        items.append([LABELS[found["label"]], old, new])
    return {"changes": items}


FIELDS = {field: label for label, field in LABELS.items()} | {"ruleset": "ruleset"}


def _from_json(before: Any, after: Any, text: str, skip: tuple[str, ...] = ()) -> dict[str, Any] | None:
    """The changes of ``before`` → ``after``, in the order ``text`` names the fields (PostgreSQL's jsonb
    keeps no key order)."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return None
    names = [name for name in after if name not in skip]

    def place(name: str) -> int:
        label = re.escape(FIELDS.get(name, name.replace("_", " ")))
        found = re.search(rf"(^|; |filled in: ){label}: ", text)
        return found.start() if found else len(text)

    names.sort(key=place)
    return {"changes": [[name, before.get(name), after.get(name)] for name in names]}


def _seated(text: str) -> dict[str, Any] | None:
    found = re.fullmatch(r"East (?P<e>.+), South (?P<s>.+), West (?P<w>.+), North (?P<n>.+)", text)
    if found is None:
        return None
    seats = [say("%(wind)s %(player)s", wind={"wind": i}, player=found[key]) for i, key in enumerate("eswn")]
    return say(
        "%(east)s, %(south)s, %(west)s, %(north)s",
        east=seats[0],
        south=seats[1],
        west=seats[2],
        north=seats[3],
    )


def _scores_part(part: str) -> Any:
    found = re.fullmatch(rf"(?P<scores>{NUMBER}( / {NUMBER}){{3}})(, (?P<count>\d+) sticks? left)?", part)
    if found is None:
        return None
    if found["count"] is None:
        return found["scores"]
    return plural(
        "%(scores)s, %(count)d stick left",
        "%(scores)s, %(count)d sticks left",
        "count",
        scores=found["scores"],
        count=_int(found["count"]),
    )


def _redated(part: str) -> dict[str, Any] | None:
    found = re.fullmatch(rf"played on (?P<date>{DATE}) \(was (?P<before>{DATE})\)", part)
    if found is None:
        return None
    return say("played on %(date)s (was %(before)s)", date=found["date"], before=found["before"])


def _final_scores(text: str) -> dict[str, Any] | None:
    if text == "saved again, nothing changed":
        return say(text)
    parts: list[Any] = []
    for part in text.split("; "):
        made = _scores_part(part) or _redated(part) or _changes(part)
        if made is None:
            return None
        parts.append(made)
    return {"join": parts}


def _game_imported(text: str) -> dict[str, Any] | None:
    found = re.fullmatch(
        r"(?P<players>East .+, North [^;]+?)(; log (?P<id>[^;]+))?; (?P<how>final scores .+|\d+ hands?.*)",
        text,
    )
    if found is None:
        return None
    names = _seated(found["players"])
    if names is None:
        return None
    if found["id"]:
        names = say("%(players)s; log %(id)s", players=names, id=found["id"])
    how_text = found["how"]
    if how_text.startswith("final scores "):
        how = say("final scores %(scores)s", scores=how_text.removeprefix("final scores "))
    elif match := re.fullmatch(r"(\d+) hands?, finished early \(time limit\)", how_text):
        how = plural(
            "%(count)d hand, finished early (time limit)",
            "%(count)d hands, finished early (time limit)",
            "count",
            count=_int(match[1]),
        )
    elif match := re.fullmatch(r"(\d+) hands?", how_text):
        how = plural("%(count)d hand", "%(count)d hands", "count", count=_int(match[1]))
    else:
        return None
    return {"join": [names, how]}


# (pattern, builder): the summaries code wrote, whatever the action (each builder gets the match and the
# entry's before/after).
SUMMARIES: list[tuple[str, Any]] = [
    (
        r"(?P<event>.+) created in (?P<club>.+) \((?P<kind>Club league|Tournament), "
        r"(?P<visibility>Public|Members only \(login needed\))\)",
        lambda m, b, a: say(
            "%(event)s created in %(club)s (%(kind)s, %(visibility)s)",
            event=m["event"],
            club=m["club"],
            kind=say(KINDS[m["kind"]]),
            visibility=say(VISIBILITIES[m["visibility"]]),
        ),
    ),
    (
        r"(?P<player>.+) unregistered \(no game played\): registered: yes → no",
        lambda m, b, a: say(
            "%(player)s unregistered (no game played): registered: yes → no", player=m["player"]
        ),
    ),
    (
        r"(?P<player>.+) withdrawn: withdrawn: no → yes",
        lambda m, b, a: say("%(player)s withdrawn: withdrawn: no → yes", player=m["player"]),
    ),
    (
        r"(?P<player>.+) restored: withdrawn: yes → no",
        lambda m, b, a: say("%(player)s restored: withdrawn: yes → no", player=m["player"]),
    ),
    (
        rf"(?P<players>East .+); played on (?P<date>{DATE})",
        lambda m, b, a: (
            say("%(players)s; played on %(date)s", players=seated, date=m["date"])
            if (seated := _seated(m["players"]))
            else None
        ),
    ),
    (
        rf"played on (?P<date>{DATE}) \(was (?P<before>{DATE})\)",
        lambda m, b, a: say("played on %(date)s (was %(before)s)", date=m["date"], before=m["before"]),
    ),
    (
        r"Hand (?P<number>\d+) \((?P<round>[ESWN]\d+)\): "
        r"(?P<result>Ron|Tsumo|Exhaustive draw|Abortive draw|Chombo)",
        lambda m, b, a: say(
            "Hand %(number)d (%(round)s): %(result)s",
            number=_int(m["number"]),
            round=m["round"],
            result=contextual("hand outcome", m["result"]),
        ),
    ),
    (r"The game reached its end and was finished automatically\.", lambda m, b, a: say(m[0])),
    (r"Finished", lambda m, b, a: say(m[0])),
    (
        r"Finished early after hand (?P<number>\d+)",
        lambda m, b, a: say("Finished early after hand %(number)d", number=_int(m["number"])),
    ),
    (r"Voided", lambda m, b, a: say(m[0])),
    (r"Reopened", lambda m, b, a: say(m[0])),
    (
        r"Hand (?P<number>\d+) removed",
        lambda m, b, a: say("Hand %(number)d removed", number=_int(m["number"])),
    ),
    (
        r"Hand (?P<number>\d+) corrected",
        lambda m, b, a: say("Hand %(number)s corrected", number=_int(m["number"])),
    ),
    (
        r"(?P<player>.+): (?P<points>-\d+) \((?P<kind>Chombo|Other)\), round (?P<round>\d+)",
        lambda m, b, a: say(
            "%(player)s: %(points)s (%(kind)s), round %(round)s",
            player=m["player"],
            points=_int(m["points"]),
            kind=contextual("penalty kind", m["kind"]),
            round=_int(m["round"]),
        ),
    ),
    (
        r"(?P<player>.+): (?P<points>-\d+) \((?P<kind>Chombo|Other)\)",
        lambda m, b, a: say(
            "%(player)s: %(points)s (%(kind)s)",
            player=m["player"],
            points=_int(m["points"]),
            kind=contextual("penalty kind", m["kind"]),
        ),
    ),
    (
        r"(?P<player>.+): (?P<points>-\d+) cancelled",
        lambda m, b, a: say("%(player)s: %(points)s cancelled", player=m["player"], points=_int(m["points"])),
    ),
    (
        r"Rules changed \((?P<settings>.*)\); (?P<games>\d+) games? replayed\.",
        lambda m, b, a: plural(
            "Rules changed (%(settings)s); %(games)s game replayed.",
            "Rules changed (%(settings)s); %(games)s games replayed.",
            "games",
            settings=m["settings"],
            games=_int(m["games"]),
        ),
    ),
    (
        r"(?P<rounds>\d+) rounds?, (?P<seats>\d+) seats, seed (?P<seed>\d+): (?P<pairs>\d+) repeated pairs, "
        r"(?P<winds>winds balanced|winds imbalance (?P<imbalance>.+))",
        lambda m, b, a: plural(
            "%(rounds)d round, %(seats)d seats, seed %(seed)s: %(pairs)d repeated pairs, %(winds)s",
            "%(rounds)d rounds, %(seats)d seats, seed %(seed)s: %(pairs)d repeated pairs, %(winds)s",
            "rounds",
            rounds=_int(m["rounds"]),
            seats=_int(m["seats"]),
            seed=_int(m["seed"]),
            pairs=_int(m["pairs"]),
            winds=(
                say("winds imbalance %(imbalance)s", imbalance=m["imbalance"])
                if m["imbalance"] is not None
                else say("winds balanced")
            ),
        ),
    ),
    (
        r"Round (?P<round>\d+): (?P<first>.+) and (?P<second>.+) swapped seats",
        lambda m, b, a: say(
            "Round %(round)s: %(first)s and %(second)s swapped seats",
            round=_int(m["round"]),
            first=m["first"],
            second=m["second"],
        ),
    ),
    (
        r"(?P<substitute>.+) replaces (?P<player>.+) at table (?P<table>\d+) of round (?P<round>\d+) "
        r"\((?P<count>\d+) tables?\)",
        lambda m, b, a: plural(
            "%(substitute)s replaces %(player)s at table %(table)s of round %(round)s (%(count)d table)",
            "%(substitute)s replaces %(player)s at table %(table)s of round %(round)s (%(count)d tables)",
            "count",
            substitute=m["substitute"],
            player=m["player"],
            table=_int(m["table"]),
            round=_int(m["round"]),
            count=_int(m["count"]),
        ),
    ),
    (
        r"(?P<substitute>.+) replaces (?P<player>.+) from round (?P<round>\d+) \((?P<count>\d+) tables?\)",
        lambda m, b, a: plural(
            "%(substitute)s replaces %(player)s from round %(round)s (%(count)d table)",
            "%(substitute)s replaces %(player)s from round %(round)s (%(count)d tables)",
            "count",
            substitute=m["substitute"],
            player=m["player"],
            round=_int(m["round"]),
            count=_int(m["count"]),
        ),
    ),
    (
        r"Round (?P<round>\d+) reseated by the standings after round (?P<previous>\d+)",
        lambda m, b, a: say(
            "Round %(round)s reseated by the standings after round %(previous)s",
            round=_int(m["round"]),
            previous=_int(m["previous"]),
        ),
    ),
    (r"Round (?P<n>\d+) opened\.", lambda m, b, a: say("Round %(n)s opened.", n=_int(m["n"]))),
    (r"Round (?P<n>\d+) closed\.", lambda m, b, a: say("Round %(n)s closed.", n=_int(m["n"]))),
    (
        r"Standings released: the public sees every round, not only rounds 1 to (?P<n>\d+)\.",
        lambda m, b, a: say(
            "Standings released: the public sees every round, not only rounds 1 to %(n)s.", n=_int(m["n"])
        ),
    ),
    (
        r"Round (?P<n>\d+): clock (?P<what>started|paused), (?P<left>.+) left\.",
        lambda m, b, a: say(
            f"Round %(n)s: clock {m['what']}, %(left)s left.", n=_int(m["n"]), left=m["left"]
        ),
    ),
    (
        r"Round (?P<n>\d+): (?P<minutes>.+) min (?P<what>added|taken back), (?P<left>.+) left\.",
        lambda m, b, a: say(
            f"Round %(n)s: %(minutes)s min {m['what']}, %(left)s left.",
            n=_int(m["n"]),
            minutes=_int(m["minutes"]) if m["minutes"].isdigit() else m["minutes"],
            left=m["left"],
        ),
    ),
    (
        r"Round (?P<n>\d+): length (?P<before>\d+) → (?P<after>\d+) min\.",
        lambda m, b, a: say(
            "Round %(n)s: length %(before)s → %(after)s min.",
            n=_int(m["n"]),
            before=_int(m["before"]),
            after=_int(m["after"]),
        ),
    ),
    (
        r"entry mode: (?P<before>\w+) → (?P<after>\w+) \(the event's table entry setting\)",
        lambda m, b, a: say(
            "entry mode: %(before)s → %(after)s (the event's table entry setting)",
            before=m["before"],
            after=m["after"],
        ),
    ),
    (
        r"Link of table (?P<table>\d+) issued \(code (?P<code>\w+)\)\.",
        lambda m, b, a: say(
            "Link of table %(table)s issued (code %(code)s).", table=_int(m["table"]), code=m["code"]
        ),
    ),
    (
        r"Link of table (?P<table>\d+) issued \(code (?P<code>\w+)\); "
        r"the old link \(code (?P<old>\w+)\) is revoked\.",
        lambda m, b, a: say(
            "Link of table %(table)s issued (code %(code)s); the old link (code %(old)s) is revoked.",
            table=_int(m["table"]),
            code=m["code"],
            old=m["old"],
        ),
    ),
    (
        r"Link of table (?P<table>\d+) revoked \(code (?P<code>\w+)\)\.",
        lambda m, b, a: say(
            "Link of table %(table)s revoked (code %(code)s).", table=_int(m["table"]), code=m["code"]
        ),
    ),
    (r"Handed in by the table: the game counts\.", lambda m, b, a: say(m[0])),
    (r"Handed in by the table: waiting for the four players' confirmation\.", lambda m, b, a: say(m[0])),
    (r"Handed in by the table: waiting for the organiser's confirmation\.", lambda m, b, a: say(m[0])),
    (r"Confirmed by the organiser: the game counts\.", lambda m, b, a: say(m[0])),
    (r"Confirmed by the four players: the game counts\.", lambda m, b, a: say(m[0])),
    (
        r"(?P<wind>East|South|West|North) \((?P<player>.+)\) confirmed the result\.",
        lambda m, b, a: say(
            "%(wind)s (%(player)s) confirmed the result.",
            wind={"wind": WINDS.index(m["wind"])},
            player=m["player"],
        ),
    ),
    (
        r"Table (?P<table>\d+) called the referee\.",
        lambda m, b, a: say("Table %(table)s called the referee.", table=_int(m["table"])),
    ),
    (
        r"Referee call of table (?P<table>\d+) cleared\.",
        lambda m, b, a: say("Referee call of table %(table)s cleared.", table=_int(m["table"])),
    ),
    (
        r"Table (?P<table>\d+) may change its game again\.",
        lambda m, b, a: say("Table %(table)s may change its game again.", table=_int(m["table"])),
    ),
]


# Summaries built from the entry's before/after (or parsed field by field): by action.
def _by_action(action: str, summary: str, before: Any, after: Any) -> dict[str, Any] | None:
    if action == "event edited":
        return _from_json(before, after, summary)
    if action == "player edited":
        found = re.fullmatch(r"Player (?P<player>.+?) edited: (?P<changes>.*)", summary)
        changes = _from_json(before, after, found["changes"] if found else "", skip=("player",))
        if found is None or changes is None:
            return None
        return say("Player %(player)s edited: %(changes)s", player=found["player"], changes=changes)
    if action == "player registered":
        found = re.fullmatch(
            r"(?P<player>.+?) registered(?P<new> \(new player\))?(; details filled in: .*)?", summary
        )
        if found is None:
            return None
        text = "%(player)s registered (new player)" if found["new"] else "%(player)s registered"
        parts = [say(text, player=found["player"])]
        if isinstance(before, dict) and isinstance(after, dict) and "player_details" in after:
            changes = _from_json(before.get("player_details"), after.get("player_details"), summary)
            parts.append(say("details filled in: %(changes)s", changes=changes))
        return {"join": parts}
    if action in ("final scores entered", "final scores corrected"):
        return _final_scores(summary)
    if action == "game imported":
        return _game_imported(summary)
    return None


REASONS: list[tuple[str, Any]] = [
    (r"handed in by the table: waiting for confirmation", lambda m: say(m[0])),
    (r"picked for this name when importing online games", lambda m: say(m[0])),
    (r"imported from (?P<source>.+)", lambda m: say("imported from %(source)s", source=m["source"])),
    (
        r"confirmed by (?P<who>the organiser|the four players)(; the table said: (?P<said>.*))?",
        lambda m: {
            "join": [
                say(f"confirmed by {m['who']}"),
                *([say("the table said: %(reason)s", reason=m["said"])] if m["said"] else []),
            ]
        },
    ),
]

PENALTY_REASONS = ("chombo (entered with the final scores)", "imported penalty")
CANCEL_REASONS = ("final scores corrected",)


def _checked(data: dict[str, Any] | None, text: str) -> dict[str, Any] | None:
    """``data`` if it renders back to ``text`` in English, else None (the row stays as it is)."""
    if data is None:
        return None
    from django.utils import translation

    from league.phrases import render

    with translation.override("en"):
        try:
            return data if render(data) == text else None
        except Exception:  # noqa: BLE001 - a pattern that built something this code cannot render
            return None


def _summary(action: str, summary: str, before: Any, after: Any) -> dict[str, Any] | None:
    made = _checked(_by_action(action, summary, before, after), summary)
    if made is not None:
        return made
    for pattern, build in SUMMARIES:
        found = re.fullmatch(pattern, summary)
        if found is not None:
            made = _checked(build(found, before, after), summary)
            if made is not None:
                return made
    return None


def _reason(reason: str) -> dict[str, Any] | None:
    for pattern, build in REASONS:
        found = re.fullmatch(pattern, reason)
        if found is not None:
            return _checked(build(found), reason)
    return None


def convert(apps: Any, schema_editor: Any) -> None:
    entries = apps.get_model("league", "HistoryEntry")
    penalties = apps.get_model("scoring", "Penalty")
    changed = []
    for entry in entries.objects.filter(summary_data__isnull=True).iterator(chunk_size=2000):
        summary = _summary(entry.action, entry.summary, entry.before, entry.after)
        reason = _reason(entry.reason) if entry.reason and entry.reason_data is None else None
        if summary is None and reason is None:
            continue
        if summary is not None:
            entry.summary_data = summary
        if reason is not None:
            entry.reason_data = reason
        changed.append(entry)
        if len(changed) >= 500:
            entries.objects.bulk_update(changed, ["summary_data", "reason_data"])
            changed = []
    entries.objects.bulk_update(changed, ["summary_data", "reason_data"])
    for text in PENALTY_REASONS:
        penalties.objects.filter(reason=text, reason_data__isnull=True).update(reason_data={"text": text})
    for text in CANCEL_REASONS:
        penalties.objects.filter(cancelled_reason=text, cancelled_reason_data__isnull=True).update(
            cancelled_reason_data={"text": text}
        )


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0010_history_text_as_data"),
        ("scoring", "0012_penalty_reason_as_data"),
    ]

    operations = [migrations.RunPython(convert, migrations.RunPython.noop)]
