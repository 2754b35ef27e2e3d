"""The rulebook's two theatres of victory cities (RULINGS.md "victory": the Axis win holding 8 of the 11 Europe
cities or 6 of the 8 Pacific ones), which the map's conditions list without naming: the report says "in Europe"
of a condition that counts exactly these cities, and counts any other group by its cities (rules/city_goals.py)."""

CITY_GROUPS = {
    "Europe": ["United Kingdom", "Russia", "Germany", "Poland", "France", "Southern Italy", "Novgorod", "Volgograd",
               "Ontario", "Egypt", "Eastern United States"],
    "the Pacific": ["Western United States", "Hawaiian Islands", "Philippines", "New South Wales", "India",
                    "Kwangtung", "Kiangsu", "Japan"],
}
