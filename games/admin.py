"""Staff tools in the Django admin: deals and moves (read-only), daily challenges, the review of
games with their flags and audit log. Each feature registers its own pages; Django's admin
discovers this module, which brings them in. The user admin is ``accounts.player_admin``.

Nothing here writes a game: staff actions go through the features' services (which audit them).
Histories, flags and the audit log are never edited here, by anyone, superusers included.
"""

from django.contrib import admin

from games.daily import admin as daily_admin  # noqa: F401  (registers its pages)
from games.moderation import admin as moderation_admin  # noqa: F401
from games.play import admin as play_admin  # noqa: F401

# Staff see whose site this is, in the header and the browser tab.
admin.site.site_header = "Patience staff"
admin.site.site_title = "Patience staff"
admin.site.index_title = "Games, players and daily challenges"
