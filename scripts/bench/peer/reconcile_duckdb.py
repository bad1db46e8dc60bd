#!/usr/bin/env python3
# The benchmark's DuckDB peer (scripts/bench/peer.ts runs it beside the reference script): not part of the
# product. It is what a data-savvy SEO would write with DuckDB and lxml to do the job of the classic playbook
# script (../shared/reference/reconcile_sitemap.py): the same URL normalization and the same five rules, the
# same prune_list.csv and add_list.csv (same columns, same rows, order aside), nothing kept once it exits.
# It is meant to be fast: lxml iterparse on the gzip stream, DuckDB reading the JSONL crawl on its own
# threads while the sitemap is parsed, the normalization and the joins in SQL.
#
# Environment, as for the reference script: SITEMAP_PATH (one urlset, gzipped when it ends in .gz),
# CRAWL_GRAPH_PATH (one JSON object per line) and OUT_DIR.
#
# Where it follows the reference closely (and why the SQL is longer than a plain join):
# - normalize() is urlsplit + urlunsplit of Python 3.11 with the scheme forced to https, the host lowercased,
#   trailing slashes cut (but not from "/") and no query or fragment, in string functions; a regular
#   expression runs only on a URL with whitespace or control characters to remove, or another scheme.
#   It gave the reference's normalize() result on 800,000 random strings of URL pieces and odd characters.
# - A sitemap URL counts once per normalized URL, with the text of its last <loc>; a crawl row wins over an
#   earlier one of the same normalized URL, as in the reference's dicts.
# - A missing canonical_url means the row's own URL; a missing indexable means true, but an explicit null
#   (or 0, "", [] or {}) is false, as Python's truthiness has it; status is compared as a number.
# Inputs that make the reference script crash (a null canonical_url, a string status) are not handled.
import gzip
import os
import queue
import sys
import threading

import duckdb
from lxml import etree

SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
URL_TAG = f"{SITEMAP_NS}url"
LOC_TAG = f"{SITEMAP_NS}loc"
# <loc> texts go to DuckDB in batches joined by a character that XML 1.0 text cannot hold.
SEPARATOR = "\x01"
BATCH = 50_000

# Python's str.strip() whitespace, and the C0 controls and space that urlsplit strips from the left.
WS = r"[\t\n\x{b}\x{c}\r\x{1c}-\x{1f} \x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]"
C0 = r"[\x{0}-\x{20}]"


def normalize_sql(source: str, column: str, out: str) -> str:
    """The rows of `source` with `out` added: the reference's normalize() of the `column` expression (NULL
    stays NULL). Each step is a projection of its own, so that DuckDB computes it once per row."""
    v = {name: f"_{out}_{name}" for name in ("c", "r", "f", "q", "a", "i", "h", "p", "t")}
    c, r, f, q, a, i, h, p, t = v.values()
    steps = [
        # url.strip(), then urlsplit's lstrip of C0 controls and space and its removal of tab, CR and LF;
        # nothing to do when the URL starts and ends with a printable ASCII character and holds none of these.
        {
            c: f"CASE WHEN ascii({column}) BETWEEN 33 AND 126 AND regexp_matches({column}, '[!-~]$')"
            f" AND NOT (contains({column}, chr(9)) OR contains({column}, chr(10)) OR contains({column}, chr(13)))"
            f" THEN {column} ELSE regexp_replace({column}, '^{WS}*{C0}*|{WS}+$|[\\t\\r\\n]', '', 'g') END"
        },
        # Past the scheme (letters, digits, + - . before the first colon, starting with a letter)...
        {
            r: f"CASE WHEN starts_with({c}, 'https:') THEN substr({c}, 7)"
            f" WHEN starts_with({c}, 'http:') THEN substr({c}, 6)"
            f" WHEN regexp_matches({c}, '^[A-Za-z][A-Za-z0-9+.\\-]*:') THEN substr({c}, strpos({c}, ':') + 1)"
            f" ELSE {c} END"
        },
        # ...without the fragment, then without the query (the netloc holds neither)...
        {f: f"CASE WHEN strpos({r}, '#') > 0 THEN left({r}, strpos({r}, '#') - 1) ELSE {r} END"},
        {q: f"CASE WHEN strpos({f}, '?') > 0 THEN left({f}, strpos({f}, '?') - 1) ELSE {f} END"},
        # ...the netloc after "//" up to the first "/" (none without "//"), and the path.
        {a: f"CASE WHEN starts_with({q}, '//') THEN substr({q}, 3) END"},
        {i: f"strpos({a}, '/')"},
        {
            h: f"CASE WHEN {a} IS NULL THEN '' WHEN {i} = 0 THEN {a} ELSE left({a}, {i} - 1) END",
            p: f"CASE WHEN {a} IS NULL THEN {q} WHEN {i} = 0 THEN '' ELSE substr({a}, {i}) END",
        },
        # Trailing slashes cut, but not from "/"...
        {t: f"CASE WHEN ends_with({p}, '/') AND {p} <> '/' THEN rtrim({p}, '/') ELSE {p} END"},
        # ...and urlunsplit(("https", netloc.lower(), path, "", "")); str.lower() maps U+0130 to two
        # characters, DuckDB's lower() to one.
        {
            out: f"CASE WHEN {h} <> '' THEN 'https://' || lower(replace({h}, chr(304), 'i' || chr(775))) || {t}"
            f" WHEN NOT starts_with({t}, '//')"
            f" THEN 'https://' || CASE WHEN {t} <> '' AND NOT starts_with({t}, '/') THEN '/' ELSE '' END || {t}"
            f" ELSE 'https:' || {t} END"
        },
    ]
    sql = source
    for step in steps:
        sql = f"SELECT *, {', '.join(f'{expr} AS {name}' for name, expr in step.items())} FROM ({sql})"
    return f"SELECT * EXCLUDE ({', '.join(v.values())}) FROM ({sql})"


