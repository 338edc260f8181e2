"""A URL configuration for tests/test_error_pages.py only: the site's URLs plus pages that fail on purpose."""

from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import HttpRequest, HttpResponse
from django.urls import include, path
from django.views.decorators.csrf import csrf_protect


def fails(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug, on purpose")


def refuses(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied


def suspicious(request: HttpRequest) -> HttpResponse:
    raise SuspiciousOperation("on purpose")


@csrf_protect
def form(request: HttpRequest) -> HttpResponse:
    return HttpResponse("sent")


urlpatterns = [
    path("test-errors/fails/", fails),
    path("test-errors/refuses/", refuses),
    path("test-errors/suspicious/", suspicious),
    path("test-errors/form/", form),
    path("", include("config.urls")),
]
