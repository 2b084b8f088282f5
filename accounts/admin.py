"""Admin registrations for accounts.

Players' API tokens are not in the admin: a key shown there would let whoever reads it act as
that player (play their ranked attempts, close their account), and one added there would do the
same unaudited. Players make and revoke their own through the API.
"""

from django.contrib import admin
from rest_framework.authtoken.models import TokenProxy

if admin.site.is_registered(TokenProxy):
    admin.site.unregister(TokenProxy)

from accounts import player_admin  # noqa: F401  (registers the user admin)
