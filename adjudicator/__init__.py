"""The adjudicator package.

The wheel ships the repository's top-level games/ and templates/ folders inside this package (pyproject's
package-dir: adjudicator.games, adjudicator.templates). Imported straight from a checkout instead — a script
that puts the repository first on sys.path, `python -m pytest` run in the repository folder — this folder has
neither, so the checkout's root is searched for them too, and the checkout behaves as the installed package does.
"""

from pathlib import Path

_HERE = Path(__file__).resolve().parent
if not (_HERE / "games").is_dir() and (_HERE.parent / "games" / "__init__.py").is_file():
    __path__.append(str(_HERE.parent))
