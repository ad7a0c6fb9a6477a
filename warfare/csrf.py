"""The request's CSRF token, masked as Django masks it, in fewer steps.

Django's `get_token` masks the request's CSRF secret anew on each call (against BREACH: no
two responses carry the same token): its mask is 32 characters drawn one `secrets.choice` at
a time, each an `os.urandom` read, about 500 Python calls and 32 system calls in all, which a
board action's answer pays once (`battles.rendering.personalize`) beside the dozen calls of
the bare logged-in view it is measured against (issue 13). `masked_token` draws the mask from
one `secrets.token_bytes` read (bytes past the last whole multiple of the 62 characters are
left out, so each character is as likely) and ciphers the secret as Django does: the same
token, which `CsrfViewMiddleware` unmasks and checks as its own."""

import secrets

from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH, get_token

_COUNT = len(CSRF_ALLOWED_CHARS)
_INDEX = {char: index for index, char in enumerate(CSRF_ALLOWED_CHARS)}
#: Random bytes at or past this are not used (248 = 4 × 62: the others map evenly).
_LIMIT = 256 - 256 % _COUNT


def _mask() -> list[int]:
    """`CSRF_SECRET_LENGTH` uniform indexes into `CSRF_ALLOWED_CHARS`."""
    mask: list[int] = []
    while len(mask) < CSRF_SECRET_LENGTH:  # (one read nearly always: 40 bytes, 3 % left out)
        mask += [byte % _COUNT for byte in secrets.token_bytes(40) if byte < _LIMIT]
    return mask[:CSRF_SECRET_LENGTH]


def masked_token(request) -> str:
    """`django.middleware.csrf.get_token(request)`, with its side effect (the CSRF cookie sent
    with the response): Django's own where the request has no valid secret yet (it makes
    one)."""
    secret = request.META.get("CSRF_COOKIE")
    if not isinstance(secret, str) or len(secret) != CSRF_SECRET_LENGTH:
        return get_token(request)
    try:
        indexes = [_INDEX[char] for char in secret]
    except KeyError:  # (not a secret Django made: its own handles it)
        return get_token(request)
    request.META["CSRF_COOKIE_NEEDS_UPDATE"] = True
    mask = _mask()
    chars = CSRF_ALLOWED_CHARS
    cipher = [chars[(index + shift) % _COUNT] for index, shift in zip(indexes, mask, strict=True)]
    return "".join([chars[shift] for shift in mask] + cipher)
