"""The words players use for the classic maps' units (adjudicator/people.py): the AA gun as the rulebooks print
it, not the map's `aaGun`. Sgt. Apone's rules, on the Europe map, read the same. The powers keep the maps' names
(`Germans`, `Australians`): the games' own sentences, kept in the journal, speak of them as plural peoples ("the
Germans' victory points, end of their turn"), which a country's name would not agree with."""

UNITS = {"aaGun": "AA gun"}

NAMES = {"units": UNITS}
