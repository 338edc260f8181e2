"""E-mail settings from the environment: EMAIL_URL, else EMAIL_HOST and its companions, else the console."""

from __future__ import annotations

import os

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.settings import email_from_env


def test_the_console_by_default():
    assert email_from_env({})["EMAIL_BACKEND"].endswith("console.EmailBackend")


def test_an_smtp_url_with_starttls():
    got = email_from_env({"EMAIL_URL": "smtp://me%40x.org:p%3Ass@mail.x.org:587?tls=1"})
    assert got == {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "mail.x.org",
        "EMAIL_PORT": 587,
        "EMAIL_HOST_USER": "me@x.org",
        "EMAIL_HOST_PASSWORD": "p:ss",
        "EMAIL_USE_TLS": True,
        "EMAIL_USE_SSL": False,
    }


def test_smtps_and_file_urls():
    smtps = email_from_env({"EMAIL_URL": "smtps://u:p@mail.x.org"})
    assert smtps["EMAIL_PORT"] == 465 and smtps["EMAIL_USE_SSL"] and not smtps["EMAIL_USE_TLS"]
    assert email_from_env({"EMAIL_URL": "file:///var/mail/tenbou"})["EMAIL_FILE_PATH"] == "/var/mail/tenbou"


def test_email_host_and_companions():
    got = email_from_env({"EMAIL_HOST": "smtp.x.org", "EMAIL_PORT": "2525", "EMAIL_USE_TLS": "true"})
    assert got["EMAIL_HOST"] == "smtp.x.org" and got["EMAIL_PORT"] == 2525 and got["EMAIL_USE_TLS"]


@pytest.mark.parametrize("url", ["smtp://", "ftp://x.org", "file://relative"])
def test_a_wrong_url_is_refused_at_start(url):
    with pytest.raises(ImproperlyConfigured):
        email_from_env({"EMAIL_URL": url})


def test_the_settings_module_keeps_the_backend_email_url_chose():
    """The settings module as the server loads it: a later line once set the console backend again,
    so that a production site with EMAIL_URL=smtp://… printed its e-mails instead of sending them."""
    import subprocess
    import sys

    code = "from django.conf import settings; print(settings.EMAIL_BACKEND, settings.EMAIL_HOST)"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "EMAIL_URL": "smtp://u:p@mail.x.org:587"}
    env.pop("EMAIL_BACKEND", None)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["django.core.mail.backends.smtp.EmailBackend", "mail.x.org"]
    env["EMAIL_BACKEND"] = "django.core.mail.backends.locmem.EmailBackend"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split()[0] == "django.core.mail.backends.locmem.EmailBackend"
