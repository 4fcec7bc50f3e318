"""A PostgreSQL server of its own, for tests and benchmarks: Debian's ``initdb`` and ``pg_ctl``
run a cluster in a folder, on 127.0.0.1 and a free port (and a unix socket in the folder).

Decisions beyond the task:

- The binaries are looked for in ``$FELTROOM_PG_BIN``, then ``/usr/lib/postgresql/<newest>/bin``
  (Debian keeps them off the PATH), then the PATH; none found is an error naming the package to
  install (``PostgresMissing``), never a silent skip.
- PostgreSQL refuses to run as root: as root, the folder is given to the ``postgres`` user (which
  Debian's package creates) and every server command runs through ``runuser -u postgres``.
- Authentication is ``trust`` for the one superuser ``feltroom``, and the server listens on
  127.0.0.1 only: a throwaway cluster for this machine, not a deployment.
- A cluster in a folder it made itself (``folder=None``) is initialised without fsync and deleted
  by ``stop``. The server runs with PostgreSQL's defaults (fsync on, synchronous commit), unless
  ``fsync=False`` (the tests: a commit still waits for its WAL write, but not for the disk, which
  here costs up to ~5 ms a commit when the disk is busy, and up to a minute of shutdown
  checkpoint after a test session).
"""

from __future__ import annotations

import glob
import os
import pwd
import re
import shutil
import subprocess
from pathlib import Path

from .local_service import LocalService, free_port

USER = "feltroom"  # the cluster's superuser
RUN_AS = "postgres"  # the system user the server runs as when we are root


class PostgresMissing(RuntimeError):
    """PostgreSQL's server binaries are not installed."""


def find_bin_dir() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl``."""
    candidates: list[str] = []
    if os.environ.get("FELTROOM_PG_BIN"):
        candidates.append(os.environ["FELTROOM_PG_BIN"])

    def version(path: str) -> tuple[int, ...]:
        return tuple(int(n) for n in re.findall(r"\d+", path))

    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=version, reverse=True)
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(str(Path(on_path).parent))
    for folder in candidates:
        if (Path(folder) / "initdb").is_file() and (Path(folder) / "pg_ctl").is_file():
            return Path(folder)
    raise PostgresMissing(
        "PostgreSQL's server binaries (initdb, pg_ctl) were not found in $FELTROOM_PG_BIN, "
        "/usr/lib/postgresql/*/bin or on the PATH: install Debian's package `postgresql` "
        "(apt-get install postgresql; .ci/run does)")


class LocalPostgres(LocalService):
    """``with LocalPostgres() as pg: pg.create_database("x")`` → a URL for the store."""

    prefix = "feltroom-pg-"

    def __init__(self, folder: Path | None = None, port: int | None = None, *, fsync: bool = True) -> None:
        self.bin = find_bin_dir()
        super().__init__(folder, port)
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self.as_root = os.geteuid() == 0
        self.fsync = fsync
        self.started = False

    def _run(self, *command: str) -> subprocess.CompletedProcess[str]:
        prefix = ["runuser", "-u", RUN_AS, "--"] if self.as_root else []
        return subprocess.run([*prefix, *command], cwd=self.folder, capture_output=True, text=True, check=False)

    def _check(self, what: str, done: subprocess.CompletedProcess[str]) -> None:
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""
            raise RuntimeError(f"PostgreSQL {what} failed ({done.returncode}): {done.stdout}{done.stderr}{log}")

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        if self.as_root:
            try:
                user = pwd.getpwnam(RUN_AS)
            except KeyError:
                raise PostgresMissing(f"running as root, PostgreSQL needs the system user {RUN_AS!r} "
                                      "(Debian's package `postgresql` creates it)") from None
            os.chown(self.folder, user.pw_uid, user.pw_gid)
        os.chmod(self.folder, 0o700)
        if not (self.data / "PG_VERSION").exists():
            self._check("initdb", self._run(
                str(self.bin / "initdb"), "-D", str(self.data), "-U", USER, "-A", "trust", "-E", "UTF8",
                "--locale=C", *(["--no-sync"] if self.own_folder else [])))
        for attempt in range(3):  # the free port may be taken between the probe and the start
            done = self._run(str(self.bin / "pg_ctl"), "start", "-D", str(self.data), "-l", str(self.log), "-w",
                             "-t", "60", "-o", f"-c listen_addresses=127.0.0.1 -p {self.port} "
                                               f"-c unix_socket_directories={self.folder}"
                                               f"{'' if self.fsync else ' -c fsync=off'}")
            if done.returncode == 0:
                break
            if attempt == 2 or "already in use" not in self.log.read_text(errors="replace"):
                self._check("start", done)
            self.port = free_port()
        self.started = True

    def stop_process(self) -> None:
        if self.started:
            self._check("stop", self._run(str(self.bin / "pg_ctl"), "stop", "-D", str(self.data), "-m", "fast",
                                          "-w", "-t", "60"))
            self.started = False

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """A new empty database ``name`` (letters, digits, ``_``); its URL."""
        import psycopg

        if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
            raise ValueError(f"a database name of lower-case letters, digits and _: {name!r}")
        with psycopg.connect(self.url(), autocommit=True) as db:
            db.execute(f"CREATE DATABASE {name}")
        return self.url(name)
