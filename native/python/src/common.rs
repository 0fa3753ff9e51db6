//! The machinery every game's entry shares: the request dict read into the core's values, the search run
//! with the GIL released on this thread (its limit checks polling Ctrl-C), a panic caught as status `error`,
//! and the outcome written back as the result dict.
//!
//! **Request** (a dict; every key optional but `algorithm`):
//! `algorithm` (a registered name), `params` (its options: `weight`/`step` as a `(num, den)` pair or a
//! float read through its shortest decimal spelling, `width`, `ara`), `admissible` (bool, default true),
//! `max_cost` (int or None), `max_nodes` (int or None), `elapsed` (seconds since the case's first byte,
//! default 0), `remaining` (seconds left before the time limit, or None), `memory_budget` (bytes or None),
//! `heuristic` (a native heuristic name), `pruners` (native names of driver-level rules, in order),
//! `incumbent` (`(moves, cost)` or None), `on_improve` (a callable `(cost, lower_bound)` or None),
//! `mode` (`bounded_dfs`: `"exact"`, `"at_most"` or `"shortest"`; without `heuristic` it prunes on none),
//! `progress` (a callable `(expanded, bound)` given the live figures about every half second, or None).
//!
//! **Result** (a dict): `status`, `moves` (a list), `cost`, `lower_bound`, `message` (status `error`),
//! `engine` (`"native"`), and `stats`: `expanded`, `generated`, `evaluated`, `elapsed`, `iterations` (a list
//! of `(bound, expanded, generated, elapsed, evaluated, kind)`), `per_depth`, `per_depth_seconds`, `peak_stored`,
//! `rule_cuts` (a list of `(name, count)`) -- `searchkit.result.SearchStats`' fields -- and, for
//! measurements, `peak_bytes` (closed set and open list), `pruner_bytes` (the rules' tables) and
//! `states_stored`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::intern;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use searchkit_core::{Algorithm, AlgorithmSpec, Control, DfsMode, Outcome, Poll, Progress, Ratio, Status};

/// Polls (5 ms each) between two calls of a request's `progress` callable.
pub const PROGRESS_EVERY: u32 = 100;

/// A request read from its dict (module docs).
pub struct Request {
    pub spec: AlgorithmSpec,
    pub max_cost: Option<u32>,
    pub control: Control,
    pub heuristic: Option<String>,
    pub pruners: Vec<String>,
    pub incumbent: Option<(Vec<i64>, u64)>,
    pub on_improve: Option<Py<PyAny>>,
    /// Python's `progress(expanded, bound)`, called about every half second while the search runs.
    pub progress: Option<Py<PyAny>>,
}

fn get<'py, T: for<'a> FromPyObject<'a, 'py>>(d: &Bound<'py, PyDict>, key: &Bound<'py, PyString>) -> PyResult<Option<T>>
where
    for<'a> <T as FromPyObject<'a, 'py>>::Error: Into<PyErr>,
{
    match d.get_item(key)? {
        None => Ok(None),
        Some(v) if v.is_none() => Ok(None),
        Some(v) => v.extract::<T>().map(Some).map_err(|e| {
            let e: PyErr = e.into();
            PyValueError::new_err(format!("request {key}: {e}"))
        }),
    }
}

/// A weight as an exact ratio: a `(num, den)` pair, or a float read through its shortest decimal spelling
/// (Python's `Fraction(repr(w))`: `1.2` is 6/5, not the binary double nearest it).
/// The ratio must keep `num + den` within [`MAX_RATIO_SUM`] (searchkit's weight range, `WEIGHT_MAX` with
/// `WEIGHT_DECIMALS`, keeps it far below), else it is refused: the weighted keys `den * g + num * h` would
/// overflow 64 bits.
fn ratio(v: &Bound<'_, PyAny>) -> PyResult<Ratio> {
    let r = if v.is_instance_of::<PyTuple>() {
        let (n, d) = v.extract::<(u64, u64)>().map_err(|_| {
            PyValueError::new_err("a ratio is a pair of integers (num, den), each below 2^64")
        })?;
        if d == 0 {
            return Err(PyValueError::new_err("a ratio needs a positive denominator"));
        }
        Ratio::new(n, d)
    } else {
        let x: f64 = v.extract()?;
        decimal_ratio(x).ok_or_else(|| PyValueError::new_err(format!("weight {x} is not a plain decimal in range")))?
    };
    if r.num.saturating_add(r.den) > MAX_RATIO_SUM {
        return Err(PyValueError::new_err(format!(
            "ratio {}/{} out of the native engine's range (numerator + denominator at most 2^32: the weighted \
             keys are 64-bit)", r.num, r.den)));
    }
    Ok(r)
}

