//! `searchkit-pyo3`: the kit a game uses to give searchkit a native puzzle.  It holds what every game's
//! Python module shares, so that a game's crate (in its plugin, as every game's is, a third party's too)
//! writes only its puzzle and one `solve`:
//!
//! * [`native_module!`]: turns a type implementing [`NativeGame`] (its game name, its components with their
//!   typed parameters, and its `solve`) into a PyO3 module exposing `solve(problem, request) -> result`,
//!   `manifest()` (the protocol it speaks, its game, version, build profile and components) and `__version__`;
//! * the request dict read into the core's values ([`parse_request`]; every heuristic option typed and
//!   range-checked against the manifest, never re-spelled as a string);
//! * [`run_inline`]: the search run with the GIL released on the calling thread, its limit checks polling
//!   Ctrl-C and handing `progress` its live figures; a panic caught as status `error`;
//! * [`run_build`]: a table build run the same way, in process, its errors Python's exceptions;
//! * [`result_dict`] / [`error_dict`]: the result dict.
//!
//! The keys of the request, result and manifest dicts are `searchkit_core::protocol`'s constants, generated
//! from `searchkit/protocol.py` (the one source; it says what each key holds).
//!
//! Pin the kit and the core with `=0.x` in a game's `Cargo.toml`: a module reports the protocol it speaks
//! ([`searchkit_core::protocol::PROTOCOL`]) and searchkit does not use a module speaking another one.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use pyo3::exceptions::{PyKeyboardInterrupt, PyMemoryError, PyRuntimeError, PyTimeoutError, PyValueError};
use pyo3::prelude::*;
use pyo3::intern;
use pyo3::types::{PyBool, PyDict, PyList, PyString, PyTuple};
use searchkit_core::manifest::{Component, Kind, Param, Value};
use searchkit_core::protocol::{self, request, result, stats};
use searchkit_core::{Algorithm, AlgorithmSpec, Limiter, DfsMode, SearchResult, Poll, Progress, Ratio, Status};

pub use searchkit_core;
pub use pyo3;

/// Polls (5 ms each) between two calls of a request's `progress` callable.
pub const PROGRESS_EVERY: u32 = 100;

/// A request read from its dict (`searchkit/protocol.py`, `REQUEST_KEYS`): the twin of Python's `SearchRequest`
/// (everything a search needs besides the puzzle), with the algorithm (`spec`) and the game's rules switched off
/// (`disabled`), which Python hands its drivers apart, and the heuristic and pruners by name (the game builds them).
pub struct SearchRequest {
    pub spec: AlgorithmSpec,
    pub max_cost: Option<u32>,
    pub limits: Limiter,
    /// The heuristic's name, checked against the manifest (`None`: the game's default).
    pub heuristic: Option<String>,
    /// The heuristic's options, typed and range-checked against its manifest entry, defaults filled in.
    pub heuristic_params: Params,
    /// Driver-level rules, in order, each one of the manifest's pruners.
    pub pruners: Vec<String>,
    /// Successor rules switched off, each one of the manifest's rules.
    pub disabled: Vec<String>,
    pub incumbent: Option<(Vec<i64>, u64)>,
    pub on_improve: Option<Py<PyAny>>,
    /// Python's `progress(expanded, bound)`, called about every half second while the search runs.
    pub progress: Option<Py<PyAny>>,
}

/// A typed option value, as read from a request.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamValue {
    Int(i64),
    Float(f64),
    Str(String),
}

/// A component's options: every parameter of its manifest entry, typed, with the request's value or the
/// default.  The getters panic on a name the manifest does not declare with that type (a defect of the game's
/// crate, reported as status `error`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Params(pub Vec<(&'static str, ParamValue)>);

impl Params {
    fn value(&self, name: &str) -> &ParamValue {
        self.0.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
            .unwrap_or_else(|| panic!("no parameter {name:?} in the manifest"))
    }
    /// The `int` parameter `name`.
    pub fn int(&self, name: &str) -> i64 {
        match self.value(name) {
            ParamValue::Int(v) => *v,
            other => panic!("parameter {name:?} is {other:?}, not an int"),
        }
    }
    /// The `float` parameter `name`.
    pub fn float(&self, name: &str) -> f64 {
        match self.value(name) {
            ParamValue::Float(v) => *v,
            other => panic!("parameter {name:?} is {other:?}, not a float"),
        }
    }
    /// The `str` parameter `name`.
    pub fn str(&self, name: &str) -> &str {
        match self.value(name) {
            ParamValue::Str(v) => v,
            other => panic!("parameter {name:?} is {other:?}, not a str"),
        }
    }
}

