#!/usr/bin/env python3
"""Voicebox's MCP server driven by the official MCP Python SDK (`mcp` on PyPI).

Two jobs, one client:

  flow VOICEBOX        the acceptance flow against `VOICEBOX mcp` (a client no
                       one here wrote): tools with schemas; write, read, edit,
                       grep, undo; an escape refused by rule id; a delete asked
                       through elicitation, declined (kept) and accepted (gone);
                       a client without elicitation refused by name (kept);
                       a person's words through `say`: a guess asked "Did you
                       mean", declined (nothing made) and accepted (done);
                       resources without dot folders; the audit's instance.
                       Prints one JSON line per check and `N passed, N failed`;
                       exits 1 on any failure. `crates/server/tests/mcp` runs it.

  compare VOICEBOX REF...
                       the traversal and link cases through Voicebox and through
                       the reference filesystem server (each `REF` is an index.js
                       of npm's @modelcontextprotocol/server-filesystem, e.g. the
                       current one and one from before its 2025 fixes) in one
                       run, and the median time per read and write call, as the
                       Markdown tables docs/MCP.md shows. By hand only: its
                       figures are measurements, never assertions.

  rounds VOICEBOX... --reference REF
                       the median time per read and write call of each server,
                       each started afresh in a folder of its own, taken in
                       turn for several rounds (so a machine that slows down
                       meanwhile slows them all), and the median over the rounds
                       of each Voicebox build's ratio to the reference's time
                       in the same round. Two Voicebox builds compare a change.
                       By hand only, as docs/PERFORMANCE.md reports it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pathlib
import statistics
import sys
import tempfile
import time
from contextlib import asynccontextmanager

import mcp.types as types
from mcp import ClientSession, StdioServerParameters, stdio_client


class Person:
    """Answers every elicitation one way, and remembers what was asked."""

    def __init__(self, answer: str):
        self.answer = answer
        self.asked: list[str] = []

    async def __call__(self, context, params):
        self.asked.append(params.message)
        return types.ElicitResult(action=self.answer)


@asynccontextmanager
async def connected(command: str, args: list[str], person: Person | None = None, cwd=None):
    """One server process (started in `cwd`: older reference servers resolve
    relative paths against it) and an initialized session with it."""
    params = StdioServerParameters(command=command, args=args, env={"RUST_LOG": "warn"}, cwd=cwd)
    with open(os.devnull, "w") as quiet:
        async with stdio_client(params, errlog=quiet) as (read, write):
            async with ClientSession(read, write, elicitation_callback=person) as session:
                await session.initialize()
                yield session


def voicebox(binary: str, root: pathlib.Path, state: pathlib.Path) -> tuple[str, list[str]]:
    return binary, ["mcp", "--root", str(root), "--state-dir", str(state)]


def text_of(result) -> str:
    return result.content[0].text if result.content else ""


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, name: str, ok: bool, seen=None):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        print(json.dumps({"check": name, "ok": bool(ok), "seen": seen}, default=str))


async def flow(binary: str) -> int:
    checks = Checks()
    with tempfile.TemporaryDirectory() as base:
        base = pathlib.Path(base)
        root, state = base / "notes", base / "state"
        root.mkdir()
        (root / ".hidden").mkdir()
        (root / ".hidden" / "secret.txt").write_text("no")
        (root / "sub").mkdir()
        (root / "sub" / "b.md").write_text("beta")
        command, args = voicebox(binary, root, state)

        async with connected(command, args) as s:
            tools = {t.name: t for t in (await s.list_tools()).tools}
            checks.check(
                "tools are the command table",
                {"list", "read", "write", "delete", "edit", "diff", "grep", "undo",
                 "create_asset", "tool", "list_extensions", "propose_extension"} <= set(tools)
                and "make-tool" not in tools,
                sorted(tools),
            )
            schema = tools["write"].input_schema
            checks.check("write's schema requires name and content",
                         schema.get("required") == ["name", "content"], schema)

            wrote = await s.call_tool("write", {"name": "a.txt", "content": "hello world"})
            checks.check("write", not wrote.is_error and (root / "a.txt").read_text() == "hello world",
                         text_of(wrote))
            read = await s.call_tool("read", {"name": "a.txt"})
            checks.check("read", (read.structured_content or {}).get("content") == "hello world",
                         read.structured_content)
            edited = await s.call_tool("edit", {"name": "a.txt", "oldText": "world", "newText": "there"})
            checks.check("edit", not edited.is_error and (root / "a.txt").read_text() == "hello there",
                         text_of(edited))
            found = await s.call_tool("grep", {"query": "there"})
            matches = (found.structured_content or {}).get("matches") or []
            checks.check("grep", [m.get("file") for m in matches] == ["a.txt"], matches)
            undone = await s.call_tool("undo", {})
            checks.check("undo", not undone.is_error and (root / "a.txt").read_text() == "hello world",
                         text_of(undone))

            escaped = await s.call_tool("write", {"name": "../x", "content": "out"})
            checks.check("an escape is a tool error starting with its rule id",
                         escaped.is_error and text_of(escaped).startswith("outside-root: ")
                         and not (base / "x").exists(), text_of(escaped))
            inside = await s.call_tool("write", {"name": "x", "content": "in"})
            checks.check("the same write inside is done", not inside.is_error and (root / "x").exists(),
                         text_of(inside))

            refused = await s.call_tool("delete", {"name": "a.txt"})
            checks.check("a client without elicitation is refused by name, the file kept",
                         refused.is_error and text_of(refused).startswith("confirmation-unavailable: ")
                         and (root / "a.txt").exists(), text_of(refused))

            resources = [str(r.uri) for r in (await s.list_resources()).resources]
            checks.check("resources are the files, no dot folders",
                         resources == ["voicebox:///a.txt", "voicebox:///sub/b.md", "voicebox:///x"],
                         resources)
            contents = await s.read_resource("voicebox:///sub/b.md")
            checks.check("a resource reads through the executor", contents.contents[0].text == "beta",
                         contents.contents[0])

        declining = Person("decline")
        async with connected(command, args, declining) as s:
            kept = await s.call_tool("delete", {"name": "a.txt"})
            checks.check("declined: the file is kept",
                         kept.is_error and text_of(kept).startswith("declined: ") and (root / "a.txt").exists(),
                         text_of(kept))
            checks.check("the person was asked in words",
                         declining.asked[:1] and declining.asked[0].startswith("Delete a.txt?"), declining.asked)
            guessed = await s.call_tool("say", {"words": "ad oat milk to groceries.md"})
            checks.check("a guess from words is asked as 'Did you mean', declined, nothing made",
                         guessed.is_error and declining.asked[1:2]
                         and declining.asked[1].startswith("Did you mean: add 'oat milk' to groceries.md?")
                         and not (root / "groceries.md").exists(), declining.asked)

        accepting = Person("accept")
        async with connected(command, args, accepting) as s:
            gone = await s.call_tool("delete", {"name": "a.txt"})
            checks.check("accepted: the file is gone", not gone.is_error and not (root / "a.txt").exists(),
                         text_of(gone))
            guessed = await s.call_tool("say", {"words": "ad oat milk to groceries.md"})
            checks.check("a guess from words, accepted, is done",
                         not guessed.is_error and accepting.asked[1:2]
                         and accepting.asked[1].startswith("Did you mean:")
                         and "oat milk" in (root / "groceries.md").read_text(), text_of(guessed))
            sure = await s.call_tool("say", {"words": "add bread to groceries.md"})
            checks.check("words read surely are done with no question",
                         not sure.is_error and len(accepting.asked) == 2
                         and "bread" in (root / "groceries.md").read_text(), accepting.asked)

        entries = []
        for log in (root / ".audit").glob("*.jsonl"):
            entries += [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
        checks.check("every audit entry is instance mcp",
                     entries and all(e.get("instance") == "mcp" for e in entries), len(entries))
        checks.check("the decline is in the audit", any(e.get("rule") == "declined" for e in entries))
    print(f"python-sdk: {checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


# ---- compare ---------------------------------------------------------------

def sandbox(base: pathlib.Path) -> dict:
    """root/ with a link out and a linked folder; outside/ and root-evil/ beside it."""
    root, outside, evil = base / "root", base / "outside", base / "root-evil"
    for d in (root, outside, evil):
        d.mkdir(parents=True)
    (root / "inside.txt").write_text("inside")
    (outside / "secret.txt").write_text("SECRET-OUTSIDE")
    (evil / "secret.txt").write_text("SECRET-PREFIX")
    (root / "link-out").symlink_to(outside / "secret.txt")
    (root / "linkdir").symlink_to(outside)
    return {"root": root, "outside": outside, "evil": evil}


def cases(s: dict) -> list[tuple[str, str]]:
    """(kind, path) for reads and writes; each must be refused, never reach out."""
    return [
        ("dot-dot", "../outside/secret.txt"),
        ("dot-dot, deep", "a/../../outside/secret.txt"),
        ("absolute, outside", str(s["outside"] / "secret.txt")),
        ("symlink to a file out", "link-out"),
        ("symlinked folder out", "linkdir/secret.txt"),
        ("sibling prefix (CVE-2025-53110)", str(s["evil"] / "secret.txt")),
        ("sibling prefix, relative", "../root-evil/secret.txt"),
    ]


def outside_files(s: dict) -> dict:
    return {str(p): p.read_bytes() for d in (s["outside"], s["evil"]) for p in d.rglob("*") if p.is_file()}


def short(text: str) -> str:
    """A refusal's rule id (Voicebox) or the first words of its message."""
    head = text.split(":", 1)[0] if text[:1].islower() and ":" in text[:40] else text
    return head[:48].replace("|", "\\|").replace("\n", " ")


