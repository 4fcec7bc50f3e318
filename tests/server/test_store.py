"""One store suite, run against both stores: a SQLite file in tmp_path and a PostgreSQL database
on a real server that the session starts itself (Debian's initdb/pg_ctl; no mock). Then the real
room on PostgreSQL: a table played, the server stopped, a second one resumes it; and
``feltroom serve --db postgresql://…``.

PostgreSQL's binaries missing is a failure that says what to install, not a skip."""

from __future__ import annotations

import itertools
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from typing import Any

import psycopg
import pytest

from feltroom.server import postgres_store, sqlite_store
from feltroom.server.local_service import free_port
from feltroom.server.migrations import Migration, SchemaTooNew, check_order, migrate, schema_version
from feltroom.server.pg_local import LocalPostgres
from feltroom.server.ratings import Rating, SeatResult, Settlement
from feltroom.server.store import (
    DuplicateId,
    FinishedGame,
    GameLine,
    PlayerRow,
    Store,
    TableRow,
    is_postgres,
    open_store,
)

from .served import Peer, Served, create_table

LATEST = len(sqlite_store.MIGRATIONS)  # the schema version a store migrates to

# ---------------------------------------------------------------- fixtures


_databases = itertools.count(1)


def new_postgres_database(request: pytest.FixtureRequest) -> str:
    pg: LocalPostgres = request.getfixturevalue("postgres")
    return pg.create_database(f"store_{next(_databases)}")


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    """A new empty database: a SQLite file path or a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "room.sqlite")
    return new_postgres_database(request)


@pytest.fixture
def opener(database: str) -> Iterator[Callable[[], Store]]:
    """``opener()`` opens a store on the test's database; every store opened is closed at the end."""
    opened: list[Store] = []

    def open_() -> Store:
        store = open_store(database)
        opened.append(store)
        return store

    yield open_
    for store in opened:
        store.close()  # again, for those a test closed: a second close does nothing


@pytest.fixture
def store(opener: Callable[[], Store]) -> Store:
    return opener()


def raw(database: str) -> Any:
    """A connection of the test's own (autocommit), beside the store's: no parameters in queries."""
    if is_postgres(database):
        return psycopg.connect(database, autocommit=True)
    return sqlite3.connect(database, isolation_level=None, check_same_thread=False)


def migrations_of(database: str) -> tuple[Migration, ...]:
    return postgres_store.MIGRATIONS if is_postgres(database) else sqlite_store.MIGRATIONS


def migrate_raw(database: str, db: Any, migrations: tuple[Migration, ...]) -> list[int]:
    if is_postgres(database):
        return migrate(db, migrations, lock=f"SELECT pg_advisory_xact_lock({postgres_store.MIGRATION_LOCK})")
    return migrate(db, migrations, begin="BEGIN IMMEDIATE")


def table_row(tid: str = "t1", **changes: Any) -> TableRow:
    row = TableRow(tid, "crisp", 4, {"end_limit": 100, "nested": {"a": [1, 2.5, None, True]}}, "p1",
                   [{"player": "p1", "bot": None, "left": False}, {"player": None, "bot": "random", "left": False},
                    {"player": None, "bot": None, "left": False}, {"player": "p2", "bot": None, "left": True}],
                   created=1_000_000.25, extra={"took_back": ["p1"], "n": 3})
    for key, value in changes.items():
        setattr(row, key, value)
    return row


RECORD: dict[str, Any] = {"meta": {"game": "crisp", "players": 4, "abandoned": False}, "seed": 2**53 - 1, "deck": None,
          "actions": [[0, "draw"], ["CLOCK", "timeout"]], "result": {"scores": [3, -1.5, 0, 2]}}

# ---------------------------------------------------------------- players


def test_players_are_found_by_id_and_by_token_hash(store: Store) -> None:
    store.add_player(PlayerRow("p1", "ann", "hash-1"))
    store.add_player(PlayerRow("p2", "bob", "hash-2"))
    assert store.get_player("p1") == PlayerRow("p1", "ann", "hash-1")
    assert store.find_player("hash-2") == PlayerRow("p2", "bob", "hash-2")
    assert store.get_player("nobody") is None and store.find_player("no-hash") is None


