//! Work split across the cores, on threads started once for the whole process.
//!
//! A forward pass makes about eight splits per layer (each matmul, attention): a hundred a pass,
//! many of them a few hundred microseconds long. Starting threads for each (`std::thread::scope`)
//! cost about as much as a small matmul's work on its second core, so here one thread per extra
//! core waits for work instead, spinning briefly after each piece so the next one, a moment
//! later, starts at once.
//!
//! Natively the pool starts its own threads. In the browser's threaded worker (wasm32 built with
//! `+atomics`: `src/bin/worker_threads.rs`) std cannot start threads: the worker starts one Web
//! Worker per extra core on the same module and shared memory, and each calls [`serve`] and stays
//! in the pool. In the other wasm builds there are no threads: the parts run one after another
//! (the page's pool of workers splits the items instead; see `web::run`).

/// Calls `part(i)` for each `i < parts`, spread over the cores, and returns when all have run.
/// A panic in a part is raised again here, after every part has finished.
pub fn for_each_part(parts: usize, part: impl Fn(usize) + Sync) {
    #[cfg(any(not(target_arch = "wasm32"), target_feature = "atomics"))]
    if parts > 1 {
        if let Some(pool) = pool::Pool::get() {
            return pool.run(parts, &part);
        }
    }
    // One after another, with the same promise: every part runs, then a panic is raised.
    let mut first_panic = None;
    for i in 0..parts {
        if let Err(panic) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| part(i))) {
            first_panic.get_or_insert(panic);
        }
    }
    if let Some(panic) = first_panic {
        std::panic::resume_unwind(panic);
    }
}

/// `f(i, &mut items[i])` for each item, spread over the cores as [`for_each_part`]: for parts that
/// each write their own buffer or slice.
pub fn for_each_mut<T: Send>(items: &mut [T], f: impl Fn(usize, &mut T) + Sync) {
    // Each index is claimed once, so no lock is ever waited for: it only hands the item over.
    let items: Vec<std::sync::Mutex<&mut T>> = items.iter_mut().map(std::sync::Mutex::new).collect();
    for_each_part(items.len(), |i| f(i, &mut items[i].lock().unwrap_or_else(|e| e.into_inner())));
}

/// Parts a split makes for each core that runs it. More than one: the parts are claimed as the
/// cores come free, so a core that starts late (a helper thread woken from its sleep) or is taken
/// away for a moment (in the browser, the page's and Chromium's own threads share these cores)
/// leaves its share to the others instead of keeping them all waiting at the end of the split.
pub const PARTS_PER_CORE: usize = 4;

/// How many parts are worth making: the cores there are to run them (natively asked once; in the
/// threaded worker, this thread and the helper threads serving so far).
pub fn cores() -> usize {
    #[cfg(not(target_arch = "wasm32"))]
    {
        static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |p| p.get()))
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
    {
        1 + pool::HELPERS.load(std::sync::atomic::Ordering::Acquire)
    }
    #[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
    1
}

/// A helper thread of the threaded worker joins the pool: it takes parts of every split from now
/// on and never returns (it blocks in `memory.atomic.wait` between splits, which a Web Worker may).
#[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
pub fn serve() -> ! {
    pool::ON_HELPER.with(|on| on.set(true));
    pool::HELPERS.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
    pool::POOL.serve()
}

/// Whether this is one of the threaded worker's helper threads (see [`serve`]).
#[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
pub fn on_helper_thread() -> bool {
    pool::ON_HELPER.with(|on| on.get())
}

/// In the threaded worker a panic aborts the thread it happens on (wasm has no unwinding): a helper
/// thread that panicked in a split would leave the caller waiting for its part until the page's
/// watchdog gave up, minutes later. The worker's panic hook calls this on a helper thread; the
/// caller waiting in the split then panics with the helper's message, and the page hears of it at
/// once and replaces the worker.
#[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
pub fn helper_panicked(message: String) {
    *pool::HELPER_PANIC.lock().unwrap_or_else(|e| e.into_inner()) = Some(message);
    pool::HELPER_PANICKED.store(true, std::sync::atomic::Ordering::Release);
}