def reset(s: dict):
    """The files outside the root as they were: each case starts clean."""
    (s["outside"] / "secret.txt").write_text("SECRET-OUTSIDE")
    (s["evil"] / "secret.txt").write_text("SECRET-PREFIX")


async def probe(session, read_tool, write_tool, arg, s, kind, path) -> dict:
    reset(s)
    before = outside_files(s)
    read = await session.call_tool(read_tool, {arg: path})
    leaked = any(secret in text_of(read) for secret in ("SECRET-OUTSIDE", "SECRET-PREFIX"))
    wrote = await session.call_tool(write_tool, {arg: path, "content": "PWNED"})
    after = outside_files(s)
    changed = before != after
    return {
        "kind": kind, "path": path,
        "read": "LEAKED" if leaked else ("refused" if read.is_error else "read inside"),
        "read_text": short(text_of(read)),
        "write": "ESCAPED" if changed else ("refused" if wrote.is_error else "wrote inside"),
        "write_text": short(text_of(wrote)),
    }


async def timed(session, tool, args, n: int) -> float:
    times = []
    for i in range(n):
        a = {k: (v.format(i=i) if isinstance(v, str) else v) for k, v in args.items()}
        start = time.perf_counter()
        result = await session.call_tool(tool, a)
        times.append(time.perf_counter() - start)
        assert not result.is_error, text_of(result)
    return statistics.median(times) * 1000


