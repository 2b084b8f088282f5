"""The pages name cards from the engine's words (``card_words``, put in every page for cards.js):
the same words ``card_name`` and ``card_label`` use."""

from games.rules.cards import CODE, card_label, card_name, card_words


def test_the_pages_words_name_every_card_as_the_engine_does() -> None:
    words = card_words()
    for card, code in enumerate(CODE):
        rank, suit = words["ranks"][code[0]], words["suits"][code[1]]
        assert f"{rank['name']} of {suit['name']}" == card_name(card)
        assert f"{rank['label']}{suit['symbol']}" == card_label(card)
        assert suit["red"] == (code[1] in "DH")
