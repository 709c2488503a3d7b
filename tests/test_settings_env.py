"""Every environment variable of the settings goes through the env helpers of
``pokerfloor/settings.py``, so a bad value stops the start with ImproperlyConfigured naming the
variable (README), never a bare ValueError deep in Django (issue 25)."""

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HELPERS = {"envbool", "envint", "envlist", "envstr", "envchoice", "envzone"}


def settings_with(**env: str) -> subprocess.CompletedProcess:
    """Import the settings in a fresh interpreter with ``env`` on top of a production-like one."""
    base = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "PYTEST_CURRENT_TEST")}
    base.update({"DJANGO_SETTINGS_MODULE": "pokerfloor.settings", "SECRET_KEY": "x" * 50, "DEBUG": "0"})
    code = "import django; django.setup(); from django.conf import settings; print(settings.TIME_ZONE)"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**base, **env}, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    "name,value",
    [
        ("SERVICE_THREADS", "abc"),
        ("LOG_LEVEL", "loud"),
        ("TIME_ZONE", "Mars/Olympus"),
        ("POKERFLOOR_FAST_PASSWORDS", "2"),
        ("TABLET_DOUBLE_TAP_MS", "-5"),
        ("TABLET_DOUBLE_TAP_MS", "half a second"),
        ("LOOP_CONNECTIONS", "0"),
        ("LOOP_CONNECTIONS", "two"),
    ],
)
def test_a_bad_value_names_its_variable(name, value):
    done = settings_with(**{name: value})
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("django.core.exceptions.ImproperlyConfigured") and name in last, done.stderr


def test_good_values_pass():
    done = settings_with(SERVICE_THREADS="2", LOOP_CONNECTIONS="3", LOG_LEVEL="info", TIME_ZONE="Europe/Berlin")
    assert done.returncode == 0 and done.stdout.strip() == "Europe/Berlin", done.stderr


def test_only_the_helpers_read_the_environment():
    """No ``os.environ`` outside the helpers: a new variable read by hand would skip the check."""
    tree = ast.parse((ROOT / "pokerfloor" / "settings.py").read_text(encoding="utf-8"))
    outside = []
    for top in tree.body:
        if isinstance(top, ast.FunctionDef) and top.name in HELPERS:
            continue
        for node in ast.walk(top):
            if isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv"):
                outside.append(node.lineno)
    assert outside == [], f"read these through an env helper: lines {outside}"
