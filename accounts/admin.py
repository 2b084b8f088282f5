"""Admin registrations for accounts.

Players' API tokens are not in the admin: a key shown there would let whoever reads it act as
that player (play their ranked attempts, close their account), and one added there would do the
same unaudited. Players make and revoke their own through the API.

The admin's sign-in is guarded as the API's is (``accounts.admin_login``).
"""

from django.contrib import admin
from rest_framework.authtoken.models import TokenProxy

if admin.site.is_registered(TokenProxy):
    admin.site.unregister(TokenProxy)

from accounts import player_admin  # noqa: F401  (registers the user admin)
from accounts.admin_login import guard_admin_sign_in

guard_admin_sign_in(admin.site)
