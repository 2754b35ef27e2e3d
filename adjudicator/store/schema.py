"""What a game database must hold, known without defining its tables (`open_existing` checks a database before any
command defines a mapped class: see game_row)."""

from __future__ import annotations

from datetime import datetime, timezone

SCHEMA_VERSION = 7        # 2: submission and step numbers unique within a game; 3: snapshots, map art, deliveries;
                          # 4: the setup in a table of its own (game_setup), indexes for the journal's reads;
                          # 5: each report keeps the version of the templates that wrote it (report.template_version)
                          # 6: the messages taken in by `inbox` and `watch` (intake)
                          # 7: the answers `watch` sends to them (reply)
# Every table of a game database, with the schema version that brought it (tests/test_store.py keeps it equal to
# the metadata).
TABLES = {"meta": 1, "game": 1, "power": 1, "territoryowner": 1, "unit": 1, "relationship": 1, "submission": 1,
          "step": 1, "dice_group": 1, "revealedseed": 1, "report": 1,
          "snapshot": 3, "map_art": 3, "delivery": 3, "game_setting": 3, "game_setup": 4,
          "intake": 6, "reply": 7}


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
