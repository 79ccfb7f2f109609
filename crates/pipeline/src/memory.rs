//! The estimated memory of runs held together, in bytes: what the per-manifest and per-process
//! limits ([`crate::limits::MANIFEST_BYTES`], [`crate::limits::PROCESS_BYTES`]) bound. Measured
//! against the peak heap (a counting allocator), it is an upper bound within a factor of 1.5:
//! one run computed or read (`tests/memory_estimate.rs`, 1.47) and the 6-member sweep of
//! `tests/sweep_batches.rs` held at once (`the_held_estimate_bounds_the_peak_held_at_once`),
//! drawn over its last period and over whole runs (the numbers at [`estimate`]).

use crate::entry::ResolvedRun;
use fric_manifest::{Manifest, NamedWindow, Window};
use std::collections::{BTreeMap, HashSet};

/// Copies of a run's data that exist beside the data itself while it is computed or read from
/// the cache: reading one holds the Parquet file's bytes, the reader's copy of them and the
/// decoded columns. Measured (`tests/memory_estimate.rs`): one Dahl run of 10⁶ samples, 32 MB
/// of data, whose two `post` columns make a 48 MB copy, peaked at 97.7 MB of heap computed and
/// 97.6 MB read from the cache; this estimate says 144 MB, counting the data once said 32 MB.
pub const TRANSIENT_COPIES: f64 = 2.0;

/// The data of run `r`: samples × columns × 8 bytes.
pub fn data_bytes(r: &ResolvedRun) -> f64 {
    let columns = fric_experiments::system(&r.request.system).map_or(1, |s| s.columns.len());
    samples(r) * columns as f64 * 8.0
}

/// The copy of run `r`'s data that its `post` steps make, with their derived columns, while its
/// manifest is evaluated (none without `post`).
pub fn derived_bytes(r: &ResolvedRun) -> f64 {
    if r.post.is_empty() {
        return 0.0;
    }
    data_bytes(r) + samples(r) * r.post.len() as f64 * 8.0
}

/// The rows run `r` records ([`fric_experiments::budget::estimate`]).
fn samples(r: &ResolvedRun) -> f64 {
    fric_experiments::budget::estimate(&r.request).0
}

/// The runs held together by a process: their data (each run once, by key), the `post` copies
/// and the figure ([`figure_bytes`]) each manifest makes while it is evaluated, and the sizes
/// of the runs, whose transient copies exist while they are computed or read.
#[derive(Clone, Debug, Default)]
pub struct Held {
    keys: HashSet<String>,
    data: f64,
    /// Per manifest: the copies its `post` steps make and its figure, all held while it is
    /// evaluated.
    derived: Vec<f64>,
    /// The data of each distinct run.
    runs: Vec<f64>,
}

/// The sum of the `k` largest of `v`.
fn largest(v: &[f64], k: usize) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(|a, b| b.total_cmp(a));
    v.iter().take(k).sum()
}

impl Held {
    /// Add the runs one manifest evaluates (its own and its alternative readings'; a run
    /// listed again, or already held, is held once; each listing with `post` is a copy) and
    /// `figure`, the bytes its figure holds while it is built ([`figure_bytes`]).
    pub fn add_manifest<'a>(&mut self, runs: impl IntoIterator<Item = &'a ResolvedRun>, figure: f64) {
        let mut derived = figure;
        for r in runs {
            if self.keys.insert(r.key.clone()) {
                let data = data_bytes(r);
                self.data += data;
                self.runs.push(data);
            }
            derived += derived_bytes(r);
        }
        self.derived.push(derived);
    }
    /// Add the runs `other` holds (runs of other manifests, by other keys).
    pub fn merge(&mut self, other: &Held) {
        self.keys.extend(other.keys.iter().cloned());
        self.data += other.data;
        self.derived.extend(&other.derived);
        self.runs.extend(&other.runs);
    }
    /// The estimated bytes when `threads` manifests are evaluated, and `threads` runs computed
    /// or read, at once: the data of every run, the `post` copies and figures of the `threads`
    /// manifests that make the largest, and the transient copies of the `threads` largest runs.
    pub fn bytes(&self, threads: usize) -> f64 {
        let k = threads.max(1);
        self.data + largest(&self.derived, k) + TRANSIENT_COPIES * largest(&self.runs, k)
    }
}

