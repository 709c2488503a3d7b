"""The dealer rotation board (issue 28): who deals where, who is on a break, who goes where at the next push,
the push with one tap, and the roster's shifts.  Floor staff and managers only."""

from __future__ import annotations

from collections.abc import Hashable
from datetime import datetime, timedelta
from typing import cast

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from office.reports import dealer_users
from office.views import require_staff
from tables import dealers
from tables.models import DealerChange, DealerShift
from tables.writepath import ServiceError


class ShiftForm(forms.Form):
    """A shift for the roster: a dealer, from and to (local time, today or tomorrow)."""

    dealer = forms.ModelChoiceField(queryset=User.objects.none(), label=gettext_lazy("Dealer"))
    starts_at = forms.DateTimeField(
        label=gettext_lazy("From"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"})
    )
    ends_at = forms.DateTimeField(
        label=gettext_lazy("To"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"})
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["dealer"]).queryset = dealer_users()

    def clean(self):
        data = super().clean() or {}
        if data.get("starts_at") and data.get("ends_at") and data["ends_at"] <= data["starts_at"]:
            raise forms.ValidationError(_("A shift ends after it starts."))
        return data


def _board(now: datetime) -> dict:
    """The board's rows: per table the dealer now, the change waiting and who comes next."""
    state = dealers.rotation_state(now)
    coming = {m.target: m.dealer for m in state.plan if m.target is not None}
    going = {m.source: m.target for m in state.plan if m.source is not None}
    names: dict[Hashable, str] = {t.id: t.name for t in state.tables}
    rows = []
    for table in state.tables:
        change = state.pending.get(table.id)
        rows.append(
            {
                "table": table,
                "dealer": change.outgoing if change else table.dealer,
                "pending": change,
                "next": None if change else coming.get(table.id),
                "goes_to": None if change else names.get(going.get(table.id)) if table.id in going else None,
                "to_break": (not change) and table.id in going and going[table.id] is None,
            }
        )
    resting = sorted(state.resting.items(), key=lambda kv: kv[1])
    return {"rows": rows, "resting": resting, "plan": state.plan, "pending": bool(state.pending)}


@login_required
def rotation(request: HttpRequest) -> HttpResponse:
    """``/office/rotation/``: the board; ``POST`` with ``push`` pushes (:func:`tables.dealers.push`), with
    ``minutes`` sets the schedule, with a shift's fields adds it to the roster."""
    require_staff(request)
    now = timezone.now()
    sched = dealers.schedule()
    shift_form = ShiftForm(request.POST if "add_shift" in request.POST else None)
    if request.method == "POST":
        if "push" in request.POST:
            try:
                made = dealers.push(actor=request.user, now=now)
            except ServiceError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(
                    request, _("Pushed: %(count)d tables wait for their incoming dealer.") % {"count": len(made)}
                )
            return redirect("office:rotation")
        if "minutes" in request.POST:
            try:
                sched.minutes = max(5, min(240, int(request.POST["minutes"])))
            except ValueError:
                messages.error(request, _("Minutes are a whole number."))
            else:
                sched.save(update_fields=["minutes"])
            return redirect("office:rotation")
        if shift_form.is_valid():
            DealerShift.objects.create(
                dealer=shift_form.cleaned_data["dealer"],
                starts_at=shift_form.cleaned_data["starts_at"],
                ends_at=shift_form.cleaned_data["ends_at"],
            )
            return redirect("office:rotation")
    next_push = (sched.last_push_at or now) + timedelta(minutes=sched.minutes) if sched.last_push_at else None
    context = _board(now)
    context.update(
        {
            "schedule": sched,
            "next_push": next_push,
            "shifts": DealerShift.objects.filter(ends_at__gt=now).select_related("dealer").order_by("starts_at"),
            "shift_form": shift_form,
            "recent": DealerChange.objects.exclude(taken_at=None)
            .select_related("table", "incoming", "outgoing", "pushed_by")
            .order_by("-taken_at")[:12],
        }
    )
    return render(request, "office/rotation.html", context)