def quoted(path: str) -> str:
    return "'" + path.replace("'", "''") + "'"


def crawl_sql(path: str) -> str:
    """The crawl rows in file order (rowid), normalized, with what the five rules need of each."""
    # Each line is read as raw JSON, so that `"indexable": null` (false) differs from no indexable (true).
    rows = f"""
      SELECT f[1] ->> '$' AS url, f[2] AS status, f[3] ->> '$' AS canonical_url, f[4] AS indexable
      FROM (SELECT json_extract(json, ['$.url', '$.status', '$.canonical_url', '$.indexable']) AS f
            FROM read_ndjson_objects({quoted(path)}))"""
    with_url = normalize_sql(rows, "url", "n")
    # A canonical equal to the URL needs no second normalization; a missing one means the normalized URL.
    canonical = "CASE WHEN canonical_url = url THEN NULL ELSE coalesce(canonical_url, n) END"
    both = normalize_sql(f"SELECT *, {canonical} AS canonical_in FROM ({with_url})", "canonical_in", "cn")
    return f"""
      CREATE TABLE crawl AS
      SELECT n, url, status, TRY_CAST(status AS DOUBLE) AS status_num,
             cn IS NULL OR cn = n AS canonical_ok,
             CASE WHEN indexable IS NULL OR indexable = 'true' THEN true
                  WHEN indexable IN ('false', 'null', '""', '[]', '{{}}') THEN false
                  WHEN json_type(indexable) IN ('BIGINT', 'UBIGINT', 'DOUBLE') THEN indexable::DOUBLE <> 0
                  ELSE true END AS indexable_ok
      FROM ({both})"""


SITEMAP_INSERT = "INSERT INTO sitemap " + normalize_sql(
    "SELECT unnest(string_split($batch, chr(1))) AS loc", "loc", "n"
)


def deduplicate_sql(table: str) -> str:
    """A view of `table` with one row per normalized URL, the last one read, as the reference's dicts keep
    it. The few URLs read more than once are found first (by their hash, which groups faster than text), so
    that the other rows are kept as they are."""
    return f"""
      CREATE TABLE {table}_repeats AS
      SELECT n, max(rowid) AS last FROM {table}
      WHERE hash(n) IN (SELECT hash(n) FROM {table} GROUP BY ALL HAVING count(*) > 1)
      GROUP BY n HAVING count(*) > 1;
      CREATE VIEW {table}_urls AS
      SELECT t.* FROM {table} t LEFT JOIN {table}_repeats r USING (n) WHERE r.last IS NULL OR r.last = t.rowid;
    """


PRUNE = """
  SELECT url, reason FROM (
    SELECT s.loc AS url,
           CASE WHEN c.n IS NULL THEN 'unreached_by_crawl'
                WHEN c.status_num >= 400 THEN 'http_' || c.status
                WHEN c.status_num IN (301, 302, 307, 308) THEN 'redirects'
                WHEN NOT c.canonical_ok THEN 'non_canonical'
                WHEN NOT c.indexable_ok THEN 'noindex' END AS reason
    FROM sitemap_urls s LEFT JOIN crawl_urls c USING (n))
  WHERE reason IS NOT NULL"""