/// The options `given` (a dict, or `None`) of the component `c`, typed and checked against its manifest entry.
///
/// Raises ValueError for a name the entry lacks, a value of another type (an `int` is taken for a `float`),
/// or one outside the entry's range.
pub fn read_params(c: &Component, given: Option<&Bound<'_, PyDict>>) -> PyResult<Params> {
    let mut out = Vec::with_capacity(c.params.len());
    if let Some(given) = given {
        for (k, _) in given.iter() {
            let k: String = k.extract()?;
            if !c.params.iter().any(|p| p.name == k) {
                return Err(PyValueError::new_err(format!("{} {:?} has no option {k:?}", c.kind.as_str(), c.name)));
            }
        }
    }
    for p in &c.params {
        let v = given.map(|g| g.get_item(p.name)).transpose()?.flatten();
        let value = match (&p.default, v) {
            (Value::Int(d), None) => ParamValue::Int(*d),
            (Value::Float(d), None) => ParamValue::Float(*d),
            (Value::Str(d), None) => ParamValue::Str(d.to_string()),
            (Value::Int(_), Some(v)) => ParamValue::Int(v.extract::<i64>().map_err(|_| bad_type(c, p, "an int"))?),
            (Value::Float(_), Some(v)) => {
                ParamValue::Float(v.extract::<f64>().map_err(|_| bad_type(c, p, "a number"))?)
            }
            (Value::Str(_), Some(v)) => ParamValue::Str(v.extract::<String>().map_err(|_| bad_type(c, p, "a str"))?),
        };
        let x = match value {
            ParamValue::Int(v) => Some(v as f64),
            ParamValue::Float(v) => Some(v),
            ParamValue::Str(_) => None,
        };
        if let Some(x) = x {
            if !x.is_finite() || p.min.is_some_and(|m| x < m) || p.max.is_some_and(|m| x > m) {
                return Err(PyValueError::new_err(format!(
                    "{} {:?}: option {} = {x} is outside {}..{}", c.kind.as_str(), c.name, p.name,
                    p.min.map_or("".into(), |m| m.to_string()), p.max.map_or("".into(), |m| m.to_string()))));
            }
        }
        out.push((p.name, value));
    }
    Ok(Params(out))
}

fn bad_type(c: &Component, p: &Param, what: &str) -> PyErr {
    PyValueError::new_err(format!("{} {:?}: option {} must be {what}", c.kind.as_str(), c.name, p.name))
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

/// The algorithm `name` of a request with its options: each one the request's `params` give, else the default
/// its manifest entry declares ([`searchkit_core::manifest::algorithms`], Python's defaults: the one place they
/// are written on the Rust side; searchkit itself always sends every option). ValueError for a name without a
/// native twin, an option the algorithm does not declare, a weight below 1, a width of 0, and a `bounded_dfs`
/// without `max_cost` or `mode` (Python's driver has no default depth, and a mode left out could be read two
/// ways: the request's reader and Python's `SearchRequest` once defaulted to different ones).
fn read_algorithm(req: &Bound<'_, PyDict>, name: &str, components: &[Component]) -> PyResult<Algorithm> {
    let py = req.py();
    let entry = components.iter().find(|c| c.kind == Kind::Algorithm && c.name == name)
        .ok_or_else(|| PyValueError::new_err(format!("algorithm {name:?} has no native twin")))?;
    let given = get::<Bound<PyDict>>(req, intern!(py, request::PARAMS))?;
    if let Some(given) = &given {
        for (k, _) in given.iter() {
            let k: String = k.extract()?;
            if !entry.params.iter().any(|p| p.name == k) {
                return Err(PyValueError::new_err(format!("algorithm {name:?} has no option {k:?}")));
            }
        }
    }
    let option = |key: &str| -> PyResult<Bound<'_, PyAny>> {
        if let Some(v) = given.as_ref().map(|g| g.get_item(key)).transpose()?.flatten() {
            return Ok(v);
        }
        let spec = entry.params.iter().find(|p| p.name == key)
            .unwrap_or_else(|| panic!("manifest::algorithms declares no option {key:?} of {name:?}"));
        value_object(py, &spec.default)
    };
    let bad = |key: &str| PyValueError::new_err(format!("algorithm {name:?}: option {key} must be an integer >= 0"));
    let algorithm = match name {
        "astar" => Algorithm::Astar,
        "peastar" => Algorithm::Peastar,
        "ida_star" => Algorithm::IdaStar,
        "ida_star_tt" => Algorithm::IdaStarTt,
        "wastar" => Algorithm::Wastar { weight: ratio(&option("weight")?)? },
        "gbfs" => Algorithm::Gbfs,
        "bfs" => Algorithm::Bfs,
        "beam" => Algorithm::Beam { width: option("width")?.extract().map_err(|_| bad("width"))? },
        "anytime" => Algorithm::Anytime {
            weight: ratio(&option("weight")?)?,
            step: ratio(&option("step")?)?,
            ara: option("ara")?.extract::<u64>().map_err(|_| bad("ara"))? != 0,
        },
        "bounded_dfs" => {
            if get::<u32>(req, intern!(py, request::MAX_COST))?.is_none() {
                return Err(PyValueError::new_err(
                    "bounded_dfs needs a depth bound (max_cost), and the request carries none"));
            }
            let mode: String = get(req, intern!(py, request::MODE))?.ok_or_else(|| PyValueError::new_err(
                "bounded_dfs needs a mode (exact, at_most or shortest), and the request carries none"))?;
            Algorithm::BoundedDfs {
                mode: DfsMode::named(&mode).ok_or_else(|| PyValueError::new_err(format!(
                    "mode must be exact, at_most or shortest, got {mode:?}")))?,
                heuristic: get::<String>(req, intern!(py, request::HEURISTIC))?.is_some(),
            }
        }
        _ => panic!("manifest::algorithms lists {name:?}, a driver this reader does not know"),
    };
    if let Algorithm::Wastar { weight } | Algorithm::Anytime { weight, .. } = algorithm {
        if weight.num < weight.den {
            return Err(PyValueError::new_err(format!("weight must be at least 1, got {}/{}", weight.num,
                                                     weight.den)));
        }
    }
    if let Algorithm::Beam { width: 0 } = algorithm {
        return Err(PyValueError::new_err("width must be at least 1, got 0"));
    }
    Ok(algorithm)
}

