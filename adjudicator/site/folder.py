"""Where the site is written, and only there: the output folder is the host's web space, often shared with other
files, so a folder that holds anything but an earlier site of the same game is refused, no path may lead out of
it (a symlink placed inside), and a rebuild rewrites only the files whose content changed (the manifest)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from ..errors import AdjudicatorError

MANIFEST = ".adjudicator-site.json"


class SiteFolder:
    """The output folder, checked before anything is written; `write` keeps the manifest's content hashes."""

    def __init__(self, out: str, game_id: str, anchor: str):
        given = Path(out)
        if given.exists() and not given.is_dir():
            raise AdjudicatorError(f"-o {out}: that is a file; give a folder for the site (a new or an empty one, or "
                                   "the folder of this game's site)")
        self.root = given.resolve()
        self.game_id, self.anchor = game_id, anchor
        self.old = self._earlier_site(out)
        self.files: dict[str, str] = {}     # relative path -> sha256 of what is there after this build
        self.keys: dict[str, str] = dict(self.old.get("keys", {}))
        self.written: list[str] = []
        if not self.old:        # the folder is the game's from now on: a build cut short is finished by the next
            self._manifest()

    def _earlier_site(self, out: str) -> dict:
        if not self.root.exists():
            return {}
        manifest = self.root / MANIFEST
        present = sorted(p.name for p in self.root.iterdir())
        if not present:
            return {}
        if manifest.is_symlink() or not manifest.is_file():
            shown = ", ".join(present[:5]) + (f" and {len(present) - 5} more" if len(present) > 5 else "")
            raise AdjudicatorError(f"-o {out}: the folder holds other files ({shown}) and no site of a game; give a new "
                                   "or an empty folder, so that nothing of yours is overwritten")
        try:
            old = json.loads(manifest.read_text("utf-8"))
            game, anchor = old["game"], old["anchor"]
        except (OSError, ValueError, KeyError, TypeError):
            raise AdjudicatorError(f"-o {out}: its {MANIFEST} is damaged, so it cannot be told whose site the folder "
                                   "holds; give a new folder, or remove the old site first") from None
        if (game, anchor) != (self.game_id, self.anchor):
            raise AdjudicatorError(f"-o {out}: the folder holds the site of another game ({game}, anchor "
                                   f"{str(anchor)[:16]}…), not of {self.game_id}; give the folder of this game's site or a new one")
        return old

    def unchanged(self, name: str, key: str) -> bool:
        """Whether `name` was written by an earlier build from the same `key` (what it is made of) and is still
        there as it was written: then it need not be made again."""
        sha = self.old.get("files", {}).get(name)
        if self.keys.get(name) != key or sha is None:
            return False
        path = self._target(name)
        if path.is_symlink() or not path.is_file() or _sha256(path.read_bytes()) != sha:
            return False
        self.files[name] = sha
        return True

    def write(self, name: str, data: bytes | str, key: str | None = None) -> None:
        """Write `name` (a path relative to the root) unless it already holds these bytes."""
        if isinstance(data, str):
            data = data.encode("utf-8")
        sha = _sha256(data)
        path = self._target(name)
        self.files[name] = sha
        if key is not None:
            self.keys[name] = key
        if self.old.get("files", {}).get(name) == sha and path.is_file() and _sha256(path.read_bytes()) == sha:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.part")
        temporary.write_bytes(data)
        os.replace(temporary, path)
        self.written.append(name)

    def _target(self, name: str) -> Path:
        """The path of `name` in the folder; a symlink on the way (a folder or the file itself) is refused, as it may
        lead out of the folder."""
        path = self.root / name
        for part in [*reversed(path.relative_to(self.root).parents), path.relative_to(self.root)]:
            here = self.root / part
            if here.is_symlink():
                raise AdjudicatorError(f"{here.relative_to(self.root)} in the site's folder is a symbolic link; the "
                                       "site writes only inside its folder: remove the link and build again")
        if not path.resolve().is_relative_to(self.root):
            raise AdjudicatorError(f"{name} would be written outside the site's folder; nothing was written")
        return path

    def finish(self) -> None:
        """The manifest last: a build cut short leaves the earlier manifest, and the next build rewrites what it missed.
        A file an earlier build wrote and this one did not (the position's picture once a turn shows it) goes."""
        for name in sorted(set(self.old.get("files", {})) - set(self.files)):
            path = self._target(name)
            if path.is_file():
                path.unlink()
                self.written.append(name)
        self._manifest()

    def _manifest(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        manifest = {"game": self.game_id, "anchor": self.anchor, "files": self.files,
                    "keys": {name: key for name, key in self.keys.items() if name in self.files}}
        path = self._target(MANIFEST)
        path.with_name(f".{MANIFEST}.part").write_text(json.dumps(manifest, indent=1, sort_keys=True), "utf-8")
        os.replace(path.with_name(f".{MANIFEST}.part"), path)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