ADD = """
  SELECT c.url, 'reachable_not_declared' AS reason FROM crawl_urls c
  WHERE c.status_num = 200 AND c.indexable_ok AND c.canonical_ok
    AND NOT EXISTS (SELECT 1 FROM sitemap_urls s WHERE s.n = c.n)"""


def read_sitemap(path: str, emit) -> int:
    """The text of the first <loc> of each <url> under the document's root, stripped, in document order,
    handed to `emit` in batches; returns how many."""
    opener = gzip.open if path.endswith(".gz") else open
    count = 0
    batch: list[str] = []
    with opener(path, "rb") as fh:
        events = etree.iterparse(
            fh,
            events=("end",),
            tag=URL_TAG,
            huge_tree=True,
            remove_comments=True,
            remove_pis=True,
            remove_blank_text=True,
            collect_ids=False,
        )
        root = None
        done = 0
        for _, url in events:
            parent = url.getparent()
            if parent is not root:
                if root is None:
                    root = url
                    while (up := root.getparent()) is not None:
                        root = up
                if parent is not root:
                    continue
            loc = url[0] if len(url) else None
            if loc is None or loc.tag != LOC_TAG:
                loc = url.find(LOC_TAG)
            if loc is not None:
                text = loc.text
                if text:
                    batch.append(text.strip())
            done += 1
            if done == 4096:
                # Free the <url> elements read so far (never those parsed ahead of this one).
                done = 0
                del parent[: parent.index(url)]
            if len(batch) == BATCH:
                emit(SEPARATOR.join(batch))
                count += len(batch)
                batch = []
    if batch:
        emit(SEPARATOR.join(batch))
        count += len(batch)
    return count


def main() -> int:
    sitemap_path = os.environ["SITEMAP_PATH"]
    crawl_path = os.environ["CRAWL_GRAPH_PATH"]
    out_dir = os.environ["OUT_DIR"]
    os.makedirs(out_dir, exist_ok=True)

    con = duckdb.connect()  # in memory: nothing is kept
    con.execute("CREATE TABLE sitemap (loc VARCHAR, n VARCHAR)")
    # While this thread parses the sitemap, DuckDB gets the other cores (two threads on two cores would
    # slow the parse more than they speed up the crawl); all of them once the parse is done.
    cores = con.execute("SELECT current_setting('threads')").fetchone()[0]
    con.execute(f"SET threads = {max(1, cores - 1)}")
    errors: list[BaseException] = []

    def in_background(work):
        def run():
            try:
                work(con.cursor())
            except BaseException as error:  # reported by the main thread
                errors.append(error)

        thread = threading.Thread(target=run)
        thread.start()
        return thread

    # The crawl is read, normalized and deduplicated by DuckDB while this thread parses the sitemap; the
    # sitemap's batches are normalized and stored as they come.
    crawl = in_background(lambda cur: cur.execute(crawl_sql(crawl_path) + ";" + deduplicate_sql("crawl")))
    batches: queue.Queue[str | None] = queue.Queue()

    def store_batches(cur):
        while (batch := batches.get()) is not None:
            cur.execute(SITEMAP_INSERT, {"batch": batch})

    sitemap = in_background(store_batches)
    try:
        declared = read_sitemap(sitemap_path, batches.put)
    finally:
        batches.put(None)
        sitemap.join()
        crawl.join()
    if errors:
        raise errors[0]
    stored = con.execute("SELECT count(*) FROM sitemap").fetchone()[0]
    if stored != declared:
        raise RuntimeError(f"{declared} <loc> texts read but {stored} stored: one holds U+0001")

    con.execute("RESET threads")
    con.execute(deduplicate_sql("sitemap"))
    con.execute("SET preserve_insertion_order = false")  # the rows' order in the CSV files is free
    prune_path = os.path.join(out_dir, "prune_list.csv")
    add_path = os.path.join(out_dir, "add_list.csv")
    # COPY answers with the number of rows it wrote.
    prune = con.execute(f"COPY ({PRUNE}) TO {quoted(prune_path)} (HEADER)").fetchone()[0]
    add = con.execute(f"COPY ({ADD}) TO {quoted(add_path)} (HEADER)").fetchone()[0]
    sitemap_count, crawl_count = con.execute(
        "SELECT (SELECT count(*) FROM sitemap_urls), (SELECT count(*) FROM crawl_urls)"
    ).fetchone()
    print(f"sitemap entries: {sitemap_count:,}")
    print(f"crawl graph entries: {crawl_count:,}")
    print(f"prune candidates: {prune:,} -> {prune_path}")
    print(f"add candidates: {add:,} -> {add_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
