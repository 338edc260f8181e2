"""The login form and django-axes' view of the username: bounded, so that no login attempt can fail.

Django's ``AuthenticationForm`` sets the username field's ``max_length`` after the field is built, so
the length is never checked: a 300-character username reached ``authenticate()`` and django-axes then
failed to store it (its column holds 255 characters) with a server error. The form below checks the
length (150, the user model's) and refuses NUL characters, so such a username is a wrong login like
any other; ``axes_username`` bounds what axes stores for the other login forms (the admin's).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.forms import AuthenticationForm, UsernameField
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.forms import TextInput
from django.http import HttpRequest
from django.utils.translation import gettext

USERNAME_MAX = 150  # django.contrib.auth.models.User.username
AXES_USERNAME_MAX = 255  # axes.models.AccessAttempt.username


class LoginForm(AuthenticationForm):
    """The site's login form: a username longer than any user's, or with a NUL, is a wrong login."""

    username = UsernameField(
        max_length=USERNAME_MAX, widget=TextInput(attrs={"autofocus": True, "maxlength": USERNAME_MAX})
    )

    def confirm_login_allowed(self, user: Any) -> None:
        """A player who signed up by e-mail (django-allauth) logs in here only once their address is
        confirmed, as on the players' log-in: otherwise a made-up address would be an account. Accounts
        without any e-mail address on record (organisers made in the admin) log in as before."""
        super().confirm_login_allowed(user)
        from allauth.account.models import EmailAddress

        addresses = EmailAddress.objects.filter(user=user)
        if addresses.exists() and not addresses.filter(verified=True).exists():
            raise ValidationError(
                gettext("Confirm your e-mail address first: open the link of the message we sent you."),
                code="unconfirmed",
            )

    def __init__(self, request: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(request, *args, **kwargs)
        field = self.fields["username"]
        if not any(isinstance(v, MaxLengthValidator) for v in field.validators):
            field.validators.append(MaxLengthValidator(field.max_length or USERNAME_MAX))


def axes_username(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """The username django-axes records for a failed login: without NUL characters and cut to its
    column's length, whatever login form it came from."""
    credentials = credentials or {}
    # Organisers log in with a username; players (django-allauth) with an e-mail address, posted as
    # "login" and passed on as "email".
    username = credentials.get("username") or credentials.get("email")
    if username is None and request is not None:
        posted = getattr(request, "POST", {})
        username = posted.get("username") or posted.get("login")
    if username is None:
        return None
    return str(username).replace("\x00", "")[:AXES_USERNAME_MAX]