/// Panics on a helper thread, in a split whose other parts wait a millisecond each (the page's
/// `?crash_item` in the threaded worker, for the tests of [`helper_panicked`]); returns where no
/// helper thread took a part.
#[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
pub fn panic_on_a_helper_thread(message: &str) {
    for_each_part(1000, |_| {
        if on_helper_thread() {
            panic!("{message}");
        }
        let start = web_time::Instant::now();
        while start.elapsed() < std::time::Duration::from_millis(1) {
            std::hint::spin_loop();
        }
    });
}

#[cfg(any(not(target_arch = "wasm32"), target_feature = "atomics"))]
mod pool {
    use std::any::Any;
    use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
    use std::sync::{Arc, Condvar, Mutex};
    use std::time::Duration;
    // std's Instant panics on wasm32; web_time's is std's natively.
    use web_time::Instant;

    /// How long a waiting thread spins for the next piece of work before it sleeps.
    const SPIN: Duration = Duration::from_micros(200);

    /// One call's parts. `task` is the caller's closure with its lifetime erased: it is called
    /// only for a part index claimed below `parts`, and the caller returns only once every part
    /// is done, so no call outlives it.
    struct Job {
        task: *const (dyn Fn(usize) + Sync + 'static),
        parts: usize,
        next: AtomicUsize,
        done: AtomicUsize,
        panic: Mutex<Option<Box<dyn Any + Send>>>,
    }

    // SAFETY: `task` is `Sync` and is called only while the caller waits (see `Job`).
    unsafe impl Send for Job {}
    unsafe impl Sync for Job {}

    impl Job {
        /// Runs parts until none is left to claim.
        fn work(&self) {
            loop {
                let i = self.next.fetch_add(1, Ordering::AcqRel);
                if i >= self.parts {
                    return;
                }
                // SAFETY: part i < parts is claimed, so the caller is still waiting (see `Job`).
                let result = catch_unwind(AssertUnwindSafe(|| unsafe { (*self.task)(i) }));
                if let Err(panic) = result {
                    self.panic.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(panic);
                }
                self.done.fetch_add(1, Ordering::Release);
            }
        }
    }

    /// The one pool of the process.
    pub(super) static POOL: Pool = Pool { generation: AtomicU64::new(0), job: Mutex::new(None), wake: Condvar::new() };

    /// The threaded worker's helper threads serving the pool.
    #[cfg(target_arch = "wasm32")]
    pub(super) static HELPERS: AtomicUsize = AtomicUsize::new(0);
    #[cfg(target_arch = "wasm32")]
    thread_local! {
        pub(super) static ON_HELPER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    /// A helper thread's panic message (see `super::helper_panicked`).
    #[cfg(target_arch = "wasm32")]
    pub(super) static HELPER_PANICKED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    #[cfg(target_arch = "wasm32")]
    pub(super) static HELPER_PANIC: Mutex<Option<String>> = Mutex::new(None);

    pub(super) struct Pool {
        /// Bumped for each job; threads spin on it before sleeping on `wake`.
        generation: AtomicU64,
        job: Mutex<Option<Arc<Job>>>,
        wake: Condvar,
    }

    impl Pool {
        /// The process's pool, its threads started on first use; `None` on a single core or if
        /// no thread could be started.
        #[cfg(not(target_arch = "wasm32"))]
        pub(super) fn get() -> Option<&'static Pool> {
            static STARTED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
            let started = *STARTED.get_or_init(|| {
                let extra = super::cores().saturating_sub(1);
                let started = (0..extra)
                    .filter(|i| {
                        std::thread::Builder::new().name(format!("lingualens-{i}")).spawn(|| POOL.serve()).is_ok()
                    })
                    .count();
                started > 0
            });
            started.then_some(&POOL)
        }

        /// The threaded worker's pool, once a helper thread serves it (see `super::serve`).
        #[cfg(target_arch = "wasm32")]
        pub(super) fn get() -> Option<&'static Pool> {
            (HELPERS.load(Ordering::Acquire) > 0).then_some(&POOL)
        }

