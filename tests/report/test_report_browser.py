"""``searchkit report a.jsonl b.jsonl -o r.html`` in a real headless Chromium: no console error, no request.

Skips only when the system's chromium (or its chromedriver) is not installed; CI installs both (``.ci/run``).
"""

from __future__ import annotations

import json
import subprocess
import sys

from test_report import _experiment


def test_report_page_opens_with_its_tables_and_plots_and_no_error_or_request(browser, tmp_path):
    a, b = _experiment(tmp_path)
    page = tmp_path / "r.html"
    proc = subprocess.run([sys.executable, "-m", "searchkit", "report", a, b, "-o", str(page)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    browser.get_log("browser")
    browser.get_log("performance")
    browser.get(page.as_uri())
    seen = browser.execute_script("""
        function cells(id) {
          var t = document.getElementById(id);
          return t ? Array.prototype.map.call(t.querySelectorAll('tbody tr'),
                       function (tr) { return Array.prototype.map.call(tr.cells, function (c) {
                         return c.textContent; }); }) : null;
        }
        return {coverage: cells('table-coverage'), quality: cells('table-quality'),
                errors: cells('table-errors'), wide: cells('table-per_instance'),
                plots: Array.prototype.map.call(document.querySelectorAll('figure.plot'), function (f) {
                  var svg = f.querySelector('svg');
                  return [f.dataset.plot, svg ? svg.getBoundingClientRect().width : 0]; })};
    """)
    assert [row[:4] for row in seen["coverage"]] == [["a", "3", "3", "0"], ["b", "4", "1", "1"]]
    assert seen["quality"][1][6] == "1.067" and seen["quality"][1][8] == "2"
    assert seen["errors"][0][-1] == "its worker process died (killed by SIGKILL)"
    assert len(seen["wide"]) == 4
    names = [name for name, _ in seen["plots"]]
    assert names == ["a against b: expanded", "a against b: seconds", "cactus plot", "time distribution",
                     "nodes expanded per instance"]
    assert all(width > 100 for _, width in seen["plots"])
    errors = [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    assert errors == []
    requests = []
    for entry in browser.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            requests.append(message["params"]["request"]["url"])
    assert page.as_uri() in requests
    # chrome:// is the browser's own UI (a fresh profile may load its new-tab page at any time), never the network
    assert [u for u in requests if not u.startswith(("file://", "chrome://", "chrome-untrusted://", "data:",
                                                     "about:"))] == []
    assert [u for u in requests if u.startswith("file://")] == [page.as_uri()]
