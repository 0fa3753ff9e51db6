"""CI runs README's test command verbatim."""

from conftest import ROOT


def test_ci_runs_the_readme_test_command():
    readme = ROOT.joinpath("README.md").read_text()
    blocks = [b.split("```", 1)[0].strip() for b in readme.split("```sh\n")[1:3]]
    assert blocks[0].endswith("searchkit solve flood examples/flood/hdu4127-sample.txt")
    assert blocks[1] in ROOT.joinpath(".ci", "run").read_text().splitlines()
