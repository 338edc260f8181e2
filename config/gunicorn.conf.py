"""gunicorn settings for production: ``gunicorn -c config/gunicorn.conf.py config.wsgi``.

Tenbou's gunicorn listens on the loopback interface only, behind a TLS proxy (nginx, Caddy: see
docs/deployment.md) that terminates HTTPS and forwards to it; nothing else should reach it over plain
HTTP. Every value can be overridden from the environment or the command line.

gunicorn has no setting for its ``Server`` response header and always writes ``gunicorn`` there: the
name is replaced here, before any request is served, so responses do not advertise the server software
to whoever scans for a vulnerable version.
"""

from __future__ import annotations

import multiprocessing
import os

import gunicorn
import gunicorn.http.wsgi

SERVER_NAME = "tenbou"
gunicorn.SERVER = SERVER_NAME
gunicorn.SERVER_SOFTWARE = SERVER_NAME
# The response class reads these module globals (imported from gunicorn before this file runs).
gunicorn.http.wsgi.SERVER = SERVER_NAME
gunicorn.http.wsgi.SERVER_SOFTWARE = SERVER_NAME

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", str(min(2 * multiprocessing.cpu_count() + 1, 9))))
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
# The proxy on this machine is the only one whose X-Forwarded-Proto gunicorn believes (its default).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
# One line per request on standard output (the journal); GUNICORN_ACCESSLOG="" turns it off (benchmarks).
accesslog = os.environ.get("GUNICORN_ACCESSLOG", "-") or None
errorlog = "-"
