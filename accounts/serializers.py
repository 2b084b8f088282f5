"""The accounts API's request bodies (checked here, acted on in services), and the account as
answers show it (``UserSerializer``); its other answers are ``accounts.responses``."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from rest_framework import serializers

from accounts import preferences
from accounts.selectors import MAX_RESET_TOKEN_LENGTH, MAX_RESET_UID_LENGTH
from accounts.services import INVALID_CONFIRMATION_LINK_MESSAGE, INVALID_RESET_LINK_MESSAGE
from accounts.usernames import NEW_USERNAME_VALIDATORS
from web.http.errors import KnownFieldsOnly

# Django sets no upper bound; this keeps a client from making the server hash megabytes.
MAX_PASSWORD_LENGTH = 4096
MAX_USERNAME_LENGTH = 150  # Django's
MAX_EMAIL_LENGTH = 254

# The refusals a player can meet, in the words the site's forms use (an empty field: the
# form's data-missing text), not DRF's ("Ensure this field has no more than 150 characters.").


def _messages(missing: str | None, too_long: str) -> dict[str, str]:
    messages = {"max_length": too_long}
    if missing:
        messages.update(dict.fromkeys(("required", "blank", "null"), missing))
    return messages


def _password_field(missing: str) -> serializers.CharField:
    # Spaces are part of a password: never trim them.
    return serializers.CharField(
        max_length=MAX_PASSWORD_LENGTH,
        trim_whitespace=False,
        write_only=True,
        style={"input_type": "password"},
        error_messages=_messages(
            missing, f"A password has at most {MAX_PASSWORD_LENGTH} characters."
        ),
    )


def _username_field(missing: str | None, **kwargs: object) -> serializers.CharField:
    too_long = f"A username has at most {MAX_USERNAME_LENGTH} characters."
    return serializers.CharField(
        max_length=MAX_USERNAME_LENGTH, error_messages=_messages(missing, too_long), **kwargs
    )


def _email_field(missing: str | None, **kwargs: object) -> serializers.EmailField:
    too_long = f"An email address has at most {MAX_EMAIL_LENGTH} characters."
    return serializers.EmailField(
        max_length=MAX_EMAIL_LENGTH, error_messages=_messages(missing, too_long), **kwargs
    )


def _reset_link_part(help_text: str, max_length: int) -> serializers.CharField:
    # Whatever is wrong with a part of the link, the link is what is wrong.
    return serializers.CharField(
        max_length=max_length,
        help_text=help_text,
        error_messages=dict.fromkeys(
            ("required", "blank", "null", "max_length", "invalid"), INVALID_RESET_LINK_MESSAGE
        ),
    )


class UserSerializer(serializers.ModelSerializer):
    # An address is optional: the model's default is "", which the schema must allow.
    email = serializers.EmailField(read_only=True, allow_blank=True)

    class Meta:
        model = get_user_model()
        fields = ["id", "username", "email", "date_joined"]
        read_only_fields = fields


class SignUpAnswerSerializer(UserSerializer):
    """The new account (its ``email`` blank until confirmed), the address the link went to,
    and what to do: the same whether or not another account has the address."""

    email_to_confirm = serializers.CharField(
        read_only=True, help_text="The address sent a link to confirm it; blank: none given."
    )
    detail = serializers.CharField(
        read_only=True, allow_null=True, help_text="What to do next; null: nothing."
    )

    class Meta(UserSerializer.Meta):
        fields = [*UserSerializer.Meta.fields, "email_to_confirm", "detail"]
        read_only_fields = fields


class EmailConfirmSerializer(KnownFieldsOnly):
    token = serializers.CharField(
        max_length=1000,
        help_text="From the emailed link.",
        error_messages=dict.fromkeys(
            ("required", "blank", "null", "max_length", "invalid"),
            INVALID_CONFIRMATION_LINK_MESSAGE,
        ),
    )


class RegisterSerializer(KnownFieldsOnly):
    # Up to 150 characters of ASCII letters, digits and . - _ (one letter or digit at least)
    username = _username_field(
        "Choose a username.",
        validators=NEW_USERNAME_VALIDATORS,
    )
    password = _password_field("Choose a password.")
    email = _email_field(None, allow_blank=True, default="")


class LoginSerializer(KnownFieldsOnly):
    username = _username_field("Enter your username.")
    password = _password_field("Enter your password.")


class PasswordChangeSerializer(KnownFieldsOnly):
    old_password = _password_field("Enter your current password.")
    new_password = _password_field("Choose a new password.")


ENTER_PASSWORD_FOR_EMAIL = "Enter your password to change the email address."


class EmailChangeSerializer(KnownFieldsOnly):
    email = _email_field(
        None,  # blank removes the address
        allow_blank=True,
        help_text="Where password reset links go; blank: none.",
    )
    password = serializers.CharField(
        max_length=MAX_PASSWORD_LENGTH,
        trim_whitespace=False,
        write_only=True,
        required=False,
        style={"input_type": "password"},
        help_text="Your current password: required with `email`.",
        error_messages=_messages(
            ENTER_PASSWORD_FOR_EMAIL, f"A password has at most {MAX_PASSWORD_LENGTH} characters."
        ),
    )

    def validate(self, attrs: dict) -> dict:
        if "email" in attrs and not attrs.get("password"):
            raise serializers.ValidationError({"password": [ENTER_PASSWORD_FOR_EMAIL]})
        return attrs


class AccountDeleteSerializer(KnownFieldsOnly):
    password = _password_field("Enter your password to close the account.")


class PasswordResetSerializer(KnownFieldsOnly):
    email = _email_field("Enter your email address.")


class PasswordResetConfirmSerializer(KnownFieldsOnly):
    uid = _reset_link_part("From the emailed link.", MAX_RESET_UID_LENGTH)
    token = _reset_link_part("From the emailed link.", MAX_RESET_TOKEN_LENGTH)
    new_password = _password_field("Choose a new password.")


class StrictBooleanField(serializers.BooleanField):
    """true or false, as JSON writes them: not DRF's "on", "yes", 1 or "true"."""

    def to_internal_value(self, data: object) -> bool:
        if isinstance(data, bool):
            return data
        self.fail("invalid", input=data)


def _setting_field(name: str) -> serializers.Field:
    allowed = preferences.CHOICES[name]
    if allowed is bool:
        return StrictBooleanField(required=False, error_messages={"invalid": "Send true or false."})
    return serializers.ChoiceField(
        choices=allowed,
        required=False,
        error_messages={"invalid_choice": preferences.refusal(name, None)},
    )


class SettingsChangeSerializer(KnownFieldsOnly):
    """``PATCH /api/auth/settings/``: any of the settings, each one of its choices."""

    speed = _setting_field("speed")
    autoplay = _setting_field("autoplay")
    sound = _setting_field("sound")
    card_back = _setting_field("card_back")
    table = _setting_field("table")
    left_handed = _setting_field("left_handed")
    winnable_only = _setting_field("winnable_only")
