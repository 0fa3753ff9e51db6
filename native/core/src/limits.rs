//! The [`Limiter`] of one search (the twin of `searchkit/limits.py`): the node limit (checked exactly), the
//! deadline and a cancel flag (checked every few milliseconds of expansions), and a memory budget (checked
//! whenever a big table grows; every such growth goes through fallible allocation, so an allocation refused
//! under `RLIMIT_AS` is status `memory_limit`, never an abort).

use crate::result::Status;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Why a search stopped early: the twin of Python's `LimitReached` (one of the limit statuses).
pub(crate) type Stop = Status;

/// Live figures of a running search, written by the driver and read from another thread (the progress
/// display): states expanded at the last limit check, and the f-bound, f-layer or depth being searched.
#[derive(Debug, Default)]
pub struct Progress {
    expanded: AtomicU64,
    /// The bound plus one (0: none yet).
    bound: AtomicU64,
}

impl Progress {
    /// `(expanded, bound)` as last written.
    pub fn read(&self) -> (u64, Option<u64>) {
        let b = self.bound.load(Ordering::Relaxed);
        (self.expanded.load(Ordering::Relaxed), b.checked_sub(1))
    }
}

/// The limits of one search: the twin of Python's `Limiter` (`searchkit/limits.py`).
///
/// What matches Python's `Limiter`: `start`, `max_nodes`, `deadline` (an [`Instant`], Python's a
/// `perf_counter` reading), [`Limiter::elapsed`], and `memory_budget` (Python's `memory`, which there only
/// checks one step against the allowance; here the drivers charge every big table to it). What only the native
/// side has: `cancel` (Python stops on `KeyboardInterrupt` itself), `progress` (Python keeps the live figures
/// `done` and `bound` on the limiter itself) and `poll`. Python's `checkpoint`, `first_checkpoint` and
/// `check_time` are methods of the driver's `Checker` here: the limiter is shared (`&Limiter`, read by
/// other threads through `progress` and `cancel`), while the pace of the clock readings is each driver's own.
///
/// * `start`: when the case started (its first byte was read); `elapsed` figures count from it.
/// * `max_nodes`: stop before expanding one more state once this many were expanded (exact, as Python's).
/// * `deadline`: stop (`time_limit`) once the clock passes it; read every few milliseconds of expansions.
/// * `cancel`: set from another thread (Ctrl-C); the search stops with `cancelled` within a few ms.
/// * `memory_budget`: bytes the search's big tables may hold in all; above it, `memory_limit`.
/// * `progress`: live figures for a progress display (written at each limit check; the driver then checks
///   as often as with a deadline).
/// * `poll`: a hook the limit checks call at most every [`POLL_INTERVAL`] (the binding's Ctrl-C check when
///   the search runs on the caller's thread: it sets `cancel`, read right after).
#[derive(Clone, Debug)]
pub struct Limiter {
    pub start: Instant,
    pub max_nodes: Option<u64>,
    pub deadline: Option<Instant>,
    pub cancel: Option<Arc<AtomicBool>>,
    pub memory_budget: Option<usize>,
    pub progress: Option<Arc<Progress>>,
    pub poll: Option<Poll>,
    used: Arc<AtomicUsize>,
    /// At most this many bytes of the thread's stack for a recursive search ([`Limiter::set_recursion_stack`]).
    recursion_stack: Option<usize>,
}

/// The [`Limiter::poll`] hook.
#[derive(Clone)]
pub struct Poll(pub Arc<dyn Fn() + Send + Sync>);

impl std::fmt::Debug for Poll {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Poll")
    }
}

/// The least time between two calls of a [`Limiter::poll`] hook.
pub const POLL_INTERVAL: Duration = Duration::from_millis(5);

impl Default for Limiter {
    fn default() -> Self {
        Limiter::new()
    }
}

impl Limiter {
    /// No limits, started now.
    pub fn new() -> Self {
        Limiter {
            start: Instant::now(),
            max_nodes: None,
            deadline: None,
            cancel: None,
            memory_budget: None,
            progress: None,
            poll: None,
            used: Arc::new(AtomicUsize::new(0)),
            recursion_stack: None,
        }
    }

    /// Started `elapsed` seconds ago (the case's first byte), with `remaining` seconds left (`None`: no limit).
    pub fn started(elapsed: f64, remaining: Option<f64>) -> Self {
        let now = Instant::now();
        let back = Duration::try_from_secs_f64(elapsed.max(0.0)).unwrap_or(Duration::ZERO);
        let mut c = Limiter::new();
        c.start = now.checked_sub(back).unwrap_or(now);
        c.deadline = remaining.map(|r| {
            let r = if r.is_nan() { 0.0 } else { r.clamp(-1e9, 1e9) };
            if r <= 0.0 {
                now.checked_sub(Duration::from_nanos(1)).unwrap_or(now)
            } else {
                now + Duration::from_secs_f64(r)
            }
        });
        c
    }

