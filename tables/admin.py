from django.contrib import admin

from tables.models import Hand, HandEvent, Player, Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("name", "status", "small_blind", "big_blind", "rules_profile", "dealer", "seq")
    inlines = [SeatInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    search_fields = ("name",)


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ("table", "number", "status", "started_at")
    list_filter = ("status", "table")


@admin.register(HandEvent)
class HandEventAdmin(admin.ModelAdmin):
    list_display = ("table", "seq", "hand", "index", "kind", "actor", "at")
    readonly_fields = [f.name for f in HandEvent._meta.fields]

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
