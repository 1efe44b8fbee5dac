"""The package's shape: stages import only the stages below them, no cycles, small modules, Chroma and
openai each behind one door. Read from the source with ``ast`` (nothing is imported)."""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import ROOT

PKG = ROOT / "src" / "paperchat"
#: The stages, lowest first: a module may import its own stage and the stages before it.
LAYERS = [
    "core",
    "ingest",
    "store",
    "retrieve",
    "cite",
    "answer",
    "engine",
    "chat",
    "evaluation",
    "api",
    "cli",
]
MAX_LINES = 400


def _module_name(path: Path) -> str:
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports (at any depth: function-level imports count too)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
            out |= {f"{node.module}.{a.name}" for a in node.names}
    return out


def _modules() -> dict[str, set[str]]:
    mods = {_module_name(p): _imports(p) for p in PKG.rglob("*.py")}
    return {
        m: {i for i in imps if i in mods or i.split(".")[0] != "paperchat"}
        for m, imps in mods.items()
    }


def _stage(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def test_stages_import_only_downwards():
    wrong = []
    for mod, imps in _modules().items():
        stage = _stage(mod)
        if stage not in LAYERS:
            continue
        for imp in imps:
            target = _stage(imp) if imp.startswith("paperchat.") else None
            if target in LAYERS and LAYERS.index(target) > LAYERS.index(stage):
                wrong.append(f"{mod} imports {imp}")
    assert wrong == []


def test_no_import_cycle():
    graph = {m: {i for i in imps if i.startswith("paperchat")} for m, imps in _modules().items()}
    state: dict[str, int] = {}
    cycles = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt) :] + [nxt])
            elif nxt in graph and not state.get(nxt):
                visit(nxt, path + [nxt])
        state[node] = 2

    for mod in sorted(graph):
        if not state.get(mod):
            visit(mod, [mod])
    # a package's __init__ importing its own submodules is not a cycle of logic
    cycles = [c for c in cycles if not all(c[0].startswith(x) or x.startswith(c[0]) for x in c)]
    assert cycles == []


def test_chroma_and_openai_each_behind_one_door():
    mods = _modules()
    chroma = sorted(
        m for m, imps in mods.items() if any(i.split(".")[0] == "chromadb" for i in imps)
    )
    openai = sorted(m for m, imps in mods.items() if any(i.split(".")[0] == "openai" for i in imps))
    assert all(m.startswith("paperchat.store.") for m in chroma) and chroma
    assert openai == [
        "paperchat.answer.llm_client",
        "paperchat.answer.llm_errors",
        "paperchat.answer.llm_stream",
        "paperchat.ingest.embedding_openai",
    ]


def test_modules_are_small():
    big = {
        p.name: n
        for p in PKG.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert big == {}


def test_no_committed_file_names_an_absolute_machine_path():
    import re
    import subprocess

    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    files = (
        listed.stdout.splitlines()
        if listed.returncode == 0
        else [
            str(p.relative_to(ROOT))
            for p in ROOT.rglob("*")
            if p.is_file() and ".git" not in p.parts
        ]
    )
    machine = re.compile(r"(?<![\w.:/~-])/(work|home|Users|root)/[\w.-]")
    found = []
    for name in files:
        path = ROOT / name
        if not path.is_file() or path.stat().st_size > 5_000_000:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        found += [
            f"{name}:{n}" for n, line in enumerate(text.splitlines(), 1) if machine.search(line)
        ]
    assert found == []
