"""Tables enter their own games: entry links, what a link may do, and the confirmation step.

A table's link is a bearer token (in the URL and the QR code of its score slip) plus a short code to type.
Whoever holds it may enter *that* game while its round is open, and nothing else: no account, no other
game, no organiser page. So every write here starts from the link, locks the game, re-reads the link
and its round *inside* the transaction (a revoked link or a closed round is refused at once, even for a
request already on its way) and then calls scoring's own services — the same ones the organiser's pages
call, with the same ``expected_version`` checks against double submits and concurrent writers — inside
``acting_via("table N (link)", ip)``, so the game's history says the change came through the link, when,
and from which address.

Handing in: when the table's game ends (its last hand, its final scores, or an early end the table
declares) the game is *handed in* (``Hanchan.submitted_at``) and the table can no longer change it; the
organiser still can, as usual. Under the event's ``confirmation`` setting:

- ``none``: handing in finishes the game: it counts in the standings at once;
- ``organiser``: the game stays in progress (out of the standings) until the organiser confirms it;
- ``players``: each of the four players types their own seat code (printed on the slip) on the table's
  page; the fourth confirmation finishes the game. The organiser may still confirm it.

Scoring's services finish a game by themselves when it is complete (``record_hand`` at the game's end,
``record_final_scores`` always) unless the caller says otherwise (``finish=False``): under a
confirmation step a table's complete game is saved in progress, handed in, and finished by
``finish_game`` only when confirmed — never finished and reopened, which wrote results only to delete
them and queued a ratings rebuild for nothing.

A form sent twice (a double tap, two phones of one table showing the same form) is recognised by the
random entry key each rendered form carries (``scoring.services.hands.saved_hand``, ``Hanchan.scores_key``),
not by comparing what it holds with what was saved last.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from league import phrases
from league.models import Event, Hanchan, HistoryEntry
from scoring import engine, services
from scoring.models import Hand
from scoring.services import history
from scoring.services.hands import bump, lock_game, saved_hand

from .models import CODE_ALPHABET, Round, SeatConfirmation, TableLink, new_code

TOKEN_MAX_LENGTH = 64  # TableLink.token: anything longer is not a token, and is not looked up
VIA = "table {table} (link)"  # HistoryEntry.via: the brief's wording, stored as data (not translated)

# Actions of the history entries written here (HistoryEntry.action, at most 40 characters).
ACTION_ISSUED = "table link issued"
ACTION_REVOKED = "table link revoked"
ACTION_MODE = "entry mode set"
ACTION_HANDED_IN = "game handed in"
ACTION_CONFIRMED = "game confirmed"
ACTION_SEAT_CONFIRMED = "result confirmed by a player"
ACTION_REFEREE = "referee called"
ACTION_REFEREE_CLEARED = "referee call cleared"
ACTION_RETURNED = "game returned to the table"

ISSUED = gettext_noop("Link of table %(table)s issued (code %(code)s).")
# The reason of the "game reopened" entries that handing a game in wrote before games were held in
# progress (see the module docstring): no longer written, still read (scoring migration 0012).
HELD_REASON = gettext_noop("handed in by the table: waiting for confirmation")


class LinkRefused(Exception):
    """A token that opens nothing now: unknown, revoked, its round not open, its game void.

    Carries the HTTP status the page answers with (404 unknown, 403 not open yet, 410 gone) and a message
    that tells the table what to do, never a server error.
    """

    def __init__(self, message: str, *, status: int, reason: str) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.reason = reason


UNKNOWN = _("This table link is not known. Check the address, or scan the QR code on your score slip again.")
REVOKED = _(
    "This table link was revoked by the organiser. Ask the organiser for your table's new link or code."
)
NOT_OPEN = _("Round %(round)s is not open yet: the link works once the organiser opens the round.")
CLOSED = _(
    "Round %(round)s is closed: results can no longer be entered through this link. "
    "Ask the organiser for any correction."
)
VOID = _("This game was voided by the organiser: there is nothing to enter.")
NO_TABLE_ENTRY = _("At this event the organiser enters the results: tables do not enter their own games.")
HANDED_IN = _(
    "This game was handed in: the table can no longer change it. Call the referee or ask the organiser "
    "if something is wrong."
)
FINISHED = _("This game is finished: the table can no longer change it. Ask the organiser for a correction.")


@dataclass(frozen=True)
class TableAccess:
    """What a valid token opens: its link, its game (with the event) and the open round."""

    link: TableLink
    game: Hanchan
    round: Round

    @property
    def table(self) -> int | None:
        return self.game.table_number

    @property
    def via(self) -> str:
        return VIA.format(table=self.game.table_number)

    @property
    def can_enter(self) -> bool:
        """Whether the table may still change its game: in progress and not handed in."""
        return self.game.status == Hanchan.Status.IN_PROGRESS and self.game.submitted_at is None


def entry_mode_for(event: Event) -> str:
    """The game entry mode the event's ``table_entry_mode`` setting asks of its tables."""
    if event.table_entry_mode == "final":
        return Hanchan.EntryMode.FINAL_SCORES
    return Hanchan.EntryMode.HANDS


