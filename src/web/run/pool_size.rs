//! How many workers score a run on the CPU path.

/// The most workers a run on the CPU path uses: past this, the copies of the model cost more memory
/// than the cores they would use are likely to be free.
pub const MAX_WORKERS: usize = 8;

/// How many workers score a run on the CPU path, each holding its own copy of the model and
/// scoring its share of the items (wasm threads need a std rebuilt with atomics and a
/// cross-origin-isolated page; workers need neither). `asked` (`?workers=N`) decides when given
/// (1 to [`MAX_WORKERS`]). Otherwise one per core (`navigator.hardwareConcurrency`), at most
/// [`MAX_WORKERS`], and no more copies of the model (`model_bytes`, the fit check's total) than
/// half of `navigator.deviceMemory` holds, the other half left to the browser and the system.
/// Unknown figures do not limit; the answer is at least 1.
pub fn pool_size(
    asked: Option<usize>,
    cores: Option<usize>,
    device_memory: Option<u64>,
    model_bytes: Option<u64>,
) -> usize {
    if let Some(n) = asked {
        return n.clamp(1, MAX_WORKERS);
    }
    let by_cores = cores.unwrap_or(1).clamp(1, MAX_WORKERS);
    let by_memory = match (device_memory, model_bytes) {
        (Some(memory), Some(model)) if model > 0 => (memory / 2 / model) as usize,
        _ => MAX_WORKERS,
    };
    by_cores.min(by_memory).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pool_is_one_worker_per_core_within_the_memory_and_asked_for_sizes() {
        const GIB: u64 = 1 << 30;
        assert_eq!(pool_size(None, Some(2), Some(8 * GIB), Some(200 << 20)), 2);
        assert_eq!(pool_size(None, Some(16), None, Some(200 << 20)), MAX_WORKERS, "capped");
        assert_eq!(pool_size(None, Some(8), Some(4 * GIB), Some(600 << 20)), 3, "2 GiB for models of 600 MiB");
        assert_eq!(pool_size(None, Some(8), Some(GIB), Some(2 * GIB)), 1, "never fewer than one");
        assert_eq!(pool_size(None, None, None, None), 1, "no core count: one worker");
        assert_eq!(pool_size(Some(3), Some(2), Some(GIB), Some(GIB)), 3, "?workers= decides");
        assert_eq!(pool_size(Some(0), None, None, None), 1);
        assert_eq!(pool_size(Some(99), None, None, None), MAX_WORKERS);
    }
}
