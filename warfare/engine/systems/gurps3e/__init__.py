"""GURPS 3e mass combat (gurps Part B: Compendium II / Roleplayer #30), pure rules.

Modules: `house_rules` (every [inferred] / [gap] / [rp30-ru] / [unverified] number in one
table), `characters` (PCs and named NPCs, Combat Skill, Risk limits, reputation), `forces`
(units, troop strength, racial modifiers), `strategy` (§B.7 modifiers and the commanders'
effective Strategy), `survival` (Survival roll, TL damage table), `glory` (Glory roll,
reputation, promotion reactions), `results` (§B.8.1 result table, Morale and rout),
`casualties` (GM-entered or the house default), `battle` (the `BattleSystem`).
"""