def normalise_code(value: Any) -> str:
    """A typed code as stored: capitals, without the spaces or dashes people add when copying it."""
    text = str(value or "").upper()
    return "".join(ch for ch in text if ch.isalnum())


# -- reads ---------------------------------------------------------------------------------------------


def _check(link: TableLink) -> TableAccess:
    """The access ``link`` gives now, or LinkRefused saying why not. ``link.hanchan`` must be loaded
    with its event; one query (the round)."""
    if link.revoked_at is not None:
        raise LinkRefused(str(REVOKED), status=410, reason="revoked")
    game = link.hanchan
    if not game.event.table_entry:
        raise LinkRefused(str(NO_TABLE_ENTRY), status=410, reason="no_table_entry")
    number = game.round_number
    found = Round.objects.filter(event_id=game.event_id, number=number).first()
    if found is None or found.status == Round.Status.PENDING:
        raise LinkRefused(str(NOT_OPEN % {"round": number}), status=403, reason="not_open")
    if found.status == Round.Status.CLOSED:
        raise LinkRefused(str(CLOSED % {"round": number}), status=410, reason="closed")
    if game.status == Hanchan.Status.VOID:
        raise LinkRefused(str(VOID), status=410, reason="void")
    found.event = game.event
    return TableAccess(link=link, game=game, round=found)


def resolve(token: str) -> TableAccess:
    """The link, game and round a token opens — or LinkRefused. Two queries."""
    if not token or len(token) > TOKEN_MAX_LENGTH or "\x00" in token:  # PostgreSQL refuses NUL in text
        raise LinkRefused(str(UNKNOWN), status=404, reason="unknown")
    link = TableLink.objects.select_related("hanchan__event").filter(token=token).first()
    if link is None:
        raise LinkRefused(str(UNKNOWN), status=404, reason="unknown")
    return _check(link)


def find_by_code(code: str) -> TableLink | None:
    """The active link whose short code this is (None when there is none). Codes are unique among active
    links when issued; should two ever clash, the one whose round is open wins, else neither."""
    code = normalise_code(code)
    if not code or len(code) > 12:
        return None
    found = list(
        TableLink.objects.filter(code=code, revoked_at__isnull=True).select_related("hanchan__event")[:5]
    )
    if len(found) <= 1:
        return found[0] if found else None
    usable = []
    for link in found:
        try:
            _check(link)
        except LinkRefused:
            continue
        usable.append(link)
    return usable[0] if len(usable) == 1 else None


def active_link(hanchan: Hanchan) -> TableLink | None:
    return hanchan.table_links.filter(revoked_at__isnull=True).order_by("-created_at", "-pk").first()


# -- the links themselves ------------------------------------------------------------------------------


