"""A game's own static web site (`adjudicator site`): the map, every turn's report, and dice that the reader's
browser checks. pages.py gathers and renders, folder.py decides what may be written where."""
