"""Steps the board tests share."""

from playwright.sync_api import expect


def end_turn(page):
    """Click *End turn* and wait for its answer to be on the board (`#board-seq` holds the
    board's version, which each command moves on): a fixed wait would let a slow answer land
    after the next look at the board (under load, a click on a button the answer takes away)."""
    seq = page.locator("#board-seq")
    before = seq.get_attribute("data-version")
    page.get_by_role("button", name="End turn").click()
    expect(seq).not_to_have_attribute("data-version", before)