def _free_code() -> str:
    """A short code no active link uses (a clash would make typing it ambiguous)."""
    for _attempt in range(20):
        code = new_code()
        if not TableLink.objects.filter(code=code, revoked_at__isnull=True).exists():
            return code
    raise RuntimeError(f"no free table code in {len(CODE_ALPHABET)} letters after 20 tries")


def _new_link(game: Hanchan, user: Any, *, carry: TableLink | None = None) -> TableLink:
    """A fresh link for ``game`` with its four seat codes; a pending referee call carries over."""
    link = TableLink.objects.create(
        hanchan=game,
        code=_free_code(),
        created_by=history.acting_user(user),
        referee_called_at=carry.referee_called_at if carry else None,
        referee_note=carry.referee_note if carry else "",
    )
    codes: list[str] = []
    while len(codes) < 4:  # four different codes, none the table's: each names one player
        code = new_code()
        if code != link.code and code not in codes:
            codes.append(code)
    SeatConfirmation.objects.bulk_create(
        [SeatConfirmation(link=link, seat=seat, code=code) for seat, code in enumerate(codes)]
    )
    return link


def _untouched(game: Hanchan) -> bool:
    """Nothing entered yet: no hand, no final score, still in progress."""
    return (
        game.status == Hanchan.Status.IN_PROGRESS
        and not game.hands.exists()
        and not game.seats.filter(final_score__isnull=False).exists()
    )


def _align_entry_mode(game: Hanchan, user: Any) -> None:
    """Make an untouched game's entry mode the one the event asks of its tables (seating creates
    games for final scores; a table entering hand by hand needs a hand-by-hand game)."""
    wanted = entry_mode_for(game.event)
    if game.entry_mode == wanted or not _untouched(game):
        return
    locked = lock_game(game, None)
    before = locked.entry_mode
    bump(locked, entry_mode=wanted)
    history.log(
        event=locked.event,
        hanchan=locked,
        user=user,
        action=ACTION_MODE,
        summary=phrases.say(
            gettext_noop("entry mode: %(before)s → %(after)s (the event's table entry setting)"),
            before=before,
            after=wanted,
        ),
        before={"entry_mode": before},
        after={"entry_mode": wanted},
    )
    game.entry_mode, game.version = locked.entry_mode, locked.version


def _round_tables(event: Event, number: int) -> list[Hanchan]:
    return list(
        Hanchan.objects.filter(event=event, round_number=number)
        .exclude(status=Hanchan.Status.VOID)
        .select_related("event")
        .order_by("table_number", "pk")
    )


@transaction.atomic
def issue_links(*, event: Event, number: int, user: Any) -> list[TableLink]:
    """Give every table of round ``number`` that has none an entry link (with its four seat codes).

    Called when the round opens, and by the organiser to print the slips ahead of it; tables that have
    a link keep it. A link only works while its round is open, so issuing ahead is harmless.
    """
    if not event.table_entry:
        raise ValidationError(
            {"table_entry": gettext("Tables do not enter their own games at this event (event settings).")}
        )
    tables = _round_tables(event, number)
    if not tables:
        raise ValidationError({"round_number": gettext("Round %(n)s has no tables.") % {"n": number}})
    linked = set(
        TableLink.objects.filter(hanchan__in=tables, revoked_at__isnull=True).values_list(
            "hanchan_id", flat=True
        )
    )
    made: list[TableLink] = []
    for game in tables:
        if game.pk in linked:
            continue
        _align_entry_mode(game, user)
        made.append(_new_link(game, user))
    history.log_many(
        history.entry(
            event=event,
            hanchan=link.hanchan,
            user=user,
            action=ACTION_ISSUED,
            summary=phrases.say(ISSUED, table=link.hanchan.table_number, code=link.code),
        )
        for link in made
    )
    return made


def _locked_game_of(hanchan: Hanchan, event: Event | None = None) -> Hanchan:
    game = lock_game(hanchan, None)
    if event is not None and game.event_id != event.pk:
        raise ValidationError(gettext("This game is not one of this event's tables."))
    if game.round_number is None:
        raise ValidationError(gettext("This game is not a table of a round."))
    return game


