"""A tiny document model for reports: written once, rendered as Markdown and as one HTML page.

Blocks are headings, paragraphs, bullet lists, tables, figures and code. Paragraph text may use
``**bold**``, ``*italic*``, `` `code` `` and ``[text](link)``; the HTML renderer converts those
and embeds figures as data URIs, so the page opens in a browser without a server.
"""

from __future__ import annotations

import base64
import html
import re
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Heading:
    level: int
    text: str


@dataclass
class Para:
    text: str


@dataclass
class Bullets:
    items: list[str]


@dataclass
class Table:
    headers: list[str]
    rows: list[list]
    align: str | None = None  # one "l"/"r" per column; default: first left, rest right


@dataclass
class Figure:
    path: str  # relative to the report folder
    caption: str


@dataclass
class Code:
    text: str


@dataclass
class Document:
    """One Markdown file of a report (``name`` relative to the report folder)."""

    name: str
    title: str
    blocks: list = field(default_factory=list)

    def h(self, level: int, text: str) -> None:
        self.blocks.append(Heading(level, text))

    def p(self, text: str) -> None:
        self.blocks.append(Para(text))

    def bullets(self, items: list[str]) -> None:
        self.blocks.append(Bullets(list(items)))

    def table(self, headers, rows, align=None) -> None:
        self.blocks.append(Table(list(headers), [list(r) for r in rows], align))

    def figure(self, path: str, caption: str) -> None:
        self.blocks.append(Figure(path, caption))

    def code(self, text: str) -> None:
        self.blocks.append(Code(text))


# ---------------------------------------------------------------------------------------------
# Markdown


def to_markdown(doc: Document) -> str:
    """The document as GitHub-flavoured Markdown; links and figures relative to its folder."""
    out = [f"# {doc.title}", ""]
    for b in doc.blocks:
        if isinstance(b, Heading):
            out += ["#" * (b.level + 1) + " " + b.text, ""]
        elif isinstance(b, Para):
            out += [b.text, ""]
        elif isinstance(b, Bullets):
            out += [f"- {item}" for item in b.items] + [""]
        elif isinstance(b, Table):
            align = b.align or "l" + "r" * (len(b.headers) - 1)
            out.append("| " + " | ".join(_cell(h) for h in b.headers) + " |")
            out.append("|" + "|".join(":---" if a == "l" else "---:" for a in align) + "|")
            out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in b.rows]
            out.append("")
        elif isinstance(b, Figure):
            out += [f"![{b.caption}]({_relative(doc.name, b.path)})", "", f"*{b.caption}*", ""]
        elif isinstance(b, Code):
            out += ["```", b.text.rstrip(), "```", ""]
    return "\n".join(out).rstrip() + "\n"


def _cell(value) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def _relative(doc_name: str, path: str) -> str:
    depth = doc_name.count("/")
    return "../" * depth + path


def links_of(markdown: str) -> list[str]:
    """Every relative link and image target in a Markdown text (for checking a report)."""
    targets = re.findall(r"\]\(([^)\s]+)\)", markdown)
    return [t for t in targets if "://" not in t and not t.startswith("#")]


# ---------------------------------------------------------------------------------------------
# HTML


_INLINE = [
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
    (re.compile(r"\*\*([^*]+)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"(?<![*\w])\*([^*]+)\*(?!\*)"), r"<em>\1</em>"),
]
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def _inline(text: str, anchors: dict[str, str]) -> str:
    s = html.escape(str(text), quote=False)
    for pattern, repl in _INLINE:
        s = pattern.sub(repl, s)

    def link(m):
        target = m.group(2)
        if target in anchors:
            target = "#" + anchors[target]
        return f'<a href="{html.escape(target)}">{m.group(1)}</a>'

    return _LINK.sub(link, s)


def to_html(docs: list[Document], folder: Path, title: str) -> str:
    """All documents as one self-contained HTML page (figures embedded as PNG data URIs)."""
    anchors = {d.name: _slug(d.name) for d in docs}
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title>",
        "<style>body{font-family:system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;"
        "line-height:1.45;color:#222}table{border-collapse:collapse;margin:1rem 0;font-size:.9rem}"
        "td,th{border:1px solid #ccc;padding:.25rem .5rem}th{background:#f2f2f2}td.r{text-align:right}"
        "img{max-width:100%}figcaption{font-style:italic;color:#555}pre{background:#f6f6f6;padding:.6rem;"
        "overflow-x:auto}section{border-top:2px solid #ddd;margin-top:2rem}</style></head><body>",
    ]
    for d in docs:
        parts.append(f'<section id="{anchors[d.name]}"><h1>{_inline(d.title, anchors)}</h1>')
        for b in d.blocks:
            if isinstance(b, Heading):
                n = min(6, b.level + 1)
                parts.append(f"<h{n}>{_inline(b.text, anchors)}</h{n}>")
            elif isinstance(b, Para):
                parts.append(f"<p>{_inline(b.text, anchors)}</p>")
            elif isinstance(b, Bullets):
                parts.append("<ul>" + "".join(f"<li>{_inline(i, anchors)}</li>" for i in b.items) + "</ul>")
            elif isinstance(b, Table):
                align = b.align or "l" + "r" * (len(b.headers) - 1)
                head = "".join(f"<th>{_inline(h, anchors)}</th>" for h in b.headers)
                body = "".join(
                    "<tr>"
                    + "".join(
                        f'<td class="{"r" if a == "r" else "l"}">{_inline(c, anchors)}</td>'
                        for c, a in zip(row, align)
                    )
                    + "</tr>"
                    for row in b.rows
                )
                parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
            elif isinstance(b, Figure):
                data = base64.b64encode((folder / b.path).read_bytes()).decode("ascii")
                parts.append(
                    f'<figure><img alt="{html.escape(b.caption)}" src="data:image/png;base64,{data}">'
                    f"<figcaption>{_inline(b.caption, anchors)}</figcaption></figure>"
                )
            elif isinstance(b, Code):
                parts.append(f"<pre><code>{html.escape(b.text.rstrip())}</code></pre>")
        parts.append("</section>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