/// The estimated memory of manifest `m`'s runs (`runs` by id, a run listed more than once held
/// once; `sweeps` its swept runs' members) held together while it is evaluated, one run
/// computed or read at a time: [`Held::bytes`] with its figure ([`figure_bytes`]).
///
/// An upper bound of the peak heap within a factor of 1.5, measured (counting allocator,
/// `tests/sweep_batches.rs` `the_held_estimate_bounds_the_peak_held_at_once`, six Dahl members
/// of 2·10⁵ samples with a `post` column, two panels) drawn over the last period: estimate
/// 125.7 MB, peak 107.7 MB (1.17×); drawn over whole runs: 162.2 MB, 132.9 MB (1.22×). Before, it counted no
/// figure and the solver grew its columns sample by sample (31 % more than the data): 99.2 MB
/// against peaks of 120.4 MB (21 % low) and 144.8 MB (46 % low). What the peak held then, by
/// heaptrack: the runs' columns 50.3 MB, the `post` copies 48.0 MB, the PNG raster 21.2 MB.
pub fn estimate(
    m: &Manifest,
    runs: &BTreeMap<String, ResolvedRun>,
    sweeps: &BTreeMap<String, Vec<(String, fric_manifest::Coords)>>,
) -> f64 {
    let mut h = Held::default();
    h.add_manifest(runs.values(), figure_bytes(m, runs, sweeps));
    h.bytes(1)
}

/// Bytes of the PNG raster per pixel of a figure (at [`fric_plot::PNG_SCALE`]): the RGBA
/// pixmap (4), its RGB copy (3) and the encoder's buffers (bounded by another 3, the raw
/// image). Measured: the sweep's two-panel figure (1280 × 480 SVG pixels, 2.46·10⁶ raster
/// pixels) held 21.2 MB rasterising, 8.6 bytes a pixel.
pub const RASTER_BYTES_PER_PIXEL: f64 = 10.0;

/// The bytes manifest `m`'s figure holds while it is built, beside the runs it reads: the
/// columns every drawn series keeps over its window, [`DRAWN_COPIES`] times, and its PNG
/// raster ([`RASTER_BYTES_PER_PIXEL`] over the figure's panels at [`fric_plot::PNG_SCALE`];
/// legends below the axes, which add a few rows, are within the per-pixel margin). None
/// without panels.
pub fn figure_bytes(
    m: &Manifest,
    runs: &BTreeMap<String, ResolvedRun>,
    sweeps: &BTreeMap<String, Vec<(String, fric_manifest::Coords)>>,
) -> f64 {
    if m.panels.is_empty() {
        return 0.0;
    }
    let raster = fric_plot::grid(m, m.panels.len()).map_or(0.0, |(rows, cols, w, h)| {
        let scale = f64::from(fric_plot::PNG_SCALE);
        let px = (rows * cols) as f64 * f64::from(w) * f64::from(h) * scale * scale;
        px * RASTER_BYTES_PER_PIXEL
    });
    DRAWN_COPIES * drawn_columns(m, runs, sweeps) + raster
}

/// The estimated memory of run `r` read alone: its data, their transient copies and the copy
/// its `post` steps make. No run is held with less.
pub fn read_alone(r: &ResolvedRun) -> f64 {
    (1.0 + TRANSIENT_COPIES) * data_bytes(r) + derived_bytes(r)
}

/// The fraction of run `r`'s samples a series drawn over `w` keeps: the window's periods over
/// those the run records, where both are known (a periodic input without a steady-state
/// search); else all of them (1).
fn drawn_fraction(r: &ResolvedRun, w: Option<&Window>) -> f64 {
    let recorded = match (r.request.input.period(), &r.request.sim.steady_state) {
        (Some(_), None) => fric_experiments::budget::estimate(&r.request).1,
        _ => return 1.0,
    };
    let periods = match w {
        Some(Window::Periods { periods: [a, b] }) => b - a,
        Some(Window::LastPeriods { last_periods }) => *last_periods,
        Some(Window::Named(NamedWindow::LastPeriod)) => 1.0,
        _ => return 1.0,
    };
    if recorded > 0.0 && periods.is_finite() {
        (periods / recorded).clamp(0.0, 1.0)
    } else {
        1.0
    }
}