@transaction.atomic
def revoke_link(*, hanchan: Hanchan, user: Any) -> TableLink:
    """Revoke the table's active link: from this moment on it opens nothing (the game row is locked,
    so an entry already on its way through that link waits and then finds it revoked)."""
    game = _locked_game_of(hanchan)
    link = active_link(game)
    if link is None:
        raise ValidationError(gettext("This table has no active link to revoke."))
    link.revoked_at = timezone.now()
    link.save(update_fields=["revoked_at"])
    history.log(
        event=game.event,
        hanchan=game,
        user=user,
        action=ACTION_REVOKED,
        summary=phrases.say(
            gettext_noop("Link of table %(table)s revoked (code %(code)s)."),
            table=game.table_number,
            code=link.code,
        ),
    )
    return link


@transaction.atomic
def reissue_link(*, hanchan: Hanchan, user: Any) -> TableLink:
    """Revoke the table's link (if it has one) and give it a new one, with new seat codes: a lost slip,
    a link shared too widely. A pending referee call stays on the table."""
    game = _locked_game_of(hanchan)
    if not game.event.table_entry:
        raise ValidationError(
            {"table_entry": gettext("Tables do not enter their own games at this event (event settings).")}
        )
    if game.status == Hanchan.Status.VOID:
        raise ValidationError(gettext("This game is void: it needs no link."))
    old = active_link(game)
    if old is not None:
        old.revoked_at = timezone.now()
        old.save(update_fields=["revoked_at"])
    _align_entry_mode(game, user)
    link = _new_link(game, user, carry=old)
    if old is None:
        summary = phrases.say(ISSUED, table=game.table_number, code=link.code)
    else:
        summary = phrases.say(
            gettext_noop(
                "Link of table %(table)s issued (code %(code)s); the old link (code %(old)s) is revoked."
            ),
            table=game.table_number,
            code=link.code,
            old=old.code,
        )
    history.log(event=game.event, hanchan=game, user=user, action=ACTION_ISSUED, summary=summary)
    return link


# -- what a table does through its link ----------------------------------------------------------------


@contextmanager
def _through(access: TableAccess, ip: str | None) -> Iterator[None]:
    """Every history entry written inside says "table N (link)" and the address it came from."""
    with history.acting_via(access.via, ip):
        yield


def _locked_access(link: TableLink) -> TableAccess:
    """Inside the caller's transaction: the game locked first, then the link and its round re-read, so a
    revocation or a round closed after the page was loaded is refused at once."""
    game_id = TableLink.objects.filter(pk=link.pk).values_list("hanchan_id", flat=True).first()
    if game_id is None:  # its table was removed (the round reseated) since the page was loaded
        raise LinkRefused(str(UNKNOWN), status=404, reason="unknown")
    game = lock_game(Hanchan(pk=game_id), None)
    fresh = TableLink.objects.get(pk=link.pk)
    fresh.hanchan = game
    return _check(fresh)


def _refuse_closed(game: Hanchan) -> None:
    if game.submitted_at is not None:
        raise ValidationError(str(HANDED_IN))
    if game.status != Hanchan.Status.IN_PROGRESS:
        raise ValidationError(str(FINISHED))


def _hand_in(game: Hanchan, *, reason: str = "") -> None:
    """The table hands its game in. Under ``none`` its services have just finished it; under a
    confirmation step they left it in progress (out of the standings) until it is confirmed."""
    confirmation = game.event.confirmation
    bump(game, submitted_at=timezone.now())
    if confirmation == Event.Confirmation.NONE:
        summary = phrases.say(gettext_noop("Handed in by the table: the game counts."))
    elif confirmation == Event.Confirmation.PLAYERS:
        summary = phrases.say(
            gettext_noop("Handed in by the table: waiting for the four players' confirmation.")
        )
    else:
        summary = phrases.say(
            gettext_noop("Handed in by the table: waiting for the organiser's confirmation.")
        )
    history.log(
        event=game.event, hanchan=game, user=None, action=ACTION_HANDED_IN, summary=summary, reason=reason
    )


