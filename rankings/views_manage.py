"""Organisers' ranking pages: import a tournament's results from elsewhere; merge two player records."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from league.permissions import managed_clubs
from league.views.post_only import post_only

from . import merge
from .forms import ImportForm, MergeForm
from .imports import Details, ImportProblem, import_results
from .models import MergeRequest


def _organiser_or_404(request: HttpRequest) -> None:
    if not request.user.is_staff and not managed_clubs(request.user).exists():
        raise Http404("Organisers only.")


@login_required
def import_results_view(request: HttpRequest) -> HttpResponse:
    """The import form; a bad file is answered with every problem, by line and column, nothing imported."""
    _organiser_or_404(request)
    form = ImportForm(request.POST or None, request.FILES or None, user=request.user)
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        data = upload.read(3 * 1024 * 1024)
        details = Details(
            club=form.cleaned_data["club"],
            name=form.cleaned_data["name"],
            end_date=form.cleaned_data["end_date"],
            days=form.cleaned_data["days"],
            countries=form.cleaned_data["countries"],
            mers=form.cleaned_data["mers"],
            qualification=form.cleaned_data["qualification"],
        )
        try:
            tournament = import_results(data=data, filename=upload.name, details=details, user=request.user)
        except ImportProblem as exc:
            problems = exc.messages
        else:
            messages.success(
                request,
                _("%(name)s imported: %(count)d players.")
                % {"name": tournament.name, "count": tournament.players},
            )
            return redirect("rankings:tournaments")
    status = 400 if problems else 200
    return render(request, "rankings/manage/import.html", {"form": form, "problems": problems}, status=status)


@login_required
def merges(request: HttpRequest) -> HttpResponse:
    """The merge requests of the user's clubs, and the form to ask for one."""
    _organiser_or_404(request)
    form = MergeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            made = merge.request_merge(
                kept=form.cleaned_data["kept"],
                merged=form.cleaned_data["merged"],
                user=request.user,
                reason=form.cleaned_data["reason"],
            )
        except ValidationError as exc:
            for field, errors in exc.message_dict.items():
                form.add_error(field if field in form.fields else None, errors)
        else:
            if made.status == MergeRequest.Status.DONE:
                messages.success(request, _("The two players are merged."))
            else:
                messages.success(request, _("Request sent: an organiser of the other club must accept it."))
            return redirect("rankings_manage:merges")
    requests = merge.pending_for(request.user)
    for item in requests:
        item.answerable = item.status == MergeRequest.Status.PENDING and merge.may_answer(item, request.user)
        item.cancellable = (
            item.status == MergeRequest.Status.PENDING and item.requested_by_id == request.user.pk
        )
    status = 422 if form.is_bound else 200
    return render(request, "rankings/manage/merges.html", {"form": form, "requests": requests}, status=status)


def _back(pk: int) -> str:
    return reverse("rankings_manage:merges")


def _answer(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    _organiser_or_404(request)
    item = get_object_or_404(MergeRequest, pk=pk)
    people = [item.kept] + ([item.merged] if item.merged is not None else [])
    if not (
        merge.organises(request.user, merge.clubs_of(*people))
        or item.requested_by_id == request.user.pk
        or request.user.is_staff
    ):
        raise Http404("Not one of your clubs' requests.")
    try:
        if action == "accept":
            merge.accept_merge(request=item, user=request.user)
            messages.success(request, _("The two players are merged."))
        else:
            merge.decline_merge(request=item, user=request.user, cancel=action == "cancel")
            messages.success(request, _("The request is closed."))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    return redirect("rankings_manage:merges")


@login_required
@post_only(_back)
def merge_accept(request: HttpRequest, pk: int) -> HttpResponse:
    return _answer(request, pk, "accept")


@login_required
@post_only(_back)
def merge_decline(request: HttpRequest, pk: int) -> HttpResponse:
    return _answer(request, pk, "decline")


@login_required
@post_only(_back)
def merge_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    return _answer(request, pk, "cancel")