def test_a_repeated_player_id_or_token_is_refused_and_the_old_row_stays(store: Store) -> None:
    store.add_player(PlayerRow("p1", "ann", "hash-1"))
    with pytest.raises(DuplicateId, match="player p1"):
        store.add_player(PlayerRow("p1", "mallory", "hash-9"))
    with pytest.raises(DuplicateId):
        store.add_player(PlayerRow("p9", "mallory", "hash-1"))
    assert store.get_player("p1") == PlayerRow("p1", "ann", "hash-1")
    assert store.find_player("hash-9") is None and store.get_player("p9") is None
    store.add_player(PlayerRow("p2", "bob", "hash-2"))  # and the store goes on
    assert store.get_player("p2") == PlayerRow("p2", "bob", "hash-2")


def test_unicode_names_and_settings_read_back_as_written(store: Store) -> None:
    name = "Zoë 李小龍 🂡 Ångström \u200d ‘quoted’ \"and\" 'single'; DROP TABLE players; --"
    store.add_player(PlayerRow("p-ü", name, "häsh-🂡"))
    assert store.get_player("p-ü") == PlayerRow("p-ü", name, "häsh-🂡")
    assert store.find_player("häsh-🂡") == PlayerRow("p-ü", name, "häsh-🂡")
    row = table_row("t-ü", options={"name": name, "ключ": "значение"}, extra={"chat": [name]})
    store.add_table(row)
    store.append_action("t-ü", 0, 1, "déclare ♥ 🂡", 5.0)
    assert store.unfinished_tables() == [row]
    assert store.actions("t-ü") == [(1, "déclare ♥ 🂡")]
    over = table_row("t-ü", options=row.options, extra=row.extra, state="over", ended=9.0)
    store.finish(over, {"meta": {"names": [name]}})
    assert store.record("t-ü") == {"meta": {"names": [name]}}


# ---------------------------------------------------------------- tables


def test_a_table_reads_back_field_for_field(store: Store) -> None:
    row = table_row(seed=2**53 - 1, salt="ab" * 16, fair="f" * 64, started=1_000_001.5, state="playing")
    store.add_table(row)
    waiting = table_row("t2", created=1_000_002.0)
    store.add_table(waiting)
    assert store.unfinished_tables() == [row, waiting]  # in the order they were created
    assert [type(v) for v in store.unfinished_tables()[0].seats[0].values()] == [str, type(None), bool]


def test_a_repeated_table_id_is_refused_and_the_old_row_stays(store: Store) -> None:
    row = table_row()
    store.add_table(row)
    store.append_action("t1", 0, 0, "draw", 1.0)
    with pytest.raises(DuplicateId, match="table t1"):
        store.add_table(table_row(game="cribbage", players=2, host="p9", created=5.0))
    assert store.unfinished_tables() == [row]
    assert store.actions("t1") == [(0, "draw")]


def test_save_table_updates_what_changes_during_a_game(store: Store) -> None:
    store.add_table(table_row())
    seats = [{"player": "p1", "bot": None, "left": True}, {"player": "p3", "bot": None, "left": False}]
    saved = table_row(host="p3", seats=seats, state="playing", seed=42, salt="s", fair="h", started=7.5,
                      extra={"took_back": []})
    store.save_table(saved)
    assert store.unfinished_tables() == [saved]
    store.save_table(table_row("never-added", state="playing"))  # an update of nothing writes nothing
    assert store.unfinished_tables() == [saved]


def test_delete_table_removes_the_table_and_its_actions_only(store: Store) -> None:
    store.add_table(table_row("t1"))
    store.add_table(table_row("t2", created=2e6))
    for seq in range(3):
        store.append_action("t1", seq, 0, f"a{seq}", 1.0)
        store.append_action("t2", seq, 1, f"b{seq}", 1.0)
    store.delete_table("t1")
    assert [t.id for t in store.unfinished_tables()] == ["t2"]
    assert store.actions("t1") == [] and store.actions("t2") == [(1, "b0"), (1, "b1"), (1, "b2")]
    store.add_table(table_row("t1"))  # the id is free again
    assert store.actions("t1") == []


# ---------------------------------------------------------------- actions