/// The request's `threads`: the threads one search may use (absent or None: 1). ValueError naming `threads` for
/// 0, a negative number or anything but an integer: a search is never silently run on a count it was not given.
fn read_threads(req: &Bound<'_, PyDict>) -> PyResult<usize> {
    let py = req.py();
    let bad = |v: &Bound<'_, PyAny>| PyValueError::new_err(format!("request threads must be an integer >= 1, got {v}"));
    match req.get_item(intern!(py, request::THREADS))? {
        None => Ok(1),
        Some(v) if v.is_none() => Ok(1),
        Some(v) => match v.extract::<i64>() {
            Ok(n) if n >= 1 && !v.is_instance_of::<PyBool>() => usize::try_from(n).map_err(|_| bad(&v)),
            _ => Err(bad(&v)),
        },
    }
}

/// Read the request dict (`searchkit/protocol.py`) of a module whose components are `components`: the
/// heuristic, the pruners and the disabled rules must be among them (ValueError otherwise, naming it).
pub fn parse_request(req: &Bound<'_, PyDict>, components: &[Component]) -> PyResult<SearchRequest> {
    let py = req.py();
    let name: String =
        get(req, intern!(py, request::ALGORITHM))?.ok_or_else(|| PyValueError::new_err("request without algorithm"))?;
    let algorithm = read_algorithm(req, &name, components)?;
    let elapsed: f64 = get(req, intern!(py, request::ELAPSED))?.unwrap_or(0.0);
    let remaining: Option<f64> = get(req, intern!(py, request::REMAINING))?;
    let mut limiter = Limiter::started(elapsed, remaining);
    limiter.max_nodes = get(req, intern!(py, request::MAX_NODES))?;
    limiter.memory_budget = get(req, intern!(py, request::MEMORY_BUDGET))?;
    let incumbent = match get::<Bound<PyTuple>>(req, intern!(py, request::INCUMBENT))? {
        None => None,
        Some(t) => Some((t.get_item(0)?.extract::<Vec<i64>>()?, t.get_item(1)?.extract::<u64>()?)),
    };
    let find = |kind: Kind, name: &str| components.iter().find(|c| c.kind == kind && c.name == name);
    let heuristic: Option<String> = get(req, intern!(py, request::HEURISTIC))?;
    let heuristic_params = match &heuristic {
        None => Params::default(),
        Some(h) => {
            let c = find(Kind::Heuristic, h)
                .ok_or_else(|| PyValueError::new_err(format!("heuristic {h:?} has no native twin")))?;
            read_params(c, get::<Bound<PyDict>>(req, intern!(py, request::HEURISTIC_PARAMS))?.as_ref())?
        }
    };
    let pruners: Vec<String> = get(req, intern!(py, request::PRUNERS))?.unwrap_or_default();
    for p in &pruners {
        find(Kind::Pruner, p).ok_or_else(|| PyValueError::new_err(format!("rule {p:?} has no native twin")))?;
    }
    let disabled: Vec<String> = get(req, intern!(py, request::DISABLED))?.unwrap_or_default();
    for r in &disabled {
        // a driver-level rule switched off is simply not among `pruners`
        find(Kind::Rule, r).or_else(|| find(Kind::Pruner, r))
            .ok_or_else(|| PyValueError::new_err(format!("rule {r:?} has no native twin")))?;
    }
    let threads = read_threads(req)?;
    Ok(SearchRequest {
        spec: AlgorithmSpec { algorithm, admissible: get(req, intern!(py, request::ADMISSIBLE))?.unwrap_or(true),
                             threads },
        max_cost: get(req, intern!(py, request::MAX_COST))?,
        limits: limiter,
        heuristic,
        heuristic_params,
        pruners,
        disabled,
        incumbent,
        on_improve: get(req, intern!(py, request::ON_IMPROVE))?,
        progress: get(req, intern!(py, request::PROGRESS))?,
    })
}

