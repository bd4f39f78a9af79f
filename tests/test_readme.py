"""The README's svmcore example prints what the README says it prints."""

import contextlib
import io
import re
from pathlib import Path

# Tolerance table: none — the printed output must match the README character for character.

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_example_output_is_current():
    text = README.read_text()
    section = text.split("## svmcore in ten lines", 1)[1]
    code, output = re.findall(r"```(?:python)?\n(.*?)```", section, flags=re.S)[:2]
    assert len(code.strip().splitlines()) <= 12
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        exec(compile(code, "README.md", "exec"), {})
    assert buffer.getvalue().strip() == output.strip()


def test_readme_has_exactly_two_commands():
    text = README.read_text()
    block = text.split("## The two commands", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    commands = [line for line in block.splitlines() if line.strip()]
    assert len(commands) == 2
    assert commands[0].startswith("bash scripts/app.sh")
    assert commands[1].startswith("bash scripts/test.sh")
    assert "bash scripts/test.sh" in (README.parent / ".ci" / "run").read_text()
