"""D&D 5e mass combat, "Unearthed Arcana: When Armies Clash" (2015) plus the DMG siege
equipment, from `shared/rules/dnd5e-mass-combat.md` (cited as "dnd5e §N").

Pure Python (no Django). Modules: `creatures` (stat blocks, SRD library), `siege` (§8 table),
`grid` (squares, terrain, movement, spell areas), `state` (the battle state), `rules` (the
rules as functions), `house_rules` (every [inferred] number), `battle` (the protocol).
"""