/// Run `search` on the caller's thread with the GIL released; the search's own limit checks call back at most
/// every 5 ms ([`Limiter::poll`]) to take the GIL briefly, poll Python's signal handlers (a `KeyboardInterrupt`
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
pub fn run_inline<M, F>(py: Python<'_>, limiter: &mut Limiter, progress: Option<Py<PyAny>>, search: F)
                        -> Result<SearchResult<M>, String>
where
    M: Send,
    F: FnOnce(&Limiter) -> SearchResult<M> + Send,
{
    let (flag, live) = arm(limiter, &progress);
    let reported = std::sync::Mutex::new(std::time::Instant::now());
    limiter.poll = Some(Poll(Arc::new(move || {
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
    let ctl = limiter.clone();
    py.detach(move || {
        IN_SEARCH.with(|s| s.set(true));
        let r = catch_unwind(AssertUnwindSafe(|| search(&ctl))).map_err(|payload| panic_message(&*payload));
        IN_SEARCH.with(|s| s.set(false));
        r
    })
}

/// Run a table build (`build`, e.g. `searchkit_core::pdb::build`) in this process with the GIL released, as
/// [`run_inline`] runs a search: under a [`Limiter`] with the case's `remaining` seconds as its deadline
/// (`None`: no time limit), a cancel flag, and a `poll` hook the builder calls at most every 5 ms (every 4096
/// entries and every layer) that takes the GIL briefly to run Python's signal handlers.
///
/// `build` gets the limiter and a `layer(reached, total)` function to call after each layer: it hands
/// `progress(reached, total)` the figures (with the GIL; an exception it raises is printed as an unraisable one
/// and the build goes on).
///
/// # Errors
///
/// * the exception a signal handler raised (Ctrl-C's `KeyboardInterrupt`), raised again once the builder has
///   stopped (`Status::Cancelled`) and freed what it allocated;
/// * `TimeoutError("time_limit")`: the deadline passed;
/// * `MemoryError`: the builder's memory could not be allocated (its allocations are fallible: under
///   `RLIMIT_AS` too) or exceeds `limiter.memory_budget`;
/// * `RuntimeError` with the message of a panic inside the builder, or another status.
pub fn run_build<T, F>(py: Python<'_>, remaining: Option<f64>, progress: Option<Py<PyAny>>, build: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&Limiter, &mut dyn FnMut(u64, u64)) -> Result<T, Status> + Send,
{
    let mut limiter = Limiter::started(0.0, remaining);
    let flag = Arc::new(AtomicBool::new(false));
    limiter.cancel = Some(flag.clone());
    let raised: Arc<std::sync::Mutex<Option<PyErr>>> = Arc::default();
    let seen = raised.clone();
    limiter.poll = Some(Poll(Arc::new(move || {
        if let Err(e) = Python::attach(|py| py.check_signals()) {
            seen.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
            flag.store(true, Ordering::Relaxed);
        }
    })));
    let outcome = py.detach(move || {
        let mut layer = |reached: u64, total: u64| {
            if let Some(cb) = &progress {
                Python::attach(|py| {
                    if let Err(e) = cb.call1(py, (reached, total)) {
                        e.write_unraisable(py, None);
                    }
                });
            }
        };
        IN_SEARCH.with(|s| s.set(true));
        let r = catch_unwind(AssertUnwindSafe(|| build(&limiter, &mut layer))).map_err(|p| panic_message(&*p));
        IN_SEARCH.with(|s| s.set(false));
        r
    });
    match outcome {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(Status::Cancelled)) => Err(raised.lock().unwrap_or_else(|e| e.into_inner()).take()
            .unwrap_or_else(|| PyKeyboardInterrupt::new_err(()))),
        Ok(Err(Status::TimeLimit)) => Err(PyTimeoutError::new_err(Status::TimeLimit.as_str())),
        Ok(Err(Status::MemoryLimit)) => Err(PyMemoryError::new_err("not enough memory for the table's build")),
        Ok(Err(other)) => Err(PyRuntimeError::new_err(format!("the table's build stopped: {}", other.as_str()))),
        Err(message) => Err(PyRuntimeError::new_err(message)),
    }
}

thread_local! {
    /// Set while [`run_inline`] runs a search on this thread.
    static IN_SEARCH: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether this thread is running a search for [`run_inline`] (the panic hook stays quiet for it).
pub fn in_search() -> bool {
    IN_SEARCH.with(|s| s.get())
}

/// Give `limiter` a fresh cancel flag, and live figures when there is a `progress` callable to hand them to.
fn arm(limiter: &mut Limiter, progress: &Option<Py<PyAny>>) -> (Arc<AtomicBool>, Option<Arc<Progress>>) {
    let flag = Arc::new(AtomicBool::new(false));
    limiter.cancel = Some(flag.clone());
    let live = progress.as_ref().map(|_| Arc::new(Progress::default()));
    limiter.progress = live.clone();
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
pub fn result_dict<'py, M>(py: Python<'py>, o: &SearchResult<M>, mv: impl Fn(&M) -> PyResult<Py<PyAny>>)
                            -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item(intern!(py, result::ENGINE), "native")?;
    d.set_item(intern!(py, result::STATUS), o.status.as_str())?;
    let moves = PyList::empty(py);
    for m in &o.moves {
        moves.append(mv(m)?)?;
    }
    d.set_item(intern!(py, result::MOVES), moves)?;
    d.set_item(intern!(py, result::COST), o.cost)?;
    d.set_item(intern!(py, result::LOWER_BOUND), o.lower_bound)?;
    d.set_item(intern!(py, result::MESSAGE), o.message.as_deref())?;
    let s = &o.stats;
    let st = PyDict::new(py);
    st.set_item(intern!(py, stats::EXPANDED), s.expanded)?;
    st.set_item(intern!(py, stats::GENERATED), s.generated)?;
    st.set_item(intern!(py, stats::EVALUATED), s.evaluated)?;
    st.set_item(intern!(py, request::ELAPSED), s.elapsed)?;
    let its = PyList::empty(py);
    for r in &s.iterations {
        its.append((r.bound, r.expanded, r.generated, r.elapsed, r.evaluated, r.kind))?;
    }
    st.set_item(intern!(py, stats::ITERATIONS), its)?;
    st.set_item(intern!(py, stats::PER_DEPTH), s.per_depth.clone())?;
    st.set_item(intern!(py, stats::PER_DEPTH_SECONDS), s.per_depth_seconds.clone())?;
    st.set_item(intern!(py, stats::PEAK_STORED), s.peak_stored)?;
    st.set_item(intern!(py, stats::RULE_CUTS), s.rule_cuts.clone())?;
    st.set_item(intern!(py, stats::PEAK_BYTES), s.peak_bytes)?;
    st.set_item(intern!(py, stats::PRUNER_BYTES), s.pruner_bytes)?;
    st.set_item(intern!(py, stats::STATES_STORED), s.states_stored)?;
    if s.threads > 1 {  // only then: a one-thread search's stats (and records) are as before threads existed
        st.set_item(intern!(py, stats::THREADS), s.threads)?;
    }
    d.set_item(intern!(py, result::STATS), st)?;
    Ok(d)
}

/// The result dict of a search that failed with `message` (status `error`).
pub fn error_dict<'py>(py: Python<'py>, message: &str, limiter: &Limiter) -> PyResult<Bound<'py, PyDict>> {
    let mut o: SearchResult<i64> = SearchResult {
        status: Status::Error,
        moves: Vec::new(),
        cost: None,
        lower_bound: None,
        stats: Default::default(),
        message: Some(message.to_string()),
    };
    o.stats.elapsed = limiter.elapsed();
    result_dict(py, &o, |m| Ok(m.into_pyobject(py)?.into_any().unbind()))
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

/// A game's native puzzle as a Python module: implement this and call [`native_module!`].
pub trait NativeGame {
    /// The game's registered name (Python's `Game.name`).
    const GAME: &'static str;

    /// The game's heuristics, driver-level pruners and fused successor rules, each under its Python name with
    /// its typed parameters (the manifest adds the core's algorithms in front).  A Python component has a
    /// native twin exactly when this lists it.
    fn components() -> Vec<Component>;

    /// Solve `problem` (the object the game's Python `native_problem` hands over, in whatever shape the game
    /// chooses) as `request` asks, already read and checked against the manifest: build the puzzle, run
    /// [`searchkit_core::run_seeded`] through [`run_inline`] and return [`result_dict`] (or [`error_dict`]).
    ///
    /// Errors: a ValueError for a problem the puzzle cannot take (the case's error on the Python side).
    fn solve<'py>(py: Python<'py>, problem: &Bound<'py, PyAny>, request: SearchRequest) -> PyResult<Bound<'py, PyDict>>;
}

/// Every component of `G`'s manifest: the core's algorithms, then the game's.
pub fn components<G: NativeGame>() -> Vec<Component> {
    let mut all = searchkit_core::manifest::algorithms();
    all.extend(G::components());
    all
}

fn value_object<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Int(x) => x.into_pyobject(py)?.into_any(),
        Value::Float(x) => x.into_pyobject(py)?.into_any(),
        Value::Str(x) => x.into_pyobject(py)?.into_any(),
    })
}

/// The manifest dict of `G` (`searchkit/protocol.py`, `MANIFEST_KEYS`), `version` its crate's version.
pub fn manifest_dict<'py, G: NativeGame>(py: Python<'py>, version: &str) -> PyResult<Bound<'py, PyDict>> {
    use searchkit_core::protocol::manifest as key;
    let d = PyDict::new(py);
    d.set_item(key::PROTOCOL, protocol::PROTOCOL)?;
    d.set_item(key::GAME, G::GAME)?;
    d.set_item(key::VERSION, version)?;
    d.set_item(key::PROFILE, if cfg!(debug_assertions) { "debug" } else { "release" })?;
    let list = PyList::empty(py);
    for c in components::<G>() {
        let e = PyDict::new(py);
        e.set_item("kind", c.kind.as_str())?;
        e.set_item("name", c.name)?;
        let ps = PyList::empty(py);
        for p in &c.params {
            let pd = PyDict::new(py);
            pd.set_item("name", p.name)?;
            pd.set_item("type", p.default.type_name())?;
            pd.set_item("default", value_object(py, &p.default)?)?;
            pd.set_item("min", p.min)?;
            pd.set_item("max", p.max)?;
            ps.append(pd)?;
        }
        e.set_item("params", ps)?;
        list.append(e)?;
    }
    d.set_item(key::COMPONENTS, list)?;
    Ok(d)
}

