"""The command line, run as a user runs it: in a subprocess, by the installed script."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

import nqueens
from nqueens._oeis import A000170

SCRIPT = shutil.which("nqueens", path=os.path.dirname(sys.executable))


def run(*args, check_script=False):
    command = [SCRIPT] if check_script else [sys.executable, "-m", "nqueens"]
    return subprocess.run([*command, *args], capture_output=True, text=True, timeout=120)


def test_console_script_is_installed():
    assert SCRIPT is not None
    result = run("count", "8", check_script=True)
    assert (result.returncode, result.stdout, result.stderr) == (0, "92\n", "")


@pytest.mark.parametrize(
    ("args", "out"),
    [
        (["count", "8"], "92"),
        (["count", "0"], "1"),
        (["count", "10", "--unique"], "92"),
        (["count", "11", "--workers", "2"], str(A000170[11])),
        (["count", "9", "--workers", "-1", "--unique"], "46"),
    ],
)
def test_count_prints_the_number_alone(args, out):
    result = run(*args)
    assert (result.returncode, result.stdout, result.stderr) == (0, out + "\n", "")


def test_count_loads_nothing_of_the_benchmark_stack():
    # the command line quotes bench's defaults from a leaf module: counting imports no
    # timing; and nothing that only executors, estimates or other formats need (a count
    # of n = 16 takes 0.07 s, the start of the process counts), nor what the other
    # commands list, estimate or construct with; nor shutil, which
    # argparse's formatters import for the terminal's width (bz2, lzma, zlib: 3 ms)
    code = (
        "import sys; from nqueens.cli import main\n"
        "try:\n    main(['count', '8'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('nqueens.benchmark') "
        "or m in ('statistics', 'ctypes', 'concurrent.futures', 'random', 'logging', "
        "'json', 'shutil', 'nqueens.reference', 'nqueens._engine.estimate', "
        "'nqueens._placements.solutions', 'nqueens._placements.construct', "
        "'nqueens._placements.random_solution', 'nqueens._placements.symmetry')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "92\n[]\n"


@pytest.mark.parametrize("columns", ["50", "123", "0", "wide", None])
def test_help_is_as_wide_as_argparse_makes_it(columns, monkeypatch):
    # the formatter finds the width without shutil, as shutil would: $COLUMNS, else
    # the terminal of standard output, else 80
    import argparse

    from nqueens.cli._parser import _Formatter

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    expected = argparse.HelpFormatter("nqueens")._width
    assert _Formatter("nqueens")._width == expected
    assert _Formatter("nqueens", width=40)._width == 40


@pytest.mark.parametrize(("command", "places"), [("solve", True), ("construct", False)])
def test_help_names_only_the_options_a_command_takes(command, places):
    done = subprocess.run(
        [sys.executable, "-m", "nqueens", command, "--help"], capture_output=True, text=True
    )
    assert done.returncode == 0 and ("--place" in done.stdout) == places


def test_every_subcommand_shows_examples_that_parse(tmp_path, monkeypatch):
    from nqueens.cli._parser import EXAMPLES, build_parser

    monkeypatch.chdir(tmp_path)  # (a check of --out makes its folder)
    parser = build_parser()
    commands = {a.dest: a for a in parser._actions}["command"].choices
    assert set(EXAMPLES) == set(commands)
    for name, examples in EXAMPLES.items():
        shown = commands[name].format_help()
        for example in examples:
            assert f"  {example}\n" in shown
            for part in example.split("|"):  # a pipeline: each nqueens in it
                words = part.split()
                if words[0] == "nqueens":
                    args = parser.parse_args(words[1:])
                    args.argv = words[1:]
                    # (verify - would read standard input; --compare reads an earlier run)
                    if words[-1] != "-" and "--compare" not in words:
                        assert args.check(args) is not None, example  # checked as main would


@pytest.mark.parametrize("name", ["count", "estimate", "solve", "construct", "random", "verify",
                                  "solvers", "bench"])  # fmt: skip
def test_a_command_lines_parser_alone_is_the_whole_parsers_part(name):
    # main() builds only the subcommand a command line names first: it must read,
    # show and refuse everything as the whole parser does
    from nqueens.cli._parser import COMMANDS, EXAMPLES, build_parser

    whole, alone = build_parser(), build_parser(name)
    assert name in COMMANDS

    def sub(parser):
        return {a.dest: a for a in parser._actions}["command"].choices

    assert list(sub(alone)) == [name] and list(sub(whole)) == list(COMMANDS)
    assert sub(alone)[name].format_help() == sub(whole)[name].format_help()
    assert sub(alone)[name].format_usage() == sub(whole)[name].format_usage()
    for example in EXAMPLES[name]:
        for part in example.split("|"):  # its own command (another may come first)
            words = part.split()[1:]
            if words[0] == name:
                assert vars(alone.parse_args(words)) == vars(whole.parse_args(words)), example
    from nqueens.cli._errors import UsageError

    refused = []
    for parser in (whole, alone):
        with pytest.raises(UsageError) as caught:
            parser.parse_args([name, "--no-such-option"])
        refused.append(str(caught.value))
    assert refused[0] == refused[1] and refused[0].startswith("nqueens")


def test_a_mistyped_command_is_refused_with_the_list_of_commands():
    done = subprocess.run(
        [sys.executable, "-m", "nqueens", "cuont", "8"], capture_output=True, text=True
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "cuont" in done.stderr and "count" in done.stderr


def test_bare_nqueens_prints_the_help():
    done = subprocess.run([sys.executable, "-m", "nqueens"], capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr == ""
    assert done.stdout.startswith("usage: nqueens") and "count" in done.stdout


def test_solve_text_draws_boards():
    result = run("solve", "4")
    assert result.returncode == 0
    assert result.stdout == ".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n"


def test_solve_json_and_csv():
    expected = list(nqueens.solutions(6))
    result = run("solve", "6", "--format", "json")  # one document: python -m json.tool reads it
    assert [tuple(p) for p in json.loads(result.stdout)] == expected
    result = run("solve", "6", "--format", "jsonl")
    assert [tuple(json.loads(line)) for line in result.stdout.splitlines()] == expected
    assert json.loads(run("solve", "3", "--format", "json").stdout) == []
    assert json.loads(run("solve", "8", "--format", "json", "--limit", "1").stdout) == [
        list(next(nqueens.solutions(8)))
    ]
    result = run("solve", "6", "--format", "csv")
    lines = result.stdout.splitlines()
    assert [tuple(map(int, line.split(","))) for line in lines] == expected


def test_solve_unique_and_limit():
    result = run("solve", "8", "--unique", "--format", "csv", "--limit", "3")
    expected = [",".join(map(str, p)) for p in nqueens.solutions(8, unique=True, limit=3)]
    assert result.stdout.splitlines() == expected


def test_version_and_help():
    result = run("--version")
    assert result.stdout.strip() == f"nqueens {nqueens.__version__}"
    for args in (["--help"], ["count", "--help"], ["solve", "--help"]):
        result = run(*args)
        assert result.returncode == 0 and "usage:" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["count"], "required"),
        (["count", "x"], "invalid int value"),
        (["count", "-1"], "n must be between 0 and"),
        (["count", "65"], "n must be between 0 and 64"),
        (["count", "8", "--workers", "0"], "workers must be 1 to 1024 threads, -1"),
        (["count", "8", "--workers", "two"], "invalid int value"),
        (["solve", "8", "--limit", "-1"], "limit must be None or an int >= 0"),
        (["solve", "8", "--format", "xml"], "invalid choice"),
        (["frobnicate"], "invalid choice"),
        (["count", "8", "--bogus"], "unrecognized arguments"),
    ],
)
def test_usage_errors_exit_2_with_one_line(args, message):
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_closed_pipe_ends_quietly():
    command = f"{sys.executable} -m nqueens solve 12 | head -n 3"
    result = subprocess.run(
        ["bash", "-o", "pipefail", "-c", command], capture_output=True, text=True, timeout=120
    )
    assert result.stdout.splitlines() == ["Q...........", "..Q.........", "....Q......."]
    assert result.stderr == ""


@pytest.mark.parametrize("args", [["count", "40", "--anyway"], ["solve", "40", "--unique"]])
def test_ctrl_c_exits_130_with_one_line(args):
    process = subprocess.Popen(
        [sys.executable, "-m", "nqueens", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        time.sleep(1.5)  # long enough to be inside the search
        assert process.poll() is None
        process.send_signal(signal.SIGINT)
        _out, err = process.communicate(timeout=30)
    finally:
        process.kill()
        process.communicate()
    assert process.returncode == 130
    # a count this large, started --anyway, says first that it will not finish
    assert err.splitlines()[-1] == "nqueens: interrupted" and len(err.splitlines()) <= 2


def test_shell_completion_scripts_cover_every_command(tmp_path):
    pytest.importorskip("shtab", reason="the [completion] extra is missing")
    for shell in ("bash", "zsh", "tcsh"):
        result = subprocess.run(
            [sys.executable, "-m", "nqueens", "--print-completion", shell],
            capture_output=True,
            text=True,
        )
        assert result.returncode == 0 and result.stderr == "", result.stderr
        for word in ("count", "estimate", "solve", "construct", "random", "verify", "bench"):
            assert word in result.stdout, (shell, word)
        if shell != "tcsh":  # (shtab's tcsh script completes the commands only)
            assert "--journal" in result.stdout and "--units" in result.stdout
    script = tmp_path / "nqueens.bash"
    script.write_text(
        subprocess.run(
            [sys.executable, "-m", "nqueens", "--print-completion", "bash"],
            capture_output=True,
            text=True,
        ).stdout
    )
    if shutil.which("bash"):
        assert subprocess.run(["bash", "-n", str(script)]).returncode == 0  # it parses


def test_shell_completion_without_the_extra_says_which(monkeypatch, capsys):
    from nqueens import cli

    monkeypatch.setitem(sys.modules, "shtab", None)
    assert cli.main(["--print-completion", "bash"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        "nqueens: --print-completion needs the [completion] extra: "
        "pip install 'nqueens-count[completion]'"
    ]


@pytest.mark.parametrize("enabled", [True, False])
def test_the_import_leaves_the_collector_as_it_found_it(enabled):
    # the import runs with the collector off (nothing it makes is garbage), then
    # restores it: a program that turned it off keeps it off; and it freezes nothing
    # (Python 3.12 starts with some objects frozen: counted before the import)
    script = (
        "import gc\n"
        f"{'gc.enable()' if enabled else 'gc.disable()'}\n"
        "frozen = gc.get_freeze_count()\n"
        "import nqueens, nqueens.cli\n"
        "print(gc.isenabled(), gc.get_freeze_count() - frozen)\n"
    )
    found = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert found.stdout.split() == [str(enabled), "0"], found.stderr


def test_only_the_command_of_the_process_freezes_what_its_import_made():
    # nqueens.cli.main() of the process's own command line moves the objects that exist
    # to the collector's permanent generation (it ends after the command); a caller's
    # main([...]) leaves the caller's objects alone
    script = (
        "import gc, sys\n"
        "from nqueens.cli import main\n"
        "frozen = gc.get_freeze_count()\n"
        "assert main(['count', '5']) == 0 and gc.get_freeze_count() == frozen\n"
        "sys.argv = ['nqueens', 'count', '5']\n"
        "import os\n"
        "ended = []\n"
        "os._exit = ended.append  # (the process's own command ends it: seen here instead)\n"
        "assert main() == 0 and ended == [0]\n"
        "print(gc.get_freeze_count() - frozen > 1000, gc.isenabled())\n"
    )
    found = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert found.stdout.split()[-2:] == ["True", "True"], found.stderr


def test_a_sigterm_once_the_answer_is_out_finds_the_process_ended_or_says_so():
    # the process ends as soon as its command has (no interpreter teardown, during which
    # a signal would end it without a word)
    process = subprocess.Popen(
        [sys.executable, "-m", "nqueens", "count", "12"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = process.stdout.readline()
    process.send_signal(signal.SIGTERM)
    rest, err = process.communicate(timeout=60)
    assert (line, rest) == ("14200\n", "")
    assert (process.returncode, err) in ((0, ""), (143, "nqueens: terminated\n"))
