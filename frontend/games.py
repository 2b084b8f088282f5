"""The five games the service offers: slug -> display name, in menu order."""

GAMES: dict[str, str] = {
    "grounds-for-divorce": "Grounds for Divorce",
    "gold-mine": "Gold Mine",
    "selective-castle": "Selective Castle",
    "grandfathers-clock": "Grandfather's Clock",
    "blondes-and-brunettes": "Blondes and Brunettes",
}
