"""A real PostgreSQL server for the league tests, started by the test suite itself.

initdb and pg_ctl from PATH or from Debian's /usr/lib/postgresql/NN/bin; a cluster in a temporary folder that
listens on a Unix socket in that folder only (no TCP port, so parallel runs never meet), trusting local logins.
PostgreSQL refuses to run as root, and CI runs as root: then the folder is given to the `postgres` user (made by
the server's package) and the server runs as that user. Collation is ICU's en-US where the server has ICU, as a
host's server usually sorts, so that no code may rely on the byte order of names.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import quote

INSTALL = ("install the PostgreSQL server (Debian/Ubuntu: apt-get install postgresql; macOS: brew install postgresql) "
           "or put the folder holding initdb and pg_ctl on PATH")


class Unavailable(Exception):
    """No server can be started here; the message says what to install or fix."""


def binaries() -> Path:
    """The folder of initdb and pg_ctl: PATH first, then the newest of /usr/lib/postgresql/*/bin."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                      key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    if versions:
        return Path(versions[-1]).parent
    raise Unavailable(f"the league tests need a PostgreSQL server, and initdb was not found: {INSTALL}")


class Server:
    """A throwaway cluster; `url(name)` names one of its databases as a host would write it."""

    def __init__(self):
        self.bin = binaries()
        # short, since a socket's path has at most ~100 bytes, and where the postgres user can reach it
        self.folder = Path(tempfile.mkdtemp(prefix="adj-pg-", dir="/tmp" if os.path.isdir("/tmp") else None))
        self.user = None
        if os.geteuid() == 0:
            try:
                self.user = pwd.getpwnam("postgres")
            except KeyError:
                shutil.rmtree(self.folder)
                raise Unavailable("the tests run as root, which PostgreSQL refuses, and there is no `postgres` user "
                                  f"to run it as: {INSTALL} (its package makes the user)") from None
            os.chown(self.folder, self.user.pw_uid, self.user.pw_gid)
        self.data = self.folder / "data"
        self.databases = 0
        try:
            self._initdb()
            self._run("pg_ctl", "-D", self.data, "-l", self.folder / "server.log", "-w", "-t", "60", "-o",
                      f"-c listen_addresses='' -c unix_socket_directories={self.folder} -c fsync=off "
                      "-c synchronous_commit=off -c full_page_writes=off -c max_connections=100", "start")
        except Unavailable:
            self.stop()
            raise

    def _initdb(self) -> None:
        base = ["initdb", "-D", self.data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"]
        try:
            self._run(*base, "--locale=C", "--locale-provider=icu", "--icu-locale=en-US")
        except Unavailable:                              # a server built without ICU
            shutil.rmtree(self.data, ignore_errors=True)
            self._run(*base, "--no-locale")

    def _run(self, tool: str, *args) -> None:
        kwargs = {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []} if self.user else {}
        result = subprocess.run([str(self.bin / tool), *map(str, args)], capture_output=True, text=True,
                                cwd=self.folder, **kwargs)
        if result.returncode != 0:
            log = self.folder / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise Unavailable(f"{tool} failed (exit {result.returncode}): {result.stderr.strip()[-2000:]}\n{tail}")

    def url(self, database: str = "postgres", driver: str = "postgresql") -> str:
        return f"{driver}://postgres@/{database}?host={quote(str(self.folder), safe='/')}"

    def create_database(self, template: str | None = None) -> str:
        """A new, empty database (or a copy of `template`, which nobody may be connected to); its name."""
        import psycopg
        self.databases += 1
        name = f"t{os.getpid()}_{self.databases}"
        with psycopg.connect(host=str(self.folder), user="postgres", dbname="postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
        return name

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            try:
                self._run("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
            except Unavailable:
                pass
        shutil.rmtree(self.folder, ignore_errors=True)