    /// A testing aid: let a recursive search (IDA*'s in place) use at most `bytes` of its thread's stack below
    /// where it starts (`None`, the default: all but [`STACK_FLOOR`]), and go on with its explicit stack on the
    /// heap beyond. The tests set small values to make the search change over at every depth; the answer and
    /// the counts never depend on it. Copied with the limiter to a parallel search's threads.
    #[doc(hidden)]
    pub fn set_recursion_stack(&mut self, bytes: Option<usize>) {
        self.recursion_stack = bytes;
    }

    /// The lowest address a recursive search started at stack address `here` may reach on the calling
    /// thread: [`STACK_FLOOR`] above the end of the thread's stack (when the system tells it; else
    /// [`UNKNOWN_STACK`] below `here`), and no more than [`Limiter::set_recursion_stack`]'s bytes below `here`.
    pub(crate) fn stack_floor(&self, here: usize) -> usize {
        let floor = match thread_stack_end() {
            Some(end) => end.saturating_add(STACK_FLOOR),
            None => here.saturating_sub(UNKNOWN_STACK),
        };
        match self.recursion_stack {
            Some(bytes) => floor.max(here.saturating_sub(bytes)),
            None => floor,
        }
    }

    /// Seconds since `start`.
    pub fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// Bytes the search's big tables hold now (as charged by the drivers).
    pub fn bytes_used(&self) -> usize {
        self.used.load(Ordering::Relaxed)
    }

    /// Publish a count of states expanded to [`Limiter::progress`] (a parallel search's total, written by
    /// the thread that waits for the others).
    #[inline]
    pub(crate) fn set_expanded(&self, expanded: u64) {
        if let Some(p) = &self.progress {
            p.expanded.store(expanded, Ordering::Relaxed);
        }
    }

    /// Publish the bound being searched (f-bound, f-layer or depth) to [`Limiter::progress`].
    #[inline]
    pub(crate) fn set_bound(&self, bound: u64) {
        if let Some(p) = &self.progress {
            p.bound.store(bound.saturating_add(1), Ordering::Relaxed);
        }
    }

    fn cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// Charge `bytes` more to the budget, or refuse (`memory_limit`); charged even when refused, so the
    /// caller releases them either way (public for a game's own table builder).
    ///
    /// # Errors
    ///
    /// [`Status::MemoryLimit`] when the budget is exceeded.
    pub fn charge(&self, bytes: usize) -> Result<(), Stop> {
        let now = self.used.fetch_add(bytes, Ordering::Relaxed) + bytes;
        match self.memory_budget {
            Some(b) if now > b => Err(Status::MemoryLimit),
            _ => Ok(()),
        }
    }

    /// Give back `bytes` charged before (a big table freed).
    pub fn release(&self, bytes: usize) {
        self.used.fetch_sub(bytes, Ordering::Relaxed);
    }

}

/// What the threads of one parallel search share for their limits (`drivers::ida_star::parallel`).
///
/// * `pool`: expansions left under the node limit (`u64::MAX` without one). Each thread's [`Checker`] draws
///   an allowance from it and gives back what it did not spend, so the threads together never expand more
///   than the limit; a thread that finds the pool empty stops with `node_limit` (the others may then still
///   hold an allowance they stop before spending: the count stops short of the limit by at most the
///   allowances held, at most [`TEAM_CHUNK`] and a quarter of the pool over the thread count each).
/// * `first`: the first work unit, in the serial search's order, found to hold a solution (`usize::MAX`:
///   none yet); a thread searching a later unit stops it (that unit cannot give the answer).
/// * `halt`: a thread stopped on a limit (node limit, deadline, Ctrl-C): every thread stops.
#[derive(Debug)]
pub(crate) struct Team {
    pub pool: AtomicU64,
    pub first: AtomicUsize,
    pub halt: AtomicBool,
    pub threads: u64,
}

