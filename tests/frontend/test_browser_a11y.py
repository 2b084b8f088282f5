"""What an axe-core audit of every page found, each checked here without axe, in a real
browser: text contrast where axe found it short or could not tell (text over a gradient),
WCAG AA, 4.5:1 for text under 24 px (under 18.66 px when bold) and 3:1 above, in both colour
schemes; and the size of small tap targets."""

from __future__ import annotations

import base64

import pytest
from playwright.sync_api import expect

from tests.frontend.browser_helpers import (
    call_api,
    contrast,
    create_players,
    open_game,
    post_move,
    sign_in,
    start_game,
    watch_errors,
    winning_line,
)

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}

# The colour an element's text is drawn in and the solid colour behind it: the backgrounds of
# the element and its ancestors (color-mix() ones included, computed as color(srgb ...)),
# composited over the white canvas. Fails on a background image: this is for flat colours.
_TEXT_ON_FLAT = """
(node) => {
  const parse = (text) => {
    let m = text.match(/^rgba?\\(([\\d.]+),? ([\\d.]+),? ([\\d.]+)(?:,? \\/? ?([\\d.]+))?\\)$/);
    if (m) return [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]];
    m = text.match(/^color\\(srgb ([\\d.e-]+) ([\\d.e-]+) ([\\d.e-]+)(?: \\/ ([\\d.]+))?\\)$/);
    if (m) return [+m[1] * 255, +m[2] * 255, +m[3] * 255, m[4] === undefined ? 1 : +m[4]];
    throw new Error(`unknown colour ${text}`);
  };
  const over = (top, below) => [0, 1, 2].map((i) => top[3] * top[i] + (1 - top[3]) * below[i]);
  const layers = [];
  for (let el = node; el; el = el.parentElement) {
    const style = getComputedStyle(el);
    if (style.backgroundImage !== "none") throw new Error(`background image on ${el.tagName}`);
    layers.push(parse(style.backgroundColor));
  }
  let background = [255, 255, 255];
  for (const layer of layers.reverse()) background = over(layer, background);
  const style = getComputedStyle(node);
  return {
    text: over(parse(style.color), background),
    background,
    size: parseFloat(style.fontSize),
    bold: parseInt(style.fontWeight, 10) >= 700,
  };
}
"""


def _needed(size: float, bold: bool) -> float:
    """WCAG AA: large text (24 px, or 18.66 px bold) needs 3:1, any other 4.5:1."""
    return 3 if size >= 24 or (bold and size >= 18.66) else 4.5


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_you_beside_your_name_on_the_daily_leaderboard_can_be_read(
    site, new_context, django_user_model, scheme
):
    # The viewer's row is tinted with the accent; " (you)" in the muted grey read at 4.41:1
    # on it in the light scheme.
    create_players(django_user_model, "ada")
    page = new_context(color_scheme=scheme).new_page()
    errors = watch_errors(page)
    sign_in(page, site, "ada")
    today = call_api(page, "GET", "/api/daily/")["body"]["date"]
    answer = call_api(page, "POST", f"/api/daily/{today}/gold-mine/attempt/")
    assert answer["status"] == 201, answer
    page.goto(f"{site}/daily/{today}/gold-mine/")
    you = page.locator('#leaderboard tr.me[data-user="ada"] .you')
    expect(you).to_have_text("(you)")
    found = you.evaluate(_TEXT_ON_FLAT)
    ratio = contrast(found["text"], found["background"])
    assert ratio >= _needed(found["size"], found["bold"]), (ratio, found)
    assert errors == []


# Each text on the felt matching a selector: its colour, its size, and the page pixels under
# its words (read from a screenshot taken with them hidden), so the felt's gradient and the
# dial's lighter face count where the words really lie.
_TEXT_ON_THE_FELT = """
async ([png, selector]) => {
  const image = new Image();
  image.src = `data:image/png;base64,${png}`;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = image.width;
  canvas.height = image.height;
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  const scale = image.width / window.innerWidth;
  return [...document.querySelectorAll(selector)].map((node) => {
    const style = getComputedStyle(node);
    const words = document.createRange();
    words.selectNodeContents(node);
    const box = words.getBoundingClientRect();
    const x = Math.round(box.left * scale), y = Math.round(box.top * scale);
    const w = Math.max(1, Math.round(box.width * scale));
    const h = Math.max(1, Math.round(box.height * scale));
    const data = context.getImageData(x, y, w, h).data;
    const pixels = [];
    for (let i = 0; i < data.length; i += 4) pixels.push([data[i], data[i + 1], data[i + 2]]);
    return {
      text: node.textContent,
      colour: style.color.match(/[\\d.]+/g).map(Number),
      size: parseFloat(style.fontSize),
      bold: parseInt(style.fontWeight, 10) >= 700,
      pixels,
    };
  });
}
"""