        /// `task(i)` for each `i < parts`, the calling thread taking parts too.
        pub(super) fn run(&self, parts: usize, task: &(dyn Fn(usize) + Sync)) {
            // SAFETY: only the lifetime changes; `Job` explains why no call outlives `task`.
            let task: *const (dyn Fn(usize) + Sync + 'static) = unsafe { std::mem::transmute(task) };
            let job = Arc::new(Job {
                task,
                parts,
                next: AtomicUsize::new(0),
                done: AtomicUsize::new(0),
                panic: Mutex::new(None),
            });
            {
                // The generation moves while the lock is held, so a thread between its check and
                // its wait cannot miss the notification.
                let mut current = self.job.lock().unwrap_or_else(|e| e.into_inner());
                *current = Some(job.clone());
                self.generation.fetch_add(1, Ordering::Release);
            }
            self.wake.notify_all();
            job.work();
            let mut spins = 0u32;
            while job.done.load(Ordering::Acquire) < parts {
                spins += 1;
                if spins < 1 << 14 {
                    std::hint::spin_loop();
                } else {
                    // A helper thread that panicked will never finish its part.
                    #[cfg(target_arch = "wasm32")]
                    if HELPER_PANICKED.load(Ordering::Acquire) {
                        let message = HELPER_PANIC.lock().unwrap_or_else(|e| e.into_inner()).clone();
                        panic!("a helper thread panicked during a split: {}", message.unwrap_or_default());
                    }
                    std::thread::yield_now();
                }
            }
            let panic = job.panic.lock().unwrap_or_else(|e| e.into_inner()).take();
            if let Some(panic) = panic {
                resume_unwind(panic);
            }
        }

        /// A pool thread: takes each new job's parts, then waits for the next.
        pub(super) fn serve(&self) -> ! {
            let mut seen = 0;
            loop {
                // Spin, then yield (to burn's own threads, which run the element-wise ops between
                // matmuls on these same cores), then sleep.
                let since = Instant::now();
                while self.generation.load(Ordering::Acquire) == seen && since.elapsed() < SPIN {
                    if since.elapsed() < SPIN / 10 {
                        std::hint::spin_loop();
                    } else {
                        std::thread::yield_now();
                    }
                }
                let job = {
                    let mut job = self.job.lock().unwrap_or_else(|e| e.into_inner());
                    while self.generation.load(Ordering::Acquire) == seen {
                        job = self.wake.wait(job).unwrap_or_else(|e| e.into_inner());
                    }
                    seen = self.generation.load(Ordering::Acquire);
                    job.clone()
                };
                if let Some(job) = job {
                    job.work();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn every_part_runs_once_even_with_callers_on_several_threads() {
        std::thread::scope(|scope| {
            for caller in 0..4 {
                scope.spawn(move || {
                    for round in 0..200 {
                        let parts = 1 + (caller + round) % 7;
                        let counts: Vec<AtomicUsize> = (0..parts).map(|_| AtomicUsize::new(0)).collect();
                        for_each_part(parts, |i| {
                            counts[i].fetch_add(1, Ordering::Relaxed);
                        });
                        assert!(
                            counts.iter().all(|c| c.load(Ordering::Relaxed) == 1),
                            "caller {caller}, round {round}"
                        );
                    }
                });
            }
        });
    }

    #[test]
    fn a_panicking_part_is_raised_in_the_caller_after_the_others_finish() {
        let finished = AtomicUsize::new(0);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            for_each_part(6, |i| {
                if i == 3 {
                    panic!("part 3");
                }
                finished.fetch_add(1, Ordering::Relaxed);
            })
        }));
        assert!(result.is_err());
        assert_eq!(finished.load(Ordering::Relaxed), 5);
        // The pool still works afterwards.
        let sum = AtomicUsize::new(0);
        for_each_part(4, |i| {
            sum.fetch_add(i, Ordering::Relaxed);
        });
        assert_eq!(sum.load(Ordering::Relaxed), 6);
    }
}
