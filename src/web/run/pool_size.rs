//! How many workers score a run on the CPU path.
//!
//! Each worker holds its own copy of the model (wasm threads need a std rebuilt with atomics and
//! a cross-origin-isolated page; workers need neither), so the pool is sized by memory as much as
//! by cores: too many copies and the browser ends the tab, losing nothing (rows are saved as they
//! come) but stopping the run. The page reads the figures from `navigator`, this decides.

const MIB: u64 = 1 << 20;
const GIB: u64 = 1 << 30;

/// The most workers a run on the CPU path uses: past this, the copies of the model cost more memory
/// than the cores they would use are likely to be free.
pub const MAX_WORKERS: usize = 8;

/// The memory taken for a device whose browser does not say (`navigator.deviceMemory` is Chrome's
/// and Edge's; Firefox and Safari have none): a classroom laptop's 4 GiB. Assuming more would load
/// 8 copies of an 800 MB model on an 8-core Mac, 6.5 GB in one tab.
pub const ASSUMED_DEVICE_MEMORY: u64 = 4 * GIB;

/// Safari on iPhone and iPad ends a tab's web content process near 1.5 GB, whatever the device
/// has (the reports in wllama's and llama.cpp's trackers), and every worker of the page lives in
/// that process.
pub const IOS_TAB_LIMIT: u64 = 3 * GIB / 2;

/// What the page knows of the device when it sizes the pool.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Device {
    /// `navigator.hardwareConcurrency`.
    pub cores: Option<usize>,
    /// `navigator.deviceMemory` in bytes, where the browser gives it (rounded, at most 8 GiB).
    pub memory: Option<u64>,
    /// An iPhone or an iPad (also an iPad that says it is a Mac): [`IOS_TAB_LIMIT`] applies.
    pub ios: bool,
    /// The page runs the threaded worker (it is cross-origin isolated): one copy of the model,
    /// its passes on every core.
    pub threads: bool,
}

/// How many workers, and why, in words for the device panel.
#[derive(Debug, Clone, PartialEq)]
pub struct PoolSize {
    pub workers: usize,
    /// The memory the copies may take together, where memory decided (`None` with `?workers=`).
    pub budget: Option<u64>,
    pub why: String,
}

/// How many workers score a run on the CPU path. The threaded worker is one worker whatever the
/// device: its threads share one copy (`?threads=off` on the page asks for the pool). Otherwise
/// `asked` (`?workers=N`) decides when given
/// (1 to [`MAX_WORKERS`]). Otherwise one per core, at most [`MAX_WORKERS`], and no more copies of
/// the model (`model_bytes`, the fit check's total for one worker: weights, cache, working memory)
/// than the budget holds: half of the device's memory, the other half left to the browser and the
/// system, with [`ASSUMED_DEVICE_MEMORY`] where the browser does not say, and at most
/// [`IOS_TAB_LIMIT`] on iPhone and iPad. A model whose needs are unknown (its header could not be
/// read) gets one worker. The answer is at least 1: one copy is what the fit check allowed.
pub fn pool_size(asked: Option<usize>, device: Device, model_bytes: Option<u64>) -> PoolSize {
    let cores = device.cores.filter(|&n| n > 0);
    let by_cores = cores.unwrap_or(1).clamp(1, MAX_WORKERS);
    let cores_said = match cores {
        Some(n) if n > MAX_WORKERS => format!("{n} cores, at most {MAX_WORKERS} used"),
        Some(n) => format!("{n} cores"),
        None => "the browser does not say how many cores".to_string(),
    };
    if device.threads {
        let threads = by_cores;
        return PoolSize {
            workers: 1,
            budget: None,
            why: format!(
                "1 on {threads} thread{} ({cores_said}): one copy of the model in memory the threads share \
                 (this page is cross-origin isolated)",
                if threads == 1 { "" } else { "s" }
            ),
        };
    }
    if let Some(n) = asked {
        let workers = n.clamp(1, MAX_WORKERS);
        return PoolSize { workers, budget: None, why: format!("{workers}, as the address asks (workers={n})") };
    }
    let (memory, memory_said) = match device.memory.filter(|&m| m > 0) {
        Some(m) => (m, format!("half of navigator.deviceMemory = {}", gib(m))),
        None => (
            ASSUMED_DEVICE_MEMORY,
            format!("half of {}, assumed: this browser does not say its memory", gib(ASSUMED_DEVICE_MEMORY)),
        ),
    };
    let (budget, budget_said) = if device.ios && IOS_TAB_LIMIT < memory / 2 {
        (
            IOS_TAB_LIMIT,
            format!("{}, Safari's limit for one tab on iPhone and iPad (less than {memory_said})", gib(IOS_TAB_LIMIT)),
        )
    } else {
        (memory / 2, memory_said)
    };
    let Some(model) = model_bytes.filter(|&m| m > 0) else {
        return PoolSize {
            workers: 1,
            budget: Some(budget),
            why: "1: the model's memory needs are unknown (its header could not be read), so one copy".into(),
        };
    };
    let by_memory = (budget / model) as usize;
    let workers = by_cores.min(by_memory).max(1);
    let why = if by_memory >= by_cores {
        format!(
            "{workers}: one per core ({cores_said}); {workers} copies of the model ({} each) fit in {budget_said}",
            mib(model)
        )
    } else {
        format!(
            "{workers} ({cores_said}): {} copies of the model ({} each) fit in {budget_said}",
            by_memory.max(1),
            mib(model)
        )
    };
    PoolSize { workers, budget: Some(budget), why }
}