/// The threads a parallel search or build runs on when `wanted` are asked for: at most the CPUs this process
/// may use (`std::thread::available_parallelism`: its affinity mask and cgroup quota), since a thread more
/// than the CPUs only takes turns with another (and makes the limit checks, each thread's, come late: Ctrl-C
/// took 46 s to stop 1,024 threads on 2 CPUs); at least 1. The environment variable
/// `SEARCHKIT_MAX_THREADS` (a count) replaces the CPU count: the tests set it, to run more threads than this
/// machine has CPUs.
pub fn usable_threads(wanted: usize) -> usize {
    let cpus = std::env::var("SEARCHKIT_MAX_THREADS").ok().and_then(|v| v.parse().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    wanted.clamp(1, cpus.max(1))
}

/// The stack of a parallel search's or build's thread: its work keeps its own stacks on the heap, but for
/// IDA*'s recursion, which stops [`STACK_FLOOR`] above its end.
pub const THREAD_STACK: usize = 512 * 1024;

/// The stack a recursive search leaves free on its thread: below this much above the stack's end it goes on
/// with its explicit stack on the heap (what the search then calls, the puzzle's and heuristic's methods,
/// the limit check, run there).
pub const STACK_FLOOR: usize = 64 * 1024;

/// The stack a recursive search uses below where it starts when the system does not tell the thread's stack.
pub const UNKNOWN_STACK: usize = 32 * 1024;

/// The stack pointer (near enough: an address in the caller's frame).
#[inline(always)]
pub(crate) fn stack_pointer() -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        let sp: usize;
        // SAFETY: reads a register into another, touches no memory
        unsafe { std::arch::asm!("mov {}, rsp", out(reg) sp, options(nomem, nostack, preserves_flags)) };
        sp
    }
    #[cfg(target_arch = "aarch64")]
    {
        let sp: usize;
        // SAFETY: reads a register into another, touches no memory
        unsafe { std::arch::asm!("mov {}, sp", out(reg) sp, options(nomem, nostack, preserves_flags)) };
        sp
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        let marker = 0u8;
        std::hint::black_box(&marker) as *const u8 as usize
    }
}

/// The lowest address of the calling thread's stack, when the system tells it (asked once a thread: on the
/// main thread it reads `/proc/self/maps`).
fn thread_stack_end() -> Option<usize> {
    thread_local! {
        /// 0: not asked yet; 1: unknown; else the address.
        static END: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }
    let end = END.with(|e| {
        if e.get() == 0 {
            e.set(ask_stack_end().filter(|&a| a > 1).unwrap_or(1));
        }
        e.get()
    });
    (end > 1).then_some(end)
}

#[cfg(target_os = "linux")]
fn ask_stack_end() -> Option<usize> {
    // SAFETY: the attribute object is initialised by pthread_getattr_np before it is read and destroyed after
    unsafe {
        let mut attr = std::mem::MaybeUninit::<libc::pthread_attr_t>::uninit();
        if libc::pthread_getattr_np(libc::pthread_self(), attr.as_mut_ptr()) != 0 {
            return None;
        }
        let (mut addr, mut size) = (std::ptr::null_mut(), 0usize);
        let ok = libc::pthread_attr_getstack(attr.as_ptr(), &mut addr, &mut size) == 0;
        libc::pthread_attr_destroy(attr.as_mut_ptr());
        // the guard pages, if any, lie inside [addr, addr + size): STACK_FLOOR is far above them
        (ok && size > 0).then_some(addr as usize)
    }
}

#[cfg(not(target_os = "linux"))]
fn ask_stack_end() -> Option<usize> {
    None
}

/// The largest allowance a thread draws from [`Team::pool`] at once.
pub(crate) const TEAM_CHUNK: u64 = 1024;

impl Team {
    /// A team of `threads` under a node limit of `budget` expansions (`None`: none).
    pub fn new(threads: usize, budget: Option<u64>) -> Team {
        Team {
            pool: AtomicU64::new(budget.unwrap_or(u64::MAX)),
            first: AtomicUsize::new(usize::MAX),
            halt: AtomicBool::new(false),
            threads: threads.max(1) as u64,
        }
    }

    /// Draw an allowance of expansions from the pool: `None` when it is empty.
    fn draw(&self) -> Option<u64> {
        let mut took = 0;
        self.pool
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                took = (left / (4 * self.threads)).clamp(1, TEAM_CHUNK).min(left);
                (left > 0).then(|| left - took)
            })
            .ok()
            .map(|_| took)
    }
}

/// Seconds of expansions between two clock readings, at most.
const CLOCK_INTERVAL: f64 = 0.002;
/// Expansions between two clock readings, at most.
const CLOCK_EVERY: u64 = 1024;

