"""Admin for the rulebooks (read mostly: the JSON files are the source, see load_rulebooks)."""

from django.contrib import admin

from rules.models import Rule, Rulebook


class RuleInline(admin.TabularInline):
    model = Rule
    fields = ("number", "title", "summary_en")
    extra = 0
    show_change_link = True


@admin.register(Rulebook)
class RulebookAdmin(admin.ModelAdmin):
    list_display = ("title", "slug", "source_file", "scope")
    prepopulated_fields = {"slug": ("title",)}
    inlines = [RuleInline]


@admin.register(Rule)
class RuleAdmin(admin.ModelAdmin):
    list_display = ("number", "title", "rulebook", "chapter")
    list_filter = ("rulebook",)
    search_fields = ("number", "title", "text_de", "summary_en")
    ordering = ("rulebook__position", "position")