/// Copies of a drawn series' columns its figure holds while it is built: the series the figure
/// draws and the series file written beside it (`render::build` keeps both, for every series,
/// until the figure is reduced and written). Counting them once, as the estimate did, left it
/// 5.6 MB under the measured peak of a streamed sweep drawn over whole runs (19 MB of drawn
/// columns; `tests/sweep_batches.rs`).
pub const DRAWN_COPIES: f64 = 2.0;

/// The runs `id` names in a manifest: a run, or every member of a swept one.
fn named<'a>(
    id: &'a str,
    runs: &'a BTreeMap<String, ResolvedRun>,
    sweeps: &'a BTreeMap<String, Vec<(String, fric_manifest::Coords)>>,
) -> Vec<&'a ResolvedRun> {
    match sweeps.get(id) {
        Some(ms) => ms.iter().filter_map(|(m, _)| runs.get(m)).collect(),
        None => runs.get(id).into_iter().collect(),
    }
}

/// The estimated memory of manifest `m`'s runs (`runs` by id, `sweeps` its swept runs'
/// members) when each run is released once computed and read back alone when needed, as a
/// batch over the limit is evaluated: the larger of
/// - its metrics, evaluated one at a time: a metric of one run holds it read alone
///   ([`read_alone`]); one comparing two runs (its `other`) holds the first with its `post`
///   copy while the second is read alone;
/// - its figure: the largest run read alone and [`DRAWN_COPIES`] of the columns every drawn
///   series keeps over its window, which the figure holds together.
///
/// Not counted here (they are at run time, [`crate::batches`]): the runs of the alternative
/// readings, read alone like any other, and of companion figures.
pub fn streamed(
    m: &Manifest,
    runs: &BTreeMap<String, ResolvedRun>,
    sweeps: &BTreeMap<String, Vec<(String, fric_manifest::Coords)>>,
) -> f64 {
    let one = runs.values().map(read_alone).fold(0.0, f64::max);
    let held = |r: &ResolvedRun| data_bytes(r) + derived_bytes(r);
    let mut pairs: f64 = 0.0;
    for mt in &m.metrics {
        let (Some(a), Some(b)) = (&mt.run, &mt.other) else {
            continue;
        };
        let (a, b) = (named(a, runs, sweeps), named(&b.run, runs, sweeps));
        let largest = |v: &[&ResolvedRun], f: &dyn Fn(&ResolvedRun) -> f64| v.iter().map(|r| f(r)).fold(0.0, f64::max);
        // Either may be read first.
        pairs = pairs
            .max(largest(&a, &held) + largest(&b, &read_alone))
            .max(largest(&b, &held) + largest(&a, &read_alone));
    }
    pairs.max(one + DRAWN_COPIES * drawn_columns(m, runs, sweeps))
}

/// The bytes of the columns every series manifest `m`'s figure draws keeps over its window.
fn drawn_columns(
    m: &Manifest,
    runs: &BTreeMap<String, ResolvedRun>,
    sweeps: &BTreeMap<String, Vec<(String, fric_manifest::Coords)>>,
) -> f64 {
    let mut drawn = 0.0;
    for s in m.panels.iter().flat_map(|p| &p.series).filter(|s| s.metric.is_none()) {
        let columns = 2.0 + f64::from(u8::from(s.y2.is_some()));
        let members: Vec<&str> = match sweeps.get(&s.run) {
            Some(ms) => ms.iter().map(|(id, _)| id.as_str()).collect(),
            None => vec![s.run.as_str()],
        };
        for r in members.into_iter().filter_map(|id| runs.get(id)) {
            drawn += samples(r) * drawn_fraction(r, s.window.as_ref()) * columns * 8.0;
        }
    }
    drawn
}
