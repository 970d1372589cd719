"""The command-line reference, made from the installed package's own parser: each
subcommand's usage, description, arguments and examples, so the page cannot drift from
what ``nqueens --help`` prints."""

from __future__ import annotations

import argparse
import os
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _name(action: argparse.Action) -> str:
    if not action.option_strings:
        return f"`{action.metavar or action.dest}`"
    metavar = ""
    if action.nargs != 0:
        shown = action.metavar or action.dest.upper()
        metavar = " " + (" ".join(shown) if isinstance(shown, tuple) else str(shown))
    return ", ".join(f"`{option}{metavar}`" for option in action.option_strings)


def _plain(text: str) -> str:
    """Text as Markdown shows it literally: one line, its markup characters escaped."""
    text = " ".join(text.split())
    for mark in "\\*_<>[]`|":
        text = text.replace(mark, "\\" + mark)
    return text


def _help(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    formatter = parser._get_formatter()
    text = formatter._expand_help(action) if action.help else ""
    return _plain(text) or "(no description)"


def _lines(parser: argparse.ArgumentParser, title: str) -> list[str]:
    """A subcommand's section, in MyST Markdown (the page that holds it is Markdown)."""
    lines = [f"### {title}", ""]
    if parser.description:
        lines += [_plain(parser.description), ""]
    usage = parser.format_usage().removeprefix("usage: ").rstrip()
    lines += ["```text", *usage.splitlines(), "```", ""]
    for action in parser._actions:
        if action.help == argparse.SUPPRESS or isinstance(action, argparse._SubParsersAction):
            continue
        lines += [f"- {_name(action)}: {_help(parser, action)}"]
    lines += [""]
    if parser.epilog and parser.epilog.startswith("examples:"):
        examples = parser.epilog.splitlines()[1:]
        lines += ["Examples:", "", "```sh", *(line.strip() for line in examples), "```", ""]
    return lines


class CommandLine(SphinxDirective):
    """``.. nqueens-cli::``: the whole command line, a section per subcommand."""

    def run(self) -> list[Any]:
        from nqueens.cli._parser import build_parser

        # usage lines wrapped to fit the page (the parser's formatter reads $COLUMNS),
        # the build's own environment left as it was
        before = os.environ.get("COLUMNS")
        os.environ["COLUMNS"] = "92"
        try:
            parser = build_parser()
            lines = _lines(parser, "nqueens")
            for name, sub in _subcommands(parser).items():
                lines += _lines(sub, f"nqueens {name}")
        finally:
            if before is None:
                del os.environ["COLUMNS"]
            else:
                os.environ["COLUMNS"] = before
        holder = nodes.section()
        holder.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, "nqueens-cli"), holder)
        return holder.children


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("nqueens-cli", CommandLine)
    return {"parallel_read_safe": True, "version": "1"}
