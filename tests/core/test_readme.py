"""CI runs README's test command verbatim."""

from conftest import ROOT


def readme_gaps(readme: str, ci: str) -> list[str]:
    """What keeps CI from running README's commands as written: README's first command is not the sample
    solve, or its test command is not a line of ``.ci/run``."""
    blocks = [b.split("```", 1)[0].strip() for b in readme.split("```sh\n")[1:3]]
    gaps = [] if blocks and blocks[0].endswith("searchkit solve flood examples/flood/hdu4127-sample.txt") else \
        ["README's first command is not the sample solve"]
    if len(blocks) < 2 or blocks[1] not in ci.splitlines():
        gaps.append("README's test command is not a line of .ci/run")
    return gaps


def test_ci_runs_the_readme_test_command():
    assert readme_gaps(ROOT.joinpath("README.md").read_text(), ROOT.joinpath(".ci", "run").read_text()) == []


def test_the_check_fails_on_a_planted_drift():
    """The guard above, shown failing: README's test command changed (``-n 4``) but not CI's."""
    readme, ci = ROOT.joinpath("README.md").read_text(), ROOT.joinpath(".ci", "run").read_text()
    assert readme_gaps(readme.replace("pytest -n auto\n", "pytest -n 4\n", 1), ci) == [
        "README's test command is not a line of .ci/run"]