def _felt_text(page, selector: str) -> list[tuple[str, float, float]]:
    """(words, contrast, contrast needed) of each text on the felt matching ``selector``. The
    contrast is the tenth lowest of the pixels under the words: a tenth of their box may
    touch something else (the edge of a neighbouring card, the dial's ring)."""
    page.mouse.move(0, 0)
    hide = "(nodes, how) => nodes.forEach((n) => { n.style.visibility = how; })"
    texts = page.locator(selector)
    texts.evaluate_all(hide, "hidden")
    png = base64.b64encode(page.screenshot()).decode()
    texts.evaluate_all(hide, "")
    found = []
    for text in page.evaluate(_TEXT_ON_THE_FELT, [png, selector]):
        alpha = text["colour"][3] if len(text["colour"]) > 3 else 1
        ratios = sorted(
            contrast(
                [
                    alpha * c + (1 - alpha) * p
                    for c, p in zip(text["colour"][:3], pixel, strict=True)
                ],
                pixel,
            )
            for pixel in text["pixels"]
        )
        found.append((text["text"], ratios[len(ratios) // 10], _needed(text["size"], text["bold"])))
    return found


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_clocks_hours_can_be_read_where_they_lie_on_the_felt(
    site, new_context, django_user_model, scheme
):
    # The hours near the top of the dial lie on the felt's lightest part (its light falls
    # from the top), and the dial's face lightens it again: in the light scheme 12, 1, 2
    # and 3 read at 3.7 to 4.4:1, small text on a phone and on a desktop alike.
    create_players(django_user_model, "ada")
    seen = 0
    for viewport in (DESKTOP, PHONE):
        page = new_context(color_scheme=scheme, viewport=viewport).new_page()
        errors = watch_errors(page)
        sign_in(page, site, "ada")
        open_game(page, site, start_game(page, "grandfathers-clock", 1))
        expect(page.locator("#board .hour-mark")).to_have_count(12)
        for hour, ratio, needed in _felt_text(page, "#board .hour-mark"):
            assert ratio >= needed, (viewport, hour, round(ratio, 2))
            seen += 1
        assert errors == []
    assert seen == 24


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_clocks_count_of_complete_foundations_can_be_read(
    site, new_context, django_user_model, scheme
):
    # "12/12" in the middle of the dial, at 70 % white, read at 3.3:1 on a phone in the
    # light scheme, where it is small text.
    create_players(django_user_model, "ada")
    winning = winning_line("grandfathers-clock")
    for viewport in (DESKTOP, PHONE):
        page = new_context(color_scheme=scheme, viewport=viewport).new_page()
        errors = watch_errors(page)
        sign_in(page, site, "ada")
        game_id = start_game(page, "grandfathers-clock", winning["seed"])
        for number, move in enumerate(winning["moves"]):
            post_move(page, game_id, move, number)
        open_game(page, site, game_id)
        page.locator("#result-close").click()
        expect(page.locator("#result")).not_to_have_attribute("open", "")
        [(words, ratio, needed)] = _felt_text(page, "#board .clock-centre")
        assert words == "12/12"
        assert ratio >= needed, (viewport, round(ratio, 2))
        assert errors == []


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_lobbys_sign_in_to_play_links_are_big_enough_to_tap(site, new_context, viewport):
    # Signed out, each daily challenge offers "Sign in to play" just below the game's link:
    # WCAG 2.5.8 asks for 24 by 24 px targets, or room around a smaller one (axe-core's
    # target-size found 16 px tall links 20 px from their neighbours).
    page = new_context(viewport=viewport).new_page()
    errors = watch_errors(page)
    page.goto(site + "/")
    links = page.locator("#daily-list .standing a")
    expect(links).to_have_count(5)
    expect(links.first).to_have_text("Sign in to play")
    for box in links.evaluate_all(
        "(links) => links.map((a) => a.getBoundingClientRect().toJSON())"
    ):
        assert box["height"] >= 24 and box["width"] >= 24, box
    assert errors == []
