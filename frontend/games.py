"""The five games the service offers: slug -> display name, in menu order."""

from games.catalogue import variant_names

GAMES: dict[str, str] = variant_names()