def _finishes(game: Hanchan) -> bool:
    """Whether a complete game the table enters is finished at once: only without a confirmation step."""
    return game.event.confirmation == Event.Confirmation.NONE


@transaction.atomic
def enter_hand(
    *,
    link: TableLink,
    hand: engine.Hand,
    ip: str | None,
    expected_version: int | None = None,
    tiles: list[Any] | None = None,
    entry_key: str = "",
) -> Hand:
    """Record the table's next hand (``record_hand``); the hand that ends the game hands it in.

    The returned row's ``already_saved`` is True when the form with this ``entry_key`` was already
    saved by an earlier copy of the request (a double tap), as ``record_hand`` answers — also after that
    copy ended the game and handed it in.
    """
    access = _locked_access(link)
    game = access.game
    with _through(access, ip):
        existing = saved_hand(game, entry_key)
        if existing is not None:
            existing.already_saved = True  # type: ignore[attr-defined]
            return existing
        if not access.can_enter:
            _refuse_closed(game)
        row = services.record_hand(
            hanchan=game,
            hand=hand,
            user=None,
            expected_version=expected_version,
            tiles=tiles,
            entry_key=entry_key,
            finish=_finishes(game),
        )
        if not row.already_saved and row.ends_game:
            _hand_in(game)
    return row


@transaction.atomic
def undo_hand(*, link: TableLink, reason: str, ip: str | None, expected_version: int | None = None) -> None:
    """Remove the table's last hand, with the reason the table gives (``undo_last_hand``)."""
    access = _locked_access(link)
    with _through(access, ip):
        _refuse_closed(access.game)
        services.undo_last_hand(
            hanchan=access.game, user=None, reason=reason, expected_version=expected_version
        )


@transaction.atomic
def finish_game(*, link: TableLink, reason: str, ip: str | None, expected_version: int | None = None) -> None:
    """The table ends its hand-by-hand game before its natural end (a time limit), saying why, and hands
    it in. Under ``none`` it is finished at once (``finish_game``); otherwise it waits, in progress, for
    the confirmation, which finishes it."""
    access = _locked_access(link)
    game = access.game
    with _through(access, ip):
        _refuse_closed(game)
        if game.event.confirmation == Event.Confirmation.NONE:
            services.finish_game(hanchan=game, user=None, reason=reason, expected_version=expected_version)
        else:
            _check_finishable(game, reason, expected_version)
        _hand_in(game, reason=reason)


def _check_finishable(game: Hanchan, reason: str, expected_version: int | None) -> None:
    """What ``finish_game`` checks, for a game handed in to be finished later by the confirmation."""
    from scoring.services.sync import replay_stored

    if expected_version is not None and game.version != expected_version:
        raise services.GameChanged(game.pk, game.version, expected_version)
    if game.entry_mode == Hanchan.EntryMode.FINAL_SCORES:
        raise ValidationError(gettext("Enter the four final scores: that hands the game in."))
    played, _stored = replay_stored(game)
    if not played.hands:
        raise ValidationError(gettext("A game needs at least one hand to be finished."))
    if not played.finished and not (reason or "").strip():
        raise ValidationError(
            {"reason": gettext("The game has not reached its end: say why it ends now (e.g. time limit).")}
        )


@transaction.atomic
def enter_final_scores(
    *,
    link: TableLink,
    scores: Sequence[int],
    sticks: int,
    ip: str | None,
    chombos: Sequence[int] | None = None,
    expected_version: int | None = None,
    entry_key: str = "",
) -> bool:
    """Enter the table's four final scores (``record_final_scores``) and hand the game in.

    Returns False when the form with this ``entry_key`` was already saved by an earlier copy of this
    request (a double tap), True when this call saved it."""
    access = _locked_access(link)
    game = access.game
    with _through(access, ip):
        if entry_key and game.scores_key == entry_key:
            return False
        if not access.can_enter:
            _refuse_closed(game)
        services.record_final_scores(
            hanchan=game,
            scores=scores,
            sticks=sticks,
            chombos=chombos,
            user=None,
            expected_version=expected_version,
            entry_key=entry_key,
            finish=_finishes(game),
        )
        _hand_in(game)
    return True