fn gib(bytes: u64) -> String {
    let g = bytes as f64 / GIB as f64;
    if g.fract() == 0.0 {
        format!("{g:.0} GiB")
    } else {
        format!("{g:.1} GiB")
    }
}

fn mib(bytes: u64) -> String {
    format!("{:.0} MiB", (bytes as f64 / MIB as f64).ceil())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on(cores: usize, memory_gib: Option<u64>, ios: bool) -> Device {
        Device { cores: Some(cores), memory: memory_gib.map(|g| g * GIB), ios, threads: false }
    }

    #[test]
    fn the_pool_is_one_worker_per_core_within_the_memory_and_asked_for_sizes() {
        assert_eq!(pool_size(None, on(2, Some(8), false), Some(200 * MIB)).workers, 2);
        assert_eq!(pool_size(None, on(16, Some(8), false), Some(200 * MIB)).workers, MAX_WORKERS, "capped");
        let three = pool_size(None, on(8, Some(4), false), Some(600 * MIB));
        assert_eq!(three.workers, 3, "2 GiB for models of 600 MiB");
        assert!(three.why.contains("navigator.deviceMemory = 4 GiB") && three.why.contains("600 MiB"), "{}", three.why);
        assert_eq!(pool_size(None, on(8, Some(1), false), Some(2 * GIB)).workers, 1, "never fewer than one");
        assert_eq!(pool_size(None, Device::default(), Some(MIB)).workers, 1, "no core count: one worker");
        assert_eq!(pool_size(Some(3), on(2, Some(1), false), Some(GIB)).workers, 3, "?workers= decides");
        assert_eq!(pool_size(Some(0), Device::default(), None).workers, 1);
        assert_eq!(pool_size(Some(99), Device::default(), None).workers, MAX_WORKERS);
    }

    #[test]
    fn a_browser_that_does_not_say_its_memory_is_taken_to_have_4_gib() {
        // The case: an 8-core Mac in Safari or Firefox and an 808 MB model. Before, nothing
        // limited the copies: 8, about 6.5 GB in one tab. Half of 4 GiB holds two.
        let mac = pool_size(None, on(8, None, false), Some(808_000_000));
        assert_eq!(mac.workers, 2, "{}", mac.why);
        assert_eq!(mac.budget, Some(2 * GIB));
        assert!(mac.why.contains("assumed") && mac.why.contains("4 GiB"), "{}", mac.why);
        // A small model still gets one worker per core.
        assert_eq!(pool_size(None, on(4, None, false), Some(100 * MIB)).workers, 4);
        // What the browser says wins over the assumption, either way.
        assert_eq!(pool_size(None, on(8, Some(8), false), Some(808_000_000)).workers, 5);
        assert_eq!(pool_size(None, on(8, Some(2), false), Some(808_000_000)).workers, 1);
    }

    #[test]
    fn on_iphone_and_ipad_every_copy_counts_against_safaris_tab_limit() {
        // An iPad with 8 GiB: half is 4 GiB, but the tab ends near 1.5 GB.
        let ipad = pool_size(None, on(6, Some(8), true), Some(500 * MIB));
        assert_eq!(ipad.workers, 3, "{}", ipad.why);
        assert_eq!(ipad.budget, Some(IOS_TAB_LIMIT));
        assert!(ipad.why.contains("Safari"), "{}", ipad.why);
        // An iPhone, whose Safari says nothing of its memory: the assumed 4 GiB's half is 2 GiB, the tab limit less.
        assert_eq!(pool_size(None, on(6, None, true), Some(808_000_000)).workers, 1);
        // Where half the device's memory is already below the tab limit, that is the budget.
        assert_eq!(pool_size(None, on(4, Some(2), true), Some(300 * MIB)).budget, Some(GIB));
    }

    #[test]
    fn a_model_of_unknown_needs_gets_one_worker() {
        let unknown = pool_size(None, on(8, Some(8), false), None);
        assert_eq!(unknown.workers, 1);
        assert!(unknown.why.contains("unknown"), "{}", unknown.why);
    }

    #[test]
    fn the_threaded_worker_is_one_copy_on_every_core_whatever_the_memory() {
        // An 8-core Mac whose browser does not say its memory, an 808 MB model: the pool would
        // hold two copies on two cores; the threads run one copy on eight.
        let threads = |cores| Device { threads: true, ..on(cores, None, false) };
        let mac = pool_size(None, threads(8), Some(808_000_000));
        assert_eq!(mac.workers, 1, "{}", mac.why);
        assert!(mac.why.contains("8 threads") && mac.why.contains("cross-origin isolated"), "{}", mac.why);
        let big = pool_size(None, threads(16), Some(100 * MIB));
        assert!(big.why.contains(&format!("{MAX_WORKERS} threads")), "{}", big.why);
        // ?workers= does not start copies of the threaded worker.
        assert_eq!(pool_size(Some(4), threads(4), Some(MIB)).workers, 1);
    }
}
