"""export / import: the whole graph as JSON Lines, and a GraphML view for Gephi / yEd.

JSON Lines format, version 1 (one JSON object per line):

    {"format": "memgraph-export", "version": 1, "embedding_model": ..., "embedding_dim": 384,
     "exported_at": ..., "users": [...], "generator": "memgraph x.y.z"}
    {"type": "memory",  "user_id": u, "memory": {...all fields but tags/embedding}, "tags": [...],
     "embedding": "<base64 of little-endian float32>" | null}
    {"type": "tag",     "user_id": u, "tag": {"name": ..., "description": ...}}      (orphans included)
    {"type": "link",    "user_id": u, "link": {src, dst, relation, weight, source, reason, created_at, ...}}
    {"type": "cluster", "user_id": u, "cluster": {id, size, label, updated_at}, "centroid": base64 | null}
    {"type": "member",  "user_id": u, "member": {memory_id, cluster_id, probability}}
    {"type": "gap",     "user_id": u, "gap": {...}, "embedding": base64 | null}
    {"type": "end", "counts": {"memory": n, ...}}

Embeddings travel as the raw float32 bytes (base64), so a round trip is bit-exact; a user's memories come
before anything that points at them. The closing `end` line with the record counts makes a truncated file
detectable. Import reads the whole file once to validate it (header, every record, the counts) before it
writes anything: a truncated, corrupt or newer-version file raises ExportFormatError and the store is
untouched. A file from another embedding model or dimension is refused unless `reembed=True`, which
re-embeds every memory and gap with the store's model (clusters are then dropped: re-run `cluster`).
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import sys
import tempfile
from collections import Counter
from collections.abc import Generator, Iterator
from datetime import datetime
from pathlib import Path
from typing import IO, Any

import numpy as np
from pydantic import BaseModel, Field
from pydantic import ValidationError as PydanticValidationError

from memgraph.errors import (
    EmbedderUnavailableError,
    ExportFormatError,
    ModelMismatchError,
    SecretDetectedError,
    ValidationError,
)
from memgraph.ids import check_id, check_optional_id, check_owner, normalize_tag
from memgraph.ingest import rules
from memgraph.ingest.secrets import SecretFilter
from memgraph.jobs.base import JobContext, JobReport, batched, load_all
from memgraph.models import Cluster, Gap, InCluster, Link, Memory, Tag, utcnow
from memgraph.store.base import MemoryFilter, WriteBatch
from memgraph.validation import MAX_NESTING, check_nesting

FORMAT = "memgraph-export"
VERSION = 1
RECORD_TYPES = ("memory", "tag", "link", "cluster", "member", "gap")


class ExportReport(JobReport):
    job: str = "export"
    path: str = ""
    format: str = "jsonl"
    users: list[str] = Field(default_factory=list)
    records: dict[str, int] = Field(default_factory=dict)


class ImportReport(JobReport):
    job: str = "import"
    path: str = ""
    source_model: str = ""
    source_dim: int = 0
    reembedded: bool = False
    users: list[str] = Field(default_factory=list)
    records: dict[str, int] = Field(default_factory=dict)


def _b64(vec: Any) -> str | None:
    if vec is None:
        return None
    return base64.b64encode(np.asarray(vec, dtype="<f4").tobytes()).decode("ascii")


def _unb64(text: str | None, dim: int, where: str) -> np.ndarray | None:
    if text is None:
        return None
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError) as exc:
        raise ExportFormatError(f"{where}: embedding is not valid base64 ({exc})") from None
    if len(raw) != dim * 4:
        raise ExportFormatError(f"{where}: embedding has {len(raw) // 4} dimensions, the header says {dim}")
    return np.frombuffer(raw, dtype="<f4").astype(np.float32)


# --- export -------------------------------------------------------------------------------------------------


def _records(ctx: JobContext, users: list[str]) -> Iterator[dict[str, Any]]:
    store = ctx.store
    for user in users:
        memories = load_all(store, user, MemoryFilter.everything())
        ids, matrix = store.embeddings(user, MemoryFilter.everything())
        vec = {mid: matrix[i] for i, mid in enumerate(ids)}
        for n, m in enumerate(memories):
            yield {
                "type": "memory",
                "user_id": user,
                "memory": m.model_dump(mode="json", exclude={"embedding", "tags"}),
                "tags": list(m.tags),
                "embedding": _b64(vec.get(m.id)),
            }
            if n % 1000 == 0:
                ctx.tick(f"exporting {user}", n, len(memories))
        for t in store.list_tags(user):
            yield {"type": "tag", "user_id": user, "tag": {"name": t.name, "description": t.description}}
        for ln in store.get_links(user):
            yield {"type": "link", "user_id": user, "link": ln.model_dump(mode="json")}
        for c in store.list_clusters(user):
            yield {
                "type": "cluster",
                "user_id": user,
                "cluster": c.model_dump(mode="json", exclude={"centroid", "user_id"}),
                "centroid": _b64(c.centroid),
            }
        for mem in store.cluster_members(user):
            yield {"type": "member", "user_id": user, "member": mem.model_dump(mode="json")}
        for g in store.list_gaps(user):
            yield {
                "type": "gap",
                "user_id": user,
                "gap": g.model_dump(mode="json", exclude={"embedding"}),
                "embedding": _b64(g.embedding),
            }


def export_jsonl(ctx: JobContext, users: list[str], path: str | Path) -> ExportReport:
    """Write the users' graphs to `path` ("-": standard output). A file is written to a temporary name and
    renamed when complete, so an interrupted export never leaves a half file under the real name."""
    report = ExportReport(path=str(path), users=list(users), applied=True)
    header = {
        "format": FORMAT,
        "version": VERSION,
        "embedding_model": ctx.store.get_meta("embedding_model") or ctx.embedding_model,
        "embedding_dim": ctx.store.embedding_dim,
        "exported_at": utcnow().isoformat(),
        "users": list(users),
        "generator": f"memgraph {_version()}",
    }
    counts = dict.fromkeys(RECORD_TYPES, 0)
    with _open_out(path) as fh:
        fh.write(json.dumps(header, ensure_ascii=False) + "\n")
        for rec in _records(ctx, users):
            counts[rec["type"]] += 1
            fh.write(json.dumps(rec, ensure_ascii=False, allow_nan=False, separators=(",", ":")) + "\n")
        fh.write(json.dumps({"type": "end", "counts": counts}) + "\n")
    report.records = counts
    report.finished_at = utcnow()
    return report


@contextlib.contextmanager
def _open_out(path: str | Path) -> Iterator[IO[str]]:
    if str(path) == "-":
        yield sys.stdout
        sys.stdout.flush()
        return
    if "\x00" in str(path):
        raise ValidationError("cannot write the export: its path contains a NUL character")
    target = Path(path).expanduser()
    if target.is_dir():
        raise ValidationError(f"cannot write {path}: it is a directory (give a file name)")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    except OSError as exc:  # a file where a folder should be, no permission, a read-only disk
        raise ValidationError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            yield fh
        try:
            os.replace(tmp, target)
        except OSError as exc:
            raise ValidationError(f"cannot write {path}: {exc.strerror or exc}") from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _version() -> str:
    from memgraph import __version__

    return __version__


# --- import -------------------------------------------------------------------------------------------------


class _Parsed(BaseModel):
    header: dict[str, Any]
    counts: dict[str, int]
    users: list[str]
    #: line number -> hash of the line, for lines in which the secret filter found nothing: pass 2 writes
    #: those as parsed instead of scanning them again (the scan was ~half of an import's time)
    clean: dict[int, int]


def _read_lines(path: str | Path) -> Generator[tuple[int, dict[str, Any], int], None, None]:
    """(line number, record, hash of the line's text) for each non-blank line."""
    try:
        fh = sys.stdin if str(path) == "-" else open(Path(path).expanduser(), encoding="utf-8")
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        raise ValidationError(f"cannot read {path}: {exc}") from None
    try:
        for n, line in enumerate(fh, start=1):
            if not line.endswith("\n"):
                raise ExportFormatError(f"{path}: line {n} is cut off (the file is truncated)")
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ExportFormatError(f"{path}: line {n} is not valid JSON ({exc.msg})") from None
            except RecursionError:  # JSON nested beyond Python's recursion limit
                raise ExportFormatError(f"{path}: line {n} nests deeper than {MAX_NESTING} levels") from None
            if not isinstance(obj, dict):
                raise ExportFormatError(f"{path}: line {n} is not a JSON object")
            yield n, obj, hash(line)
    except UnicodeDecodeError as exc:
        raise ExportFormatError(f"{path}: not UTF-8 text ({exc})") from None
    finally:
        if fh is not sys.stdin:
            fh.close()


def _check_header(path: str | Path, header: dict[str, Any]) -> None:
    if header.get("format") != FORMAT:
        raise ExportFormatError(f"{path}: not a memgraph export (first line has no format {FORMAT!r})")
    version = header.get("version")
    if not isinstance(version, int) or version < 1:
        raise ExportFormatError(f"{path}: invalid format version {version!r}")
    if version > VERSION:
        raise ExportFormatError(
            f"{path}: format version {version} is newer than this memgraph reads ({VERSION}): "
            "upgrade memgraph"
        )
    if not isinstance(header.get("embedding_dim"), int) or not isinstance(header.get("embedding_model"), str):
        raise ExportFormatError(f"{path}: the header lacks embedding_model / embedding_dim")


def _validate(path: str | Path, dim: int, secrets: SecretFilter) -> _Parsed:
    """Pass 1: every line parsed and validated (the secret filter too: under `reject` a secret stops the import
    before anything is written); the counts checked against the closing line."""
    lines = _read_lines(path)
    first = next(lines, None)
    if first is None:
        raise ExportFormatError(f"{path}: the file is empty")
    header = first[1]
    _check_header(path, header)
    counts = dict.fromkeys(RECORD_TYPES, 0)
    users: list[str] = []
    known: dict[str, set[str]] = {}
    clean: dict[int, int] = {}
    end: dict[str, Any] | None = None
    for n, rec, digest in lines:
        where = f"{path}: line {n}"
        if end is not None:
            raise ExportFormatError(f"{where}: data after the closing 'end' line")
        kind = rec.get("type")
        if kind == "end":
            end = rec
            continue
        if kind not in RECORD_TYPES:
            raise ExportFormatError(f"{where}: unknown record type {kind!r}")
        found: Counter[str] = Counter()
        _scrub(_parse(rec, dim, where, known), secrets, found, where)
        if not found:
            clean[n] = digest
        user = rec["user_id"]
        if user not in users:
            users.append(user)
        counts[kind] += 1
    if end is None:
        raise ExportFormatError(f"{path}: no closing 'end' line: the file is truncated")
    if end.get("counts") != counts:
        raise ExportFormatError(
            f"{path}: record counts {counts} differ from the closing line {end.get('counts')}"
        )
    return _Parsed(header=header, counts=counts, users=users, clean=clean)


def _secret_tag(secrets: SecretFilter, tag: str, counts: Counter[str], where: str) -> bool:
    """Tags are stored lowercased, so a vendor key that only exists in capitals is looked for in capitals too."""
    for variant in dict.fromkeys((tag, tag.upper())):
        res = secrets.text(variant, what=f"{where}: a tag")
        if res.found:
            counts.update(res.counts)
            return True
    return False


def _scrub(item: Any, secrets: SecretFilter, counts: Counter[str], where: str) -> tuple[Any, bool]:
    """The write path's secret filter on one imported record (a file from elsewhere may hold secrets): text is
    redacted (under `reject`: SecretDetectedError), a tag holding a secret is left out (None for a tag record).
    Returns the record and whether a memory's content changed (its embedding is then recomputed)."""
    what = f"{where}: "
    if isinstance(item, tuple):
        mem, vec = item
        content = secrets.text(mem.content, what=f"{what}content")
        counts.update(content.counts)
        update = {
            "content": content.text,
            "tags": [t for t in mem.tags if not _secret_tag(secrets, t, counts, where)],
            "metadata": secrets.value(mem.metadata, counts, what=f"{what}metadata"),
            "file_paths": secrets.value(mem.file_paths, counts, what=f"{what}a file path"),
            "trigger_patterns": secrets.value(mem.trigger_patterns, counts, what=f"{what}a trigger pattern"),
        }
        return (mem.model_copy(update=update), vec), content.found
    if isinstance(item, Tag):
        if _secret_tag(secrets, item.name, counts, where):
            return None, False
        desc = None if item.description is None else secrets.value(item.description, counts, what=f"{what}tag")
        return item.model_copy(update={"description": desc}), False
    if isinstance(item, Link) and item.reason:
        return item.model_copy(update={"reason": secrets.value(item.reason, counts, what=f"{what}reason")}), False
    if isinstance(item, Cluster):
        return item.model_copy(update={"label": secrets.value(item.label, counts, what=f"{what}label")}), False
    if isinstance(item, Gap):
        return item.model_copy(update={"query": secrets.value(item.query, counts, what=f"{what}gap query")}), False
    return item, False


def _parse(rec: dict[str, Any], dim: int, where: str, known: dict[str, set[str]] | None = None) -> Any:
    """One record as models (memory: (Memory, vector)); raises ExportFormatError with the line number."""
    kind = rec["type"]
    user = rec.get("user_id")
    if not isinstance(user, str) or not user:
        raise ExportFormatError(f"{where}: record without user_id")
    try:
        # the identifier rule of every other entry point (memgraph/ids.py): ids refused, tags normalised
        check_owner(user)
        if kind == "memory":
            mem = Memory.model_validate({**rec["memory"], "tags": rec.get("tags", [])})
            if mem.user_id != user:
                raise ExportFormatError(f"{where}: memory user_id differs from the record's")
            check_id(mem.id, "memory id")
            check_optional_id(mem.session_id, "session_id")
            check_nesting(mem.metadata)  # the write path's cap on metadata, as for every other entry point
            mem = mem.model_copy(update={"tags": list(dict.fromkeys(normalize_tag(t) for t in mem.tags))})
            if known is not None:
                known.setdefault(user, set()).add(mem.id)
            return mem, _unb64(rec.get("embedding"), dim, where)
        if kind == "tag":
            tag = Tag(user_id=user, **rec["tag"])
            return tag.model_copy(update={"name": normalize_tag(tag.name)})
        if kind == "link":
            link = Link.model_validate(rec["link"])
            check_id(link.src, "link source")
            check_id(link.dst, "link target")
            if known is not None and not {link.src, link.dst} <= known.get(user, set()):
                raise ExportFormatError(f"{where}: link between memories that are not in the file")
            return link
        if kind == "cluster":
            cent = _unb64(rec.get("centroid"), dim, where)
            return Cluster.model_validate(
                {**rec["cluster"], "user_id": user, "centroid": None if cent is None else cent.tolist()}
            )
        if kind == "member":
            return InCluster.model_validate(rec["member"])
        vec = _unb64(rec.get("embedding"), dim, where)
        return Gap.model_validate({**rec["gap"], "embedding": None if vec is None else vec.tolist()})
    except ValidationError as exc:  # an id breaking the rule (its message never quotes the id) or a bad tag
        if isinstance(exc, ExportFormatError):
            raise
        error = type(exc) if isinstance(exc, SecretDetectedError) else ExportFormatError  # a secret stays one
        raise error(f"{where}: invalid {kind} record ({exc})") from None
    except (PydanticValidationError, KeyError, TypeError) as exc:
        raise ExportFormatError(f"{where}: invalid {kind} record ({str(exc).splitlines()[0]})") from None


def import_jsonl(ctx: JobContext, path: str | Path, *, reembed: bool = False) -> ImportReport:
    """Validate the whole file, then write it (memories upsert by id, so importing twice is harmless)."""
    store = ctx.store
    if str(path) == "-":
        raise ValidationError("import reads a file (it is read twice: validated first, then written)")
    reader = _read_lines(path)
    first = next(reader, None)
    reader.close()
    if first is None:
        raise ExportFormatError(f"{path}: the file is empty")
    _check_header(path, first[1])
    src_model, src_dim = first[1]["embedding_model"], first[1]["embedding_dim"]
    mismatch = src_model != ctx.embedding_model or src_dim != store.embedding_dim
    if mismatch and not reembed:
        raise ModelMismatchError(
            f"{path} holds {src_dim}-d embeddings from {src_model!r}; this store uses "
            f"{store.embedding_dim}-d "
            f"{ctx.embedding_model!r}. Import with --reembed to re-embed every memory with the store's model."
        )
    if reembed and ctx.embed is None:
        raise EmbedderUnavailableError("import --reembed needs the embedding model")
    secrets = SecretFilter.from_settings(ctx.settings)
    parsed = _validate(path, src_dim, secrets)
    report = ImportReport(
        path=str(path),
        source_model=src_model,
        source_dim=src_dim,
        reembedded=reembed,
        applied=True,
        users=parsed.users,
        records=parsed.counts,
    )
    if reembed and parsed.counts["cluster"]:
        report.warnings.append(
            "clusters were not imported (their centroids belong to the old model): run cluster"
        )
    total = sum(parsed.counts.values())
    done = 0
    size = ctx.settings.export_batch_size
    pending: list[tuple[Memory, np.ndarray | None]] = []
    pending_user = ""
    other: dict[str, dict[str, list[Any]]] = {}
    found: Counter[str] = Counter()
    redacted: set[str] = set()  # memories whose content lost a secret: their vectors are recomputed

    def flush() -> None:
        nonlocal pending
        if pending:
            _write_memories(ctx, pending_user, pending, reembed, redacted)
            pending = []

    for n, rec, digest in _read_lines(path):
        kind = rec.get("type")
        if kind is None or kind == "end":  # the header line, the closing line
            continue
        where = f"{path}: line {n}"
        item = _parse(rec, src_dim, where)
        if parsed.clean.get(n) != digest:  # a secret was found here in pass 1 (or the line changed since)
            item, changed = _scrub(item, secrets, found, where)
        else:
            changed = False
        user = rec["user_id"]
        if item is None:  # a tag that is a secret
            continue
        if changed:
            redacted.add(item[0].id)
        if kind == "memory":
            if user != pending_user or len(pending) >= size:
                flush()
                pending_user = user
            pending.append(item)
        else:
            flush()
            other.setdefault(user, {}).setdefault(kind, []).append(item)
            if kind == "link" and len(other[user]["link"]) >= size:
                store.write(user, WriteBatch(links=other[user].pop("link")))
        done += 1
        if done % 1000 == 0:
            ctx.tick("importing", done, total)
    flush()
    for user, parts in other.items():
        if parts.get("tag"):
            store.upsert_tags(user, parts["tag"])
        for batch in batched(parts.get("link", []), size):
            store.write(user, WriteBatch(links=list(batch)))
        if (parts.get("cluster") or parts.get("member")) and not reembed:
            store.replace_clusters(user, parts.get("cluster", []), parts.get("member", []))
        for gap in parts.get("gap", []):
            if reembed and ctx.embed is not None:
                gap = gap.model_copy(
                    update={"embedding": ctx.embed([gap.query])[0].astype(np.float32).tolist()}
                )
            store.upsert_gap(gap)
    ctx.tick("importing", total, total)
    now = utcnow()
    capped = [a for user in parsed.users for a in rules.enforce(store, ctx.settings, user, now, why="import")]
    if capped:
        report.warnings.append(
            f"{len(capped)} rules were archived to keep max_active_procedures/max_active_constraints "
            "(the least used; reason in their metadata)"
        )
    if found:
        report.warnings.append(
            f"{sum(found.values())} secrets were redacted (types: {', '.join(sorted(found))}); "
            "tags holding one were left out"
        )
    report.finished_at = utcnow()
    return report


def _write_memories(
    ctx: JobContext, user: str, items: list[tuple[Memory, np.ndarray | None]], reembed: bool, redacted: set[str]
) -> None:
    store = ctx.store
    stale = [i for i, (m, v) in enumerate(items) if v is not None and m.id in redacted]
    if stale and ctx.embed is not None and not reembed:  # the file's vector was made from the secret's text
        vecs = np.asarray(ctx.embed([items[i][0].content for i in stale]), dtype=np.float32)
        for i, vec in zip(stale, vecs, strict=True):
            items[i] = (items[i][0], vec)
    if reembed and ctx.embed is not None:
        mems = [m.model_copy(update={"embedding_model": ctx.embedding_model}) for m, _ in items]
        vecs = np.asarray(ctx.embed([m.content for m in mems]), dtype=np.float32)
        store.write(user, WriteBatch(memories=mems, embeddings=vecs))
        return
    with_vec = [(m, v) for m, v in items if v is not None]
    without = [m for m, v in items if v is None]
    if with_vec:
        store.write(
            user,
            WriteBatch(memories=[m for m, _ in with_vec], embeddings=np.stack([v for _, v in with_vec])),
        )
    if without:
        store.write(user, WriteBatch(memories=without))


# --- GraphML ---------------------------------------------------------------------------------------------


def _scalar(value: Any) -> Any:
    """GraphML holds scalars only: lists and maps become JSON text, times ISO text, enums their value."""
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, list | dict):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    if hasattr(value, "value"):
        return value.value
    return value