@transaction.atomic
def call_referee(*, link: TableLink, note: str, ip: str | None) -> TableLink:
    """The table calls the referee: it flags its game as disputed (the organiser's round page shows it).
    Allowed after the game is handed in too: a dispute is often about the result."""
    access = _locked_access(link)
    fresh = access.link
    note = (note or "").strip()[:200]
    fresh.referee_called_at = timezone.now()
    fresh.referee_note = note
    fresh.save(update_fields=["referee_called_at", "referee_note"])
    with _through(access, ip):
        history.log(
            event=access.game.event,
            hanchan=access.game,
            user=None,
            action=ACTION_REFEREE,
            summary=phrases.say(gettext_noop("Table %(table)s called the referee."), table=access.table),
            reason=note,
        )
    return fresh


@transaction.atomic
def clear_referee(*, hanchan: Hanchan, user: Any, event: Event | None = None) -> None:
    """The organiser (or referee) dealt with the call: the table is no longer shown as disputed."""
    game = _locked_game_of(hanchan, event)
    called = game.table_links.filter(referee_called_at__isnull=False)
    if not called.exists():
        raise ValidationError(gettext("This table has not called the referee."))
    called.update(referee_called_at=None, referee_note="")
    history.log(
        event=game.event,
        hanchan=game,
        user=user,
        action=ACTION_REFEREE_CLEARED,
        summary=phrases.say(
            gettext_noop("Referee call of table %(table)s cleared."), table=game.table_number
        ),
    )


# -- confirmation --------------------------------------------------------------------------------------


def _table_reason(game: Hanchan) -> str | phrases.Phrase:
    """The reason the table gave when it handed the game in (an early end), if any: as typed."""
    entry = HistoryEntry.objects.filter(hanchan=game, action=ACTION_HANDED_IN).order_by("-at", "-pk").first()
    if entry is None:
        return ""
    return entry.reason_data or entry.reason


def given_back(game: Hanchan) -> HistoryEntry | None:
    """The organiser's giving back of this game to its table (``return_to_table``), with its reason, while
    the table is changing the game again: the table's page says why. None once it is handed in again.
    One query."""
    if game.submitted_at is not None or game.status != Hanchan.Status.IN_PROGRESS:
        return None
    last = (
        HistoryEntry.objects.filter(hanchan=game, action__in=[ACTION_HANDED_IN, ACTION_RETURNED])
        .order_by("-at", "-pk")
        .first()
    )
    return last if last is not None and last.action == ACTION_RETURNED else None


# Who confirmed a handed-in game: the finish's reason and the confirmation's summary, as phrases.
CONFIRMED_BY = {
    "organiser": (
        gettext_noop("confirmed by the organiser"),
        gettext_noop("Confirmed by the organiser: the game counts."),
    ),
    "players": (
        gettext_noop("confirmed by the four players"),
        gettext_noop("Confirmed by the four players: the game counts."),
    ),
}


def _finish_confirmed(game: Hanchan, *, user: Any, who: str) -> None:
    """Finish a handed-in game through scoring's ``finish_game``, as the organiser's pages would;
    ``who``: "organiser" or "players" (see ``CONFIRMED_BY``)."""
    if game.entry_mode == Hanchan.EntryMode.FINAL_SCORES and game.seats.filter(final_score=None).exists():
        raise ValidationError(gettext("The table has not entered its four final scores."))
    reason_text, summary_text = CONFIRMED_BY[who]
    table_reason = _table_reason(game)
    reason = phrases.joined(
        phrases.say(reason_text),
        phrases.say(gettext_noop("the table said: %(reason)s"), reason=table_reason)
        if table_reason
        else None,
    )
    services.finish_game(hanchan=game, user=user, reason=reason)
    history.log(
        event=game.event, hanchan=game, user=user, action=ACTION_CONFIRMED, summary=phrases.say(summary_text)
    )