/// The largest `num + den` of a weight or step ratio: with g and h below 2^32, `den * g + num * h` < 2^64.
pub const MAX_RATIO_SUM: u64 = 1 << 32;

/// `x` (finite, >= 0, at most 15 decimals) as the ratio of its shortest decimal spelling.
pub fn decimal_ratio(x: f64) -> Option<Ratio> {
    if !x.is_finite() || x < 0.0 {
        return None;
    }
    let text = format!("{x}");
    let (int, frac) = text.split_once('.').unwrap_or((&text, ""));
    if frac.len() > 15 || int.len() > 6 {
        return None;
    }
    let den = 10u64.checked_pow(frac.len() as u32)?;
    let num = format!("{int}{frac}").parse::<u64>().ok()?;
    Some(Ratio::new(num, den))
}

/// Read the request dict (module docs).
pub fn parse_request(req: &Bound<'_, PyDict>) -> PyResult<Request> {
    let py = req.py();
    let name: String =
        get(req, intern!(py, "algorithm"))?.ok_or_else(|| PyValueError::new_err("request without algorithm"))?;
    let mut algorithm = Algorithm::named(&name)
        .ok_or_else(|| PyValueError::new_err(format!("algorithm {name:?} has no native twin")))?;
    if let Some(params) = get::<Bound<PyDict>>(req, intern!(py, "params"))? {
        let w = params.get_item(intern!(py, "weight"))?.map(|v| ratio(&v)).transpose()?;
        let step = params.get_item(intern!(py, "step"))?.map(|v| ratio(&v)).transpose()?;
        let width: Option<usize> = get(&params, intern!(py, "width"))?;
        let ara: Option<i64> = get(&params, intern!(py, "ara"))?;
        match &mut algorithm {
            Algorithm::Wastar { weight } => *weight = w.unwrap_or(*weight),
            Algorithm::Beam { width: wd } => *wd = width.unwrap_or(*wd),
            Algorithm::Anytime { weight, step: s, ara: a } => {
                *weight = w.unwrap_or(*weight);
                *s = step.unwrap_or(*s);
                *a = ara.map_or(*a, |v| v != 0);
            }
            _ => {}
        }
        if let Algorithm::Wastar { weight } | Algorithm::Anytime { weight, .. } = algorithm {
            if weight.num < weight.den {
                return Err(PyValueError::new_err(format!("weight must be at least 1, got {}/{}", weight.num,
                                                         weight.den)));
            }
        }
        if let Algorithm::Beam { width: 0 } = algorithm {
            return Err(PyValueError::new_err("width must be at least 1, got 0"));
        }
    }
    if let Algorithm::BoundedDfs { mode, heuristic } = &mut algorithm {
        let name: String = get(req, intern!(py, "mode"))?.unwrap_or_else(|| "exact".to_string());
        *mode = DfsMode::named(&name)
            .ok_or_else(|| PyValueError::new_err(format!("mode must be exact, at_most or shortest, got {name:?}")))?;
        *heuristic = get::<String>(req, intern!(py, "heuristic"))?.is_some();
        if get::<u32>(req, intern!(py, "max_cost"))?.is_none() {
            return Err(PyValueError::new_err("bounded_dfs needs a depth bound (max_cost), and the request carries none"));
        }
    }
    let elapsed: f64 = get(req, intern!(py, "elapsed"))?.unwrap_or(0.0);
    let remaining: Option<f64> = get(req, intern!(py, "remaining"))?;
    let mut control = Control::started(elapsed, remaining);
    control.max_nodes = get(req, intern!(py, "max_nodes"))?;
    control.memory_budget = get(req, intern!(py, "memory_budget"))?;
    let incumbent = match get::<Bound<PyTuple>>(req, intern!(py, "incumbent"))? {
        None => None,
        Some(t) => Some((t.get_item(0)?.extract::<Vec<i64>>()?, t.get_item(1)?.extract::<u64>()?)),
    };
    Ok(Request {
        spec: AlgorithmSpec { algorithm, admissible: get(req, intern!(py, "admissible"))?.unwrap_or(true) },
        max_cost: get(req, intern!(py, "max_cost"))?,
        control,
        heuristic: get(req, intern!(py, "heuristic"))?,
        pruners: get(req, intern!(py, "pruners"))?.unwrap_or_default(),
        incumbent,
        on_improve: get(req, intern!(py, "on_improve"))?,
        progress: get(req, intern!(py, "progress"))?,
    })
}

