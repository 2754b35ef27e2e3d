"""Optional rules agreed at game start (`new --option NAME`): G40 Alt-Universe's 5-PU War Time Production (AU-85)."""

from __future__ import annotations

import pytest

from conftest import G40AU_208, TEST_SEED


def test_a_chosen_option_is_kept_in_the_game_and_read_by_the_rules(cli, tmp_path, maps_dir):
    db = tmp_path / "au.db"
    created = cli("new", db, "--game", "g40-alt-universe", "--map", maps_dir / G40AU_208, "--seed", TEST_SEED,
                  "--option", "war-time-production-5").output
    assert "optional rules: war-time-production-5" in created
    status = cli.json("status", db)
    assert status["options"] == ["war-time-production-5"]
    production = next(o for o in status["powers"]["Americans"]["objectives"] if o["name"] == "War Time Production")
    assert production["value"] == 5
    plain = tmp_path / "plain.db"
    cli("new", plain, "--game", "g40-alt-universe", "--map", maps_dir / G40AU_208, "--seed", TEST_SEED)
    assert cli.json("status", plain)["options"] == []
    assert cli.json("status", plain)["state_hash"] != status["state_hash"]     # the option is part of the state
    cli("audit", db)


@pytest.mark.parametrize("args, fragment", [
    (["--game", "g40-alt-universe", "--option", "no-such-rule"],
     "no optional rule of that name; it has war-time-production-5 (US War Time Production pays 5 PUs instead of 10"),
    (["--game", "g40-alt-universe", "--rules", "beta-1.1", "--option", "war-time-production-5"],
     "the beta-1.1 rules of g40-alt-universe have no such option; only beta-1.3 does"),
    (["--game", "demo", "--option", "war-time-production-5"], "the demo game has no optional rules"),
])
def test_an_option_the_game_or_its_rule_version_lacks_is_refused_before_anything_is_written(
        cli, tmp_path, maps_dir, monkeypatch, args, fragment):
    monkeypatch.setenv("ADJUDICATOR_MAPS_PATH", str(maps_dir))
    db = tmp_path / "refused.db"
    result = cli("new", db, *args, code=2)
    assert fragment in result.output
    assert not db.exists()
    assert not (tmp_path / "keys").exists() or not any((tmp_path / "keys").iterdir())
