"""GURPS Mass Combat, 4th edition (reference: gurps Part A) as a pure rules engine.

Modules, each a small set of functions over frozen data:

* `house_rules`: every number the reference tags [impl], [inferred], [unverified], [errata],
  [seed?] or [gap], in one table (`HOUSE_RULES`, read through `house_value`);
* `tables`: the printed tables of seed A (terrain ratings, relative TS, superiority, CRT,
  round length, Misfortunes of War, …);
* `strategies`: the battle strategy table (§A.6.3, [impl]) and `strategy_effects`;
* `forces`: elements, forces, command staff and the TS calculator with its working (§A.2);
* `prebattle`: reconnaissance contest, initial intelligence, BSM, DB, round length (§A.3-A.5);
* `rounds`: one battle round: restrictions, pairing, the Strategy contest, casualties, PB,
  Misfortunes of War, Rally (§A.6);
* `aftermath`: pursuit, recovery, new TS, loot (§A.7);
* `battle`: the `BattleSystem` (key "gurps4e") behind the shared battle protocol.
"""
