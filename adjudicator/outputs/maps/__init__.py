"""Pictures of a turn for the people who read its results: maps (one per faction, the GM's, a public one),
native spreadsheet charts of each faction's history, the Changes tab and the reprocess diff.

A ruleset gives what a reader may see of the map as a :class:`~adjudicator.outputs.maps.view.MapView` (its
``map_view`` hook); the drawing code here knows no ruleset.
"""