def export_graphml(ctx: JobContext, users: list[str], path: str | Path) -> ExportReport:
    """Nodes Memory / Tag / Cluster (every property but embeddings and centroids) and typed edges, for
    Gephi, yEd or Cytoscape. Node ids: `memory:<id>`, `tag:<user>:<name>`, `cluster:<id>`; the node kind is
    the `type` attribute, `label` is what a viewer displays (content start, tag name, cluster label); an
    edge's `type` is its relationship."""
    import networkx as nx

    store = ctx.store
    g = nx.MultiDiGraph()
    counts = {"memory": 0, "tag": 0, "cluster": 0, "edge": 0}
    for user in users:
        for m in load_all(store, user, MemoryFilter.everything()):
            attrs = {
                k: _scalar(v) for k, v in m.model_dump(exclude={"embedding", "tags"}).items() if v is not None
            }
            g.add_node(f"memory:{m.id}", type="Memory", label=m.content[:60], **attrs)
            counts["memory"] += 1
            for name in m.tags:
                g.add_edge(f"memory:{m.id}", f"tag:{user}:{name}", key="HasTag", type="HasTag")
                counts["edge"] += 1
        for t in store.list_tags(user):
            attrs = {k: v for k, v in t.model_dump().items() if v is not None}
            g.add_node(f"tag:{user}:{t.name}", type="Tag", label=t.name, **attrs)
            counts["tag"] += 1
        for c in store.list_clusters(user):
            attrs = {k: _scalar(v) for k, v in c.model_dump(exclude={"centroid"}).items() if v is not None}
            attrs["label"] = attrs.get("label") or c.id
            g.add_node(f"cluster:{c.id}", type="Cluster", **attrs)
            counts["cluster"] += 1
        for mem in store.cluster_members(user):
            g.add_edge(
                f"memory:{mem.memory_id}",
                f"cluster:{mem.cluster_id}",
                key="InCluster",
                type="InCluster",
                probability=mem.probability,
            )
            counts["edge"] += 1
        for ln in store.get_links(user):
            attrs = {k: _scalar(v) for k, v in ln.model_dump(exclude={"src", "dst"}).items() if v is not None}
            attrs["type"] = attrs.pop("relation")
            g.add_edge(f"memory:{ln.src}", f"memory:{ln.dst}", key=ln.relation.value, **attrs)
            counts["edge"] += 1
    if "\x00" in str(path):
        raise ValidationError("cannot write the export: its path contains a NUL character")
    target = Path(path).expanduser()
    if target.is_dir():
        raise ValidationError(f"cannot write {path}: it is a directory (give a file name)")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        nx.write_graphml(g, target)
    except OSError as exc:
        raise ValidationError(f"cannot write {path}: {exc.strerror or exc}") from None
    report = ExportReport(path=str(path), format="graphml", users=list(users), records=counts, applied=True)
    report.finished_at = utcnow()
    return report


__all__ = [
    "FORMAT",
    "VERSION",
    "ExportReport",
    "ImportReport",
    "export_graphml",
    "export_jsonl",
    "import_jsonl",
]
