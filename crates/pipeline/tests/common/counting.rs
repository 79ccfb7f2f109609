//! The heap a test's pipeline run holds at its peak, counted by a global allocator: a test
//! binary that measures it declares `#[global_allocator] static A: Counting = Counting;`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The system allocator, counting the bytes allocated and not yet freed, and their peak.
pub struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = System.alloc(l);
        if !p.is_null() {
            let now = LIVE.fetch_add(l.size(), Relaxed) + l.size();
            PEAK.fetch_max(now, Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l);
        LIVE.fetch_sub(l.size(), Relaxed);
    }
}

/// `f()` and the peak heap while it ran above what was live before it (the binary's allocator
/// must be [`Counting`]; one measurement at a time).
pub fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let out = f();
    (out, PEAK.load(Relaxed).saturating_sub(base))
}

/// The pipeline run on workspace `root` with one thread (`force` recomputes every run), with its
/// peak heap.
pub fn run_one_thread(root: &std::path::Path, force: bool) -> (Result<fric_pipeline::Summary, String>, usize) {
    let mut o = fric_pipeline::Options::new(root);
    o.jobs = Some(1);
    o.force = force;
    peak_of(|| fric_pipeline::run(&o))
}
