//! The crate against the Python plugin: tests/data/golden.json, written by tests/make_golden.py (see there).

use std::collections::BTreeMap;

use searchkit_core::puzzle::{Puzzle, Estimator, Pruner, Successor};
use searchkit_flood::greedy::{Greedy, TwoBest};
use searchkit_flood::heuristics::{Colours, Eccentricity, Layered, Puchert, PuchertMemo};
use searchkit_flood::{with_flood, AreaGraph, Bits, Dominance, Flood};
use serde_json::Value;

fn golden() -> Value {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/golden.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The area set of a hexadecimal string (bit a = area a).
fn parse<B: Bits>(words: usize, hex: &str) -> B {
    let mut b = B::zeros(words);
    for (k, ch) in hex.bytes().rev().enumerate() {
        let v = (ch as char).to_digit(16).unwrap() as u64;
        b.words_mut()[k / 16] |= v << (4 * (k % 16));
    }
    b
}

fn hex<B: Bits>(b: &B) -> String {
    let mut s = String::new();
    for &w in b.words().iter().rev() {
        s.push_str(&format!("{w:016x}"));
    }
    let t = s.trim_start_matches('0');
    if t.is_empty() { "0".into() } else { t.into() }
}

fn graph(case: &Value) -> AreaGraph {
    let cells: Vec<u32> = case["cells"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as u32).collect();
    let w = case["width"].as_u64().unwrap() as usize;
    let h = case["height"].as_u64().unwrap() as usize;
    AreaGraph::new(&cells, w, h, case["pivot"].as_u64().unwrap() as usize).unwrap()
}

fn disabled(case: &Value, k: usize) -> Vec<&str> {
    case["disabled"][k].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect()
}

fn check_case<B: Bits>(f: Flood<B>, case: &Value, which: usize) -> usize {
    let words = f.words;
    let mut checked = 0;
    if which == 0 {
        // The area graph.
        let colour: Vec<u64> = case["colour"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
        assert_eq!(f.graph.colour.iter().map(|&c| c as u64).collect::<Vec<_>>(), colour);
        for (a, row) in case["adjacency"].as_array().unwrap().iter().enumerate() {
            let row: Vec<u32> = row.as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as u32).collect();
            assert_eq!(f.graph.neighbours(a), &row[..], "neighbours of area {a}");
        }
        // Heuristics on every state.
        let mut colours = Colours;
        let mut ecc = Eccentricity::default();
        let mut layered = Layered::default();
        let mut puchert = Puchert;
        let mut memo = PuchertMemo::new(&f);
        let mut greedy = Greedy;
        let mut two = TwoBest::new(&f);
        for row in case["states"].as_array().unwrap() {
            let s: B = parse(words, row["state"].as_str().unwrap());
            let h = &row["h"];
            let got = [
                ("colours", colours.estimate(&f, &s)),
                ("eccentricity", ecc.estimate(&f, &s)),
                ("layered", layered.estimate(&f, &s)),
                ("puchert", puchert.estimate(&f, &s)),
                ("puchert", memo.estimate(&f, &s)),
                ("greedy", greedy.estimate(&f, &s)),
                ("two-best", two.estimate(&f, &s)),
            ];
            for (name, v) in got {
                assert_eq!(v as u64, h[name].as_u64().unwrap(), "{name} of state {}", row["state"]);
                checked += 1;
            }
        }
        // Dominance: the same answers to the same questions.
        let mut dom = Dominance::new();
        for q in case["dominance"].as_array().unwrap() {
            let s: B = parse(words, q[0].as_str().unwrap());
            let g = q[1].as_u64().unwrap() as u32;
            assert_eq!(Pruner::<Flood<B>>::cut(&mut dom, &f, &s, g, None), q[2].as_bool().unwrap(),
                       "dominance of {} at g={g}", q[0]);
            checked += 1;
        }
    }
    // Successors and cuts under disabled set `which`.
    let names = f.rule_names().to_vec();
    let mut out: Vec<Successor<u16, B>> = Vec::new();
    for row in case["states"].as_array().unwrap() {
        let s: B = parse(words, row["state"].as_str().unwrap());
        let want = &row["succ"][which];
        out.clear();
        let mut cuts = vec![0u64; names.len()];
        f.successors(&s, &mut out, &mut cuts);
        let got: Vec<(u64, String)> = out.iter().map(|x| (x.mv as u64, hex(&x.state))).collect();
        let exp: Vec<(u64, String)> = want["children"].as_array().unwrap().iter()
            .map(|p| (p[0].as_u64().unwrap(), p[1].as_str().unwrap().to_string())).collect();
        assert_eq!(got, exp, "successors of {} with {:?} disabled", row["state"], disabled(case, which));
        let got_cuts: BTreeMap<String, u64> = names.iter().zip(&cuts).map(|(n, &c)| (n.to_string(), c)).collect();
        let exp_cuts: BTreeMap<String, u64> = want["cuts"].as_object().unwrap().iter()
            .map(|(k, v)| (k.clone(), v.as_u64().unwrap())).collect();
        assert_eq!(got_cuts, exp_cuts, "cuts of {} with {:?} disabled", row["state"], disabled(case, which));
        assert_eq!(f.is_goal(&s), s == f.all);
        checked += 1;
    }
    checked
}

#[test]
fn golden_values_match_python() {
    let data = golden();
    let mut checked = 0;
    let mut widths = std::collections::BTreeSet::new();
    for case in data["cases"].as_array().unwrap() {
        for which in 0..case["disabled"].as_array().unwrap().len() {
            let g = graph(case);
            widths.insert(g.words());
            let d = disabled(case, which);
            checked += with_flood!(g, &d, |f| check_case(f, case, which)).unwrap();
        }
    }
    assert!(checked > 5000, "only {checked} checks");
    assert!(widths.contains(&1) && widths.contains(&3) && widths.iter().any(|&w| w > 9), "widths {widths:?}");
}