def reference_name(index: str) -> str:
    """`server-filesystem <version>`, from the package.json beside dist/."""
    package = pathlib.Path(index).resolve().parent.parent / "package.json"
    try:
        return f"server-filesystem {json.loads(package.read_text())['version']}"
    except (OSError, KeyError, ValueError):
        return "server-filesystem"


async def tool_names(session) -> set[str]:
    """The server's tool names; an older reference server's listing fails the
    SDK's validation (its input schemas lack `type`), so its names are the
    ones it is known to have."""
    try:
        return {t.name for t in (await session.list_tools()).tools}
    except Exception:  # noqa: BLE001 - any failure of the listing
        known = {"read_file", "write_file"}
        # No output schemas to check a result against: the SDK would list again.
        session._tool_output_schemas.update(dict.fromkeys(known))
        return known


async def compare(binary: str, references: list[str], n: int, corpus: pathlib.Path | None) -> int:
    with tempfile.TemporaryDirectory() as base:
        base = pathlib.Path(base)
        servers = []
        vb = sandbox(base / "voicebox")
        servers.append(("Voicebox", voicebox(binary, vb["root"], base / "state"), vb, "name"))
        for i, index in enumerate(references):
            ref = sandbox(base / f"reference-{i}")
            servers.append((reference_name(index), ("node", [index, str(ref["root"])]), ref, "path"))
        rows, figures, corpus_rows = {}, {}, {}
        for name, (command, args), s, arg in servers:
            async with connected(command, args, cwd=s["root"]) as session:
                tools = await tool_names(session)
                read_tool = next(t for t in ("read", "read_text_file", "read_file") if t in tools)
                write_tool = next(t for t in ("write", "write_file") if t in tools)
                rows[name] = [await probe(session, read_tool, write_tool, arg, s, kind, path)
                              for kind, path in cases(s)]
                payloads = []
                if corpus:
                    for f in sorted(corpus.glob("*.txt")):
                        payloads += [p for p in f.read_text(errors="replace").splitlines() if p.strip()]
                reset(s)
                before = outside_files(s)
                refused = escaped = 0
                for p in payloads:
                    out = await session.call_tool(write_tool, {arg: p, "content": "PWNED"})
                    refused += bool(out.is_error)
                now = outside_files(s)
                escaped = len(set(now) - set(before)) + sum(now[k] != v for k, v in before.items() if k in now)
                corpus_rows[name] = (len(payloads), refused, escaped)
                (s["root"] / "t.txt").write_text("x" * 1024)
                figures[name] = {
                    "read": await timed(session, read_tool, {arg: "t.txt"}, n),
                    "write": await timed(session, write_tool, {arg: "w{i}.txt", "content": "x" * 1024}, n),
                }
    names = [server[0] for server in servers]
    for name in names:
        print(f"{name}: read and write of each case")
        print()
        print("| case | path | read | write |")
        print("|---|---|---|---|")
        for (kind, path), r in zip(cases(vb), rows[name]):
            shown = path.replace(str(vb["root"].parent), "<base>")
            print(f"| {kind} | `{shown}` | {r['read']} ({r['read_text']}) | {r['write']} ({r['write_text']}) |")
        print()
    if corpus:
        print("| payload-list writes | payloads | refused | landed outside the root |")
        print("|---|---|---|---|")
        for name in names:
            total, refused, escaped = corpus_rows[name]
            print(f"| {name} | {total} | {refused} | {escaped} |")
        print()
    print(f"| median per call ({n} calls each, 1 KiB) | read | write |")
    print("|---|---|---|")
    for name in names:
        print(f"| {name} | {figures[name]['read']:.2f} ms | {figures[name]['write']:.2f} ms |")
    return 0