def test_actions_come_back_in_seq_order_with_their_seats(store: Store) -> None:
    store.add_table(table_row())
    store.add_table(table_row("other"))
    for seq in (2, 0, 3, 1):  # stored out of order, read in seq order
        store.append_action("t1", seq, "CLOCK" if seq == 3 else seq, f"act {seq}", 100.0 + seq)
    store.append_action("other", 0, 2, "elsewhere", 1.0)
    assert store.actions("t1") == [(0, "act 0"), (1, "act 1"), (2, "act 2"), ("CLOCK", "act 3")]
    assert store.actions("other") == [(2, "elsewhere")] and store.actions("nothing") == []


def test_an_appended_action_is_visible_to_another_connection_on_return(opener: Callable[[], Store]) -> None:
    writer, reader = opener(), opener()
    writer.add_table(table_row())
    for seq in range(50):
        writer.append_action("t1", seq, seq % 4, f"m{seq}", float(seq))
        assert len(reader.actions("t1")) == seq + 1


# ---------------------------------------------------------------- finish and records


def test_finish_ends_a_table_and_stores_its_record(store: Store) -> None:
    store.add_table(table_row("t1", state="playing"))
    store.add_table(table_row("t2", state="playing", created=2e6))
    store.add_table(table_row("t3", created=3e6))
    assert store.record("t1") is None  # a running table has no record yet
    store.finish(table_row("t1", state="over", ended=9.0), RECORD)
    abandoned = {**RECORD, "meta": {**RECORD["meta"], "abandoned": True}}
    store.finish(table_row("t2", state="abandoned", ended=9.5), abandoned)
    assert store.record("t1") == RECORD and store.record("t2") == abandoned
    assert [t.id for t in store.unfinished_tables()] == ["t3"]
    assert store.record("t3") is None and store.record("nowhere") is None


def test_a_record_that_cannot_be_stored_leaves_the_table_as_it_was(store: Store) -> None:
    running = table_row(state="playing", started=2.0)
    store.add_table(running)
    with pytest.raises(TypeError):
        store.finish(table_row(state="over", ended=9.0), {"actions": {object()}})
    assert store.unfinished_tables() == [running] and store.record("t1") is None


def test_finish_writes_the_state_and_the_record_together(database: str, opener: Callable[[], Store]) -> None:
    """A second connection reading all the while never sees a final state without its record, nor
    a record on an unfinished table."""
    store = opener()
    tables = 60
    for i in range(tables):
        store.add_table(table_row(f"t{i:03}", state="playing", created=float(i)))
    seen: list[tuple[str, int, int]] = []
    watching, done = threading.Event(), threading.Event()

    def watch() -> None:
        with closing(raw(database)) as db:
            while not done.is_set():
                seen.extend(db.execute(
                    "SELECT state, CASE WHEN record IS NULL THEN 0 ELSE 1 END, COUNT(*) FROM tables"
                    " GROUP BY state, record IS NULL").fetchall())
                watching.set()

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        assert watching.wait(30), "the watching connection did not read"
        for i in range(tables):
            store.finish(table_row(f"t{i:03}", state="over", created=float(i), ended=99.0), {**RECORD, "n": i})
    finally:
        done.set()
        watcher.join(30)
    assert seen and {(state, has) for state, has, _ in seen} <= {("playing", 0), ("over", 1)}
    assert store.unfinished_tables() == [] and store.record("t042") == {**RECORD, "n": 42}


def test_a_large_record_reads_back_whole(store: Store) -> None:
    actions: list[tuple[int, str]] = [(i % 4, f"play {i} {'♠♥♦♣'[i % 4]}{i % 13 + 1}") for i in range(60_000)]
    record = {**RECORD, "actions": [list(a) for a in actions], "views": ["x" * 1000] * 500}  # a few MB of JSON
    store.add_table(table_row(state="playing"))
    for i, (seat, action) in enumerate(actions[:500]):
        store.append_action("t1", i, seat, action, float(i))
    store.finish(table_row(state="over", ended=1.0), record)
    assert store.record("t1") == record
    assert store.actions("t1") == actions[:500]


# ---------------------------------------------------------------- accounts


