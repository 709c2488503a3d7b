"""Read-mostly admin views of tournaments (writes go through services)."""

from django.contrib import admin

from tournaments.models import Entry, Finish, Instruction, Tournament, TournamentEvent, TournamentTable


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "rulebook", "status", "created_at")


for model in (Entry, Finish, Instruction, TournamentEvent, TournamentTable):
    admin.site.register(model)