async def medians(command: str, args: list[str], root: pathlib.Path, n: int) -> tuple[float, float]:
    """The median read and write call of one server, started afresh on `root`."""
    (root / "t.txt").write_text("x" * 1024)
    async with connected(command, args, cwd=root) as session:
        tools = await tool_names(session)
        read_tool = next(t for t in ("read", "read_text_file", "read_file") if t in tools)
        write_tool = next(t for t in ("write", "write_file") if t in tools)
        arg = "name" if write_tool == "write" else "path"
        read = await timed(session, read_tool, {arg: "t.txt"}, n)
        write = await timed(session, write_tool, {arg: "w{i}.txt", "content": "x" * 1024}, n)
    return read, write


async def rounds(binaries: list[str], reference: str, n: int, count: int) -> int:
    labels = [f"voicebox {i + 1}" for i in range(len(binaries))] + ["reference"]
    for label, binary in zip(labels, binaries):
        print(f"{label}: {binary}")
    print(f"reference: {reference_name(reference)}")
    print()
    print("| round | " + " | ".join(f"{label} read / write" for label in labels) + " |")
    print("|---" * (len(labels) + 1) + "|")
    seen = []
    for r in range(count):
        row = {}
        with tempfile.TemporaryDirectory() as base:
            base = pathlib.Path(base)
            for i, label in enumerate(labels):
                root = base / f"root-{i}"
                root.mkdir()
                if label == "reference":
                    command, args = "node", [reference, str(root)]
                else:
                    command, args = voicebox(binaries[i], root, base / f"state-{i}")
                row[label] = await medians(command, args, root, n)
        seen.append(row)
        print(f"| {r + 1} | " + " | ".join(f"{row[l][0]:.2f} / {row[l][1]:.2f} ms" for l in labels) + " |")
    print()
    print(f"| median over {count} rounds ({n} calls each, 1 KiB) | read | write | read ÷ reference | write ÷ reference |")
    print("|---|---|---|---|---|")
    for label in labels:
        read = statistics.median(row[label][0] for row in seen)
        write = statistics.median(row[label][1] for row in seen)
        ratios = [statistics.median(row[label][k] / row["reference"][k] for row in seen) for k in (0, 1)]
        print(f"| {label} | {read:.2f} ms | {write:.2f} ms | {ratios[0]:.2f}× | {ratios[1]:.2f}× |")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="job", required=True)
    f = sub.add_parser("flow")
    f.add_argument("voicebox")
    c = sub.add_parser("compare")
    c.add_argument("voicebox")
    c.add_argument("reference", nargs="+", help="server-filesystem's dist/index.js, one or more")
    c.add_argument("--calls", type=int, default=200)
    c.add_argument("--corpus", type=pathlib.Path, help="a folder of payload lists, one a line")
    r = sub.add_parser("rounds")
    r.add_argument("voicebox", nargs="+", help="one Voicebox binary, or two to compare a change")
    r.add_argument("--reference", required=True, help="server-filesystem's dist/index.js")
    r.add_argument("--calls", type=int, default=200)
    r.add_argument("--rounds", type=int, default=5)
    a = parser.parse_args()
    if a.job == "flow":
        return asyncio.run(flow(a.voicebox))
    if a.job == "rounds":
        return asyncio.run(rounds(a.voicebox, a.reference, a.calls, a.rounds))
    return asyncio.run(compare(a.voicebox, a.reference, a.calls, a.corpus))


if __name__ == "__main__":
    sys.exit(main())