def test_players_are_found_by_name_key_password_and_every_token(store: Store) -> None:
    store.add_player(PlayerRow("p1", "Ann", "h1"))
    store.add_player(PlayerRow("p2", "bob", "h2"))
    assert store.find_player_named("ann") == store.find_player_named("АNN") == PlayerRow("p1", "Ann", "h1")
    assert store.find_player_named("carol") is None
    store.set_password("p1", "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA")
    assert store.get_player("p1") == PlayerRow("p1", "Ann", "h1", "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA")
    store.add_token("p1", "h3")  # a login from another device
    assert store.find_player("h3") == store.find_player("h1") == store.get_player("p1")
    assert store.find_player("h2") == PlayerRow("p2", "bob", "h2") and store.find_player("h4") is None


# ---------------------------------------------------------------- ratings, results, history


def settlement(game: str, players: list[str], ranks: list[int], games: int = 1) -> Settlement:
    after = {p: Rating(25.0 + 3 - rank, 8.0 - games * 0.1, games) for p, rank in zip(players, ranks, strict=True)}
    return Settlement(game, [SeatResult(seat, p, seat, rank) for seat, (p, rank) in enumerate(zip(players, ranks,
                                                                                                  strict=True))],
                      {p: Rating() for p in players}, after)


def finish_rated(store: Store, tid: str, game: str, players: list[str], ranks: list[int], ended: float,
                 games: int = 1) -> None:
    result = {"names": players, "scores": ranks, "winners": [ranks.index(1)]}
    store.add_table(table_row(tid, game=game, players=len(players), state="playing", created=ended - 10))
    store.finish(table_row(tid, game=game, players=len(players), state="over", created=ended - 10, ended=ended,
                           extra={"result": result}),
                 {**RECORD, "table": tid}, settlement(game, players, ranks, games))


def test_finishing_a_rated_game_stores_results_and_ratings(store: Store) -> None:
    store.add_player(PlayerRow("p1", "ann", "h1"))
    finish_rated(store, "g1", "cribbage", ["p1", "p2"], [1, 2], ended=100.0)
    finish_rated(store, "g2", "cribbage", ["p2", "p1"], [1, 2], ended=200.0, games=2)
    finish_rated(store, "g3", "crisp", ["p1", "p3", "p2", "p4"], [2, 1, 3, 4], ended=300.0)
    assert store.ratings("cribbage", ["p1", "p2", "nobody"]) == {"p1": Rating(26.0, 7.8, 2), "p2": Rating(27.0, 7.8, 2)}
    assert store.player_ratings("p1") == {"crisp": Rating(26.0, 7.9, 1), "cribbage": Rating(26.0, 7.8, 2)}
    assert list(store.player_ratings("p1")) == ["cribbage", "crisp"]
    lines = store.history("p1")
    assert [(line.table, line.game, line.ended, line.rank) for line in lines] == \
        [("g3", "crisp", 300.0, 2), ("g2", "cribbage", 200.0, 2), ("g1", "cribbage", 100.0, 1)]
    assert lines[0] == GameLine("g3", "crisp", 300.0, 2, {"names": ["p1", "p3", "p2", "p4"], "scores": [2, 1, 3, 4],
                                                          "winners": [1]})
    assert [line.table for line in store.history("p1", before=300.0, limit=1)] == ["g2"]
    assert store.history("p9") == []
    assert store.finished_games() == [
        FinishedGame("g1", "cribbage", {**RECORD, "table": "g1"}, ["p1", "p2"]),
        FinishedGame("g2", "cribbage", {**RECORD, "table": "g2"}, ["p2", "p1"]),
        FinishedGame("g3", "crisp", {**RECORD, "table": "g3"}, ["p1", "p3", "p2", "p4"])]


def test_the_leaderboard_orders_by_the_conservative_rating_and_names_players(store: Store) -> None:
    store.add_player(PlayerRow("b", "Bea", "h1"))
    store.set_ratings("crisp", {"a": Rating(30.0, 5.0, 9), "b": Rating(30.0, 4.0, 3), "c": Rating(40.0, 9.0, 1),
                                "d": Rating(30.0, 5.0, 9)})
    board = store.leaderboard("crisp", 0, 10)
    assert [(p, name, r.mu - 3 * r.sigma) for p, name, r in board] == \
        [("b", "Bea", 18.0), ("a", "a", 15.0), ("d", "d", 15.0), ("c", "c", 13.0)]  # ties by id
    assert [p for p, _, _ in store.leaderboard("crisp", 3, 2)] == ["b", "a"]
    store.set_ratings("crisp", {"e": Rating(20.0, 1.0, 4)})  # replaces every rating of the game
    assert [p for p, _, _ in store.leaderboard("crisp", 0, 10)] == ["e"] and store.leaderboard("craits", 0, 9) == []


