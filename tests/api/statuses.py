"""The API permission matrices' common rows: the status each role gets, in `ROLES` order
(anonymous 403 without a challenge; outsiders and other campaigns' GMs 404, the campaign's
very existence hidden; a member without the role 403)."""

#: Every member reads it.
MEMBERS = (403, 404, 404, 200, 200, 200)
#: The GM's alone; the players are refused (403).
GM = (403, 404, 404, 403, 403, 200)
#: The GM's alone, and hidden from the players (404: a hidden faction's).
GM_ALONE_SEES = (403, 404, 404, 404, 404, 200)
#: The GM creates it (201).
GM_CREATES = (403, 404, 404, 403, 403, 201)
#: The GM and the side it belongs to (the player of the faction the URL points at).
OWN_SIDE = (403, 404, 404, 403, 200, 200)