/// `solve(problem, request)` of `G`'s module: the request read against `G`'s manifest, then [`NativeGame::solve`].
pub fn solve_entry<'py, G: NativeGame>(py: Python<'py>, problem: &Bound<'py, PyAny>, request: &Bound<'py, PyDict>)
                                       -> PyResult<Bound<'py, PyDict>> {
    let req = parse_request(request, &components::<G>())?;
    G::solve(py, problem, req)
}

/// Fill a game's module: `__version__` and the panic hook that keeps a search's panic
/// quiet (it is reported as the case's status `error` with its message; other panics keep the default hook).
pub fn init_module(m: &Bound<'_, PyModule>, version: &str) -> PyResult<()> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !in_search() {
                default(info);
            }
        }));
    });
    m.add("__version__", version)?;
    Ok(())
}

/// The Python module of a game: `native_module!(module_name, GameType)` or, with `#[pyfunction]`s of the
/// game's own (e.g. for its differential tests), `native_module!(module_name, GameType, [f, g])`.
///
/// It defines `#[pymodule] fn module_name` exposing `solve(problem, request) -> dict`, `manifest() -> dict`,
/// and `__version__` (the calling crate's version); set `module-name = "module_name"`
/// for maturin.  The generated code reaches PyO3 through the kit (`searchkit_pyo3::pyo3`), so a game's
/// crate needs one dependency, the kit, under its own name `searchkit-pyo3`.
#[macro_export]
macro_rules! native_module {
    ($name:ident, $game:ty) => {
        $crate::native_module!($name, $game, []);
    };
    ($name:ident, $game:ty, [$($extra:path),* $(,)?]) => {
        #[$crate::pyo3::pymodule]
        #[pyo3(crate = "::searchkit_pyo3::pyo3")]
        fn $name(m: &$crate::pyo3::Bound<'_, $crate::pyo3::types::PyModule>) -> $crate::pyo3::PyResult<()> {
            use $crate::pyo3::prelude::*;
            use $crate::pyo3::types::PyDict;

            /// Solve `problem` as `request` asks (searchkit/protocol.py); the result dict.
            #[pyfunction]
            #[pyo3(crate = "::searchkit_pyo3::pyo3")]
            fn solve<'py>(py: Python<'py>, problem: &Bound<'py, PyAny>, request: &Bound<'py, PyDict>)
                          -> PyResult<Bound<'py, PyDict>> {
                $crate::solve_entry::<$game>(py, problem, request)
            }

            /// The module's manifest (searchkit/protocol.py, MANIFEST_KEYS).
            #[pyfunction]
            #[pyo3(crate = "::searchkit_pyo3::pyo3")]
            fn manifest(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
                $crate::manifest_dict::<$game>(py, env!("CARGO_PKG_VERSION"))
            }

            $crate::init_module(m, env!("CARGO_PKG_VERSION"))?;
            m.add_function(wrap_pyfunction!(solve, m)?)?;
            m.add_function(wrap_pyfunction!(manifest, m)?)?;
            $(m.add_function(wrap_pyfunction!($extra, m)?)?;)*
            Ok(())
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decimal_weight_is_the_ratio_of_its_spelling() {
        assert_eq!(decimal_ratio(1.2), Some(Ratio::new(6, 5)));
        assert_eq!(decimal_ratio(2.0), Some(Ratio::new(2, 1)));
        assert_eq!(decimal_ratio(-1.0), None);
        assert_eq!(decimal_ratio(f64::NAN), None);
    }

    fn pdb() -> Component {
        Component {
            kind: Kind::Heuristic,
            name: "pdb",
            params: vec![Param::str("partition", "auto"), Param::int("reflect", 1, Some(0.0), Some(1.0))],
        }
    }

    #[test]
    fn options_are_typed_defaulted_and_range_checked() {
        Python::initialize();
        Python::attach(|py| {
            let p = read_params(&pdb(), None).unwrap();
            assert_eq!(p.str("partition"), "auto");
            assert_eq!(p.int("reflect"), 1);
            let d = PyDict::new(py);
            d.set_item("reflect", 0).unwrap();
            assert_eq!(read_params(&pdb(), Some(&d)).unwrap().int("reflect"), 0);
            d.set_item("reflect", 2).unwrap();
            let e = read_params(&pdb(), Some(&d)).unwrap_err().to_string();
            assert!(e.contains("outside 0..1"), "{e}");
            d.set_item("reflect", "1").unwrap();
            assert!(read_params(&pdb(), Some(&d)).unwrap_err().to_string().contains("must be an int"));
            let d = PyDict::new(py);
            d.set_item("colour", 1).unwrap();
            assert!(read_params(&pdb(), Some(&d)).unwrap_err().to_string().contains("no option \"colour\""));
        });
    }

    struct Nothing;

    impl NativeGame for Nothing {
        const GAME: &'static str = "nothing";
        fn components() -> Vec<Component> {
            vec![pdb(), Component::plain(Kind::Pruner, "corner"), Component::plain(Kind::Rule, "no-undo")]
        }
        fn solve<'py>(py: Python<'py>, _: &Bound<'py, PyAny>, r: SearchRequest) -> PyResult<Bound<'py, PyDict>> {
            error_dict(py, "nothing to solve", &r.limits)
        }
    }

    #[test]
    fn a_request_names_only_components_of_the_manifest() {
        Python::initialize();
        Python::attach(|py| {
            let comps = components::<Nothing>();
            let req = PyDict::new(py);
            req.set_item("algorithm", "ida_star").unwrap();
            req.set_item("heuristic", "pdb").unwrap();
            req.set_item("pruners", vec!["corner"]).unwrap();
            req.set_item("disabled", vec!["no-undo"]).unwrap();
            let r = parse_request(&req, &comps).unwrap();
            assert_eq!(r.heuristic_params.int("reflect"), 1);
            for (key, value, said) in [("heuristic", "manhattan", "heuristic \"manhattan\""),
                                       ("algorithm", "dijkstra", "algorithm \"dijkstra\"")] {
                let bad = req.copy().unwrap();
                bad.set_item(key, value).unwrap();
                let e = parse_request(&bad, &comps).err().unwrap().to_string();
                assert!(e.contains(said), "{e}");
            }
            let bad = req.copy().unwrap();
            bad.set_item("disabled", vec!["corner", "no-undo"]).unwrap();
            assert!(parse_request(&bad, &comps).is_ok(), "a pruner switched off is no error");
            bad.set_item("disabled", vec!["no-such-rule"]).unwrap();
            assert!(parse_request(&bad, &comps).is_err(), "a rule the manifest lacks");
        });
    }

    #[test]
    fn every_algorithm_of_the_manifest_is_read_with_its_manifest_defaults() {
        Python::initialize();
        Python::attach(|py| {
            let comps = components::<Nothing>();
            for c in searchkit_core::manifest::algorithms() {
                let req = PyDict::new(py);
                req.set_item("algorithm", c.name).unwrap();
                req.set_item("max_cost", 3).unwrap();
                req.set_item("mode", "exact").unwrap();
                let a = parse_request(&req, &comps).unwrap().spec.algorithm;
                match a {
                    Algorithm::Wastar { weight } => assert_eq!(weight, Ratio::new(2, 1)),
                    Algorithm::Beam { width } => assert_eq!(width, 64),
                    Algorithm::Anytime { weight, step, ara } => {
                        assert_eq!((weight, step, ara), (Ratio::new(2, 1), Ratio::new(1, 2), false))
                    }
                    _ => {}
                }
                let bad = req.copy().unwrap();
                let opts = PyDict::new(py);
                opts.set_item("colour", 1).unwrap();
                bad.set_item("params", opts).unwrap();
                assert!(parse_request(&bad, &comps).is_err(), "{}: an undeclared option", c.name);
            }
            let req = PyDict::new(py);
            req.set_item("algorithm", "bounded_dfs").unwrap();
            req.set_item("max_cost", 3).unwrap();
            let e = parse_request(&req, &comps).err().unwrap().to_string();
            assert!(e.contains("needs a mode"), "{e}");
        });
    }

    #[test]
    fn the_manifest_lists_the_core_algorithms_then_the_game() {
        Python::initialize();
        Python::attach(|py| {
            let m = manifest_dict::<Nothing>(py, "9.9.9").unwrap();
            assert_eq!(m.get_item("protocol").unwrap().unwrap().extract::<u32>().unwrap(), protocol::PROTOCOL);
            assert_eq!(m.get_item("game").unwrap().unwrap().extract::<String>().unwrap(), "nothing");
            let comps = m.get_item("components").unwrap().unwrap();
            assert_eq!(comps.len().unwrap(), 13);
            let last = comps.get_item(12).unwrap();
            assert_eq!(last.get_item("kind").unwrap().extract::<String>().unwrap(), "rule");
        });
    }

    #[test]
    fn a_request_carries_the_threads_of_its_search() {
        Python::initialize();
        Python::attach(|py| {
            let comps = components::<Nothing>();
            let req = PyDict::new(py);
            req.set_item("algorithm", "ida_star").unwrap();
            assert_eq!(parse_request(&req, &comps).unwrap().spec.threads, 1, "absent: one thread");
            req.set_item("threads", py.None()).unwrap();
            assert_eq!(parse_request(&req, &comps).unwrap().spec.threads, 1, "None: one thread");
            req.set_item("threads", 3).unwrap();
            assert_eq!(parse_request(&req, &comps).unwrap().spec.threads, 3);
            for bad in [0i64, -2] {
                req.set_item("threads", bad).unwrap();
                let e = parse_request(&req, &comps).err().unwrap().to_string();
                assert!(e.starts_with("ValueError: request threads must be an integer >= 1"), "{e}");
            }
            for bad in [PyString::new(py, "2").into_any(), true.into_pyobject(py).unwrap().to_owned().into_any(),
                        2.0f64.into_pyobject(py).unwrap().into_any()] {
                req.set_item("threads", bad).unwrap();
                let e = parse_request(&req, &comps).err().unwrap().to_string();
                assert!(e.contains("request threads must be an integer >= 1"), "{e}");
            }
        });
    }

    #[test]
    fn the_stats_say_threads_only_when_the_search_ran_on_more_than_one() {
        Python::initialize();
        Python::attach(|py| {
            let mut o: SearchResult<i64> = SearchResult {
                status: Status::Solved, moves: vec![1], cost: Some(1), lower_bound: Some(1),
                stats: Default::default(), message: None,
            };
            let mv = |m: &i64| Ok(m.into_pyobject(py)?.into_any().unbind());
            for (threads, said) in [(0u32, None), (1, None), (4, Some(4u32))] {
                o.stats.threads = threads;
                let d = result_dict(py, &o, mv).unwrap();
                let st = d.get_item("stats").unwrap().unwrap();
                let st = st.cast::<PyDict>().unwrap();
                assert_eq!(st.get_item("threads").unwrap().map(|v| v.extract::<u32>().unwrap()), said);
            }
        });
    }

    #[test]
    fn an_error_result_has_every_result_key() {
        Python::initialize();
        Python::attach(|py| {
            let d = error_dict(py, "boom", &Limiter::started(0.0, None)).unwrap();
            for k in ["engine", "status", "moves", "cost", "lower_bound", "message", "stats"] {
                assert!(d.contains(k).unwrap(), "{k}");
            }
            assert_eq!(d.get_item("status").unwrap().unwrap().extract::<String>().unwrap(), "error");
        });
    }
}
