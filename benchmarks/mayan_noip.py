"""Benchmark: searchkit vs the seed C++ on the shared Mayan cases (NOIP 2011).

Builds ../shared/reference/mayan_noip2011_seed.cpp with ``g++ -O2`` and runs
it and ``searchkit solve mayan`` on every case of ../shared/cases/mayan/
no-solution/ and solvable/, one whole process per case (start-up counts for
each), in the same run; prints per-set totals and the ratio.  The C++ seed is
fast but wrong on solvable-08 and -12 (see ../shared/README.md); answers are
checked against the .out files.

Usage: python benchmarks/mayan_noip.py [--runs N] [--cpp-runs N]
"""

from __future__ import annotations

import argparse
import sys

from _harness import SHARED, build_reference, searchkit_argv, timed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="searchkit runs per case (median)")
    ap.add_argument("--cpp-runs", type=int, default=1, help="C++ runs per case (median; it is slow on no-solution)")
    args = ap.parse_args()
    ref = build_reference(SHARED / "reference/mayan_noip2011_seed.cpp")
    sk = searchkit_argv() + ["solve", "mayan"]
    ok = True
    for name in ("no-solution", "solvable"):
        cases = sorted((SHARED / "cases/mayan" / name).glob("*.in"))
        c_total = py_total = 0.0
        wrong_c, wrong_py, py_peak = [], [], 0
        for case in cases:
            expected = case.with_suffix(".out").read_text().split()
            c_time, _, c_out = timed([str(ref)], stdin_path=case, runs=args.cpp_runs)
            py_time, peak, py_out = timed(sk + [str(case)], runs=args.runs)
            c_total += c_time
            py_total += py_time
            py_peak = max(py_peak, peak)
            if c_out.split() != expected:
                wrong_c.append(case.stem)
            if py_out.split() != expected:
                wrong_py.append(case.stem)
        ok = ok and not wrong_py
        print(f"{name}: {len(cases)} cases, whole process per case")
        wrong = f", WRONG on {', '.join(wrong_c)}" if wrong_c else ""
        print(f"  C++ seed (g++ -O2): {c_total:.3f} CPU s total{wrong}")
        print(f"  searchkit:          {py_total:.3f} CPU s total, peak {py_peak / 1024:.1f} MiB"
              + (f", WRONG on {', '.join(wrong_py)}" if wrong_py else ", all answers right"))
        target = "  (target <= 0.1)" if name == "no-solution" else ""
        print(f"  ratio searchkit / C++: {py_total / c_total:.3f}{target}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
