"""Inner Sphere (Esfera Interior): the orders phase of a BattleTech-style campaign of states, regiments,
factories, jumpships and research."""

from adjudicator.rulesets.inner_sphere.rules import InnerSphere

ruleset = InnerSphere()