/// Run `search` on the caller's thread with the GIL released; the search's own limit checks call back at most
/// every 5 ms ([`Control::poll`]) to take the GIL briefly, poll Python's signal handlers (a `KeyboardInterrupt`
/// sets the cancel flag, read right after: the search stops with status `cancelled` and its partial
/// statistics, the exception consumed, as the Python drivers consume it) and hand `progress` its figures about
/// every half second (an exception it raises is printed as an unraisable one and the search goes on).
/// A panic inside the search is caught and returned as its message.
///
/// Every driver runs here, the depth-first ones too: IDA* and `bounded_dfs` keep their path on a stack of
/// their own (`searchkit_core`'s drivers), not on the thread's, so they need no large stack.  They used to
/// search on a thread started for each search with a 16 MiB stack while this one polled: on small cases the
/// start and the two hand-offs cost more than the search (1000 8-puzzles 4 moves from the goal took 3.9 s
/// against 0.46 s on the Python engine, on a loaded machine; `benchmarks/native_small.py`).  The limit
/// checks come every 2 ms of expansions at most, so Ctrl-C is seen as soon as with a polling thread.
pub fn run_inline<M, F>(py: Python<'_>, control: &mut Control, progress: Option<Py<PyAny>>, search: F)
                        -> Result<Outcome<M>, String>
where
    M: Send,
    F: FnOnce(&Control) -> Outcome<M> + Send,
{
    let (flag, live) = arm(control, &progress);
    let reported = std::sync::Mutex::new(std::time::Instant::now());
    control.poll = Some(Poll(Arc::new(move || {
        let report = progress.is_some() && {
            let mut last = reported.lock().unwrap_or_else(|e| e.into_inner());
            let due = last.elapsed() >= Duration::from_millis(5 * u64::from(PROGRESS_EVERY));
            if due {
                *last = std::time::Instant::now();
            }
            due
        };
        if Python::attach(|py| poll_python(py, report, &progress, &live)) {
            flag.store(true, Ordering::Relaxed);
        }
    })));
    let ctl = control.clone();
    py.detach(move || {
        IN_SEARCH.with(|s| s.set(true));
        let r = catch_unwind(AssertUnwindSafe(|| search(&ctl))).map_err(|payload| panic_message(&*payload));
        IN_SEARCH.with(|s| s.set(false));
        r
    })
}

thread_local! {
    /// Set while [`run_inline`] runs a search on this thread.
    static IN_SEARCH: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether this thread is running a search for [`run_inline`] (the panic hook stays quiet for it).
pub fn in_search() -> bool {
    IN_SEARCH.with(|s| s.get())
}

/// Give `control` a fresh cancel flag, and live figures when there is a `progress` callable to hand them to.
fn arm(control: &mut Control, progress: &Option<Py<PyAny>>) -> (Arc<AtomicBool>, Option<Arc<Progress>>) {
    let flag = Arc::new(AtomicBool::new(false));
    control.cancel = Some(flag.clone());
    let live = progress.as_ref().map(|_| Arc::new(Progress::default()));
    control.progress = live.clone();
    (flag, live)
}

/// One poll of Python while a search runs: when `report`, hand `progress` the live figures (an exception it
/// raises is printed as an unraisable one); then run Python's signal handlers.  Whether one raised (Ctrl-C's
/// `KeyboardInterrupt`, consumed here: the caller sets the cancel flag).
fn poll_python(py: Python<'_>, report: bool, progress: &Option<Py<PyAny>>, live: &Option<Arc<Progress>>) -> bool {
    if let (true, Some(cb), Some(live)) = (report, progress, live) {
        let (expanded, bound) = live.read();
        if let Err(e) = cb.call1(py, (expanded, bound)) {
            e.write_unraisable(py, None);
        }
    }
    py.check_signals().is_err()
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string());
    format!("native engine panic: {text}")
}

/// The result dict of `outcome`, its moves converted by `mv`.
pub fn outcome_dict<'py, M>(py: Python<'py>, o: &Outcome<M>, mv: impl Fn(&M) -> PyResult<Py<PyAny>>)
                            -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item(intern!(py, "engine"), "native")?;
    d.set_item(intern!(py, "status"), o.status.as_str())?;
    let moves = PyList::empty(py);
    for m in &o.moves {
        moves.append(mv(m)?)?;
    }
    d.set_item(intern!(py, "moves"), moves)?;
    d.set_item(intern!(py, "cost"), o.cost)?;
    d.set_item(intern!(py, "lower_bound"), o.lower_bound)?;
    d.set_item(intern!(py, "message"), o.message.as_deref())?;
    let s = &o.stats;
    let st = PyDict::new(py);
    st.set_item(intern!(py, "expanded"), s.expanded)?;
    st.set_item(intern!(py, "generated"), s.generated)?;
    st.set_item(intern!(py, "evaluated"), s.evaluated)?;
    st.set_item(intern!(py, "elapsed"), s.elapsed)?;
    let its = PyList::empty(py);
    for r in &s.iterations {
        its.append((r.bound, r.expanded, r.generated, r.elapsed, r.evaluated, r.kind))?;
    }
    st.set_item(intern!(py, "iterations"), its)?;
    st.set_item(intern!(py, "per_depth"), s.per_depth.clone())?;
    st.set_item(intern!(py, "per_depth_seconds"), s.per_depth_seconds.clone())?;
    st.set_item(intern!(py, "peak_stored"), s.peak_stored)?;
    st.set_item(intern!(py, "rule_cuts"), s.rule_cuts.clone())?;
    st.set_item(intern!(py, "peak_bytes"), s.peak_bytes)?;
    st.set_item(intern!(py, "pruner_bytes"), s.pruner_bytes)?;
    st.set_item(intern!(py, "states_stored"), s.states_stored)?;
    d.set_item(intern!(py, "stats"), st)?;
    Ok(d)
}

/// The result dict of a search that failed with `message` (status `error`).
pub fn error_dict<'py>(py: Python<'py>, message: &str, control: &Control) -> PyResult<Bound<'py, PyDict>> {
    let mut o: Outcome<i64> = Outcome {
        status: Status::Error,
        moves: Vec::new(),
        cost: None,
        lower_bound: None,
        stats: Default::default(),
        message: Some(message.to_string()),
    };
    o.stats.elapsed = control.elapsed();
    outcome_dict(py, &o, |m| Ok(m.into_pyobject(py)?.into_any().unbind()))
}

/// The improvement callback of a request: calls the Python `on_improve(cost, lower_bound)` with the GIL
/// taken briefly (an exception it raises is printed, as an unraisable one, and the search goes on).
pub fn improvement_callback(cb: Option<Py<PyAny>>) -> impl FnMut(u64, Option<u64>) + Send {
    move |cost, lb| {
        if let Some(cb) = &cb {
            Python::attach(|py| {
                if let Err(e) = cb.call1(py, (cost, lb)) {
                    e.write_unraisable(py, None);
                }
            });
        }
    }
}