def test_a_finish_whose_results_cannot_be_stored_stores_nothing(store: Store) -> None:
    running = table_row("g1", game="crisp", state="playing", started=2.0)
    store.add_table(running)
    bad = settlement("crisp", ["p1", "p2"], [1, 2])
    bad = Settlement(bad.game, [*bad.results, bad.results[0]], bad.before, bad.after)  # seat 0 twice
    with pytest.raises((sqlite3.IntegrityError, psycopg.errors.UniqueViolation)):
        store.finish(table_row("g1", game="crisp", state="over", ended=9.0), RECORD, bad)
    assert store.unfinished_tables() == [running] and store.record("g1") is None
    assert store.ratings("crisp", ["p1", "p2"]) == {} and store.history("p1") == []
    finish_rated(store, "g2", "crisp", ["p1", "p2"], [1, 2], ended=10.0)  # and the store goes on
    assert [line.table for line in store.history("p1")] == ["g2"]


# ---------------------------------------------------------------- reopening and migrations


def fill(store: Store) -> None:
    store.add_player(PlayerRow("p1", "ann", "h1"))
    store.add_table(table_row("t1", state="playing", seed=7, started=3.0))
    store.add_table(table_row("t2", state="playing", created=2e6))
    store.append_action("t1", 0, 0, "draw", 4.0)
    store.append_action("t1", 1, "CLOCK", "timeout", 5.0)
    store.finish(table_row("t2", state="over", created=2e6, ended=6.0), RECORD)


def check_filled(store: Store) -> None:
    assert store.get_player("p1") == PlayerRow("p1", "ann", "h1") and store.find_player("h1") is not None
    assert store.unfinished_tables() == [table_row("t1", state="playing", seed=7, started=3.0)]
    assert store.actions("t1") == [(0, "draw"), ("CLOCK", "timeout")]
    assert store.record("t2") == RECORD


def test_a_second_store_on_the_same_database_sees_everything(database: str, opener: Callable[[], Store]) -> None:
    first = opener()
    fill(first)
    beside = opener()  # while the first is open
    check_filled(beside)
    first.close()
    beside.close()
    again = opener()  # and after both closed: the migrations ran three times, once for real
    check_filled(again)
    with closing(raw(database)) as db:
        versions = [r[0] for r in db.execute("SELECT version FROM schema_version ORDER BY version").fetchall()]
        assert versions == list(range(1, LATEST + 1))


def test_stores_opened_at_once_on_a_new_database_migrate_it_once(database: str,
                                                                 opener: Callable[[], Store]) -> None:
    stores: list[Store] = []
    errors: list[BaseException] = []

    def open_one() -> None:
        try:
            stores.append(opener())
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == [] and len(stores) == 4
    fill(stores[0])
    check_filled(stores[3])
    with closing(raw(database)) as db:
        assert db.execute("SELECT COUNT(*), MAX(version) FROM schema_version").fetchone() == (LATEST, LATEST)


def test_a_new_migration_is_applied_once_and_a_newer_database_is_refused(database: str,
                                                                          opener: Callable[[], Store]) -> None:
    fill(opener())
    current = migrations_of(database)
    new = LATEST + 1
    newer = (*current, Migration(new, "a note on each player", ("ALTER TABLE players ADD COLUMN note TEXT",)))
    with closing(raw(database)) as db:
        assert migrate_raw(database, db, newer) == [new]
        assert migrate_raw(database, db, newer) == []
        assert schema_version(db) == new
        assert db.execute(f"SELECT what FROM schema_version WHERE version = {new}").fetchone() \
            == ("a note on each player",)
        db.execute("SELECT note FROM players")  # the column is there
    with pytest.raises(SchemaTooNew, match=f"schema version {new}, newer than this program's {LATEST}"):
        opener()


