//! List scheduling of unequal tasks on the current rayon pool.

use rayon::prelude::*;

/// List scheduling in the current rayon pool: `f` applied to every item, the items handed out
/// costliest first by `cost` (ties in input order) as threads come free, the results returned
/// in input order. A long task that started last would finish alone while the other threads
/// idle; an indexed parallel iterator would split the list in halves and start the second
/// thread in its middle. Used for the runs (by [`plan::cost`]), the explanations' chains (by
/// [`sensitivity::explain_cost`]) and the evaluations (by the size of their runs' data).
pub(crate) fn costliest_first<T: Sync, R: Send>(
    items: &[T],
    cost: impl Fn(&T) -> f64,
    f: impl Fn(&T) -> R + Sync + Send,
) -> Vec<R> {
    let mut order: Vec<(f64, usize)> = items.iter().enumerate().map(|(i, t)| (cost(t), i)).collect();
    order.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut out: Vec<(usize, R)> = order.iter().par_bridge().map(|&(_, i)| (i, f(&items[i]))).collect();
    out.sort_by_key(|p| p.0);
    out.into_iter().map(|p| p.1).collect()
}