@transaction.atomic
def confirm_game(
    *, hanchan: Hanchan, user: Any, event: Event | None = None, expected_version: int | None = None
) -> Hanchan:
    """The organiser confirms a game a table handed in: it is finished and counts in the standings."""
    game = _locked_game_of(hanchan, event)
    if expected_version is not None and game.version != expected_version:
        raise services.GameChanged(game.pk, game.version, expected_version)
    if game.status == Hanchan.Status.FINISHED:
        raise ValidationError(gettext("This game is already finished: it counts."))
    if game.status == Hanchan.Status.VOID:
        raise ValidationError(gettext("This game is void: reopen it first."))
    if game.submitted_at is None:
        raise ValidationError(
            gettext("The table has not handed this game in yet: finish it on the game's page instead.")
        )
    _finish_confirmed(game, user=user, who="organiser")
    hanchan.refresh_from_db()
    return game


@transaction.atomic
def confirm_by_player(*, link: TableLink, code: str, ip: str | None) -> SeatConfirmation:
    """A player confirms the handed-in result with their own seat code; the fourth finishes the game.

    A wrong code is a ValidationError on ``code`` (the page counts it towards the rate limit of wrong
    guesses); a code typed twice is answered as confirmed, without a second entry.
    """
    access = _locked_access(link)
    game = access.game
    if game.event.confirmation != Event.Confirmation.PLAYERS:
        raise ValidationError(gettext("At this event the players do not confirm results with codes."))
    if game.status == Hanchan.Status.FINISHED:
        raise ValidationError(gettext("This game is already confirmed: it counts."))
    if game.submitted_at is None:
        raise ValidationError(gettext("Hand the game in first: then each player confirms the result."))
    wanted = normalise_code(code)
    seats = list(access.link.confirmations.order_by("seat"))
    match = next((s for s in seats if wanted and s.code == wanted), None)
    if match is None:
        raise ValidationError(
            {"code": gettext("Code: this is not one of this table's four player codes (see your slip).")}
        )
    if match.confirmed_at is not None:
        match.already = True  # type: ignore[attr-defined]
        return match
    match.confirmed_at = timezone.now()
    match.save(update_fields=["confirmed_at"])
    match.already = False  # type: ignore[attr-defined]
    player = game.seats.select_related("player").get(seat=match.seat).player
    with _through(access, ip):
        history.log(
            event=game.event,
            hanchan=game,
            user=None,
            action=ACTION_SEAT_CONFIRMED,
            summary=phrases.say(
                gettext_noop("%(wind)s (%(player)s) confirmed the result."),
                wind=phrases.wind(match.seat),
                player=player.display_name,
            ),
        )
        if all(s.confirmed_at is not None for s in seats):
            _finish_confirmed(game, user=None, who="players")
    return match


@transaction.atomic
def return_to_table(*, hanchan: Hanchan, user: Any, reason: str, event: Event | None = None) -> None:
    """Give a handed-in game back to its table (handed in by mistake, a hand to add): the table may
    change it again and the players' confirmations start over. A finished game is reopened first, on
    its own page, with its own reason."""
    if not (reason or "").strip():
        raise ValidationError(
            {"reason": gettext("Say why the game goes back to the table: the history keeps it.")}
        )
    game = _locked_game_of(hanchan, event)
    if game.submitted_at is None:
        raise ValidationError(gettext("The table has not handed this game in: it can still change it."))
    if game.status != Hanchan.Status.IN_PROGRESS:
        raise ValidationError(
            gettext("This game is finished or void: reopen it on its page first, then give it back.")
        )
    bump(game, submitted_at=None)
    SeatConfirmation.objects.filter(link__hanchan=game).update(confirmed_at=None)
    history.log(
        event=game.event,
        hanchan=game,
        user=user,
        action=ACTION_RETURNED,
        summary=phrases.say(
            gettext_noop("Table %(table)s may change its game again."), table=game.table_number
        ),
        reason=reason,
    )
    hanchan.refresh_from_db()