def test_a_failing_migration_changes_nothing(database: str, opener: Callable[[], Store]) -> None:
    fill(opener())
    broken = (*migrations_of(database), Migration(LATEST + 1, "half of it fails",
                                                  ("CREATE TABLE notes (x INTEGER)", "ALTER TABLE nowhere ADD x INT")))
    with closing(raw(database)) as db:
        with pytest.raises((sqlite3.Error, psycopg.Error)):
            migrate_raw(database, db, broken)
        assert schema_version(db) == LATEST
        with pytest.raises((sqlite3.Error, psycopg.Error)):
            db.execute("SELECT x FROM notes")  # the first statement was rolled back with the second
    check_filled(opener())


@pytest.mark.parametrize("made_by", [1, LATEST])
def test_a_database_made_before_schema_version_is_adopted(database: str, opener: Callable[[], Store],
                                                          made_by: int) -> None:
    """A database made by a release before migrations existed: its schema as migration 1 leaves
    it (the first release), or as the last one does (the release just before migrations)."""
    with closing(raw(database)) as db:
        for migration in migrations_of(database)[:made_by]:
            for step in migration.steps:
                db.execute(step) if isinstance(step, str) else step(db)
        db.execute("INSERT INTO players (id, name, token_hash) VALUES ('p1', 'Ann', 'h1')")
    store = opener()
    assert store.get_player("p1") == PlayerRow("p1", "Ann", "h1")
    assert store.find_player_named("ANN") == PlayerRow("p1", "Ann", "h1")  # its name key was filled in
    with closing(raw(database)) as db:
        assert schema_version(db) == LATEST


def test_migrations_must_be_numbered_in_order() -> None:
    check_order(sqlite_store.MIGRATIONS)
    check_order(postgres_store.MIGRATIONS)
    assert [m.what for m in sqlite_store.MIGRATIONS] == [m.what for m in postgres_store.MIGRATIONS]  # one history
    with pytest.raises(ValueError, match=r"numbered 1, 2, 3, … in order: \[1, 3\]"):
        check_order([Migration(1, "a", ()), Migration(3, "c", ())])


# ---------------------------------------------------------------- PostgreSQL only


def test_a_broken_connection_fails_one_call_and_the_next_call_reconnects(request: pytest.FixtureRequest) -> None:
    url = new_postgres_database(request)
    store = open_store(url)
    try:
        fill(store)
        with closing(psycopg.connect(url, autocommit=True)) as admin:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                          " WHERE datname = current_database() AND pid <> pg_backend_pid()")
        with pytest.raises(psycopg.OperationalError):
            store.get_player("p1")
        check_filled(store)
        store.append_action("t1", 2, 1, "after", 7.0)
        assert store.actions("t1")[-1] == (1, "after")
    finally:
        store.close()


def test_ties_are_ordered_byte_wise_as_in_sqlite_whatever_the_locale(postgres: LocalPostgres) -> None:
    """In an English (ICU) database 'a' sorts before 'B'; the store orders ties as SQLite does."""
    with closing(psycopg.connect(postgres.url(), autocommit=True)) as admin:
        admin.execute("CREATE DATABASE store_english TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en' LOCALE 'C'")
    with closing(open_store(postgres.url("store_english"))) as store:
        assert [r[0] for r in store._db.execute(  # type: ignore[attr-defined]
            "SELECT x FROM (VALUES ('B'), ('a')) v(x) ORDER BY x").fetchall()] == ["a", "B"]
        store.set_ratings("crisp", {"a": Rating(30.0, 5.0, 9), "B": Rating(30.0, 5.0, 9)})
        store.set_ratings("Zed", {"a": Rating()})
        assert [p for p, _, _ in store.leaderboard("crisp", 0, 10)] == ["B", "a"]
        assert list(store.player_ratings("a")) == ["Zed", "crisp"]
        finish_rated(store, "b", "crisp", ["a", "x"], [1, 2], ended=5.0)
        finish_rated(store, "C", "crisp", ["a", "x"], [2, 1], ended=5.0)
        assert [line.table for line in store.history("a")] == ["C", "b"]
        assert [g.table for g in store.finished_games()] == ["C", "b"]