/// The driver-side checker of a [`Limiter`]: the twin of Python's `Limiter.checkpoint`.
///
/// A driver keeps `next` and calls [`Checker::checkpoint`] before expanding a state when its count of
/// expanded states has reached it; the node limit is exact, the clock and the cancel flag are read with an
/// adaptive gap (doubling up to 1024 expansions while they are fast, shrunk to fit 2 ms when slow).
pub(crate) struct Checker<'a> {
    pub limiter: &'a Limiter,
    last: Option<(Instant, u64)>,
    /// When the [`Limiter::poll`] hook was last called (first: when the limiter was made).
    polled: Instant,
    /// A thread of a parallel search: its team, the work unit it searches (stopped when the team's `first`
    /// is before it), and the count of expansions it may reach on the allowance drawn so far.
    team: Option<&'a Team>,
    pub unit: usize,
    allowance: u64,
}

impl<'a> Checker<'a> {
    pub fn new(limiter: &'a Limiter) -> Self {
        Checker { limiter, last: None, polled: Instant::now(), team: None, unit: 0, allowance: 0 }
    }

    /// The checker of one thread of a parallel search (`limiter` without its own node limit: the team's pool
    /// counts it). A limit it meets halts the team; a halted team, or a solution in a unit before
    /// [`Checker::unit`], stops it with `cancelled` (the driver tells the two apart by the team).
    pub fn in_team(limiter: &'a Limiter, team: &'a Team) -> Self {
        Checker { team: Some(team), ..Checker::new(limiter) }
    }

    /// Give the team back the allowance not spent, `done` being the expansions counted against it; the
    /// checker's count then starts again from 0 (with no allowance).
    pub fn give_back(&mut self, done: u64) {
        if let Some(t) = self.team {
            t.pool.fetch_add(self.allowance.saturating_sub(done), Ordering::Relaxed);
            (self.allowance, self.last) = (0, None);
        }
    }

    fn timed(&self) -> bool {
        self.limiter.deadline.is_some() || self.limiter.cancel.is_some() || self.limiter.progress.is_some()
    }

    pub fn first_checkpoint(&self) -> u64 {
        if self.timed() || self.team.is_some() {
            0
        } else {
            self.limiter.max_nodes.unwrap_or(u64::MAX)
        }
    }

    /// Check before expanding one more state, `done` being expanded already; the count to check at next.
    pub fn checkpoint(&mut self, done: u64) -> Result<u64, Stop> {
        if let Some(m) = self.limiter.max_nodes {
            if done >= m {
                return Err(Status::NodeLimit);
            }
        }
        let mut next = u64::MAX;
        if let Some(t) = self.team {
            if t.halt.load(Ordering::Relaxed) || t.first.load(Ordering::Relaxed) < self.unit {
                return Err(Status::Cancelled);
            }
            while done >= self.allowance {
                let Some(took) = t.draw() else {
                    t.halt.store(true, Ordering::Relaxed);
                    return Err(Status::NodeLimit);
                };
                self.allowance += took;
            }
            next = self.allowance;
        }
        if let Some(p) = &self.limiter.progress {
            p.expanded.store(done, Ordering::Relaxed);
        }
        if self.timed() {
            let mut now = Instant::now();
            if let Some(poll) = &self.limiter.poll {
                if now - self.polled >= POLL_INTERVAL {
                    (poll.0)();
                    now = Instant::now();
                    self.polled = now;
                }
            }
            if self.limiter.cancelled() {
                self.halt();
                return Err(Status::Cancelled);
            }
            if let Some(d) = self.limiter.deadline {
                if now > d {
                    self.halt();
                    return Err(Status::TimeLimit);
                }
            }
            let mut step = 1;
            if let Some((t, n)) = self.last {
                if done > n {
                    step = CLOCK_EVERY.min(2 * (done - n));
                    let per = (now - t).as_secs_f64() / (done - n) as f64;
                    if per * step as f64 > CLOCK_INTERVAL {
                        step = ((CLOCK_INTERVAL / per) as u64).max(1);
                    }
                }
            }
            self.last = Some((now, done));
            next = next.min(done + step);
        }
        if let Some(m) = self.limiter.max_nodes {
            next = next.min(m);
        }
        Ok(next)
    }

    fn halt(&self) {
        if let Some(t) = self.team {
            t.halt.store(true, Ordering::Relaxed);
        }
    }

    /// The time and cancel checks alone (between expansions that do not count, e.g. set-up).
    #[allow(dead_code)]
    pub fn check_time(&self) -> Result<(), Stop> {
        if self.limiter.cancelled() {
            return Err(Status::Cancelled);
        }
        if let Some(d) = self.limiter.deadline {
            if Instant::now() > d {
                return Err(Status::TimeLimit);
            }
        }
        Ok(())
    }
}