def test_open_store_takes_both_spellings_of_a_postgresql_url(request: pytest.FixtureRequest) -> None:
    url = new_postgres_database(request)
    for spelling in (url, url.replace("postgresql://", "postgres://", 1)):
        store = open_store(spelling)
        assert type(store).__name__ == "PostgresStore"
        store.close()


def test_libpq_parameters_in_the_url_reach_the_session(request: pytest.FixtureRequest) -> None:
    """docs/deploy.md's trade: ``synchronous_commit=off`` set in the URL, for this store's connection only."""
    url = new_postgres_database(request)
    store = open_store(url + "?options=-c%20synchronous_commit%3Doff")
    try:
        assert isinstance(store, postgres_store.PostgresStore)
        assert store._db.execute("SHOW synchronous_commit").fetchone() == ("off",)
    finally:
        store.close()
    with closing(psycopg.connect(url)) as other:
        assert other.execute("SHOW synchronous_commit").fetchone() == ("on",)


# ---------------------------------------------------------------- the real room on PostgreSQL


CRIBBAGE = {"counting": "automatic", "target": 121}  # untimed: only the players move it


def test_the_room_on_postgresql_resumes_a_table_after_a_restart(request: pytest.FixtureRequest) -> None:
    url = new_postgres_database(request)
    with Served(url) as served:
        ann, bob = Peer(served.port, "ann"), Peer(served.port, "bob")
        tid = create_table(ann, "cribbage", 2, CRIBBAGE, start=False)
        assert bob.request({"type": "join", "table": tid})["type"] == "table"
        assert ann.request({"type": "start", "table": tid})["type"] == "table"
        moves = 0
        for _ in range(200):
            if moves == 6:
                break
            ann.sync()
            bob.sync()
            mover = next((p for p in (ann, bob) if p.updates.get(tid, {}).get("legal")), None)
            if mover is None:
                continue
            up = mover.updates[tid]
            reply = mover.request({"type": "act", "table": tid, "action": up["legal"][0], "seq": up["seq"]})
            assert reply["type"] == "update", reply
            moves += 1
        ann.sync()
        bob.sync()
        before = {p.player: p.updates[tid] for p in (ann, bob)}
        seq = served.room.tables[tid].seq
        assert seq >= 6 and all(u["seq"] == seq for u in before.values())
        tokens = {p.player: p.token for p in (ann, bob)}
        ann.close()
        bob.close()
    with Served(url) as again:
        assert again.room.tables[tid].seq == seq
        for player, token in tokens.items():
            with Peer(again.port, "whoever", token=token) as peer:
                assert peer.player == player
                peer.sync()
                u = peer.updates[tid]
                assert (u["seq"], u["view"], u["legal"]) == (seq, before[player]["view"], before[player]["legal"])
        on_turn = next(p for p, u in before.items() if u["legal"])
        with Peer(again.port, "whoever", token=tokens[on_turn]) as peer:  # and the game goes on
            peer.sync()
            reply = peer.request({"type": "act", "table": tid, "action": before[on_turn]["legal"][0], "seq": seq})
            assert reply["type"] == "update" and reply["seq"] == seq + 1, reply


def test_feltroom_serve_takes_a_postgresql_url_and_hides_its_password(request: pytest.FixtureRequest,
                                                                      tmp_path: Any) -> None:
    url = new_postgres_database(request).replace("feltroom@", "feltroom:s3cret@", 1)  # trust: any password
    port = free_port()
    log = tmp_path / "serve.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "feltroom.server", "serve", "--port", str(port), "--db", url],
                                stdout=out, stderr=subprocess.STDOUT)
    try:
        peer = None
        deadline = time.monotonic() + 20
        while peer is None:
            try:
                peer = Peer(port, "ann")
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
                time.sleep(0.05)
        with peer:
            player = peer.player
    finally:
        proc.terminate()
        proc.wait(20)
    printed = log.read_text()
    assert f"store postgresql://feltroom:***@127.0.0.1:{url.rsplit(':', 1)[1]})" in printed, printed
    assert "s3cret" not in printed
    with closing(open_store(url)) as store:  # the player the server made is in that database
        assert player is not None and store.get_player(player) is not None
